//! What the page and the storm worker say to each other, as JSON text.
//!
//! The page sends a [`Request`]; the worker answers with progress messages
//! and one final [`Reply`]. [`serve`] is the worker's whole job, written as a
//! pure function so it is tested natively; the page never links it, so the
//! storm engine stays out of the page's own download.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::sim::Schema;
use crate::sim::params_file::settings_from_value;
use crate::sim::storm::settings::StormSettings;

/// One request from the page.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Request {
    pub id: u32,
    pub job: Job,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "kebab-case")]
pub enum Job {
    /// One run of the settings (either workload).
    Run { settings: Value },
    /// The AWS experiment's sweep.
    AwsSweep { seed: u64, reps: u32 },
    /// A heat map: the settings with two parameters swept over the given
    /// values (as links spell them).
    Grid { settings: Value, x: Axis, y: Axis },
    /// Run A and run B (the same workload with some settings changed),
    /// walked side by side, with their differences.
    Compare { a: Value, b: Value },
}

/// One swept parameter: its link name and the values to try.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Axis {
    pub param: String,
    pub values: Vec<String>,
}

/// One message from the worker.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Reply {
    pub id: u32,
    pub answer: Answer,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "kebab-case")]
pub enum Answer {
    /// The worker is up and listening (its first message): requests sent
    /// before this would be lost.
    Ready,
    Progress {
        done: u32,
        total: u32,
    },
    /// A run's report, and the same document as the command line prints it
    /// (`storm --format json`), which the page exports as it is: reading
    /// floats back from text may change their last bit.
    Run {
        report: super::report::StormDoc,
        json: String,
        /// The same overload run without retries, which its totals are
        /// judged against (its time series left out).
        baseline: Option<super::report::OverloadReport>,
    },
    /// The sweep's cells, and the reference means beside them (made by
    /// the Python port of the published simulator's rules,
    /// tests/data/aws-reference.json).
    Sweep {
        cells: Vec<SweepCell>,
        reference: Vec<SweepCell>,
    },
    Grid {
        cells: Vec<GridCell>,
    },
    /// Both runs' reports, run A's also as the command line prints it, the
    /// comparison's export (both runs so, and the differences) and the
    /// lines of their differences.
    Compare {
        a: super::report::StormDoc,
        b: super::report::StormDoc,
        json: String,
        export: String,
        differences: Vec<super::compare::Difference>,
        /// Run A without retries, as with a single run.
        baseline: Option<super::report::OverloadReport>,
    },
    Error {
        message: String,
    },
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct SweepCell {
    pub clients: u32,
    pub algorithm: String,
    pub mean_calls: f64,
    pub mean_time_ms: f64,
}

/// One heat-map cell: its two values and the figures the map can colour by.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct GridCell {
    pub x: String,
    pub y: String,
    pub wasted: f64,
    pub duplicates: f64,
    pub p99_ms: Option<f64>,
    pub amplification: f64,
    pub saturated_ms: f64,
}

/// The reference means of the AWS sweep, made by scripts/aws_backoff_port.py.
pub fn aws_reference() -> Vec<SweepCell> {
    #[derive(Deserialize)]
    struct Reference {
        cells: Vec<SweepCell>,
    }
    serde_json::from_str::<Reference>(include_str!("../../../tests/data/aws-reference.json"))
        .map(|r| r.cells)
        .unwrap_or_default()
}

fn settings_of(value: &Value) -> Result<StormSettings, String> {
    // Settings files have one reader; the request's object is handed to it
    // as the JSON text it came as.
    let doc = crate::sim::json::parse(&value.to_string()).map_err(|e| e.to_string())?;
    settings_from_value::<StormSettings>(&doc).map_err(|e| e.to_string())
}

/// Handles one request; `progress` hears each step of a long job.
pub fn serve(request: &str, mut progress: impl FnMut(Reply)) -> Reply {
    let request: Request = match serde_json::from_str(request) {
        Ok(r) => r,
        Err(e) => {
            return Reply {
                id: 0,
                answer: Answer::Error { message: format!("a request that is not understood: {e}") },
            };
        }
    };
    let id = request.id;
    let mut step = |done, total| progress(Reply { id, answer: Answer::Progress { done, total } });
    let answer = match request.job {
        Job::Run { settings } => run_job(&settings),
        Job::Compare { a, b } => compare_job(&a, &b),
        Job::AwsSweep { seed, reps } => sweep_job(seed, reps, &mut step),
        Job::Grid { settings, x, y } => grid_job(&settings, &x, &y, &mut step),
    };
    Reply { id, answer: answer.unwrap_or_else(|message| Answer::Error { message }) }
}

