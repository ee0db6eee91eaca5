//! What every lab is to the shells around it: the one trait the browser's
//! shared parts (run B, sharing, the form) and the command line call,
//! whatever the lab. A lab implements it on a unit type beside its words
//! (`view::ack::AckLab` is the first lab's), and the registry
//! (`view::labs::Registry`) names that type.

use crate::sim::{Millis, ParamDef, Schema};

use super::compare::DiffLine;
use super::explore::Explorer;
use super::labs::Lab;
use super::timeline::Frame;

/// A named starting point of a lab (a guided experiment, a preset).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Preset {
    pub id: &'static str,
    pub title: &'static str,
}

/// A lab, as the shells see it.
pub trait LabModel: Send + Sync + Sized + 'static {
    /// What it is called (its entry in the registry).
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
    /// The whole run as a JSON object.
    fn report(run: &Self::Run) -> String;
    /// The whole run as a file: the document the command line's
    /// `--format json` prints and the page's "Export run (JSON)" saves,
    /// byte for byte.
    fn document(run: &Self::Run) -> String {
        Self::report(run) + "\n"
    }
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

    /// What makes its opening run as the page's markup, written at build
    /// time so a reader sees it before any WebAssembly arrives
    /// (`idempotency-lab opening`), if it has one.
    const OPENING: Option<fn() -> String> = None;

    /// How it explores every schedule of its aimed faults, if it does (a
    /// lab that explores implements `view::explore::Explores` and says so
    /// here with `Some(Explorer::of::<Self>())`).
    const EXPLORER: Option<Explorer<Self>> = None;

    /// Its command on the command line (native only), its arguments after
    /// its name in: by default the generic one, which describes a run at a
    /// moment.
    #[cfg(not(target_arch = "wasm32"))]
    fn command(args: &[String]) -> Result<String, crate::cli::UsageError> {
        crate::cli::lab::command::<Self>(args)
    }

    /// `bench --lab <id>` (native only): how fast its core runs, a
    /// `name<TAB>value` line per figure; by default whole runs of its
    /// opening settings.
    #[cfg(not(target_arch = "wasm32"))]
    fn bench(runs: u64) -> String {
        crate::cli::bench::whole_runs::<Self>(runs)
    }
}

/// A lab whose run is replayed on a playhead (and run B beside it on the
/// same clock): what playback, the diagram's export and run B's export
/// need of it. The page's shared parts (`ui::replayed`) are written once
/// over this.
pub trait Replayed: LabModel {
    /// Where playback of a run ends.
    fn end(run: &Self::Run) -> Millis;
    /// The first event time after `t`, up to the end.
    fn next_event_time(run: &Self::Run, t: Millis) -> Option<Millis>;
    /// The last event time before `t`.
    fn previous_event_time(run: &Self::Run, t: Millis) -> Option<Millis>;
    /// What happens at `t`, in words (empty where nothing does), for the
    /// live region.
    fn said_at(run: &Self::Run, t: Millis) -> String;
    /// A moment as the lab names it before what happens there.
    fn when(t: Millis) -> String {
        t.to_string()
    }
    /// What the live region says at a moment where nothing happens.
    fn quiet_at(t: Millis) -> String {
        format!("Model time {t}.")
    }
    /// The lab's own wall clock at `t`, shown beside model time, if it has
    /// one.
    fn wall_clock(_t: Millis) -> Option<String> {
        None
    }
    /// The diagram of a run as a standalone SVG, laid out in `frame`, the
    /// playhead at `at`.
    fn diagram_svg(run: &Self::Run, frame: Frame, at: Millis) -> String;
    /// Run A, run B and their differences as one file, as
    /// "Export run (JSON)" saves it while comparing.
    fn comparison_document(a: &Self::Run, b: &Self::Run, diff: &Self::Diff, fork: Option<Millis>) -> String;
}
