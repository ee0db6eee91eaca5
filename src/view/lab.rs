//! What every lab is to the shells around it: the one trait the browser's
//! shared parts (run B, sharing, the form) and the command line call,
//! whatever the lab. A lab implements it on a unit type beside its words
//! (`view::ack::AckLab`, `view::risk::RiskLab`, `view::storm::StormLab`).

use crate::sim::{Millis, ParamDef, Schema};

use super::compare::DiffLine;
use super::labs::Lab;

/// A named starting point of a lab (a guided experiment, a preset).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Preset {
    pub id: &'static str,
    pub title: &'static str,
}

/// A lab, as the shells see it.
pub trait LabModel: Send + Sync + Sized + 'static {
    /// Its entry in the registry.
    const LAB: Lab;
    /// Its parameters.
    type Settings: Schema + PartialEq + Send + Sync + 'static;
    /// One finished run.
    type Run: Send + Sync + 'static;
    /// What differs between two runs.
    type Diff: Send + Sync + 'static;
    /// The setting run B's panel offers first.
    const FIRST_CHANGE: &'static ParamDef;

    fn simulate(settings: &Self::Settings) -> Result<Self::Run, String>;
    /// The settings a run was made from.
    fn settings(run: &Self::Run) -> &Self::Settings;
    /// The last moment a run can be described at: its end, or its horizon.
    fn last_moment(run: &Self::Run) -> Millis;
    /// The state at `at` in words.
    fn text_mirror(run: &Self::Run, at: Millis) -> String;
    /// Every event, a line each (the command line's text after the mirror).
    fn event_lines(run: &Self::Run) -> String;
    /// The whole run as a JSON document.
    fn report(run: &Self::Run) -> String;
    fn compare(a: &Self::Run, b: &Self::Run) -> Self::Diff;
    /// The "Differences" region's lines; `fork` is when B was forked.
    fn differences(a: &Self::Run, b: &Self::Run, diff: &Self::Diff, fork: Option<Millis>) -> Vec<DiffLine>;
    /// Its named starting points.
    fn presets() -> Vec<Preset>;
    /// The run as an OpenTelemetry trace (OTLP/JSON), for a lab whose
    /// runs have one.
    fn otlp(_run: &Self::Run) -> Option<String> {
        None
    }
}