/// One run of either workload: its report, and the same document as the
/// command line prints it.
fn run_job(settings: &Value) -> Result<Answer, String> {
    use crate::sim::storm::settings::Workload;
    use crate::sim::storm::{OccRunner, OverloadRun};

    let settings = settings_of(settings)?;
    let report = match settings.workload {
        Workload::Occ => OccRunner::default()
            .run(settings.occ, crate::sim::rng::Rng::new(settings.seed))
            .map(|r| super::report::StormDoc::occ(&settings, &[r])),
        Workload::Overload => {
            OverloadRun::simulate(&settings).map(|r| super::report::StormDoc::overload(&settings, &[r]))
        }
    };
    match report {
        Ok(report) => {
            let json = report.to_json() + "\n";
            Ok(Answer::Run { report, json, baseline: without_retries(&settings) })
        }
        Err(e) => Err(format!("the run could not finish: {e}")),
    }
}

/// The overload run of `settings` without retries: the same seed and
/// arrivals, each client giving up after its first attempt (its series
/// left out: the page reads only its totals). None for the contention
/// workload, whose writes retry by design.
pub fn without_retries(settings: &StormSettings) -> Option<super::report::OverloadReport> {
    use crate::sim::storm::OverloadRun;
    use crate::sim::storm::settings::{MAX_ATTEMPTS, Workload};

    if settings.workload != Workload::Overload {
        return None;
    }
    let once = settings.with(MAX_ATTEMPTS.def(), 1).ok()?;
    let mut report = super::report::OverloadReport::of(&OverloadRun::simulate(&once).ok()?);
    report.series.clear();
    Some(report)
}

/// Run A and run B walked side by side: both reports, the comparison's
/// export and their differences.
fn compare_job(a: &Value, b: &Value) -> Result<Answer, String> {
    use super::report::StormDoc;
    use crate::sim::storm::compare::StormPair;

    let (a, b) = match (settings_of(a), settings_of(b)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) => return Err(e),
        (_, Err(e)) => return Err(format!("run B: {e}")),
    };
    let pair = StormPair::simulate(&a, &b).map_err(|e| format!("the runs could not be compared: {e}"))?;
    let differences = super::compare::differences(&a, &b, &pair);
    let (doc_a, doc_b) = match &pair {
        StormPair::Overload { a: ra, b: rb, .. } => {
            (StormDoc::overload(&a, std::slice::from_ref(&**ra)), StormDoc::overload(&b, std::slice::from_ref(&**rb)))
        }
        StormPair::Occ { a: ra, b: rb, .. } => (StormDoc::occ(&a, &[*ra]), StormDoc::occ(&b, &[*rb])),
    };
    let json = doc_a.to_json() + "\n";
    let export = compare_json(&doc_a, &doc_b, &differences);
    let baseline = without_retries(&a);
    Ok(Answer::Compare { a: doc_a, b: doc_b, json, export, differences, baseline })
}

/// The AWS experiment's sweep, a step for each of its cells, with the
/// reference means beside it.
fn sweep_job(seed: u64, reps: u32, step: &mut impl FnMut(u32, u32)) -> Result<Answer, String> {
    use crate::sim::storm::sweep::aws_sweep;

    let total = 95;
    let mut done = 0;
    let cells = aws_sweep(seed, reps.clamp(1, 1000), |_| {
        done += 1;
        step(done, total);
    });
    match cells {
        Ok(cells) => Ok(Answer::Sweep {
            cells: cells
                .into_iter()
                .map(|c| SweepCell {
                    clients: c.clients,
                    algorithm: c.algorithm.name().to_owned(),
                    mean_calls: c.mean_calls,
                    mean_time_ms: c.mean_time_ms,
                })
                .collect(),
            reference: aws_reference(),
        }),
        Err(e) => Err(format!("the sweep could not finish: {e}")),
    }
}

