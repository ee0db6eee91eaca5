//! Every schedule of at most k aimed faults over a run's settings, each run
//! to its horizon and judged by the fourteen checks: how many schedules break
//! each check, and the shortest that does (fewest faults, then the first in
//! the alphabet's order, worker 1 first before worker 2 first).
//!
//! A schedule is a list of `KIND@N` faults and a race order; it replaces the
//! preset's own faults, so replaying it is an ordinary run with
//! `--fault ... --worker-order ...`.

use crate::sim::explore::{self, Judged, fault_sets};
use crate::sim::params::{Aimed, AimedFault, Schema};

use super::checks::{CheckName, checks};
use super::run::Workspace;
use super::settings::{FAULTS, FaultKind, Settings, WORKER_ORDER, WorkerOrder};

pub use crate::sim::explore::MAX_FAULTS;

/// The faults a schedule draws from, and how many calls of each kind they
/// may aim at: every fate of the first three creates (business rejection
/// included), the first three probes, the workers' first two resends, the
/// replicas' first two inserts, the first three ties (each may go against
/// the race order, so mixed orders are explored too), and the inputs the
/// presets use: the first three tool calls arriving late, the first two
/// invocations delivered twice, the first intent naming another user's
/// order, the same naming its owner as user_id in the arguments, and the
/// first invocation carrying an argument the schema does not have or a
/// reason past its limit. A burst is the size of a preset's script
/// (`--burst-calls`), not a fault.
pub const ALPHABET: [(FaultKind, u32); 16] = [
    (FaultKind::CreateResponseLost, 3),
    (FaultKind::CreateRequestLost, 3),
    (FaultKind::Downstream5xx, 3),
    (FaultKind::DownstreamSlow, 3),
    (FaultKind::CreateReset, 3),
    (FaultKind::BusinessRejection, 3),
    (FaultKind::FindTimeout, 3),
    (FaultKind::WorkerCrashAfterSend, 2),
    (FaultKind::ReplicaPause, 2),
    (FaultKind::TieFlipped, 3),
    (FaultKind::CallDelayed, 3),
    (FaultKind::DuplicateDelivery, 2),
    (FaultKind::ForgedOrder, 1),
    (FaultKind::ClaimedUser, 1),
    (FaultKind::ExtraArgument, 1),
    (FaultKind::LongReason, 1),
];

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
                | FaultKind::CreateReset
                | FaultKind::BusinessRejection
        )
    )
}

/// Whether the fault decides what the arguments of the alphabet's first
/// call say (one call carries one of them).
fn on_arguments(f: &AimedFault) -> bool {
    matches!(
        FaultKind::ALL.get(f.kind),
        Some(FaultKind::ClaimedUser | FaultKind::ExtraArgument | FaultKind::LongReason)
    )
}

/// Two faults that cannot both happen: two fates for one create, or two
/// shapes of the same call's arguments.
fn clash(a: &AimedFault, b: &AimedFault) -> bool {
    on_create(a) && on_create(b) && a.nth == b.nth || on_arguments(a) && on_arguments(b)
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
/// for each set of faults (two that [`clash`] cannot both happen).
pub fn schedules(k: usize) -> Vec<Schedule> {
    fault_sets(&alphabet(), k, clash)
        .into_iter()
        .flat_map(|faults| {
            [WorkerOrder::W1First, WorkerOrder::W2First].map(|order| Schedule { faults: faults.clone(), order })
        })
        .collect()
}

/// What exploring the risk lab found.
pub type Exploration = explore::Exploration<CheckName, Schedule>;

/// Explores every schedule of at most `k` faults over `base`. `progress`
/// hears (done, total) after each schedule and returns whether to go on.
pub fn explore(base: &Settings, k: usize, progress: impl FnMut(u64, u64) -> bool) -> Exploration {
    let mut ws = Workspace::default();
    let judge = |schedule: &Schedule| {
        let Some(settings) = schedule.settings(base) else { return Judged::Skipped };
        Judged::of(ws.simulate(&settings), ws.records(), |records| {
            let verdicts = checks(&settings, records, settings.horizon);
            verdicts.into_iter().filter(|c| c.holds == Some(false)).map(|c| c.name).collect()
        })
    };
    explore::explore(schedules(k), &CheckName::ALL, judge, progress)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_alphabet_and_the_schedules_it_makes() {
        // 6 create fates x 3 creates + 3 probes + 2 resends + 2 inserts + 3
        // ties + 3 late calls + 2 doubled invocations + 1 forged intent + 3
        // shapes of the first call's arguments.
        assert_eq!(alphabet().len(), 18 + 3 + 2 + 2 + 3 + 3 + 2 + 1 + 3);
        // Sets: 1 empty, 37 single, C(37, 2) = 666 pairs less the 3 x
        // C(6, 2) = 45 that put two fates on one create and the C(3, 2) = 3
        // that give the first call two shapes; two orders each.
        assert_eq!(schedules(0).len(), 2);
        assert_eq!(schedules(1).len(), 2 * (1 + 37));
        assert_eq!(schedules(2).len(), 2 * (1 + 37 + 666 - 45 - 3));
        // Triples: C(37, 3) = 7770, less those holding a clashing pair: 48
        // pairs x 35 third faults, where the 3 x C(6, 3) = 60 triples of
        // three fates on one create and the one triple of three shapes were
        // counted three times: 1680 - 2 x 61 = 1558.
        assert_eq!(schedules(3).len(), 2 * (1 + 37 + 618 + 7770 - 1558));
    }
}
