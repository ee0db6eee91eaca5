//! The five backoff algorithms of the AWS experiment, in microseconds. For
//! the n-th retry (n >= 1), expo(n) = min(cap, base * 2^n); full jitter is
//! uniform(0, expo(n)); equal jitter expo(n)/2 + uniform(0, expo(n)/2);
//! decorrelated jitter keeps the previous sleep, starting at the base, and
//! draws min(cap, uniform(base, previous * 3)).

use crate::sim::rng::{Rng, nearest};

use super::settings::{Algorithm, Backoff};

/// min(cap, base * 2^n) without overflow: exponential backoff reaches retry
/// 62 and beyond with many clients, where 2^n alone no longer fits.
pub fn expo_us(backoff: &Backoff, n: u32) -> u64 {
    let grown = if n >= 64 { u64::MAX } else { backoff.base_us.saturating_mul(1u64 << n) };
    grown.min(backoff.cap_us)
}

/// A client's backoff state: decorrelated jitter remembers its last sleep.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sleeper {
    previous_us: f64,
}

impl Sleeper {
    pub fn new(backoff: &Backoff) -> Sleeper {
        Sleeper { previous_us: backoff.base_us as f64 }
    }

    /// The sleep before the n-th retry, in whole microseconds.
    pub fn sleep_us(&mut self, backoff: &Backoff, n: u32, rng: &mut Rng) -> u64 {
        let expo = expo_us(backoff, n) as f64;
        let us = match backoff.algorithm {
            Algorithm::None => 0.0,
            Algorithm::Exponential => expo,
            Algorithm::Full => rng.uniform(0.0, expo),
            Algorithm::Equal => expo / 2.0 + rng.uniform(0.0, expo / 2.0),
            Algorithm::Decorrelated => {
                let base = backoff.base_us as f64;
                self.previous_us = rng.uniform(base, self.previous_us * 3.0).min(backoff.cap_us as f64);
                self.previous_us
            }
        };
        nearest(us)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn backoff(algorithm: Algorithm) -> Backoff {
        Backoff { algorithm, base_us: 5_000, cap_us: 2_000_000 }
    }

    #[test]
    fn exponential_doubles_from_twice_the_base_up_to_the_cap() {
        let b = backoff(Algorithm::Exponential);
        let ms: Vec<u64> = (1..=10).map(|n| expo_us(&b, n) / 1000).collect();
        // 5 * 2^n ms: 10, 20, ..., 1280, then the 2000 ms cap from n = 9.
        assert_eq!(ms, [10, 20, 40, 80, 160, 320, 640, 1280, 2000, 2000]);
        assert_eq!(expo_us(&b, 62), 2_000_000, "5 * 2^62 overflows u64; the cap still wins");
        assert_eq!(expo_us(&b, 200), 2_000_000);
    }

    #[test]
    fn jitters_stay_in_their_ranges() {
        let mut rng = Rng::new(3);
        for n in 1..=70 {
            let full = Sleeper::new(&backoff(Algorithm::Full)).sleep_us(&backoff(Algorithm::Full), n, &mut rng);
            let e = expo_us(&backoff(Algorithm::Full), n);
            assert!(full <= e);
            let equal = Sleeper::new(&backoff(Algorithm::Equal)).sleep_us(&backoff(Algorithm::Equal), n, &mut rng);
            assert!(equal >= e / 2 && equal <= e);
        }
        let b = backoff(Algorithm::Decorrelated);
        let mut s = Sleeper::new(&b);
        let first = s.sleep_us(&b, 1, &mut rng);
        assert!((5_000..=15_000).contains(&first), "the first sleep is uniform(5, 15) ms: {first}");
        for n in 2..100 {
            let next = s.sleep_us(&b, n, &mut rng);
            assert!((5_000..=2_000_000).contains(&next));
        }
        assert_eq!(Sleeper::new(&backoff(Algorithm::None)).sleep_us(&backoff(Algorithm::None), 5, &mut rng), 0);
    }
}
