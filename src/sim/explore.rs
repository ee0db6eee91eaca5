//! What exploring every schedule shares between the labs: the sets of at
//! most k faults drawn from a lab's alphabet, and the tally of which checks
//! each distinct run breaks, with the first schedule (the fewest faults,
//! then the earliest in the alphabet) that breaks each.
//!
//! A lab gives its alphabet, which pairs of faults cannot both happen, and a
//! judge that runs one schedule and returns the fingerprint of its records
//! and the checks they break. Schedules whose records are the same count
//! once.

use std::collections::HashSet;
use std::hash::{DefaultHasher, Hash, Hasher};

use super::params::AimedFault;

/// The most faults a schedule may hold.
pub const MAX_FAULTS: usize = 3;

/// Every set of at most `k` faults of `letters` (each in the alphabet's
/// order, no fault twice), fewest first, leaving out the sets that hold a
/// pair `clash` says cannot both happen.
pub fn fault_sets(
    letters: &[AimedFault],
    k: usize,
    clash: impl Fn(&AimedFault, &AimedFault) -> bool,
) -> Vec<Vec<AimedFault>> {
    let mut sets: Vec<Vec<AimedFault>> = vec![Vec::new()];
    let mut frontier: Vec<(Vec<AimedFault>, usize)> = vec![(Vec::new(), 0)];
    for _ in 0..k.min(MAX_FAULTS) {
        let mut next = Vec::new();
        for (set, from) in &frontier {
            for (i, f) in letters.iter().enumerate().skip(*from) {
                if set.iter().any(|g| clash(g, f)) {
                    continue;
                }
                let mut grown = set.clone();
                grown.push(*f);
                next.push((grown, i + 1));
            }
        }
        sets.extend(next.iter().map(|(s, _)| s.clone()));
        frontier = next;
    }
    sets
}

/// What exploring found for one check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Broken<C, S> {
    pub check: C,
    /// Distinct schedules that break it.
    pub broken: u64,
    /// The first schedule that breaks it, in the order explored.
    pub shortest: Option<S>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exploration<C, S> {
    /// Schedules run.
    pub explored: u64,
    /// Of those, the ones whose records differ from every earlier one.
    pub distinct: u64,
    pub checks: Vec<Broken<C, S>>,
    /// Schedules whose run could not reach its end (a bound of the model
    /// was hit: a bug to report, never a verdict), and the first of them.
    pub failed: u64,
    pub first_failed: Option<S>,
    /// Whether it stopped before the end (cancelled).
    pub cancelled: bool,
}

impl<C, S> Exploration<C, S> {
    /// Whether no schedule broke any check.
    pub fn all_hold(&self) -> bool {
        self.checks.iter().all(|b| b.broken == 0)
    }
}

/// A fingerprint of a run's records.
pub fn fingerprint<R: Hash>(records: &[R]) -> u64 {
    let mut h = DefaultHasher::new();
    records.hash(&mut h);
    h.finish()
}

/// What judging one schedule found.
pub enum Judged<C> {
    /// The schedule cannot be played over these settings: not counted.
    Skipped,
    /// Its run hit a bound of the model before its end.
    Failed,
    /// The fingerprint of its records and the checks they break.
    Ran(u64, Vec<C>),
}

impl<C> Judged<C> {
    /// What a run of the schedule left: its records judged by `broken`,
    /// or a failure if the run did not reach its end.
    pub fn of<R: Hash, T, E>(ran: Result<T, E>, records: &[R], broken: impl FnOnce(&[R]) -> Vec<C>) -> Judged<C> {
        match ran {
            Ok(_) => Judged::Ran(fingerprint(records), broken(records)),
            Err(_) => Judged::Failed,
        }
    }
}

/// Runs every schedule in order; `judge` runs one.
/// `progress` hears (done, total) after each schedule and returns whether
/// to go on.
pub fn explore<C: Copy + PartialEq, S: Clone>(
    schedules: Vec<S>,
    check_names: &[C],
    mut judge: impl FnMut(&S) -> Judged<C>,
    mut progress: impl FnMut(u64, u64) -> bool,
) -> Exploration<C, S> {
    let total = schedules.len() as u64;
    let mut seen: HashSet<u64> = HashSet::new();
    let mut found: Vec<Broken<C, S>> =
        check_names.iter().map(|&check| Broken { check, broken: 0, shortest: None }).collect();
    let (mut explored, mut failed, mut first_failed, mut cancelled) = (0u64, 0u64, None, false);
    for schedule in schedules {
        match judge(&schedule) {
            Judged::Skipped => continue,
            Judged::Failed => {
                failed += 1;
                first_failed.get_or_insert_with(|| schedule.clone());
            }
            Judged::Ran(print, broken) => {
                if seen.insert(print) {
                    for name in broken {
                        if let Some(b) = found.iter_mut().find(|b| b.check == name) {
                            b.broken += 1;
                            b.shortest.get_or_insert_with(|| schedule.clone());
                        }
                    }
                }
            }
        }
        explored += 1;
        if !progress(explored, total) {
            cancelled = true;
            break;
        }
    }
    Exploration { explored, distinct: seen.len() as u64, checks: found, failed, first_failed, cancelled }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(kind: usize, nth: u32) -> AimedFault {
        AimedFault { kind, nth }
    }

    #[test]
    fn sets_hold_each_combination_once_fewest_first() {
        let letters = [f(0, 1), f(0, 2), f(1, 1)];
        let sets = fault_sets(&letters, 2, |_, _| false);
        // 1 empty, 3 single, C(3, 2) = 3 pairs.
        assert_eq!(sets.len(), 7);
        assert_eq!(sets[0], vec![]);
        assert_eq!(sets[1], vec![f(0, 1)]);
        assert_eq!(sets[4], vec![f(0, 1), f(0, 2)]);
        // A clash leaves out the one pair that holds both.
        let sets = fault_sets(&letters, 3, |a, b| a.nth == b.nth);
        assert_eq!(sets.len(), 1 + 3 + 2);
        assert!(!sets.contains(&vec![f(0, 1), f(1, 1)]));
    }

    #[test]
    fn a_run_seen_before_counts_once_and_the_first_breaker_is_the_shortest() {
        let schedules = vec![0usize, 1, 2, 3];
        // Schedules 1 and 3 have the same records and break check 'a';
        // schedule 2 breaks 'b'.
        let prints = [10, 11, 12, 11];
        let breaks = [vec![], vec!['a'], vec!['b'], vec!['a']];
        let e = explore(schedules, &['a', 'b'], |&s| Judged::Ran(prints[s], breaks[s].clone()), |_, _| true);
        assert_eq!(e.explored, 4);
        assert_eq!(e.distinct, 3);
        assert_eq!(e.checks[0].broken, 1);
        assert_eq!(e.checks[0].shortest, Some(1));
        assert_eq!(e.checks[1].shortest, Some(2));
        let stopped = explore(vec![0u32, 1, 2], &['a'], |_| Judged::Ran(0, vec![]), |done, _| done < 2);
        assert!(stopped.cancelled);
        assert_eq!(stopped.explored, 2);
        // A run that fails is counted apart, never as a verdict.
        let failing = explore(
            vec![0u32, 1, 2],
            &['a'],
            |&s| if s == 1 { Judged::Failed } else { Judged::Ran(u64::from(s), vec![]) },
            |_, _| true,
        );
        assert_eq!((failing.explored, failing.distinct, failing.failed, failing.first_failed), (3, 2, 1, Some(1)));
    }
}
