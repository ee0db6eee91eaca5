//! The risk-review lab: hand-worked scenarios, one row per pattern switch,
//! properties over random faults, a real SQLite replaying the model's SQL,
//! hostile input, and the command line.

mod cli;
mod deadlines;
mod explore;
mod hostile;
mod places;
mod properties;
mod protocol;
mod scenarios;
mod sqlite;
mod switches;

use idempotency_lab::sim::Schema;
use idempotency_lab::sim::risk::{CheckName, RawSettings, Run, Settings, Status};

/// Settings from flag-style text, e.g. "--preset overload --mode patterns".
pub fn settings(flags: &str) -> Settings {
    let words: Vec<&str> = flags.split_whitespace().collect();
    let mut raw = RawSettings::core();
    for pair in words.chunks(2) {
        let param = Settings::by_flag(pair[0]).unwrap_or_else(|| panic!("unknown flag {}", pair[0]));
        raw.set(param, pair[1]);
    }
    raw.validate().unwrap_or_else(|e| panic!("invalid test settings: {e}"))
}

pub fn run(flags: &str) -> Run {
    Run::simulate(&settings(flags)).expect("run finishes")
}

/// The fourteen verdicts in `CheckName::ALL` order, one letter each: T holds,
/// F fails, - not applicable.
pub fn verdicts(run: &Run) -> String {
    let checks = run.checks();
    CheckName::ALL
        .iter()
        .map(|name| match checks.iter().find(|c| c.name == *name).and_then(|c| c.holds) {
            Some(true) => 'T',
            Some(false) => 'F',
            None => '-',
        })
        .collect()
}

/// The rows' statuses in id order, runs of equal statuses counted:
/// "FAILED SUCCEEDED", "SUCCEEDED×32 FAILED×168".
pub fn statuses(run: &Run) -> String {
    let mut runs: Vec<(Status, usize)> = Vec::new();
    for row in run.rows() {
        match runs.last_mut() {
            Some((s, n)) if *s == row.status => *n += 1,
            _ => runs.push((row.status, 1)),
        }
    }
    runs.iter()
        .map(|(s, n)| if *n == 1 { s.name().to_owned() } else { format!("{}×{n}", s.name()) })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Everything a row of a scenario table pins down, in one line.
pub fn outline(run: &Run) -> String {
    let s = run.summary();
    format!(
        "reviews={} rows=[{}] creates={} finds={} claims={}/{} checks={}",
        s.reviews,
        statuses(run),
        s.creates,
        s.finds,
        s.claims_won,
        s.claims_lost,
        verdicts(run)
    )
}

/// The rows of a table of (flags, expected outline) whose run's outline
/// differs, each with both outlines: empty when every row holds.
pub fn differing(table: &[(&str, &str)]) -> String {
    table
        .iter()
        .filter_map(|(flags, expected)| {
            let got = outline(&run(flags));
            (got != *expected).then(|| format!("{flags}\n  expected {expected}\n  got      {got}"))
        })
        .collect::<Vec<_>>()
        .join("\n")
}
