//! A finished run: its settings, event records, final table and ledger,
//! summary and checks, and the state at any moment of it. [`Workspace`]
//! runs many without allocating for each.

use crate::sim::SimError;
use crate::sim::Surely;
use crate::sim::driver::{Driver, Keep};
use crate::sim::time::Millis;

use super::checks::{Check, checks};
use super::database::Row;
use super::facts::Record;
use super::model::{EVENT_BUDGET, RiskModel};
use super::risk_api::Review;
use super::settings::Settings;
use super::snapshot::Snapshot;

/// The run in figures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summary {
    /// The time of the last record.
    pub end: Millis,
    /// Where the run stops: workers wake forever.
    pub horizon: Millis,
    /// Events the driver handled (stale ones included).
    pub events: usize,
    pub tool_calls: u32,
    pub reviews: u32,
    pub rows: u32,
    /// Creates sent to the Risk API (lost ones included) and probes.
    pub creates: u32,
    pub finds: u32,
    pub claims_won: u32,
    pub claims_lost: u32,
    pub overloaded: u32,
}

impl Summary {
    fn of(driver: &Driver<RiskModel>, horizon: Millis) -> Summary {
        let m = driver.model();
        Summary {
            end: driver.end(),
            horizon,
            events: driver.steps(),
            tool_calls: m.calls.len() as u32,
            reviews: m.api.reviews().len() as u32,
            rows: m.database.rows().len() as u32,
            creates: m.api.creates(),
            finds: m.api.finds(),
            claims_won: m.claims_won,
            claims_lost: m.claims_lost,
            overloaded: m.replicas.iter().map(|r| r.overloaded()).sum(),
        }
    }
}

/// Runs whole runs one after another, reusing the driver's memory.
pub struct Workspace {
    driver: Option<Driver<RiskModel>>,
    keep: Keep,
}

impl Default for Workspace {
    fn default() -> Self {
        Workspace { driver: None, keep: Keep::Records }
    }
}

impl Workspace {
    /// A workspace whose runs keep only their summaries (no event list).
    pub fn summaries_only() -> Workspace {
        Workspace { driver: None, keep: Keep::SummaryOnly }
    }

    /// Simulates `settings` to the horizon; the records stay readable until
    /// the next run.
    pub fn simulate(&mut self, settings: &Settings) -> Result<Summary, SimError> {
        let horizon = Some(settings.horizon);
        let driver = match &mut self.driver {
            Some(driver) => {
                driver.restart_with(|model| model.reset(settings), horizon);
                driver
            }
            None => {
                let mut driver = Driver::new(RiskModel::new(settings), EVENT_BUDGET, horizon);
                if self.keep == Keep::SummaryOnly {
                    driver.set_keep(Keep::SummaryOnly);
                    driver.restart_with(|model| model.reset(settings), horizon);
                }
                self.driver.insert(driver)
            }
        };
        driver.run_to_end()?;
        Ok(Summary::of(driver, settings.horizon))
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
    rows: Vec<Row>,
    reviews: Vec<Review>,
    summary: Summary,
}

impl Run {
    /// Simulates `settings` from time 0 to the horizon.
    pub fn simulate(settings: &Settings) -> Result<Run, SimError> {
        let mut driver = Driver::new(RiskModel::new(settings), EVENT_BUDGET, Some(settings.horizon));
        driver.run_to_end()?;
        let summary = Summary::of(&driver, settings.horizon);
        let (model, records) = driver.into_parts();
        Ok(Run {
            settings: settings.clone(),
            records,
            rows: model.database.rows().to_vec(),
            reviews: model.api.reviews().to_vec(),
            summary,
        })
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Every event in the order it happened.
    pub fn records(&self) -> &[Record] {
        &self.records
    }

    /// The table at the horizon.
    pub fn rows(&self) -> &[Row] {
        &self.rows
    }

    /// The Risk API's ledger at the horizon.
    pub fn reviews(&self) -> &[Review] {
        &self.reviews
    }

    pub fn summary(&self) -> &Summary {
        &self.summary
    }

    /// Where the run ends (its horizon).
    pub fn horizon(&self) -> Millis {
        self.settings.horizon
    }

    /// The events at or before `t`, oldest first.
    pub fn records_until(&self, t: Millis) -> &[Record] {
        let count = self.records.partition_point(|r| r.t <= t);
        &self.records[..count]
    }

    /// The fourteen checks as of `t`, from the records up to then.
    pub fn checks_at(&self, t: Millis) -> Vec<Check> {
        checks(&self.settings, self.records_until(t), t)
    }

    /// The fourteen checks at the horizon.
    pub fn checks(&self) -> Vec<Check> {
        self.checks_at(self.horizon())
    }

    /// The state of every actor once everything at or before `t` has
    /// happened. Runs are deterministic and cheap, so the state is
    /// recomputed rather than stored for every moment.
    pub fn snapshot_at(&self, t: Millis) -> Snapshot {
        let t = t.min(self.horizon());
        let mut driver = Driver::new(RiskModel::new(&self.settings), EVENT_BUDGET, Some(self.horizon()));
        // The whole run succeeded with these settings, so any prefix of it does.
        driver.run_until(t).surely("a prefix of a finished run stays within its bounds");
        Snapshot::of(driver.model(), t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::risk::settings::{Mode, Preset};

    #[test]
    fn a_workspace_gives_the_same_runs_as_fresh_drivers() {
        let mut ws = Workspace::default();
        for preset in Preset::ALL {
            for mode in [Mode::Naive, Mode::Patterns] {
                let settings = Settings::preset(preset, mode);
                let summary = ws.simulate(&settings).unwrap();
                let run = Run::simulate(&settings).unwrap();
                assert_eq!(&summary, run.summary(), "{preset:?} {mode:?}");
                assert_eq!(ws.records(), run.records());
            }
        }
    }

    #[test]
    fn a_snapshot_at_the_horizon_matches_the_run() {
        let run = Run::simulate(&Settings::preset(Preset::NotFoundResend, Mode::Patterns)).unwrap();
        let snapshot = run.snapshot_at(run.horizon());
        assert_eq!(snapshot.rows, run.rows());
        assert_eq!(snapshot.reviews, run.reviews());
    }
}
