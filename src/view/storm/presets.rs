//! The storm lab's presets: each sets up a run that tells one part of the
//! story, asks for a prediction, and explains the answer with the run's own
//! figures. And the heat map's choices of axes and figures.

use crate::sim::ParamDef;
use crate::sim::storm::settings::{
    ALGORITHM, BASE, BUDGET, CAP, CLIENTS, DEDUP, EXEC, KEY, QUEUE, SPIKE, TIMEOUT, WORKLOAD,
};

use super::report::OverloadReport;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Question {
    /// "After the spike ends, is the server back under capacity within one
    /// timeout?"
    Recovers,
    /// "How many duplicate effects will the ledger hold?"
    Duplicates,
    /// "What answers most of the excess load?"
    Refusals,
}

impl Question {
    pub fn text(self) -> &'static str {
        match self {
            Question::Recovers => "After the spike ends, is the server back under capacity within one timeout?",
            Question::Duplicates => "How many duplicate effects will the ledger hold?",
            Question::Refusals => "What answers most of the excess load?",
        }
    }

    pub fn choices(self) -> &'static [&'static str] {
        match self {
            Question::Recovers => &["yes", "no"],
            Question::Duplicates => &["none", "a few", "hundreds or more"],
            Question::Refusals => &["timeouts", "429s"],
        }
    }

    /// The totals it asks about (their names on the page), where its
    /// question sits.
    pub fn about(self) -> &'static [&'static str] {
        match self {
            Question::Recovers => &["Over capacity after the spike"],
            Question::Duplicates => &["Duplicate effects"],
            Question::Refusals => &["429s", "Timeouts"],
        }
    }

    /// The right choice for a run.
    pub fn answer(self, run: &OverloadReport, timeout_ms: f64) -> &'static str {
        match self {
            Question::Recovers => {
                if run.saturated_after_spike_ms <= timeout_ms {
                    "yes"
                } else {
                    "no"
                }
            }
            Question::Duplicates => match run.totals.duplicate_effects {
                0 => "none",
                d if d < 100 => "a few",
                _ => "hundreds or more",
            },
            Question::Refusals => {
                if run.totals.rejected_429 >= run.totals.timeouts {
                    "429s"
                } else {
                    "timeouts"
                }
            }
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub struct Preset {
    pub id: &'static str,
    pub title: &'static str,
    /// Applied on top of the defaults.
    pub setup: &'static [(&'static ParamDef, &'static str)],
    pub question: Option<Question>,
    /// Why it comes out as it does; `{saturated}`, `{wasted}`, `{intents}`,
    /// `{duplicates}`, `{retries}`, `{rejected}`, `{timeouts}` and
    /// `{amplification}` are filled in from the run.
    pub why: &'static str,
}

/// What the presets are for, under their heading.
pub const PRESETS_HINT: &str = "Each sets up a storm, asks what you predict, then explains the run's figures.";

pub const PRESETS: &[Preset] = &[
    Preset {
        id: "spike",
        title: "A spike, no jitter, no budget",
        setup: &[],
        question: Some(Question::Recovers),
        why: "The spike pushes the queue past what the server can finish within a timeout. Every waiting client \
              times out and retries at once, while the server still executes the abandoned requests: {wasted} of \
              {intents} operations were wasted, and retries kept the server over capacity for {saturated} after \
              the spike ended. The trigger is gone; the overload feeds itself.",
    },
    Preset {
        id: "spike-jitter",
        title: "The same spike with full jitter",
        setup: &[(ALGORITHM.def(), "full"), (BASE.def(), "100"), (CAP.def(), "5000")],
        question: Some(Question::Recovers),
        why: "Jitter spreads the retries out in time but does not make them fewer: every timed-out attempt still \
              comes back, {retries} retries in all, and the server stayed over capacity for {saturated} after the \
              spike. Jitter cures contention between clients, not overload.",
    },
    Preset {
        id: "token-bucket",
        title: "The same spike with a token bucket",
        setup: &[(BUDGET.def(), "token-bucket")],
        question: Some(Question::Recovers),
        why: "The shared bucket pays 10 tokens for a retry after a timeout and earns 1 per success; once the spike \
              drains it, clients stop retrying. Only {retries} retries were sent, and the server was over capacity \
              for {saturated} after the spike. A retry budget turns a storm back into the original load.",
    },
    Preset {
        id: "dedup",
        title: "Deduplication with stable keys",
        setup: &[(DEDUP.def(), "on"), (KEY.def(), "stable")],
        question: Some(Question::Duplicates),
        why: "Each retry carries its intent's key, so the server joins it to the operation already queued or \
              running instead of adding work: {duplicates} duplicate effects, an amplification of {amplification}, \
              and the server over capacity for {saturated} after the spike.",
    },
    Preset {
        id: "small-queue",
        title: "A small queue that answers 429 fast",
        setup: &[(QUEUE.def(), "20")],
        question: Some(Question::Refusals),
        why: "With room for only 20 waiting requests, the server refuses the excess at once ({rejected} 429s) \
              instead of letting it wait past the clients' timeouts ({timeouts} timeouts): nothing it executes is \
              wasted ({wasted} wasted operations), and it was over capacity for {saturated} after the spike.",
    },
    Preset {
        id: "aws",
        title: "The AWS backoff experiment",
        setup: &[
            (WORKLOAD.def(), "occ"),
            (CLIENTS.def(), "100"),
            (ALGORITHM.def(), "full"),
            (BASE.def(), "5"),
            (CAP.def(), "2000"),
        ],
        question: None,
        why: "Clients race to write one row with optimistic concurrency. Run the sweep to draw the blog's two \
              charts: the work (write calls) and the time to finish against the number of clients, one line per \
              algorithm, with the reference means (a Python port of the published simulator's rules) as dots.",
    },
];

impl Preset {
    /// The preset's explanation with the run's figures filled in.
    pub fn explain(&self, run: &OverloadReport) -> String {
        let t = &run.totals;
        self.why
            .replace("{saturated}", &format!("{:.2} s", run.saturated_after_spike_ms / 1000.0))
            .replace("{wasted}", &t.wasted_operations.to_string())
            .replace("{intents}", &t.intents.to_string())
            .replace("{duplicates}", &t.duplicate_effects.to_string())
            .replace("{retries}", &t.retries.to_string())
            .replace("{rejected}", &t.rejected_429.to_string())
            .replace("{timeouts}", &t.timeouts.to_string())
            .replace("{amplification}", &format!("{:.2}", run.amplification))
    }
}

/// A pair of settings the heat map can sweep, with the values it tries.
#[derive(Clone, Copy, Debug)]
pub struct Axes {
    pub label: &'static str,
    pub x: (&'static ParamDef, &'static [&'static str]),
    pub y: (&'static ParamDef, &'static [&'static str]),
}

pub const AXES: &[Axes] = &[
    Axes {
        label: "Spike size × retry policy",
        x: (SPIKE.def(), &["1", "2", "3", "4", "6"]),
        y: (ALGORITHM.def(), &["none", "exponential", "full", "equal", "decorrelated"]),
    },
    Axes {
        label: "Timeout × execution time",
        x: (TIMEOUT.def(), &["0.1", "0.25", "0.5", "1", "2"]),
        y: (EXEC.def(), &["0.01", "0.02", "0.03", "0.04"]),
    },
    Axes {
        label: "Spike size × retry budget",
        x: (SPIKE.def(), &["1", "2", "3", "4", "6"]),
        y: (BUDGET.def(), &["none", "token-bucket", "grpc"]),
    },
];

/// What the heat map colours its cells by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Figure {
    Wasted,
    Duplicates,
    P99,
    Saturated,
}

impl Figure {
    pub const ALL: [Figure; 4] = [Figure::Wasted, Figure::Duplicates, Figure::P99, Figure::Saturated];

    pub fn label(self) -> &'static str {
        match self {
            Figure::Wasted => "Wasted operations per intent",
            Figure::Duplicates => "Duplicate effects",
            Figure::P99 => "p99 latency (ms)",
            Figure::Saturated => "Over capacity after the spike (ms)",
        }
    }

    pub fn of(self, cell: &super::protocol::GridCell) -> f64 {
        match self {
            Figure::Wasted => cell.wasted,
            Figure::Duplicates => cell.duplicates,
            Figure::P99 => cell.p99_ms.unwrap_or(0.0),
            Figure::Saturated => cell.saturated_ms,
        }
    }
}

/// Whether a setting matters to a workload (the form shows only those).
pub fn relevant(param: &ParamDef, workload: crate::sim::storm::settings::Workload) -> bool {
    use crate::sim::storm::settings::{NET_MEAN, NET_SD, SEED, Workload};
    let shared: [&ParamDef; 6] = [&WORKLOAD, &CLIENTS, &ALGORITHM, &BASE, &CAP, &SEED];
    if shared.iter().any(|p| p.name == param.name) {
        return true;
    }
    let occ_only = [&NET_MEAN, &NET_SD].iter().any(|p| p.name == param.name);
    match workload {
        Workload::Occ => occ_only,
        Workload::Overload => !occ_only,
    }
}

/// The heat-map colour class (0 to 5) of `value` between `low` and `high`.
pub fn heat(value: f64, low: f64, high: f64) -> usize {
    if high <= low || high.is_nan() || low.is_nan() || !value.is_finite() {
        return 0;
    }
    (((value - low) / (high - low)) * 5.0).round().clamp(0.0, 5.0) as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::storm::{OverloadRun, StormSettings};

    fn run(preset: &Preset) -> (StormSettings, OverloadReport) {
        let s = StormSettings::from_pairs(preset.setup).unwrap();
        let r = OverloadReport::of(&OverloadRun::simulate(&s).unwrap());
        (s, r)
    }

    #[test]
    fn the_presets_tell_their_story() {
        let answer = |id: &str| {
            let p = PRESETS.iter().find(|p| p.id == id).unwrap();
            let (s, r) = run(p);
            let a = p.question.unwrap().answer(&r, s.client.timeout_us as f64 / 1000.0);
            assert!(!p.explain(&r).contains('{'), "{id}");
            a
        };
        assert_eq!(answer("spike"), "no");
        assert_eq!(answer("spike-jitter"), "no");
        assert_eq!(answer("token-bucket"), "yes");
        assert_eq!(answer("dedup"), "none");
        assert_eq!(answer("small-queue"), "429s");
    }

    #[test]
    fn every_axis_value_is_allowed() {
        for axes in AXES {
            for (param, values) in [axes.x, axes.y] {
                for v in values {
                    assert!(param.parse_human(v).is_ok(), "{} {v}", param.link);
                }
            }
        }
        assert!(PRESETS.iter().all(|p| StormSettings::from_pairs(p.setup).is_ok()));
    }
}
