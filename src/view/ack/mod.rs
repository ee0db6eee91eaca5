//! The lost-acknowledgement lab in words and pictures: sentences, the text
//! mirror, the JSON report, the diagram, the crash matrix and the guided
//! experiments.

pub mod broke;
pub mod compare;
pub mod diagram;
pub mod experiments;
pub mod explore;
pub mod matrix;
pub mod mirror;
pub mod opening;
pub mod otlp;
pub mod report;
pub mod results;
pub mod sentences;

pub use diagram::diagram;
pub use mirror::{text_mirror, text_mirror_with};
pub use report::run_to_json;
pub use sentences::{increments, sentence};

use crate::sim::ack::{Run, Settings};
use crate::sim::{Millis, ParamDef};

use super::compare::DiffLine;
use super::explore::Explorer;
use super::lab::{LabModel, Preset, Replayed};
use super::labs::{Lab, LabEntry};

/// The lost-acknowledgement lab, as the shells see it.
pub struct AckLab;

/// What the first lab is called.
pub const ACK: Lab = &LabEntry {
    id: "ack",
    aliases: &["run"],
    label: "Lost acknowledgement",
    title: "Idempotency Lab: retries, lost acknowledgements and idempotency keys",
    summary: "one client, a lost acknowledgement and a retry (docs/model.md)",
    workers: &[],
};

impl LabModel for AckLab {
    const LAB: Lab = ACK;
    type Settings = Settings;
    type Run = Run;
    type Diff = crate::sim::ack::compare::Comparison;
    const FIRST_CHANGE: &'static ParamDef = crate::sim::ack::settings::DEDUP.def();
    const OPENING: Option<fn() -> String> = Some(opening::page);

    fn simulate(settings: &Settings) -> Result<Run, String> {
        Run::simulate(settings).map_err(|e| e.to_string())
    }
    fn settings(run: &Run) -> &Settings {
        run.settings()
    }
    fn last_moment(run: &Run) -> Millis {
        run.end()
    }
    fn text_mirror(run: &Run, at: Millis) -> String {
        text_mirror(run, at)
    }
    fn event_lines(run: &Run) -> String {
        run.records()
            .iter()
            .map(|r| {
                format!(
                    "{:>9}  {:<22} {:<8} {:<10} {}\n",
                    r.t.to_string(),
                    r.kind(),
                    format!("#{}", r.attempt),
                    r.key.map_or_else(|| "-".to_owned(), |k| k.to_string()),
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
        experiments::EXPERIMENTS.iter().map(|e| Preset { id: e.id, title: e.title }).collect()
    }
    const EXPLORER: Option<Explorer<Self>> = Some(Explorer::of());

    /// Whole runs of the opening settings per second, and the explorer's speed.
    #[cfg(not(target_arch = "wasm32"))]
    fn bench(runs: u64) -> String {
        crate::cli::bench::run(runs).render() + &crate::cli::bench::ack_explore()
    }
}

impl Replayed for AckLab {
    fn end(run: &Run) -> Millis {
        run.end()
    }
    fn next_event_time(run: &Run, t: Millis) -> Option<Millis> {
        run.next_event_time(t)
    }
    fn previous_event_time(run: &Run, t: Millis) -> Option<Millis> {
        run.previous_event_time(t)
    }
    /// Every event at `t`.
    fn said_at(run: &Run, t: Millis) -> String {
        run.records().iter().filter(|r| r.t == t).map(sentence).collect::<Vec<_>>().join(" ")
    }
    fn diagram_svg(run: &Run, frame: crate::view::timeline::Frame, at: Millis) -> String {
        diagram::diagram_in(run, frame).to_svg(Some(at))
    }
    fn comparison_document(a: &Run, b: &Run, diff: &Self::Diff, fork: Option<Millis>) -> String {
        report::compare_to_json(a, b, diff, fork) + "\n"
    }
}

#[cfg(test)]
mod lab_tests {
    use super::*;

    #[test]
    fn the_first_lab_is_the_registry_first_entry() {
        assert_eq!(AckLab::LAB, super::super::labs::LABS[0]);
    }
}
