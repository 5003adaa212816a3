//! Resource quantities (`k8s.io/apimachinery/pkg/api/resource`): parsed exactly to
//! nano-units, compared, and printed in their canonical form (`1000m` is `1`,
//! `1024Mi` is `1Gi`), which is how validation messages show them.

use std::cmp::Ordering;

use serde_json::Value;

/// The message a quantity that does not parse is refused with.
pub const PARSE_ERROR: &str =
    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

/// How a quantity is written, which decides how it is printed back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    /// `Ki`, `Mi`, … (powers of 1024).
    BinarySi,
    /// `m`, `k`, `M`, … or no suffix.
    DecimalSi,
    /// `1e3`.
    DecimalExponent,
}

/// A parsed quantity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Quantity {
    /// The value in units of 10⁻⁹ (exact for anything a manifest writes).
    nanos: i128,
    format: Format,
}

const NANO: i128 = 1_000_000_000;

impl Quantity {
    /// Parses a quantity from its string form.
    pub fn parse(s: &str) -> Option<Quantity> {
        let s = s.trim();
        let (negative, rest) = match s.as_bytes().first() {
            Some(b'-') => (true, &s[1..]),
            Some(b'+') => (false, &s[1..]),
            _ => (false, s),
        };
        let num_end = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        let (number, suffix) = rest.split_at(num_end);
        if number.is_empty() || number == "." || number.matches('.').count() > 1 {
            return None;
        }
        let (whole, frac) = number.split_once('.').unwrap_or((number, ""));
        let digits = format!("{whole}{frac}");
        let mantissa: i128 = digits.parse().ok()?;
        let frac_len = frac.len() as i32;
        let (format, pow10, pow2) = match suffix {
            "" => (Format::DecimalSi, 0, 0),
            "n" => (Format::DecimalSi, -9, 0),
            "u" => (Format::DecimalSi, -6, 0),
            "m" => (Format::DecimalSi, -3, 0),
            "k" => (Format::DecimalSi, 3, 0),
            "M" => (Format::DecimalSi, 6, 0),
            "G" => (Format::DecimalSi, 9, 0),
            "T" => (Format::DecimalSi, 12, 0),
            "P" => (Format::DecimalSi, 15, 0),
            "E" => (Format::DecimalSi, 18, 0),
            "Ki" => (Format::BinarySi, 0, 10),
            "Mi" => (Format::BinarySi, 0, 20),
            "Gi" => (Format::BinarySi, 0, 30),
            "Ti" => (Format::BinarySi, 0, 40),
            "Pi" => (Format::BinarySi, 0, 50),
            "Ei" => (Format::BinarySi, 0, 60),
            exp => {
                let digits = exp.strip_prefix(['e', 'E'])?;
                let e: i32 = digits.parse().ok()?;
                (Format::DecimalExponent, e, 0)
            }
        };
        // value = mantissa × 10^(pow10 − frac_len) × 2^pow2, kept in nano-units.
        let scale = pow10 - frac_len + 9;
        let mut nanos = mantissa.checked_mul(1i128.checked_shl(pow2)?)?;
        if scale >= 0 {
            nanos = nanos.checked_mul(10i128.checked_pow(scale as u32)?)?;
        } else {
            // Below a nano-unit the API server rounds up.
            let div = 10i128.checked_pow((-scale) as u32)?;
            nanos = (nanos + div - 1) / div;
        }
        Some(Quantity {
            nanos: if negative { -nanos } else { nanos },
            format,
        })
    }

    /// Parses a quantity from JSON (a string or a number, as the API server accepts).
    pub fn from_json(v: &Value) -> Option<Quantity> {
        match v {
            Value::String(s) => Quantity::parse(s),
            Value::Number(n) => Quantity::parse(&n.to_string()),
            _ => None,
        }
    }

    /// Compares the values (whatever their formats).
    pub fn cmp_value(&self, other: &Quantity) -> Ordering {
        self.nanos.cmp(&other.nanos)
    }

    /// Whether the value is below zero.
    pub fn is_negative(&self) -> bool {
        self.nanos < 0
    }

    /// Whether the value is a whole number.
    pub fn is_integer(&self) -> bool {
        self.nanos % NANO == 0
    }

    /// The canonical string form.
    pub fn canonical(&self) -> String {
        if self.nanos == 0 {
            return "0".into();
        }
        let sign = if self.nanos < 0 { "-" } else { "" };
        let abs = self.nanos.abs();
        if self.format == Format::BinarySi && abs >= 1024 * NANO && abs % NANO == 0 {
            let mut m = abs / NANO;
            let mut e = 0;
            while m % 1024 == 0 && e < 60 {
                m /= 1024;
                e += 10;
            }
            let suffix = match e {
                0 => "",
                10 => "Ki",
                20 => "Mi",
                30 => "Gi",
                40 => "Ti",
                50 => "Pi",
                _ => "Ei",
            };
            return format!("{sign}{m}{suffix}");
        }
        let mut m = abs;
        let mut e = -9;
        while m % 1000 == 0 && e < 18 {
            m /= 1000;
            e += 3;
        }
        if self.format == Format::DecimalExponent {
            return if e == 0 {
                format!("{sign}{m}")
            } else {
                format!("{sign}{m}e{e}")
            };
        }
        let suffix = match e {
            -9 => "n",
            -6 => "u",
            -3 => "m",
            0 => "",
            3 => "k",
            6 => "M",
            9 => "G",
            12 => "T",
            15 => "P",
            _ => "E",
        };
        format!("{sign}{m}{suffix}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(s: &str) -> Quantity {
        Quantity::parse(s).unwrap_or(Quantity {
            nanos: i128::MIN,
            format: Format::DecimalSi,
        })
    }

    #[test]
    fn parses_and_prints_canonically() {
        for (input, canonical) in [
            ("1000m", "1"),
            ("1500m", "1500m"),
            ("0.5", "500m"),
            ("2000", "2k"),
            ("1024Mi", "1Gi"),
            ("1.5Gi", "1536Mi"),
            ("512Mi", "512Mi"),
            ("100", "100"),
            ("-1", "-1"),
            ("-100m", "-100m"),
            ("1e3", "1e3"),
            ("0", "0"),
            ("1Ki", "1Ki"),
            ("1023", "1023"),
        ] {
            assert_eq!(q(input).canonical(), canonical, "{input}");
        }
        for bad in ["", "abc", "1.2.3", "1Zi", "1ee3", "--1"] {
            assert_eq!(Quantity::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn compares_across_suffixes() {
        assert_eq!(q("1").cmp_value(&q("500m")), Ordering::Greater);
        assert_eq!(q("1Gi").cmp_value(&q("1G")), Ordering::Greater);
        assert_eq!(q("1000m").cmp_value(&q("1")), Ordering::Equal);
        assert!(q("-1").is_negative());
        assert!(q("2").is_integer() && !q("1500m").is_integer());
        assert_eq!(Quantity::from_json(&serde_json::json!(2)), Some(q("2")));
    }
}
