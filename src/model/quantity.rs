//! Kubernetes resource quantities ("500m", "16Gi", "1e3") parsed into exact integers.
//!
//! Quantities come from clusters we do not control, so a malformed or absurd value is an
//! error the caller can show as UNKNOWN, never a panic. The arithmetic is done on integers
//! (a decimal mantissa times powers of two and ten) so that "0.1" CPU is exactly 100
//! millicores and "1.5Gi" is exactly 1,610,612,736 bytes; nothing goes through floats.

use thiserror::Error;

/// The integer unit a quantity is converted to.
///
/// CPU is kept in millicores (the scheduler's own resolution); every other dimension
/// (bytes, GPUs, pods, volumes) in whole units.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scale {
    /// Whole units: bytes, devices, pods.
    Units,
    /// Thousandths of a unit: CPU millicores.
    Milli,
}

impl Scale {
    /// Power of ten applied on top of the parsed value.
    fn exponent(self) -> i32 {
        match self {
            Scale::Units => 0,
            Scale::Milli => 3,
        }
    }
}

/// Why a quantity string could not be turned into an amount.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum QuantityError {
    /// The string is empty.
    #[error("empty quantity")]
    Empty,
    /// The string does not follow the Kubernetes quantity grammar.
    #[error("malformed quantity {0:?}")]
    Malformed(String),
    /// The suffix is not one Kubernetes knows.
    #[error("unknown suffix {suffix:?} in quantity {input:?}")]
    UnknownSuffix {
        /// The full input, for the message.
        input: String,
        /// The suffix that was not recognised.
        suffix: String,
    },
    /// A resource amount below zero; the API server rejects these for requests and
    /// allocatable, so seeing one means the data is not what we think it is.
    #[error("negative quantity {0:?} is not a resource amount")]
    Negative(String),
    /// The value does not fit the 64-bit integer we keep per dimension.
    #[error("quantity {0:?} is out of range")]
    OutOfRange(String),
}

/// Most significant digits we keep; more than this cannot come from a real cluster and
/// would overflow the 128-bit intermediate.
const MAX_DIGITS: usize = 36;

/// Parses a Kubernetes quantity into an integer amount at `scale`, rounding up as the
/// Kubernetes `Value()`/`MilliValue()` accessors do (so "0.1m" CPU is 1 millicore).
pub fn parse_quantity(input: &str, scale: Scale) -> Result<i64, QuantityError> {
    if input.is_empty() {
        return Err(QuantityError::Empty);
    }
    let malformed = || QuantityError::Malformed(input.to_owned());
    let bytes = input.as_bytes();
    let mut pos = 0;
    let negative = match bytes[0] {
        b'-' => {
            pos = 1;
            true
        }
        b'+' => {
            pos = 1;
            false
        }
        _ => false,
    };
    let int_start = pos;
    while pos < bytes.len() && bytes[pos].is_ascii_digit() {
        pos += 1;
    }
    let int_digits = &input[int_start..pos];
    let mut frac_digits = "";
    if pos < bytes.len() && bytes[pos] == b'.' {
        pos += 1;
        let frac_start = pos;
        while pos < bytes.len() && bytes[pos].is_ascii_digit() {
            pos += 1;
        }
        frac_digits = &input[frac_start..pos];
    }
    if int_digits.is_empty() && frac_digits.is_empty() {
        return Err(malformed());
    }
    let (pow2, pow10) = parse_suffix(input, &input[pos..])?;

    // Mantissa: integer digits followed by fraction digits, with the decimal point
    // moved into the power of ten. Leading zeros carry no information; trailing
    // fraction zeros neither.
    let frac_digits = frac_digits.trim_end_matches('0');
    let int_digits = int_digits.trim_start_matches('0');
    if int_digits.len() + frac_digits.len() > MAX_DIGITS {
        return Err(QuantityError::OutOfRange(input.to_owned()));
    }
    let mut mantissa: u128 = 0;
    for d in int_digits.bytes().chain(frac_digits.bytes()) {
        mantissa = mantissa * 10 + u128::from(d - b'0');
    }
    if mantissa == 0 {
        return Ok(0);
    }
    if negative {
        return Err(QuantityError::Negative(input.to_owned()));
    }
    let frac_len = i32::try_from(frac_digits.len()).map_err(|_| malformed())?;
    let exp10 = pow10
        .checked_sub(frac_len)
        .and_then(|e| e.checked_add(scale.exponent()))
        .ok_or_else(|| QuantityError::OutOfRange(input.to_owned()))?;
    scale_exact(mantissa, pow2, exp10).ok_or_else(|| QuantityError::OutOfRange(input.to_owned()))
}

/// `ceil(mantissa * 2^pow2 * 10^exp10)` as an `i64`, or `None` when it does not fit.
fn scale_exact(mantissa: u128, pow2: u32, exp10: i32) -> Option<i64> {
    let mut value = mantissa.checked_mul(1u128.checked_shl(pow2)?)?;
    if exp10 >= 0 {
        value = value.checked_mul(10u128.checked_pow(exp10.unsigned_abs())?)?;
    } else {
        match 10u128.checked_pow(exp10.unsigned_abs()) {
            Some(divisor) => value = value.div_ceil(divisor),
            // The divisor exceeds any 128-bit value: a positive amount smaller than
            // the unit, which rounds up to one unit.
            None => value = 1,
        }
    }
    i64::try_from(value).ok()
}

