//! A finished run: its settings, event records, ledger and summary, and the
//! state at any moment of it. [`Workspace`] runs many without allocating
//! for each.

use crate::sim::SimError;
use crate::sim::Surely;
use crate::sim::driver::{Driver, Keep};
use crate::sim::time::Millis;

use super::client::ClientState;
use super::facts::{Outcome, Record};
use super::ledger::LedgerEntry;
use super::model::{AckModel, EVENT_BUDGET};
use super::settings::Settings;
use super::snapshot::Snapshot;

/// docs/model.md's report of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summary {
    pub outcome: Outcome,
    pub outcome_at: Millis,
    /// When the client was acknowledged; only for `Succeeded`.
    pub ack_at: Option<Millis>,
    /// The time of the last event, markers excluded.
    pub end: Millis,
    pub committed: u64,
    pub dedup_hits: u32,
    pub attempts: u32,
    pub lost_responses: u32,
    pub late_responses: u32,
    /// 409s sent.
    pub conflicts: u32,
    /// Requests refused while the server was down.
    pub refused: u32,
    /// 422s sent.
    pub unprocessable: u32,
    /// Hits whose payload differed from the one stored or reserved.
    pub mismatched_hits: u32,
    pub crash_at: Option<Millis>,
    pub restart_at: Option<Millis>,
}

impl Summary {
    /// The client reports success but the ledger does not hold exactly one
    /// increment: the lesson of the model.
    pub fn disagrees(&self) -> bool {
        self.outcome == Outcome::Succeeded && self.committed != 1
    }

    fn of(driver: &Driver<AckModel>) -> Result<Summary, SimError> {
        let model = driver.model();
        let client = model.client();
        let ClientState::Done { outcome, at: outcome_at } = client.state() else {
            // The queue ran dry with the client still waiting: a bug,
            // reported rather than trusted.
            return Err(SimError::Stalled { at: driver.now().ms() });
        };
        let end = driver.end();
        Ok(Summary {
            outcome,
            outcome_at,
            ack_at: client.ack(),
            end,
            committed: model.ledger.counter(),
            dedup_hits: model.server.dedup_hits(),
            attempts: client.attempts_sent(),
            lost_responses: model.network.lost_count(),
            late_responses: model.late_responses,
            conflicts: model.server.conflicts(),
            refused: model.server.refused(),
            unprocessable: model.server.unprocessable(),
            mismatched_hits: model.server.mismatched_hits(),
            crash_at: model.crash.map(|c| c.0),
            restart_at: model.crash.map(|c| c.1),
        })
    }
}

/// Runs whole runs one after another, reusing the driver's memory.
pub struct Workspace {
    driver: Option<Driver<AckModel>>,
    keep: Keep,
}

impl Default for Workspace {
    fn default() -> Self {
        Workspace { driver: None, keep: Keep::Records }
    }
}

impl Workspace {
    /// A workspace whose runs keep only their summaries and ledgers (no
    /// event list): for sweeps.
    pub fn summaries_only() -> Workspace {
        Workspace { driver: None, keep: Keep::SummaryOnly }
    }

    /// Simulates `settings` to the end and returns the summary; the records
    /// and the ledger stay readable until the next run.
    pub fn simulate(&mut self, settings: &Settings) -> Result<Summary, SimError> {
        let driver = match &mut self.driver {
            Some(driver) => {
                driver.restart_with(|model| model.reset(settings), None);
                driver
            }
            None => {
                let mut driver = Driver::new(AckModel::new(settings), EVENT_BUDGET, None);
                if self.keep == Keep::SummaryOnly {
                    driver.set_keep(Keep::SummaryOnly);
                    driver.restart_with(|model| model.reset(settings), None);
                }
                self.driver.insert(driver)
            }
        };
        driver.run_to_end()?;
        Summary::of(driver)
    }

    /// The records of the last run (none for a summaries-only workspace).
    pub fn records(&self) -> &[Record] {
        self.driver.as_ref().map_or(&[], |d| d.records())
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
        let mut driver = Driver::new(AckModel::new(settings), EVENT_BUDGET, None);
        driver.run_to_end()?;
        let summary = Summary::of(&driver)?;
        let (model, records) = driver.into_parts();
        Ok(Run { settings: settings.clone(), records, ledger: model.ledger.entries().to_vec(), summary })
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
        let mut driver = Driver::new(AckModel::new(&self.settings), EVENT_BUDGET, None);
        // The whole run succeeded with these settings, so any prefix of it does.
        driver.run_until(t).surely("a prefix of a finished run stays within its bounds");
        Snapshot::of(driver.model(), t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stepping_by_hand_gives_the_same_run_as_running_to_the_end() {
        let settings = Settings::default();
        let whole = Run::simulate(&settings).unwrap();
        let mut driver = Driver::new(AckModel::new(&settings), EVENT_BUDGET, None);
        let mut times = Vec::new();
        while driver.step().unwrap() {
            times.push(driver.now());
        }
        assert!(times.windows(2).all(|w| w[0] <= w[1]), "time never goes backwards");
        assert_eq!(driver.records(), whole.records());
        assert!(driver.is_finished());
        assert!(!driver.step().unwrap(), "a finished run stays finished");
    }

    #[test]
    fn run_until_handles_everything_at_or_before_its_time_and_nothing_after() {
        let mut driver = Driver::new(AckModel::new(&Settings::default()), EVENT_BUDGET, None);
        driver.run_until(Millis(2000)).unwrap();
        assert_eq!(driver.now(), Millis(2000));
        assert_eq!(driver.records().last().map(|r| r.kind()), Some("operation-committed"));
        let snapshot = Snapshot::of(driver.model(), Millis(2000));
        assert_eq!(snapshot.counter(), 1);
        // The lost response at 2050 has not happened yet.
        assert_eq!(snapshot.in_transit.len(), 1);
    }

    #[test]
    fn a_workspace_gives_the_same_runs_as_fresh_drivers() {
        let mut ws = Workspace::default();
        for flags in [Settings::default(), Settings::from_pairs(&[(&super::super::settings::DEDUP, "off")]).unwrap()] {
            let summary = ws.simulate(&flags).unwrap();
            let run = Run::simulate(&flags).unwrap();
            assert_eq!(&summary, run.summary());
            assert_eq!(ws.records(), run.records());
        }
    }
}
