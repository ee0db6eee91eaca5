//! Counts with their nouns, and numbers with a fixed number of decimals
//! written with integer arithmetic: the browser bundle then needs none of
//! the standard library's float-formatting machinery, which is large.

use std::fmt;

/// `value` rounded half away from zero to `decimals` decimals (at most 3).
#[derive(Clone, Copy, Debug)]
pub struct Fixed(pub f64, pub u8);

impl fmt::Display for Fixed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Fixed(value, decimals) = *self;
        if !value.is_finite() {
            return f.write_str("0");
        }
        let scale = [1i64, 10, 100, 1000][usize::from(decimals.min(3))];
        let scaled = (value * scale as f64).round() as i64;
        let sign = if scaled < 0 { "-" } else { "" };
        let whole = scaled.unsigned_abs() / scale as u64;
        if decimals == 0 {
            return write!(f, "{sign}{whole}");
        }
        let frac = scaled.unsigned_abs() % scale as u64;
        write!(f, "{sign}{whole}.{frac:0width$}", width = usize::from(decimals.min(3)))
    }
}

/// One decimal: SVG coordinates, readouts.
pub fn d1(value: f64) -> Fixed {
    Fixed(value, 1)
}

/// No decimals.
pub fn d0(value: f64) -> Fixed {
    Fixed(value, 0)
}

/// A count with its noun: "1 review", "2 reviews".
pub fn plural(n: u64, one: &str, many: &str) -> String {
    if n == 1 { format!("1 {one}") } else { format!("{n} {many}") }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_standard_formatting_for_ordinary_values() {
        for v in [0.0, 0.04, 0.05, 1.25, 104.0, 317.96, -3.5, 12345.678] {
            assert_eq!(d1(v).to_string(), format!("{:.1}", (v * 10.0f64).round() / 10.0), "{v}");
        }
        assert_eq!(Fixed(2.345, 2).to_string(), "2.35");
        assert_eq!(Fixed(2.0, 2).to_string(), "2.00");
        assert_eq!(d0(7.5).to_string(), "8");
        assert_eq!(d1(-0.04).to_string(), "0.0");
        assert_eq!(d1(f64::NAN).to_string(), "0");
    }
}