/// Splits a suffix into (power of two, power of ten).
fn parse_suffix(input: &str, suffix: &str) -> Result<(u32, i32), QuantityError> {
    let factors = match suffix {
        "" => (0, 0),
        "Ki" => (10, 0),
        "Mi" => (20, 0),
        "Gi" => (30, 0),
        "Ti" => (40, 0),
        "Pi" => (50, 0),
        "Ei" => (60, 0),
        "n" => (0, -9),
        "u" => (0, -6),
        "m" => (0, -3),
        "k" => (0, 3),
        "M" => (0, 6),
        "G" => (0, 9),
        "T" => (0, 12),
        "P" => (0, 15),
        "E" => (0, 18),
        _ => return parse_exponent(input, suffix).map(|e| (0, e)),
    };
    Ok(factors)
}

/// Parses the decimal-exponent form of a suffix ("e3", "E-2").
fn parse_exponent(input: &str, suffix: &str) -> Result<i32, QuantityError> {
    let unknown = || QuantityError::UnknownSuffix {
        input: input.to_owned(),
        suffix: suffix.to_owned(),
    };
    let rest = suffix
        .strip_prefix('e')
        .or_else(|| suffix.strip_prefix('E'))
        .ok_or_else(unknown)?;
    let digits = rest
        .strip_prefix('-')
        .or_else(|| rest.strip_prefix('+'))
        .unwrap_or(rest);
    // A sign or digits only: `str::parse` alone would accept "e+" forms we do not want
    // to second-guess, so check the digits explicitly.
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 4 {
        return Err(unknown());
    }
    rest.parse::<i32>().map_err(|_| unknown())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn units(s: &str) -> Result<i64, QuantityError> {
        parse_quantity(s, Scale::Units)
    }
    fn milli(s: &str) -> Result<i64, QuantityError> {
        parse_quantity(s, Scale::Milli)
    }

    #[test]
    fn cpu_in_millicores() {
        assert_eq!(milli("500m"), Ok(500));
        assert_eq!(milli("2"), Ok(2000));
        assert_eq!(milli("1.5"), Ok(1500));
        assert_eq!(milli("0.1"), Ok(100));
        assert_eq!(milli(".25"), Ok(250));
        assert_eq!(milli("1."), Ok(1000));
        assert_eq!(milli("1e3"), Ok(1_000_000));
        assert_eq!(milli("+3"), Ok(3000));
    }

    #[test]
    fn sub_unit_amounts_round_up() {
        // Kubernetes rounds up: 0.1 millicore is scheduled as 1.
        assert_eq!(milli("0.1m"), Ok(1));
        assert_eq!(milli("100u"), Ok(1));
        assert_eq!(units("0.5"), Ok(1));
        assert_eq!(units("1n"), Ok(1));
        assert_eq!(units("1e-40"), Ok(1));
    }

    #[test]
    fn memory_in_bytes() {
        assert_eq!(units("16Gi"), Ok(16 * 1024 * 1024 * 1024));
        assert_eq!(units("100M"), Ok(100_000_000));
        assert_eq!(units("128974848"), Ok(128_974_848));
        assert_eq!(units("1.5Gi"), Ok(1_610_612_736));
        assert_eq!(units("129e6"), Ok(129_000_000));
        assert_eq!(units("1E3"), Ok(1000));
        assert_eq!(units("1E"), Ok(1_000_000_000_000_000_000));
        assert_eq!(units("1Ki"), Ok(1024));
        assert_eq!(units("7Ei"), Ok(7 * (1i64 << 60)));
    }

    #[test]
    fn zero_in_any_form() {
        assert_eq!(units("0"), Ok(0));
        assert_eq!(units("-0"), Ok(0));
        assert_eq!(units("0.000"), Ok(0));
        assert_eq!(units("0Gi"), Ok(0));
    }

    #[test]
    fn malformed_input_is_an_error_not_a_panic() {
        assert_eq!(units(""), Err(QuantityError::Empty));
        for bad in ["abc", "Gi", ".", "-", "1..2", " 1", "1 ", "1.2.3", "--1"] {
            assert!(units(bad).is_err(), "{bad:?} should be rejected");
        }
        assert!(matches!(
            units("5Xi"),
            Err(QuantityError::UnknownSuffix { .. })
        ));
        assert!(matches!(
            units("1e"),
            Err(QuantityError::UnknownSuffix { .. })
        ));
        assert!(matches!(
            units("1gi"),
            Err(QuantityError::UnknownSuffix { .. })
        ));
        assert!(matches!(units("-1"), Err(QuantityError::Negative(_))));
    }

    #[test]
    fn out_of_range_is_an_error() {
        assert!(matches!(units("8Ei"), Err(QuantityError::OutOfRange(_))));
        assert!(matches!(units("1e300"), Err(QuantityError::OutOfRange(_))));
        assert!(matches!(
            units("1234567890123456789012345678901234567890"),
            Err(QuantityError::OutOfRange(_))
        ));
        assert!(matches!(milli("1E"), Err(QuantityError::OutOfRange(_))));
    }

    proptest::proptest! {
        #[test]
        fn never_panics(s in "\\PC{0,24}") {
            let _ = units(&s);
            let _ = milli(&s);
        }

        #[test]
        fn integers_round_trip(n in 0i64..=i64::MAX / 1000) {
            proptest::prop_assert_eq!(units(&n.to_string()), Ok(n));
            proptest::prop_assert_eq!(milli(&format!("{n}m")), Ok(n));
        }
    }
}
