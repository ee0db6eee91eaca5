//! The risk-review lab in words and geometry: the incident's wall clock
//! and the report's ids, the SQL each database step stands for, one
//! sentence per event, the text mirror and the JSON report; and for the
//! page, the timeline, the table, the state machine, the checks, the
//! incident's log, a call's reconstruction, alerts, load and questions.

pub mod alerts;
pub mod broke;
pub mod compare;
pub mod diagram;
pub mod html;
pub mod incident;
pub mod load;
pub mod machine;
pub mod mirror;
pub mod names;
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
use super::lab::{LabModel, Preset};
use super::labs::Lab;

/// The risk-review lab, as the shells see it.
pub struct RiskLab;

impl LabModel for RiskLab {
    const LAB: Lab = &super::labs::LABS[1];
    type Settings = Settings;
    type Run = Run;
    type Diff = crate::sim::risk::compare::Comparison;
    const FIRST_CHANGE: &'static ParamDef = crate::sim::risk::settings::IDEMPOTENT_CREATE.def();

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
}
