//! The crash matrix: every crash point against every kind of store, under
//! the reader's other settings. It answers at a glance "which store
//! survives which crash".

use crate::sim::ack::settings::{CRASH, STORE};
use crate::sim::ack::{CrashPoint, Outcome, Run, Settings, StoreKind};
use crate::sim::{Millis, Schema};

use super::sentences::{increments, outcome_text};

/// One cell: the run with this crash point and this store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    pub crash: CrashPoint,
    pub store: StoreKind,
    pub settings: Settings,
    pub committed: u64,
    pub outcome: Outcome,
    pub outcome_at: Millis,
}

impl Cell {
    /// "1 increment · succeeded at 4.05 s".
    pub fn text(&self) -> String {
        format!("{} · {} at {}", increments(self.committed), outcome_text(self.outcome), self.outcome_at)
    }

    /// The client and the ledger disagree, or the client gave up.
    pub fn is_trouble(&self) -> bool {
        self.committed != 1 || self.outcome != Outcome::Succeeded
    }
}

/// Rows are crash points, columns are stores. A cell whose run fails a
/// bound is left out (valid settings never do).
pub fn crash_matrix(base: &Settings) -> Vec<Vec<Option<Cell>>> {
    CrashPoint::ALL
        .into_iter()
        .map(|crash| {
            StoreKind::ALL
                .into_iter()
                .map(|store| {
                    let settings = base.set(&CRASH, crash).and_then(|s| s.set(&STORE, store)).ok()?;
                    let run = Run::simulate(&settings).ok()?;
                    let s = run.summary();
                    Some(Cell {
                        crash,
                        store,
                        committed: s.committed,
                        outcome: s.outcome,
                        outcome_at: s.outcome_at,
                        settings,
                    })
                })
                .collect()
        })
        .collect()
}

/// The row and column headings, in the matrix's order.
pub fn crash_heading(crash: CrashPoint) -> &'static str {
    match crash {
        CrashPoint::None => "No crash",
        CrashPoint::BeforeCommit => "Before the commit",
        CrashPoint::AfterEffect => "After the effect",
        CrashPoint::AfterRecord => "After storing the result",
    }
}

pub fn store_heading(store: StoreKind) -> &'static str {
    match store {
        StoreKind::InMemory => "In memory",
        StoreKind::DurableSeparate => "Durable, separate",
        StoreKind::DurableAtomic => "Durable, atomic",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::ack::settings::FAULT;

    #[test]
    fn the_matrix_answers_which_store_survives_which_crash() {
        // docs/model.md's worked examples 1, 2 and 4 (fault none), by hand:
        // after-effect: in-memory 2, durable-separate 1 (exhausted, orphan),
        // atomic 1; after-record: in-memory 2, durable 1.
        let base = Settings::from_pairs(&[(&FAULT, "none")]).unwrap();
        let m = crash_matrix(&base);
        let counters: Vec<Vec<u64>> =
            m.iter().map(|row| row.iter().map(|c| c.as_ref().unwrap().committed).collect()).collect();
        assert_eq!(counters, vec![vec![1, 1, 1], vec![1, 0, 0], vec![2, 1, 1], vec![2, 1, 1]]);
        let after_effect_separate = m[2][1].as_ref().unwrap();
        assert_eq!(after_effect_separate.outcome.name(), "exhausted");
        assert_eq!(after_effect_separate.outcome_at, Millis(12_000));
    }
}
