//! The one source of randomness: a seeded xoshiro256++ generator (the
//! `rand_xoshiro` crate; seeded from a `u64` through SplitMix64, as
//! `SeedableRng::seed_from_u64` documents), and the distributions the labs
//! draw from it.
//!
//! The same seed gives the same bits natively and in the browser: the
//! generator is integer arithmetic, and every distribution uses IEEE-754
//! basic operations plus the `libm` crate's `log`, `sqrt` and `cos` (plain
//! Rust, so not the platform's libm, whose last bit may differ).

use rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

#[derive(Clone, Debug)]
pub struct Rng(Xoshiro256PlusPlus);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(Xoshiro256PlusPlus::seed_from_u64(seed))
    }

    /// A generator for stream `stream` of `seed` (one per run of a sweep,
    /// say), independent of the others.
    pub fn stream(seed: u64, stream: u64) -> Rng {
        // SplitMix64's increment spaces the streams' seeds apart.
        Rng::new(seed ^ stream.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(17))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Uniform in [0, 1), from the top 53 bits.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Uniform in [lo, hi).
    pub fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }

    /// A whole number below `n` (n >= 1), without modulo bias (Lemire's
    /// multiply-and-reject).
    pub fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0);
        let threshold = n.wrapping_neg() % n;
        loop {
            let m = u128::from(self.next_u64()) * u128::from(n);
            if (m as u64) >= threshold {
                return (m >> 64) as u64;
            }
        }
    }

    /// Normal with `mean` and standard deviation `sd` (Box–Muller; one
    /// draw per call, the pair's second value is not kept, so a run's draws
    /// depend only on how many were made).
    pub fn normal(&mut self, mean: f64, sd: f64) -> f64 {
        // 1 - unit() lies in (0, 1]: its log is finite.
        let u1 = 1.0 - self.unit();
        let u2 = self.unit();
        let radius = libm::sqrt(-2.0 * libm::log(u1));
        mean + sd * radius * libm::cos(2.0 * std::f64::consts::PI * u2)
    }

    /// Exponential with `mean`.
    pub fn exponential(&mut self, mean: f64) -> f64 {
        -mean * libm::log(1.0 - self.unit())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_draws_and_streams_differ() {
        let draws = |mut r: Rng| (0..5).map(|_| r.next_u64()).collect::<Vec<_>>();
        assert_eq!(draws(Rng::new(7)), draws(Rng::new(7)));
        assert_ne!(draws(Rng::new(7)), draws(Rng::new(8)));
        assert_ne!(draws(Rng::stream(7, 0)), draws(Rng::stream(7, 1)));
    }

    #[test]
    fn distributions_have_their_moments() {
        let mut r = Rng::new(42);
        let n = 200_000;
        let mean = |xs: &[f64]| xs.iter().sum::<f64>() / xs.len() as f64;
        let normals: Vec<f64> = (0..n).map(|_| r.normal(10.0, 2.0)).collect();
        let m = mean(&normals);
        let var = normals.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / n as f64;
        assert!((m - 10.0).abs() < 0.02, "{m}");
        assert!((var.sqrt() - 2.0).abs() < 0.02, "{}", var.sqrt());
        let exps: Vec<f64> = (0..n).map(|_| r.exponential(3.0)).collect();
        assert!((mean(&exps) - 3.0).abs() < 0.03);
        let units: Vec<f64> = (0..n).map(|_| r.unit()).collect();
        assert!(units.iter().all(|&u| (0.0..1.0).contains(&u)));
        let below: Vec<u64> = (0..n).map(|_| r.below(6)).collect();
        assert!(below.iter().all(|&b| b < 6));
        assert!((mean(&below.iter().map(|&b| b as f64).collect::<Vec<_>>()) - 2.5).abs() < 0.02);
    }

    #[test]
    fn known_first_draws_pin_the_generator() {
        // xoshiro256++ seeded through SplitMix64 from 0, worked out with a
        // separate implementation of both published algorithms. If the
        // generator or its seeding changed, every stored seed would replay a
        // different run.
        let mut r = Rng::new(0);
        assert_eq!(
            [r.next_u64(), r.next_u64(), r.next_u64()],
            [5_987_356_902_031_041_503, 7_051_070_477_665_621_255, 6_633_766_593_972_829_180]
        );
    }
}
