//! A finished run: its settings, event records, ledger and summary, and the
//! state at any moment of it.

use super::SimError;
use super::engine::Simulation;
use super::event::{Outcome, Record};
use super::ledger::LedgerEntry;
use super::settings::Settings;
use super::snapshot::Snapshot;
use super::time::Millis;

/// MODEL.md's observable summary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summary {
    pub outcome: Outcome,
    pub outcome_at: Millis,
    /// When the client was acknowledged; only for `Succeeded`.
    pub ack_at: Option<Millis>,
    /// The time of the last event, expiry markers excluded.
    pub end: Millis,
    pub committed: u64,
    pub dedup_hits: u32,
    pub attempts: u32,
    pub lost_responses: u32,
    pub late_responses: u32,
}

impl Summary {
    /// The client reports success but the ledger does not hold exactly one
    /// increment: the lesson of the model.
    pub fn disagrees(&self) -> bool {
        self.outcome == Outcome::Succeeded && self.committed != 1
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    settings: Settings,
    records: Vec<Record>,
    ledger: Vec<LedgerEntry>,
    summary: Summary,
}

impl Run {
    /// Simulates `settings` from time 0 to the end.
    pub fn simulate(settings: &Settings) -> Result<Run, SimError> {
        Simulation::new(settings).run_to_end()
    }

    pub(crate) fn from_parts(
        settings: Settings,
        records: Vec<Record>,
        ledger: Vec<LedgerEntry>,
        summary: Summary,
    ) -> Run {
        Run { settings, records, ledger, summary }
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Every event in the order it happened.
    pub fn records(&self) -> &[Record] {
        &self.records
    }

    pub fn ledger(&self) -> &[LedgerEntry] {
        &self.ledger
    }

    pub fn summary(&self) -> &Summary {
        &self.summary
    }

    pub fn end(&self) -> Millis {
        self.summary.end
    }

    /// The events at or before `t`, oldest first.
    pub fn records_until(&self, t: Millis) -> &[Record] {
        let count = self.records.partition_point(|r| r.t <= t);
        &self.records[..count]
    }

    /// The first event time after `t`, if any.
    pub fn next_event_time(&self, t: Millis) -> Option<Millis> {
        self.records.iter().map(|r| r.t).find(|&rt| rt > t)
    }

    /// The last event time before `t`, if any.
    pub fn previous_event_time(&self, t: Millis) -> Option<Millis> {
        self.records.iter().rev().map(|r| r.t).find(|&rt| rt < t)
    }

    /// The state of every actor once everything at or before `t` has
    /// happened. Runs are deterministic and cheap, so the state is
    /// recomputed rather than stored for every moment.
    pub fn snapshot_at(&self, t: Millis) -> Snapshot {
        let mut sim = Simulation::new(&self.settings);
        // The whole run succeeded with these settings, so any prefix of it does.
        sim.run_until(t).expect("a prefix of a finished run stays within its bounds");
        sim.snapshot_at(t)
    }
}
