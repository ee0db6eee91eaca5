//! Model time: whole milliseconds (or microseconds, for the storms) from the
//! start of a run.
//!
//! The core never reads a clock and never uses floating point for time, so a
//! run is a pure function of its settings.

use std::fmt;
use std::ops::{Add, Sub};

use serde::{Deserialize, Serialize};

/// A time the driver's queue can order. Every lab picks its own unit.
pub trait Instant: Copy + Ord + Default + fmt::Debug {
    /// How many ticks a bucket of the event queue's timing wheel spans, as
    /// a power of two: a few of a lab's typical gaps between events.
    const WHEEL_SHIFT: u32 = 0;
    /// The time as a count of the lab's unit, ordered as the time is.
    fn ticks(self) -> u64;
    fn from_ticks(ticks: u64) -> Self;
}

/// A point in model time or a span of it, in whole milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Millis(pub u64);

impl Instant for Millis {
    fn ticks(self) -> u64 {
        self.0
    }
    fn from_ticks(ticks: u64) -> Self {
        Millis(ticks)
    }
}

impl Millis {
    pub const ZERO: Millis = Millis(0);

    pub const fn ms(self) -> u64 {
        self.0
    }

    /// `self - earlier`, or zero if `earlier` is later.
    pub const fn since(self, earlier: Millis) -> Millis {
        Millis(self.0.saturating_sub(earlier.0))
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

impl Sub for Millis {
    type Output = Millis;

    fn sub(self, rhs: Millis) -> Millis {
        self.since(rhs)
    }
}

/// Seconds with two decimals when the time is a whole number of hundredths
/// ("4.05 s"), with three otherwise ("2.049 s"): two different instants never
/// read the same.
impl fmt::Display for Millis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (seconds, ms) = (self.0 / 1000, self.0 % 1000);
        if ms % 10 == 0 { write!(f, "{seconds}.{:02} s", ms / 10) } else { write!(f, "{seconds}.{ms:03} s") }
    }
}

/// A point in model time in whole microseconds (the storms' clock: the AWS
/// experiment's network delays need finer steps than milliseconds).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Micros(pub u64);

impl Instant for Micros {
    /// 2 ms buckets: a wheel of them spans 2.1 s, the AWS experiment's
    /// longest backoff (measured fastest among 32 µs to 8 ms).
    const WHEEL_SHIFT: u32 = 11;
    fn ticks(self) -> u64 {
        self.0
    }
    fn from_ticks(ticks: u64) -> Self {
        Micros(ticks)
    }
}

impl Micros {
    pub const ZERO: Micros = Micros(0);

    pub const fn from_ms(ms: u64) -> Micros {
        Micros(ms.saturating_mul(1000))
    }

    pub const fn us(self) -> u64 {
        self.0
    }
}

impl Add for Micros {
    type Output = Micros;

    fn add(self, rhs: Micros) -> Micros {
        Micros(self.0.saturating_add(rhs.0))
    }
}

impl Sub for Micros {
    type Output = Micros;

    fn sub(self, rhs: Micros) -> Micros {
        Micros(self.0.saturating_sub(rhs.0))
    }
}

#[cfg(test)]
mod tests {
    use super::Millis;

    #[test]
    fn whole_hundredths_show_two_decimals_and_others_three() {
        assert_eq!(Millis(4050).to_string(), "4.05 s");
        assert_eq!(Millis(0).to_string(), "0.00 s");
        assert_eq!(Millis(62_000).to_string(), "62.00 s");
        assert_eq!(Millis(2_049).to_string(), "2.049 s");
        assert_eq!(Millis(2_050).to_string(), "2.05 s");
        assert_eq!(Millis(1).to_string(), "0.001 s");
        assert_eq!(Millis(2_999).to_string(), "2.999 s");
        assert_eq!(Millis(10).to_string(), "0.01 s");
    }
}
