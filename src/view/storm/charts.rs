//! The storm lab's charts, as line charts: load over time, the queue and
//! the work over time, and the AWS experiment's two charts.

use crate::view::linechart::{Line, LineChart, Stroke};

use super::protocol::SweepCell;
use super::report::OverloadReport;

/// Per second, from a bucket's count.
fn rate(count: u32, bucket_ms: f64) -> f64 {
    f64::from(count) * 1000.0 / bucket_ms.max(1e-9)
}

fn series(
    run: &OverloadReport,
    name: &str,
    colour: usize,
    value: impl Fn(&super::report::BucketReport) -> f64,
) -> Line {
    Line {
        name: name.to_owned(),
        points: run.series.iter().map(|b| (b.t_ms / 1000.0, value(b))).collect(),
        stroke: Stroke::Solid,
        colour,
    }
}

/// Arrivals, offered work, completions, 429s, timeouts and retries per
/// second, with the server's capacity.
pub fn load_chart(run: &OverloadReport) -> LineChart {
    let b = run.bucket_ms;
    let end = run.series.len() as f64 * b / 1000.0;
    LineChart {
        title: "Load over time".to_owned(),
        x_desc: "model time (s)".to_owned(),
        y_desc: "per second".to_owned(),
        lines: vec![
            series(run, "New intents", 0, |x| rate(x.intents, b)),
            series(run, "Work offered", 1, |x| rate(x.work, b)),
            series(run, "Completions", 2, |x| rate(x.completions, b)),
            series(run, "429s", 3, |x| rate(x.rejected_429, b)),
            series(run, "Timeouts", 4, |x| rate(x.timeouts, b)),
            series(run, "Retries", 5, |x| rate(x.retries, b)),
            Line {
                name: "Capacity".to_owned(),
                points: vec![(0.0, run.capacity_per_s), (end, run.capacity_per_s)],
                stroke: Stroke::Solid,
                colour: 6,
            },
        ],
        at_least: (0.0, 0.0),
    }
}

/// The queue and the operations in flight, and goodput against wasted work.
pub fn work_chart(run: &OverloadReport) -> LineChart {
    let b = run.bucket_ms;
    LineChart {
        title: "Queue and work over time".to_owned(),
        x_desc: "model time (s)".to_owned(),
        y_desc: "requests, or per second".to_owned(),
        lines: vec![
            series(run, "Queue length", 0, |x| x.queue),
            series(run, "In flight", 1, |x| x.in_flight),
            series(run, "Goodput (acknowledged per s)", 2, |x| rate(x.acknowledged, b)),
            series(run, "Wasted work (per s)", 3, |x| rate(x.wasted, b)),
        ],
        at_least: (0.0, 0.0),
    }
}

/// One kind of chart for run A and for run B, titled by run and drawn on
/// the same axes, so the two read against each other.
pub fn run_pair(chart: fn(&OverloadReport) -> LineChart, a: &OverloadReport, b: &OverloadReport) -> [LineChart; 2] {
    let (mut a, mut b) = (chart(a), chart(b));
    a.title = format!("Run A: {}", a.title);
    b.title = format!("Run B: {}", b.title);
    crate::view::linechart::share_axes(&mut [&mut a, &mut b]);
    [a, b]
}

/// The order of the algorithms' lines.
pub const ALGORITHMS: [&str; 5] = ["none", "exponential", "full", "equal", "decorrelated"];

/// The blog's charts: work (calls) or completion time against clients,
/// one line per algorithm, and the reference means as dots.
pub fn aws_chart(cells: &[SweepCell], reference: &[SweepCell], time: bool) -> LineChart {
    let value = |c: &SweepCell| if time { c.mean_time_ms / 1000.0 } else { c.mean_calls };
    let mut lines = Vec::new();
    for (i, algorithm) in ALGORITHMS.iter().enumerate() {
        let points = |from: &[SweepCell]| -> Vec<(f64, f64)> {
            from.iter().filter(|c| c.algorithm == *algorithm).map(|c| (f64::from(c.clients), value(c))).collect()
        };
        lines.push(Line { name: (*algorithm).to_owned(), points: points(cells), stroke: Stroke::Solid, colour: i });
        if !reference.is_empty() {
            lines.push(Line {
                name: format!("{algorithm} (reference, Python port)"),
                points: points(reference),
                stroke: Stroke::Dots,
                colour: i,
            });
        }
    }
    LineChart {
        title: if time { "Completion time".to_owned() } else { "Work".to_owned() },
        x_desc: "clients".to_owned(),
        y_desc: if time { "time (s)".to_owned() } else { "write calls".to_owned() },
        lines,
        at_least: (0.0, 0.0),
    }
}
