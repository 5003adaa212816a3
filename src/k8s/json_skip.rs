//! Finding where a JSON object or array ends, sixty-four bytes per step.
//!
//! Most of a list page is skipped: managed fields, statuses, environment variables,
//! volumes. Skipping string by string costs a call per string, and strings in Kubernetes
//! JSON are short. Here each 64-byte block is classified at once into bit masks (quotes,
//! backslashes, control characters, brackets); the bytes inside strings follow from the
//! quotes that are not escaped (a running XOR of the quote bits), and only the brackets
//! outside strings are looked at one by one, to check that they match and to find the
//! one that closes the container. This is the first stage of simdjson, cut down to what
//! a skip needs.
//!
//! What is checked is what [`super::json_reader::Reader::skip`] promises for skipped
//! values: strings are terminated and hold no raw control character, brackets match and
//! nest at most [`MAX_DEPTH`] deep.

/// Nesting deeper than this is refused (the same limit serde_json applies).
pub const MAX_DEPTH: u32 = 128;

/// Why a container could not be skipped: the byte offset and what was wrong there.
pub type SkipError = (usize, &'static str);

/// The bit masks of one 64-byte block; bit `i` is byte `i` of the block.
#[derive(Default)]
struct Block {
    quote: u64,
    backslash: u64,
    control: u64,
    open: u64,
    close: u64,
    /// `{` or `}` (the other brackets are `[` and `]`).
    curly: u64,
}

impl Block {
    fn classify(chunk: &[u8; 64]) -> Block {
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        {
            classify_sse2(chunk)
        }
        #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
        {
            classify_bytes(chunk)
        }
    }
}

/// [`Block::classify`] one byte at a time (other targets, and the reference in tests).
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
fn classify_bytes(chunk: &[u8; 64]) -> Block {
    let mut block = Block::default();
    for (i, &b) in chunk.iter().enumerate() {
        let bit = 1u64 << i;
        match b {
            b'"' => block.quote |= bit,
            b'\\' => block.backslash |= bit,
            0..=0x1f => block.control |= bit,
            b'{' => block.open |= bit,
            b'[' => block.open |= bit,
            b'}' => block.close |= bit,
            b']' => block.close |= bit,
            _ => {}
        }
        if matches!(b, b'{' | b'}') {
            block.curly |= bit;
        }
    }
    block
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
fn classify_sse2(chunk: &[u8; 64]) -> Block {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_min_epu8, _mm_movemask_epi8, _mm_or_si128,
        _mm_set1_epi8,
    };
    let mut block = Block::default();
    for part in 0..4 {
        // SAFETY: `part * 16 + 16 <= 64`, so the sixteen bytes loaded lie inside `chunk`
        // (an unaligned load has no alignment requirement), and SSE2, which every call
        // here needs, is enabled for this target (checked by the `cfg`).
        let masks = unsafe {
            let bytes = _mm_loadu_si128(chunk.as_ptr().add(part * 16).cast::<__m128i>());
            let mask = |v: __m128i| _mm_movemask_epi8(v) as u32 as u64;
            let eq = |b: u8| _mm_cmpeq_epi8(bytes, _mm_set1_epi8(b as i8));
            // `[` and `]` are `{` and `}` with bit 5 clear: setting it folds them together.
            let folded = _mm_or_si128(bytes, _mm_set1_epi8(0x20));
            let fold_eq = |b: u8| _mm_cmpeq_epi8(folded, _mm_set1_epi8(b as i8));
            [
                mask(eq(b'"')),
                mask(eq(b'\\')),
                // Unsigned `byte < 0x20` is `min(byte, 0x1f) == byte`.
                mask(_mm_cmpeq_epi8(
                    _mm_min_epu8(bytes, _mm_set1_epi8(0x1f)),
                    bytes,
                )),
                mask(fold_eq(b'{')),
                mask(fold_eq(b'}')),
                mask(_mm_or_si128(eq(b'{'), eq(b'}'))),
            ]
        };
        let shift = part * 16;
        block.quote |= masks[0] << shift;
        block.backslash |= masks[1] << shift;
        block.control |= masks[2] << shift;
        block.open |= masks[3] << shift;
        block.close |= masks[4] << shift;
        block.curly |= masks[5] << shift;
    }
    block
}

/// The bytes escaped by a backslash (the byte after an odd run of backslashes), carrying a
/// run that ends a block into the next through `carry` (simdjson's branchless method:
/// runs starting on odd bits are told from those on even bits by an addition's carries).
fn escaped(backslash: u64, carry: &mut u64) -> u64 {
    const EVEN_BITS: u64 = 0x5555_5555_5555_5555;
    let backslash = backslash & !*carry;
    let follows_escape = (backslash << 1) | *carry;
    let odd_starts = backslash & !EVEN_BITS & !follows_escape;
    let (even_sequences, overflow) = odd_starts.overflowing_add(backslash);
    *carry = u64::from(overflow);
    let invert = even_sequences << 1;
    (EVEN_BITS ^ invert) & follows_escape
}

/// Bit `i` set when an odd number of bits at or below `i` are set: with the unescaped
/// quotes as input, the bytes from an opening quote up to (not including) its closing one.
fn prefix_xor(mut bits: u64) -> u64 {
    bits ^= bits << 1;
    bits ^= bits << 2;
    bits ^= bits << 4;
    bits ^= bits << 8;
    bits ^= bits << 16;
    bits ^= bits << 32;
    bits
}

/// With `bytes[start]` an opening `{` or `[`: the offset just past its matching bracket.
pub fn container_end(bytes: &[u8], start: usize) -> Result<usize, SkipError> {
    // One bit per open bracket, innermost lowest: 1 for an object, 0 for an array.
    let mut kinds: u128 = 0;
    let mut depth: u32 = 0;
    let mut escape_carry: u64 = 0;
    // All ones while the previous block ended inside a string.
    let mut in_string_carry: u64 = 0;
    let mut base = start;
    while base < bytes.len() {
        // A whole block is classified where it lies; the last, short one from a copy
        // padded with spaces (which are nothing in particular), its bits masked off.
        let (block, mask) = match bytes[base..].first_chunk::<64>() {
            Some(whole) => (Block::classify(whole), u64::MAX),
            None => {
                let valid = bytes.len() - base;
                let mut chunk = [b' '; 64];
                chunk[..valid].copy_from_slice(&bytes[base..]);
                (Block::classify(&chunk), (1u64 << valid) - 1)
            }
        };
        let escaped = escaped(block.backslash, &mut escape_carry);
        let quotes = block.quote & !escaped;
        let in_string = prefix_xor(quotes) ^ in_string_carry;
        in_string_carry = 0u64.wrapping_sub(in_string >> 63);
        let bad_control = block.control & in_string & !escaped & mask;
        let first_bad = bad_control.trailing_zeros();
        let mut brackets = (block.open | block.close) & !in_string & mask;
        while brackets != 0 {
            let i = brackets.trailing_zeros();
            if i > first_bad {
                break;
            }
            let at = base + i as usize;
            let bit = 1u64 << i;
            let curly = block.curly & bit != 0;
            if block.open & bit != 0 {
                if depth == MAX_DEPTH {
                    return Err((at, "nested too deeply"));
                }
                kinds = (kinds << 1) | u128::from(curly);
                depth += 1;
            } else {
                if depth == 0 || (kinds & 1 == 1) != curly {
                    return Err((at, "mismatched bracket"));
                }
                kinds >>= 1;
                depth -= 1;
                if depth == 0 {
                    return Ok(at + 1);
                }
            }
            brackets &= brackets - 1;
        }
        if bad_control != 0 {
            return Err((base + first_bad as usize, "control character in string"));
        }
        base += 64;
    }
    if in_string_carry != 0 {
        Err((bytes.len(), "unterminated string"))
    } else {
        Err((bytes.len(), "unterminated object or array"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The byte-at-a-time skip this replaces, kept as the reference.
    fn container_end_bytes(bytes: &[u8], start: usize) -> Result<usize, SkipError> {
        let mut kinds: u128 = 0;
        let mut depth: u32 = 0;
        let mut pos = start;
        loop {
            let Some(&b) = bytes.get(pos) else {
                return Err((pos, "unterminated object or array"));
            };
            pos += 1;
            match b {
                b'"' => loop {
                    match bytes.get(pos) {
                        None => return Err((bytes.len(), "unterminated string")),
                        Some(b'"') => {
                            pos += 1;
                            break;
                        }
                        Some(b'\\') => pos += 2,
                        Some(0..=0x1f) => return Err((pos, "control character in string")),
                        Some(_) => pos += 1,
                    }
                },
                b'{' | b'[' => {
                    if depth == MAX_DEPTH {
                        return Err((pos - 1, "nested too deeply"));
                    }
                    kinds = (kinds << 1) | u128::from(b == b'{');
                    depth += 1;
                }
                b'}' | b']' => {
                    if depth == 0 || (kinds & 1 == 1) != (b == b'}') {
                        return Err((pos - 1, "mismatched bracket"));
                    }
                    kinds >>= 1;
                    depth -= 1;
                    if depth == 0 {
                        return Ok(pos);
                    }
                }
                _ => {}
            }
        }
    }

    #[test]
    fn escapes_are_found_across_blocks() {
        let mut carry = 0;
        // Bytes 0..3 are `\\\"`: byte 1 and byte 3 are escaped.
        assert_eq!(escaped(0b0111, &mut carry), 0b1010);
        assert_eq!(carry, 0);
        // A backslash as the last byte of a block escapes the next block's first byte.
        assert_eq!(escaped(1 << 63, &mut carry), 0);
        assert_eq!(carry, 1);
        assert_eq!(escaped(0, &mut carry), 1);
    }

    #[test]
    fn long_strings_and_deep_nesting_span_blocks() {
        let text = format!(
            r#"{{"a": "{}\\\"{}", "b": [{}]}} tail"#,
            "x".repeat(70),
            "}".repeat(90),
            "[1],".repeat(40) + "[]"
        );
        let end = text.find(" tail").unwrap();
        assert_eq!(container_end(text.as_bytes(), 0), Ok(end));
        assert_eq!(container_end_bytes(text.as_bytes(), 0), Ok(end));
        let deep = format!("{}{}", "[".repeat(128), "]".repeat(128));
        assert_eq!(container_end(deep.as_bytes(), 0), Ok(256));
        let too_deep = "[".repeat(129);
        assert_eq!(
            container_end(too_deep.as_bytes(), 0),
            Err((128, "nested too deeply"))
        );
    }

    #[test]
    fn errors_name_the_first_bad_byte() {
        let cases: [(&str, SkipError); 5] = [
            (r#"{"a": [}"#, (7, "mismatched bracket")),
            (r#"{"a": "x}"#, (9, "unterminated string")),
            (r#"[[1]"#, (4, "unterminated object or array")),
            ("[\"a\u{1}\"]", (3, "control character in string")),
            // A raw control character after the container ends is not its business.
            ("[\"a\"] \"\u{1}", (5, "")),
        ];
        for (text, expected) in cases {
            let got = container_end(text.as_bytes(), 0);
            if expected.1.is_empty() {
                assert_eq!(got, Ok(expected.0), "{text:?}");
            } else {
                assert_eq!(got, Err(expected), "{text:?}");
            }
        }
    }

    proptest! {
        #[test]
        fn blocks_agree_with_bytes_on_any_text(
            text in prop::collection::vec(
                prop_oneof![
                    Just(b'"'), Just(b'\\'), Just(b'{'), Just(b'}'), Just(b'['), Just(b']'),
                    Just(b'a'), Just(b' '), Just(b','), Just(1u8), Just(0xc3), Just(0xa9),
                ],
                0..300,
            ),
        ) {
            // A backslash outside a string is not JSON, and there the two may differ (the
            // blocks take it as an escape): such backslashes become letters.
            let mut text = text;
            text.insert(0, b'[');
            let (mut inside, mut escaped) = (false, false);
            for b in text.iter_mut() {
                if inside {
                    if escaped {
                        escaped = false;
                    } else if *b == b'\\' {
                        escaped = true;
                    } else if *b == b'"' {
                        inside = false;
                    }
                } else if *b == b'"' {
                    inside = true;
                } else if *b == b'\\' {
                    *b = b'a';
                }
            }
            let reference = container_end_bytes(&text, 0);
            prop_assert_eq!(container_end(&text, 0), reference);
        }

        #[test]
        fn classification_is_the_same_with_and_without_sse2(chunk in prop::array::uniform32(any::<u8>()), more in prop::array::uniform32(any::<u8>())) {
            let mut bytes = [0u8; 64];
            bytes[..32].copy_from_slice(&chunk);
            bytes[32..].copy_from_slice(&more);
            let a = Block::classify(&bytes);
            let b = classify_bytes(&bytes);
            prop_assert_eq!(
                (a.quote, a.backslash, a.control, a.open, a.close, a.curly),
                (b.quote, b.backslash, b.control, b.open, b.close, b.curly)
            );
        }
    }
}
