//! Retry storms in words and numbers: the text and JSON reports of runs and
//! sweeps (the command line's output and the browser's export).

pub mod charts;
pub mod compare;
pub mod opening;
pub mod presets;
pub mod protocol;
pub mod report;
pub mod totals;

pub use report::{occ_json, occ_text, overload_json, overload_text, sweep_json, sweep_text};

use crate::sim::rng::Rng;
use crate::sim::storm::compare::{PairError, StormPair};
use crate::sim::storm::settings::{StormSettings, Workload};
use crate::sim::storm::{OccRun, OccRunner, OverloadRun};
use crate::sim::{Micros, Millis, ParamDef};

use super::compare::DiffLine;
use super::lab::{LabModel, Preset};
use super::labs::{Lab, LabEntry};

/// One storm run, with the settings it was made from.
#[derive(Clone, Debug)]
pub enum StormRun {
    Overload(StormSettings, Box<OverloadRun>),
    Occ(StormSettings, OccRun),
}

/// The storm lab, as the shells see it. Its page runs storms in a worker
/// (`protocol`); the command line and the tests run them here.
pub struct StormLab;

/// What the storm lab is called. Its engine runs in a worker of its own.
pub const STORMS: Lab = &LabEntry {
    id: "storms",
    aliases: &["storm"],
    label: "Storms",
    title: "Idempotency Lab: retry storms",
    summary: "retry storms with many clients (docs/storms.md)",
    workers: &["storm-worker"],
};

impl LabModel for StormLab {
    const LAB: Lab = STORMS;
    type Settings = StormSettings;
    type Run = StormRun;
    type Diff = Result<StormPair, PairError>;
    const FIRST_CHANGE: &'static ParamDef = crate::sim::storm::settings::MAX_ATTEMPTS.def();
    const OPENING: Option<fn() -> String> = Some(opening::page);

    fn simulate(settings: &StormSettings) -> Result<StormRun, String> {
        match settings.workload {
            Workload::Overload => OverloadRun::simulate(settings)
                .map(|run| StormRun::Overload(settings.clone(), Box::new(run)))
                .map_err(|e| e.to_string()),
            Workload::Occ => OccRunner::default()
                .run(settings.occ, Rng::new(settings.seed))
                .map(|run| StormRun::Occ(settings.clone(), run))
                .map_err(|e| e.to_string()),
        }
    }
    fn settings(run: &StormRun) -> &StormSettings {
        match run {
            StormRun::Overload(s, _) | StormRun::Occ(s, _) => s,
        }
    }
    fn last_moment(run: &StormRun) -> Millis {
        let us = match run {
            StormRun::Overload(_, r) => r.totals.end_us,
            StormRun::Occ(_, r) => r.completion_us,
        };
        Millis(Micros(us).us() / 1000)
    }
    /// A storm is reported whole: its totals, whatever the moment.
    fn text_mirror(run: &StormRun, _at: Millis) -> String {
        match run {
            StormRun::Overload(s, r) => overload_text(s, std::slice::from_ref(r)),
            StormRun::Occ(s, r) => occ_text(s, std::slice::from_ref(r)),
        }
    }
    /// Thousands of clients make too many events to list.
    fn event_lines(_run: &StormRun) -> String {
        String::new()
    }
    fn report(run: &StormRun) -> String {
        match run {
            StormRun::Overload(s, r) => overload_json(s, std::slice::from_ref(r)),
            StormRun::Occ(s, r) => occ_json(s, std::slice::from_ref(r)),
        }
    }
    fn compare(a: &StormRun, b: &StormRun) -> Self::Diff {
        StormPair::simulate(Self::settings(a), Self::settings(b))
    }
    fn differences(a: &StormRun, b: &StormRun, diff: &Self::Diff, _fork: Option<Millis>) -> Vec<DiffLine> {
        match diff {
            Ok(pair) => compare::differences(Self::settings(a), Self::settings(b), pair)
                .into_iter()
                .map(|d| DiffLine { label: d.label, text: d.text })
                .collect(),
            Err(e) => vec![DiffLine { label: "Run B".to_owned(), text: format!("not compared: {e}") }],
        }
    }
    fn presets() -> Vec<Preset> {
        presets::PRESETS.iter().map(|p| Preset { id: p.id, title: p.title }).collect()
    }

    /// Runs and sweeps (`--reps`, `--sweep aws`) as well as one run.
    #[cfg(not(target_arch = "wasm32"))]
    fn command(args: &[String]) -> Result<String, crate::cli::UsageError> {
        crate::cli::storm::command(args)
    }

    /// The AWS sweep on one thread and on two, and a 100 000-client run.
    #[cfg(not(target_arch = "wasm32"))]
    fn bench(runs: u64) -> String {
        crate::cli::storm::bench(runs)
    }
}
