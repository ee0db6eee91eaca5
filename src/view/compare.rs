//! What every lab's comparison says the same way: the lines of the
//! "Differences" panel, what run B changes, and whether a fork agrees with
//! run A before the fork point. Each lab's `view::<lab>::compare` adds its
//! own counters and phrases.

use crate::sim::Millis;
use crate::sim::compare::{Comparison, Timed};
use crate::sim::json::Json;
use crate::sim::params::Schema;

use super::fields::changes;

/// One line of the differences: a short label and what it says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiffLine {
    pub label: String,
    pub text: String,
}

/// What run B changes, for headings: "Server deduplicates operation keys:
/// on → off", or "the same settings".
pub fn what_b_changes<S: Schema>(a: &S, b: &S) -> String {
    let list = changes(a, b);
    if list.is_empty() { "the same settings".to_owned() } else { list.join("; ") }
}

/// "A: 1 increment, B: 2 increments", with " (the same)" when they are.
pub fn counts(a: u64, b: u64, noun: impl Fn(u64) -> String) -> String {
    format!("A: {}, B: {}{}", noun(a), noun(b), if a == b { " (the same)" } else { "" })
}

/// A fork point from a link or a file, checked against run A, which ends
/// at `end`: a fork after the run's end forks nothing.
pub fn fork_within(fork: Millis, end: Millis) -> Result<Millis, String> {
    if fork <= end {
        return Ok(fork);
    }
    let seconds = crate::sim::params::ms_to_seconds_text;
    Err(format!(
        "fork: {} s is after the run's end; allowed: a moment from 0 to {} s. Run B is compared without a fork point.",
        seconds(fork.ms()),
        seconds(end.ms())
    ))
}

/// The "Fork" line: whether the runs agree on every event before `at`, or
/// where they already differ.
pub fn fork_line<R: Copy + Timed, E: Copy>(c: &Comparison<R, E>, at: Millis) -> DiffLine {
    let text = match &c.divergence {
        Some(d) if !c.agree_before(at) => {
            format!("at {at}, but the runs already differ at {}: the changed setting acts before the fork", d.t())
        }
        _ => format!("at {at}: the runs agree on every event before the fork"),
    };
    DiffLine { label: "Fork".to_owned(), text }
}

/// The divergence's side for one run: its event's phrase (with its time
/// when it is not the divergence's), or that the run has ended.
pub fn side<R: Timed>(record: Option<&R>, phrase: impl Fn(&R) -> String, end: Millis, shared_t: Millis) -> String {
    match record {
        Some(r) if r.at() == shared_t => phrase(r),
        Some(r) => format!("{} at {}", phrase(r), r.at()),
        None => format!("nothing more happens (the run ended at {end})"),
    }
}

/// The "First divergence" line.
pub fn divergence_line<R: Copy + Timed, E: Copy>(
    c: &Comparison<R, E>,
    phrase: impl Fn(&R) -> String,
    ends: (Millis, Millis),
) -> DiffLine {
    let text = match &c.divergence {
        None => "none: the runs agree on every event".to_owned(),
        Some(d) => {
            let t = d.t();
            format!(
                "at {t} (event {}). A: {}. B: {}.",
                d.index + 1,
                side(d.a.as_ref(), &phrase, ends.0, t),
                side(d.b.as_ref(), &phrase, ends.1, t)
            )
        }
    };
    DiffLine { label: "First divergence".to_owned(), text }
}

/// Two runs' mirrors under one clock line, then the differences. Each of
/// `runs` is a run's own mirror without its clock line, and its end.
pub fn both_mirrors(
    clock: String,
    changed: String,
    runs: [(String, Millis); 2],
    t: Millis,
    diff: &[DiffLine],
) -> String {
    let run_lines = |(mirror, end): &(String, Millis)| {
        let state = if t < *end { "ends" } else { "ended" };
        let body = mirror.lines().map(|l| format!("  {l}")).collect::<Vec<_>>().join("\n");
        format!("(it {state} at {end}):\n{body}")
    };
    let diff = diff.iter().map(|l| format!("  {}: {}", l.label, l.text)).collect::<Vec<_>>();
    format!(
        "{clock}\nTwo runs on one clock. Run B is run A with {changed}.\nRun A {}\nRun B {}\nDifferences:\n{}",
        run_lines(&runs[0]),
        run_lines(&runs[1]),
        diff.join("\n")
    )
}

/// Two runs and their differences as one JSON document, the export of a
/// comparison: `fork_ms`, each run's own document (`docs`, A's then B's),
/// then the first divergence (each side's event as `event` writes it),
/// the effects only one run has (as `effects` writes them), whether the
/// runs agree before the fork, and the differences' lines.
pub fn comparison_json<R: Copy + Timed, E: Copy>(
    docs: [Json; 2],
    c: &Comparison<R, E>,
    fork: Option<Millis>,
    lines: Vec<DiffLine>,
    event: impl Fn(&R) -> Json,
    effects: impl Fn(&[E]) -> Json,
) -> String {
    let ms = |t: Millis| Json::num(t.ms());
    let divergence = Json::opt(c.divergence, |d| {
        Json::obj(vec![
            ("index", Json::num(d.index)),
            ("t_ms", ms(d.t())),
            ("a", Json::opt(d.a.as_ref(), &event)),
            ("b", Json::opt(d.b.as_ref(), &event)),
        ])
    });
    let lines = lines.into_iter().map(|l| Json::Arr(vec![Json::str(l.label), Json::str(l.text)])).collect();
    let [a, b] = docs;
    Json::obj(vec![
        ("fork_ms", Json::opt(fork, ms)),
        ("a", a),
        ("b", b),
        (
            "differences",
            Json::obj(vec![
                ("first_divergence", divergence),
                ("only_a", effects(&c.only_a)),
                ("only_b", effects(&c.only_b)),
                ("agree_before_fork", Json::opt(fork, |t| Json::Bool(c.agree_before(t)))),
                ("lines", Json::Arr(lines)),
            ]),
        ),
    ])
    .pretty()
}