/// A heat map: one overload run per pair of values, row by row, a step
/// for each cell.
fn grid_job(settings: &Value, x: &Axis, y: &Axis, step: &mut impl FnMut(u32, u32)) -> Result<Answer, String> {
    use crate::sim::storm::OverloadRun;

    let base = settings_of(settings)?;
    let (Some(px), Some(py)) = (StormSettings::by_link(&x.param), StormSettings::by_link(&y.param)) else {
        return Err(format!("unknown sweep parameters {} and {}", x.param, y.param));
    };
    let total = (x.values.len() * y.values.len()) as u32;
    let mut cells = Vec::with_capacity(total as usize);
    for yv in &y.values {
        for xv in &x.values {
            let cell = px
                .parse_human(xv)
                .and_then(|v| base.with(px, v))
                .and_then(|s| py.parse_human(yv).and_then(|v| s.with(py, v)));
            let settings = cell.map_err(|e| e.human_message(e.param.link))?;
            let run = OverloadRun::simulate(&settings).map_err(|e| format!("a cell could not finish: {e}"))?;
            let intents = run.totals.intents.max(1) as f64;
            cells.push(GridCell {
                x: xv.clone(),
                y: yv.clone(),
                wasted: run.totals.wasted as f64 / intents,
                duplicates: run.totals.duplicate_effects as f64,
                p99_ms: run.percentile_us(99).map(|us| us as f64 / 1000.0),
                amplification: run.amplification(),
                saturated_ms: run.saturated_after_spike_us() as f64 / 1000.0,
            });
            step(cells.len() as u32, total);
        }
    }
    Ok(Answer::Grid { cells })
}

