//! Model time: whole milliseconds from the start of a run.
//!
//! The core never reads a clock and never uses floating point, so a run is a
//! pure function of its settings.

use std::fmt;
use std::ops::Add;

use serde::{Deserialize, Serialize};

/// A point in model time or a span of it, in whole milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Millis(pub u64);

impl Millis {
    pub const ZERO: Millis = Millis(0);

    pub const fn ms(self) -> u64 {
        self.0
    }
}

impl Add for Millis {
    type Output = Millis;

    /// Saturates rather than wrapping: settings are bounded far below
    /// `u64::MAX`, so saturation can only ever be a guard, never a result.
    fn add(self, rhs: Millis) -> Millis {
        Millis(self.0.saturating_add(rhs.0))
    }
}

/// Shown as seconds with two decimals, rounded half up: `4050` is "4.05 s".
impl fmt::Display for Millis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hundredths = self.0 / 10 + u64::from(self.0 % 10 >= 5);
        write!(f, "{}.{:02} s", hundredths / 100, hundredths % 100)
    }
}

#[cfg(test)]
mod tests {
    use super::Millis;

    #[test]
    fn displays_seconds_with_two_decimals() {
        assert_eq!(Millis(4050).to_string(), "4.05 s");
        assert_eq!(Millis(0).to_string(), "0.00 s");
        assert_eq!(Millis(62_000).to_string(), "62.00 s");
        assert_eq!(Millis(1).to_string(), "0.00 s");
        assert_eq!(Millis(5).to_string(), "0.01 s");
        assert_eq!(Millis(2_999).to_string(), "3.00 s");
    }
}
