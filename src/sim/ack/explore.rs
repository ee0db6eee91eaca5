//! Every schedule of at most k aimed faults over the first lab's settings:
//! each attempt's response lost, its request lost, a 503 for it, and the
//! server crashing at each point of the commit of the operation it started
//! (with the store the settings choose). The aimed faults add to the
//! response fault and the crash the settings already inject; a schedule
//! replaces only the settings' own aimed faults, so replaying it is an
//! ordinary run with `--faults ...`.

use crate::sim::explore::{self, Judged, fault_sets};
use crate::sim::params::{Aimed, AimedFault, Schema};

use super::checks::{CheckName, broken};
use super::run::Workspace;
use super::settings::{FAULTS, FaultKind, Settings};

pub use crate::sim::explore::MAX_FAULTS;

/// Every fault of the alphabet over `settings`: each kind aimed at each
/// attempt the client may send, attempt by attempt.
pub fn alphabet(settings: &Settings) -> Vec<AimedFault> {
    (1..=settings.max_attempts())
        .flat_map(|nth| (0..FaultKind::ALL.len()).map(move |kind| AimedFault { kind, nth }))
        .collect()
}

/// A schedule: the aimed faults it plays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    pub faults: Vec<AimedFault>,
}

impl Schedule {
    /// The faults as `KIND@N`, as `--faults` and links take them.
    pub fn fault_texts(&self) -> Vec<String> {
        self.faults.iter().map(|f| format!("{}@{}", FaultKind::ALL[f.kind].value(), f.nth)).collect()
    }

    /// `settings` playing this schedule.
    pub fn settings(&self, base: &Settings) -> Option<Settings> {
        base.with(FAULTS.def(), Aimed::raw_of(&self.faults)).ok()
    }
}

/// Every schedule of at most `k` faults over `settings`, fewest first.
pub fn schedules(settings: &Settings, k: usize) -> Vec<Schedule> {
    fault_sets(&alphabet(settings), k, |_, _| false).into_iter().map(|faults| Schedule { faults }).collect()
}

/// What exploring the first lab found.
pub type Exploration = explore::Exploration<CheckName, Schedule>;

/// Explores every schedule of at most `k` faults over `base`. `progress`
/// hears (done, total) after each schedule and returns whether to go on.
pub fn explore(base: &Settings, k: usize, progress: impl FnMut(u64, u64) -> bool) -> Exploration {
    let mut ws = Workspace::default();
    let judge = |schedule: &Schedule| {
        let Some(settings) = schedule.settings(base) else { return Judged::Skipped };
        Judged::of(ws.simulate(&settings), ws.records(), broken)
    };
    explore::explore(schedules(base, k), &CheckName::ALL, judge, progress)
}