/// A comparison's export: run A and run B, each the document the command
/// line prints for its settings, and the lines of their differences. A
/// settings import reads run A's settings from it.
fn compare_json(
    a: &super::report::StormDoc,
    b: &super::report::StormDoc,
    differences: &[super::compare::Difference],
) -> String {
    #[derive(Serialize)]
    struct Pair<'a> {
        a: &'a super::report::StormDoc,
        b: &'a super::report::StormDoc,
        differences: &'a [super::compare::Difference],
    }
    serde_json::to_string_pretty(&Pair { a, b, differences }).unwrap_or_default() + "\n"
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    fn ask(job: Job) -> (Vec<Reply>, Reply) {
        let text = serde_json::to_string(&Request { id: 7, job }).unwrap();
        let mut progress = Vec::new();
        let reply = serve(&text, |r| progress.push(r));
        (progress, reply)
    }

    #[test]
    fn a_run_request_gets_the_command_lines_report() {
        let settings = serde_json::json!({"clients": 200, "seed": 5});
        let (_, reply) = ask(Job::Run { settings });
        let Answer::Run { report, json, baseline } = reply.answer else { panic!("{reply:?}") };
        // The same run without retries comes along, for the totals to be
        // judged against: no retries, so nothing executed twice.
        let baseline = baseline.expect("an overload run has one");
        assert_eq!((baseline.totals.retries, baseline.totals.duplicate_effects), (0, 0));
        assert!(baseline.series.is_empty());
        assert_eq!(reply.id, 7);
        let super::super::report::StormDoc::Overload { runs, .. } = &report else { panic!() };
        assert_eq!(runs[0].totals.intents, 200);
        // The same document the command line prints for these settings.
        let s = settings_of(&serde_json::json!({"clients": 200, "seed": 5})).unwrap();
        let cli = crate::view::storm::overload_json(&s, &[crate::sim::storm::OverloadRun::simulate(&s).unwrap()]);
        assert_eq!(report.to_json(), cli);
        assert_eq!(json, cli + "\n", "the exported text is the command line's, byte for byte");
    }

    #[test]
    fn a_grid_reports_progress_and_every_cell() {
        let settings = serde_json::json!({"clients": 100});
        let x = Axis { param: "spike".to_owned(), values: vec!["1".to_owned(), "4".to_owned()] };
        let y = Axis { param: "algo".to_owned(), values: vec!["none".to_owned(), "full".to_owned()] };
        let (progress, reply) = ask(Job::Grid { settings, x, y });
        assert_eq!(progress.len(), 4);
        assert_eq!(progress.last().unwrap().answer, Answer::Progress { done: 4, total: 4 });
        let Answer::Grid { cells } = reply.answer else { panic!() };
        assert_eq!(
            cells.iter().map(|c| (c.x.as_str(), c.y.as_str())).collect::<Vec<_>>(),
            [("1", "none"), ("4", "none"), ("1", "full"), ("4", "full")]
        );
    }

    #[test]
    fn a_compare_request_gets_both_runs_and_their_differences() {
        let a = serde_json::json!({"clients": 300, "seed": 4});
        let b = serde_json::json!({"clients": 300, "seed": 4, "max_attempts": 1});
        let (_, reply) = ask(Job::Compare { a: a.clone(), b });
        let Answer::Compare { a: doc_a, b: doc_b, json, export, differences, .. } = reply.answer else {
            panic!("{reply:?}")
        };
        // Importing the comparison's file restores run A's settings.
        let imported: StormSettings = crate::sim::params_file::parse_settings_json(&export).unwrap();
        assert_eq!(Ok(imported), settings_of(&a));
        // Run A is the single run of A's settings, as the command line prints it.
        let (_, single) = ask(Job::Run { settings: a });
        let Answer::Run { report, json: single_json, .. } = single.answer else { panic!() };
        assert_eq!(doc_a, report);
        assert_eq!(json, single_json);
        assert_ne!(doc_a, doc_b);
        // The export holds both runs, each as the command line prints it,
        // and the differences.
        let export: Value = serde_json::from_str(&export).unwrap();
        assert_eq!(export["a"], serde_json::from_str::<Value>(&single_json).unwrap());
        assert_eq!(export["b"]["settings"]["max_attempts"], 1);
        assert_eq!(export["differences"][0]["text"], "Maximum total attempts: 4 → 1");
        assert_eq!(differences[0].text, "Maximum total attempts: 4 → 1");
        assert_eq!(differences[1].label, "First divergence");
    }

    #[test]
    fn the_reference_rides_along_with_the_sweep() {
        let reference = aws_reference();
        assert_eq!(reference.len(), 95);
        assert!(reference.iter().any(|c| c.clients == 190 && c.algorithm == "decorrelated"));
    }

    #[test]
    fn bad_requests_get_an_error_not_a_panic() {
        let reply = serve("{not json", |_| {});
        assert!(matches!(reply.answer, Answer::Error { .. }));
        let (_, reply) = ask(Job::Run { settings: serde_json::json!({"clients": 0}) });
        let Answer::Error { message } = reply.answer else { panic!() };
        assert!(message.contains("clients"), "{message}");
        let x = Axis { param: "nope".to_owned(), values: vec![] };
        let (_, reply) = ask(Job::Grid { settings: serde_json::json!({}), x: x.clone(), y: x });
        assert!(matches!(reply.answer, Answer::Error { .. }));
        // Run B in another workload, or with a bad value, is refused by name.
        let (_, reply) =
            ask(Job::Compare { a: serde_json::json!({}), b: serde_json::json!({"workload": "occ", "clients": 20}) });
        let Answer::Error { message } = reply.answer else { panic!() };
        assert!(message.contains("workload"), "{message}");
        let (_, reply) = ask(Job::Compare { a: serde_json::json!({}), b: serde_json::json!({"clients": 0}) });
        let Answer::Error { message } = reply.answer else { panic!() };
        assert!(message.starts_with("run B: ") && message.contains("clients"), "{message}");
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod round_trip {
    use super::*;

    #[test]
    fn the_page_reads_back_every_reply_the_worker_sends() {
        for job in [
            Job::Run { settings: serde_json::json!({"clients": 50}) },
            Job::Run { settings: serde_json::json!({"clients": 20, "workload": "occ"}) },
            Job::AwsSweep { seed: 1, reps: 1 },
            Job::Compare { a: serde_json::json!({"clients": 40}), b: serde_json::json!({"clients": 40, "seed": 2}) },
            Job::Grid {
                settings: serde_json::json!({"clients": 30}),
                x: Axis { param: "spike".to_owned(), values: vec!["1".to_owned()] },
                y: Axis { param: "algo".to_owned(), values: vec!["full".to_owned()] },
            },
        ] {
            let request = serde_json::to_string(&Request { id: 3, job }).unwrap();
            let mut sent = Vec::new();
            let last = serve(&request, |r| sent.push(serde_json::to_string(&r).unwrap()));
            sent.push(serde_json::to_string(&last).unwrap());
            for text in sent {
                let back: Result<Reply, _> = serde_json::from_str(&text);
                assert!(back.is_ok(), "{:?}: {}", back.err(), &text[..text.len().min(300)]);
            }
        }
    }
}
