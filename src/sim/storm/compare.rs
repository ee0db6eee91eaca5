//! Two storm runs on one clock: run A and run B, the same workload with
//! some settings changed, walked side by side to the first event they
//! handle differently. With the same seed and the same settings the runs
//! never part; a setting that acts only later (a retry budget, say) leaves
//! them together until it first matters.

use crate::sim::SimError;
use crate::sim::compare::{Divergence, part_ways};
use crate::sim::rng::Rng;
use crate::sim::time::Micros;

use super::occ::OccEvent;
use super::overload::StormEvent;
use super::settings::{StormSettings, Workload};
use super::{OccRun, OccRunner, OverloadRun};

/// Both runs of one workload and where they part.
#[derive(Clone, Debug, PartialEq)]
pub enum StormPair {
    Overload { a: Box<OverloadRun>, b: Box<OverloadRun>, divergence: Option<Divergence<(Micros, StormEvent)>> },
    Occ { a: OccRun, b: OccRun, divergence: Option<Divergence<(Micros, OccEvent)>> },
}

/// Why two storm runs could not be compared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PairError {
    /// A comparison across workloads has no events in common to walk.
    Workloads,
    Run(SimError),
}

impl std::fmt::Display for PairError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PairError::Workloads => f.write_str("run B must use run A's workload"),
            PairError::Run(e) => write!(f, "{e}"),
        }
    }
}

impl From<SimError> for PairError {
    fn from(e: SimError) -> Self {
        PairError::Run(e)
    }
}

impl StormPair {
    /// Runs A and B, which must share a workload.
    pub fn simulate(a: &StormSettings, b: &StormSettings) -> Result<StormPair, PairError> {
        if a.workload != b.workload {
            return Err(PairError::Workloads);
        }
        match a.workload {
            Workload::Overload => {
                let (mut da, mut db) = (OverloadRun::driver(a), OverloadRun::driver(b));
                let divergence = part_ways(&mut da, &mut db)?;
                Ok(StormPair::Overload {
                    a: Box::new(OverloadRun::finish(da)?),
                    b: Box::new(OverloadRun::finish(db)?),
                    divergence,
                })
            }
            Workload::Occ => {
                let mut da = OccRunner::driver(a.occ, Rng::new(a.seed));
                let mut db = OccRunner::driver(b.occ, Rng::new(b.seed));
                let divergence = part_ways(&mut da, &mut db)?;
                Ok(StormPair::Occ { a: OccRunner::finish(&da)?, b: OccRunner::finish(&db)?, divergence })
            }
        }
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::sim::Schema;

    fn settings(pairs: &[(&str, &str)]) -> StormSettings {
        StormSettings::from_links(pairs)
    }

    #[test]
    fn the_same_settings_never_part_and_give_the_single_runs_results() {
        let s = settings(&[("clients", "300"), ("seed", "9")]);
        let StormPair::Overload { a, b, divergence } = StormPair::simulate(&s, &s).unwrap() else { panic!() };
        assert_eq!(divergence, None);
        assert_eq!(a, b);
        assert_eq!(*a, OverloadRun::simulate(&s).unwrap());
        let s = settings(&[("workload", "occ"), ("clients", "20")]);
        let StormPair::Occ { a, b, divergence } = StormPair::simulate(&s, &s).unwrap() else { panic!() };
        assert_eq!(divergence, None);
        assert_eq!(a, b);
        assert_eq!(a, OccRunner::default().run(s.occ, Rng::new(s.seed)).unwrap());
    }

    #[test]
    fn another_seed_parts_at_the_first_event_and_each_run_keeps_its_own_results() {
        let a = settings(&[("clients", "300"), ("seed", "9")]);
        let b = settings(&[("clients", "300"), ("seed", "10")]);
        let StormPair::Overload { a: ra, b: rb, divergence } = StormPair::simulate(&a, &b).unwrap() else { panic!() };
        let d = divergence.unwrap();
        // Arrival times are drawn from the seed: the first intents differ.
        assert_eq!(d.index, 0);
        assert_ne!(d.a, d.b);
        assert_eq!(*ra, OverloadRun::simulate(&a).unwrap());
        assert_eq!(*rb, OverloadRun::simulate(&b).unwrap());
    }

    #[test]
    fn a_setting_that_acts_on_retries_parts_the_runs_at_a_retry() {
        // Without retries the first attempts play out alike; the runs part
        // where run A first retries and run B, allowed no retries, gives up.
        let a = settings(&[("seed", "3")]);
        let b = a.with(StormSettings::by_link("attempts").unwrap(), 1).unwrap();
        let StormPair::Overload { a: ra, divergence, .. } = StormPair::simulate(&a, &b).unwrap() else { panic!() };
        assert!(ra.totals.retries > 0, "the setup must retry: {:?}", ra.totals);
        let d = divergence.unwrap();
        assert!(d.index > 0, "the runs agree before the first retry");
        let (ta, ea) = d.a.unwrap();
        assert!(ta > Micros::ZERO);
        assert!(matches!(ea, StormEvent::Send { attempt: 2, .. }), "{ea:?}");
    }

    #[test]
    fn runs_of_different_workloads_are_refused() {
        let a = settings(&[]);
        let b = settings(&[("workload", "occ"), ("clients", "20")]);
        assert_eq!(StormPair::simulate(&a, &b), Err(PairError::Workloads));
    }
}
