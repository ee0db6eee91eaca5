//! Retry delays: capped exponential backoff with optional deterministic
//! full jitter (docs/model.md's client; the storms have their own algorithms).

use crate::sim::time::Millis;

use super::facts::Attempt;
use super::settings::{ClientConfig, Jitter};

/// The n-th term of the base-2 van der Corput sequence as an exact fraction
/// `(numerator, denominator)`: the bits of `n` mirrored around the binary
/// point. 1 → 1/2, 2 → 1/4, 3 → 3/4, 4 → 1/8, 5 → 5/8, ...
pub fn van_der_corput(n: u32) -> (u64, u64) {
    let bits = u32::BITS - n.leading_zeros();
    if bits == 0 {
        return (0, 1);
    }
    let mirrored = n.reverse_bits() >> (u32::BITS - bits);
    (u64::from(mirrored), 1u64 << bits)
}

/// The capped exponential base before attempt `n + 1`:
/// `min(cap, initial * 2^(n-1))`.
pub fn base_delay(config: &ClientConfig, n: Attempt) -> Millis {
    let cap = config.backoff_cap.ms();
    let doublings = n.saturating_sub(1);
    // Once the factor alone exceeds the cap, the cap wins; this also keeps the
    // shift far from overflow.
    let grown = if doublings >= 40 { u64::MAX } else { config.initial_delay.ms().saturating_mul(1u64 << doublings) };
    Millis(grown.min(cap))
}

/// The wait before attempt `n + 1`, for `n >= 1`.
pub fn delay(config: &ClientConfig, n: Attempt) -> Millis {
    let base = base_delay(config, n);
    match config.jitter {
        Jitter::Off => base,
        Jitter::Full => {
            let (num, den) = van_der_corput(n);
            Millis(base.ms() * num / den)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::ack::settings::{INITIAL_DELAY, JITTER, Settings};

    #[test]
    fn van_der_corput_mirrors_bits() {
        let terms: Vec<_> = (1..=9).map(van_der_corput).collect();
        assert_eq!(terms, vec![(1, 2), (1, 4), (3, 4), (1, 8), (5, 8), (3, 8), (7, 8), (1, 16), (9, 16)]);
    }

    #[test]
    fn backoff_doubles_up_to_the_cap() {
        let s = Settings::default();
        let delays: Vec<_> = (1..=6).map(|n| delay(&s.client, n).ms()).collect();
        assert_eq!(delays, vec![1000, 2000, 4000, 8000, 8000, 8000]);
    }

    #[test]
    fn full_jitter_scales_each_base_by_its_term() {
        let s = Settings::from_pairs(&[(&JITTER, "full"), (&INITIAL_DELAY, "1000")]).unwrap();
        let delays: Vec<_> = (1..=5).map(|n| delay(&s.client, n).ms()).collect();
        // 1000*1/2, 2000*1/4, 4000*3/4, 8000*1/8, 8000*5/8
        assert_eq!(delays, vec![500, 500, 3000, 1000, 5000]);
        let odd = Settings::from_pairs(&[(&JITTER, "full"), (&INITIAL_DELAY, "999")]).unwrap();
        assert_eq!(delay(&odd.client, 1).ms(), 499, "floor, not round");
    }
}
