//! The risk-review lab in words and geometry: the incident's wall clock
//! and the report's ids, the SQL each database step stands for, one
//! sentence per event, the text mirror and the JSON report; and for the
//! page, the timeline, the table, the state machine, the checks, the
//! incident's log, a call's reconstruction, alerts, load and questions.

pub mod alerts;
pub mod broke;
pub mod checks;
pub mod compare;
pub mod diagram;
pub mod explore;
pub mod html;
pub mod incident;
pub mod kinds;
pub mod load;
pub mod machine;
pub mod mirror;
pub mod names;
pub mod opening;
pub mod otlp;
pub mod patterns;
pub mod questions;
pub mod report;
pub mod sentences;
pub mod series;
pub mod sql;
pub mod table;
pub mod trace;
pub mod verdicts;

pub use mirror::text_mirror;
pub use names::clock;
pub use report::run_to_json;
pub use sentences::{check_line, sentence};

use crate::sim::risk::{Run, Settings};
use crate::sim::{Millis, ParamDef};

use super::compare::DiffLine;
use super::explore::Explorer;
use super::lab::{LabModel, Preset, Replayed};
use super::labs::{Lab, LabEntry};

/// The risk-review lab, as the shells see it.
pub struct RiskLab;

/// What the risk lab is called.
pub const RISK: Lab = &LabEntry {
    id: "risk",
    aliases: &[],
    label: "Risk review",
    title: "Idempotency Lab: the risk-review incident",
    summary: "the risk-review incident and the patterns that prevent it (docs/risk-model.md)",
    workers: &[],
};

impl LabModel for RiskLab {
    const LAB: Lab = RISK;
    type Settings = Settings;
    type Run = Run;
    type Diff = crate::sim::risk::compare::Comparison;
    const FIRST_CHANGE: &'static ParamDef = crate::sim::risk::settings::IDEMPOTENT_CREATE.def();
    const OPENING: Option<fn() -> String> = Some(opening::page);

    fn simulate(settings: &Settings) -> Result<Run, String> {
        Run::simulate(settings).map_err(|e| e.to_string())
    }
    fn settings(run: &Run) -> &Settings {
        run.settings()
    }
    fn last_moment(run: &Run) -> Millis {
        run.horizon()
    }
    fn text_mirror(run: &Run, at: Millis) -> String {
        text_mirror(run, at)
    }
    fn event_lines(run: &Run) -> String {
        run.records()
            .iter()
            .map(|r| {
                format!(
                    "{}  {:>9}  {:<13} {:<18} {}\n",
                    clock(r.t),
                    r.t.to_string(),
                    r.actor.name(),
                    r.kind(),
                    sentence(r)
                )
            })
            .collect()
    }
    fn report(run: &Run) -> String {
        run_to_json(run)
    }
    fn compare(a: &Run, b: &Run) -> Self::Diff {
        Self::Diff::of(a, b)
    }
    fn differences(a: &Run, b: &Run, diff: &Self::Diff, fork: Option<Millis>) -> Vec<DiffLine> {
        compare::differences(a, b, diff, fork)
    }
    fn otlp(run: &Run) -> Option<String> {
        Some(otlp::run_to_otlp(run))
    }
    fn presets() -> Vec<Preset> {
        crate::sim::risk::Preset::ALL.into_iter().map(|p| Preset { id: p.value(), title: p.label() }).collect()
    }
    const EXPLORER: Option<Explorer<Self>> = Some(Explorer::of());

    /// Its presets' speed, and the explorer's.
    #[cfg(not(target_arch = "wasm32"))]
    fn bench(_runs: u64) -> String {
        crate::cli::bench::risk() + &crate::cli::bench::risk_explore()
    }
}

impl Replayed for RiskLab {
    fn end(run: &Run) -> Millis {
        diagram::end_of(run)
    }
    /// Markers after the end are not steps.
    fn next_event_time(run: &Run, t: Millis) -> Option<Millis> {
        let records = run.records();
        records.get(records.partition_point(|x| x.t <= t)).map(|x| x.t).filter(|&next| next <= diagram::end_of(run))
    }
    fn previous_event_time(run: &Run, t: Millis) -> Option<Millis> {
        let records = run.records();
        records[..records.partition_point(|x| x.t < t)].last().map(|x| x.t)
    }
    /// The first few events at `t`, and how many more there are.
    fn said_at(run: &Run, t: Millis) -> String {
        let here: Vec<String> = run.records().iter().filter(|r| r.t == t).take(4).map(sentence).collect();
        let more = run.records().iter().filter(|r| r.t == t).count().saturating_sub(here.len());
        match more {
            0 => here.join(" "),
            more => format!("{} And {more} more events at this moment.", here.join(" ")),
        }
    }
    /// On the incident's clock.
    fn when(t: Millis) -> String {
        names::when(t)
    }
    fn quiet_at(t: Millis) -> String {
        format!("{}.", names::when(t))
    }
    fn wall_clock(t: Millis) -> Option<String> {
        Some(names::clock(t))
    }
    fn diagram_svg(run: &Run, frame: crate::view::timeline::Frame, at: Millis) -> String {
        diagram::diagram_in(run, frame).to_svg(Some(at))
    }
    fn comparison_document(a: &Run, b: &Run, diff: &Self::Diff, fork: Option<Millis>) -> String {
        report::compare_to_json(a, b, diff, fork) + "\n"
    }
}
