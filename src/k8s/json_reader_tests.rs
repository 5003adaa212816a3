use super::*;
use proptest::prelude::*;

fn read_string(json: &str) -> Result<String> {
    let mut r = Reader::new(json);
    let s = r.string()?.into_owned();
    r.end()?;
    Ok(s)
}

#[test]
fn strings_are_borrowed_unless_escaped() {
    let mut r = Reader::new(r#""plain" "a\"b""#);
    assert!(matches!(r.string().unwrap(), Cow::Borrowed("plain")));
    assert_eq!(r.string().unwrap(), Cow::<str>::Owned("a\"b".into()));
    assert_eq!(
        read_string(r#""\u00e9\ud83d\ude00\n/\/""#).unwrap(),
        "é😀\n//"
    );
}

#[test]
fn bad_strings_name_the_byte() {
    assert_eq!(
        read_string(r#""abc"#).unwrap_err().message,
        "unterminated string"
    );
    assert_eq!(read_string("\"a\u{1}b\"").unwrap_err().offset, 2);
    assert_eq!(
        read_string(r#""\x""#).unwrap_err().message,
        "invalid escape"
    );
    assert_eq!(
        read_string(r#""\ud800x""#).unwrap_err().message,
        "expected `\\u`"
    );
    assert_eq!(
        read_string(r#""\udc00""#).unwrap_err().message,
        "unpaired surrogate"
    );
}

#[test]
fn objects_arrays_and_scalars() {
    let mut r = Reader::new(r#" {"a": [1, true, null, "x"], "b": {"c": -12}, "d": null} "#);
    let mut seen = Vec::new();
    r.object(|r, key| {
        match &*key {
            "a" => r.array(|r| r.skip())?,
            "b" => r.object(|r, _| {
                seen.push(r.optional_integer()?.unwrap_or_default().to_string());
                Ok(())
            })?,
            _ => assert!(r.optional_string()?.is_none()),
        }
        seen.push(key.into_owned());
        Ok(())
    })
    .unwrap();
    r.end().unwrap();
    assert_eq!(seen, ["a", "-12", "b", "d"]);
}

#[test]
fn skipping_checks_brackets_and_strings() {
    let skip = |json: &str| {
        let mut r = Reader::new(json);
        r.skip()?;
        r.end()
    };
    skip(r#"{"a": [{"b": "}]\"{"}, [], {}], "c": 1.5e3}"#).unwrap();
    assert_eq!(
        skip(r#"{"a": [}"#).unwrap_err().message,
        "mismatched bracket"
    );
    assert_eq!(
        skip(r#"{"a": "x}"#).unwrap_err().message,
        "unterminated string"
    );
    assert_eq!(
        skip(r#"[[1]"#).unwrap_err().message,
        "unterminated object or array"
    );
    assert_eq!(
        skip(&"[".repeat(200)).unwrap_err().message,
        "nested too deeply"
    );
    assert_eq!(skip("1 2").unwrap_err().message, "trailing characters");
    assert_eq!(skip("nul").unwrap_err().message, "expected a value");
}

#[test]
fn raw_values_are_the_exact_text() {
    let mut r = Reader::new(r#"{"s": {"matchLabels": {"a": "b"}} }"#);
    let mut raw = "";
    r.object(|r, _| {
        raw = r.raw_value()?;
        Ok(())
    })
    .unwrap();
    assert_eq!(raw, r#"{"matchLabels": {"a": "b"}}"#);
}

#[test]
fn integers_must_be_integers() {
    assert_eq!(Reader::new("42").optional_integer().unwrap(), Some(42));
    assert_eq!(Reader::new("null").optional_integer().unwrap(), None);
    assert_eq!(
        Reader::new("1.5").optional_integer().unwrap_err().message,
        "expected an integer"
    );
}

fn json_value() -> impl Strategy<Value = serde_json::Value> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::from),
        any::<i64>().prop_map(serde_json::Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(serde_json::Value::from),
        any::<String>().prop_map(serde_json::Value::from),
    ];
    leaf.prop_recursive(4, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(serde_json::Value::from),
            prop::collection::btree_map(any::<String>(), inner, 0..8)
                .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #[test]
    fn both_scanners_find_the_same_byte(text in prop::collection::vec(any::<u8>(), 0..80), from in 0usize..80) {
        let naive = text.iter().skip(from).position(|&b| b == b'"' || b == b'\\' || b < 0x20).map(|i| from + i);
        prop_assert_eq!(string_special(&text, from), naive);
        prop_assert_eq!(string_special_words(&text, from), naive);
    }

    #[test]
    fn any_text_is_read_or_refused_without_panicking(text in "[\\[\\]{}\":,\\\\ a-z0-9.eu-]{0,40}") {
        let mut r = Reader::new(&text);
        if r.skip().is_ok() {
            let _ = r.end();
        }
        let page = crate::k8s::slim::decode_list::<crate::k8s::slim::Pods>(
            &text,
            &mut crate::model::fleet::Interner::new(),
        );
        if let Err(error) = page {
            prop_assert!(error.offset <= text.len());
        }
    }

    #[test]
    fn any_shape_of_object_is_read_or_refused_without_panicking(value in json_value()) {
        use crate::k8s::slim::{Claims, Nodes, Pdbs, Pods, Volumes, decode_list};
        use crate::model::fleet::Interner;
        let v = serde_json::to_string(&value).unwrap();
        let page = format!(r#"{{"items": [{{"metadata": {v}, "spec": {v}, "status": {v}}}]}}"#);
        let _ = decode_list::<Nodes>(&page, &mut Interner::new());
        let _ = decode_list::<Pods>(&page, &mut Interner::new());
        let _ = decode_list::<Pdbs>(&page, &mut Interner::new());
        let _ = decode_list::<Claims>(&page, &mut Interner::new());
        let _ = decode_list::<Volumes>(&page, &mut Interner::new());
    }

    #[test]
    fn strings_read_as_serde_json_reads_them(s in any::<String>()) {
        let json = serde_json::to_string(&s).unwrap();
        prop_assert_eq!(read_string(&json).unwrap(), s.clone());
        // Escaping every non-ASCII character (surrogate pairs included) reads the same.
        let mut escaped = String::from("\"");
        for c in s.chars() {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                escaped.push_str(&format!("\\u{unit:04x}"));
            }
        }
        escaped.push('"');
        prop_assert_eq!(read_string(&escaped).unwrap(), s);
    }

    #[test]
    fn any_value_is_skipped_whole(value in json_value(), pretty in any::<bool>()) {
        let json = if pretty {
            serde_json::to_string_pretty(&value).unwrap()
        } else {
            serde_json::to_string(&value).unwrap()
        };
        let text = format!("[{json}, 7]");
        let mut r = Reader::new(&text);
        let mut last = None;
        let mut first = None;
        r.array(|r| {
            if first.is_none() {
                first = Some(r.raw_value()?.to_owned());
            } else {
                last = r.optional_integer()?;
            }
            Ok(())
        }).unwrap();
        r.end().unwrap();
        prop_assert_eq!(first.unwrap(), json);
        prop_assert_eq!(last, Some(7));
    }
}
