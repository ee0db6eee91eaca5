//! Every schedule of at most k aimed faults over a run's settings, each run
//! to its horizon and judged by the ten checks: how many schedules break
//! each check, and the shortest that does (fewest faults, then the first in
//! the alphabet's order, worker 1 first before worker 2 first).
//!
//! A schedule is a list of `KIND@N` faults and a race order; it replaces the
//! preset's own faults, so replaying it is an ordinary run with
//! `--fault ... --worker-order ...`.

use std::collections::HashSet;
use std::hash::{DefaultHasher, Hash, Hasher};

use crate::sim::params::{Aimed, AimedFault, Schema};
use crate::sim::time::Millis;

use super::checks::{CheckName, checks};
use super::run::Workspace;
use super::settings::{FAULTS, FaultKind, Settings, WORKER_ORDER, WorkerOrder};

/// The faults a schedule draws from, and how many calls of each kind they
/// may aim at: the first three creates and probes, the workers' first two
/// resends, the replicas' first two inserts.
pub const ALPHABET: [(FaultKind, u32); 7] = [
    (FaultKind::CreateResponseLost, 3),
    (FaultKind::CreateRequestLost, 3),
    (FaultKind::Downstream5xx, 3),
    (FaultKind::DownstreamSlow, 3),
    (FaultKind::FindTimeout, 3),
    (FaultKind::WorkerCrashAfterSend, 2),
    (FaultKind::ReplicaPause, 2),
];

/// The most faults a schedule may hold.
pub const MAX_FAULTS: usize = 3;

fn kind_index(kind: FaultKind) -> usize {
    FaultKind::ALL.iter().position(|&k| k == kind).unwrap_or(0)
}

/// Whether the fault decides what happens to the N-th create (two such
/// faults on one create cannot both happen).
fn on_create(f: &AimedFault) -> bool {
    matches!(
        FaultKind::ALL.get(f.kind),
        Some(
            FaultKind::CreateResponseLost
                | FaultKind::CreateRequestLost
                | FaultKind::Downstream5xx
                | FaultKind::DownstreamSlow
        )
    )
}

/// Every fault of the alphabet, in its order.
pub fn alphabet() -> Vec<AimedFault> {
    ALPHABET.iter().flat_map(|&(kind, n)| (1..=n).map(move |nth| AimedFault { kind: kind_index(kind), nth })).collect()
}

/// One schedule: the faults and the race order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    pub faults: Vec<AimedFault>,
    pub order: WorkerOrder,
}

impl Schedule {
    /// The faults as `KIND@N`, as `--fault` and links take them.
    pub fn fault_texts(&self) -> Vec<String> {
        self.faults.iter().map(|f| format!("{}@{}", FaultKind::ALL[f.kind].value(), f.nth)).collect()
    }

    /// `settings` playing this schedule.
    pub fn settings(&self, base: &Settings) -> Option<Settings> {
        let with_faults = base.with(FAULTS.def(), Aimed::raw_of(&self.faults)).ok()?;
        with_faults.set(&WORKER_ORDER, self.order).ok()
    }
}

/// Every schedule of at most `k` faults, fewest first, both race orders
/// for each set of faults.
pub fn schedules(k: usize) -> Vec<Schedule> {
    let letters = alphabet();
    let mut sets: Vec<Vec<AimedFault>> = vec![Vec::new()];
    let mut frontier: Vec<(Vec<AimedFault>, usize)> = vec![(Vec::new(), 0)];
    for _ in 0..k.min(MAX_FAULTS) {
        let mut next = Vec::new();
        for (set, from) in &frontier {
            for (i, f) in letters.iter().enumerate().skip(*from) {
                let clash = on_create(f) && set.iter().any(|g| on_create(g) && g.nth == f.nth);
                if clash {
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
    sets.into_iter()
        .flat_map(|faults| {
            [WorkerOrder::W1First, WorkerOrder::W2First].map(|order| Schedule { faults: faults.clone(), order })
        })
        .collect()
}

/// What exploring found for one check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Broken {
    pub check: CheckName,
    /// Distinct schedules that break it.
    pub broken: u64,
    pub shortest: Option<Schedule>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exploration {
    /// Schedules run.
    pub explored: u64,
    /// Of those, the ones whose records differ from every earlier one.
    pub distinct: u64,
    pub checks: Vec<Broken>,
    /// Whether it stopped before the end (cancelled).
    pub cancelled: bool,
}

/// A fingerprint of a run's records.
fn fingerprint(records: &[super::facts::Record]) -> u64 {
    let mut h = DefaultHasher::new();
    records.hash(&mut h);
    h.finish()
}

/// Explores every schedule of at most `k` faults over `base`. `progress`
/// hears (done, total) after each schedule and returns whether to go on.
pub fn explore(base: &Settings, k: usize, mut progress: impl FnMut(u64, u64) -> bool) -> Exploration {
    let all = schedules(k);
    let total = all.len() as u64;
    let mut ws = Workspace::default();
    let mut seen: HashSet<u64> = HashSet::new();
    let mut found: Vec<Broken> =
        CheckName::ALL.iter().map(|&check| Broken { check, broken: 0, shortest: None }).collect();
    let (mut explored, mut cancelled) = (0u64, false);
    for schedule in all {
        let Some(settings) = schedule.settings(base) else { continue };
        explored += 1;
        if ws.simulate(&settings).is_ok() && seen.insert(fingerprint(ws.records())) {
            let horizon: Millis = settings.horizon;
            for c in checks(&settings, ws.records(), horizon) {
                if c.holds == Some(false)
                    && let Some(b) = found.iter_mut().find(|b| b.check == c.name)
                {
                    b.broken += 1;
                    b.shortest.get_or_insert_with(|| schedule.clone());
                }
            }
        }
        if !progress(explored, total) {
            cancelled = true;
            break;
        }
    }
    Exploration { explored, distinct: seen.len() as u64, checks: found, cancelled }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_alphabet_and_the_schedules_it_makes() {
        // 4 create faults x 3 creates + 3 probes + 2 resends + 2 inserts.
        assert_eq!(alphabet().len(), 19);
        // Sets: 1 empty, 19 single, C(19, 2) = 171 pairs less the 3 x C(4, 2)
        // = 18 that put two fates on one create; two orders each.
        assert_eq!(schedules(0).len(), 2);
        assert_eq!(schedules(1).len(), 2 * (1 + 19));
        assert_eq!(schedules(2).len(), 2 * (1 + 19 + 171 - 18));
    }
}
