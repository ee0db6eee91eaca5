//! The run as JSON: one schema for the command line's `--format json` and
//! the browser's export.

use serde::Serialize;

use crate::sim::Millis;
use crate::sim::ack::compare::Comparison;
use crate::sim::ack::{Record, Run, Settings};

use super::compare::differences;
use super::sentences::sentence;

#[derive(Serialize)]
struct LedgerJson {
    t_ms: u64,
    attempt: u32,
    key: String,
    payload: &'static str,
}

#[derive(Serialize)]
struct EventJson {
    t_ms: u64,
    kind: &'static str,
    attempt: u32,
    key: Option<String>,
    text: String,
}

#[derive(Serialize)]
struct RunJson<'a> {
    outcome: &'static str,
    outcome_ms: u64,
    ack_ms: Option<u64>,
    end_ms: u64,
    committed: u64,
    dedup_hits: u32,
    attempts: u32,
    lost_responses: u32,
    late_responses: u32,
    conflicts: u32,
    refused: u32,
    unprocessable: u32,
    mismatched_hits: u32,
    crash_at_ms: Option<u64>,
    restart_at_ms: Option<u64>,
    final_status: Option<u16>,
    exhausted_by: Option<&'static str>,
    ledger: Vec<LedgerJson>,
    events: Vec<EventJson>,
    settings: &'a Settings,
}

fn ledger_json(entries: &[crate::sim::ack::ledger::LedgerEntry]) -> Vec<LedgerJson> {
    entries
        .iter()
        .map(|e| LedgerJson { t_ms: e.t.ms(), attempt: e.attempt, key: e.key.to_string(), payload: e.payload.name() })
        .collect()
}

fn event_json(r: &Record) -> EventJson {
    EventJson {
        t_ms: r.t.ms(),
        kind: r.kind(),
        attempt: r.attempt,
        key: r.key.map(|k| k.to_string()),
        text: sentence(r),
    }
}

fn run_doc(run: &Run) -> RunJson<'_> {
    let s = run.summary();
    RunJson {
        outcome: s.outcome.name(),
        outcome_ms: s.outcome_at.ms(),
        ack_ms: s.ack_at.map(|t| t.ms()),
        end_ms: s.end.ms(),
        committed: s.committed,
        dedup_hits: s.dedup_hits,
        attempts: s.attempts,
        lost_responses: s.lost_responses,
        late_responses: s.late_responses,
        conflicts: s.conflicts,
        refused: s.refused,
        unprocessable: s.unprocessable,
        mismatched_hits: s.mismatched_hits,
        crash_at_ms: s.crash_at.map(|t| t.ms()),
        restart_at_ms: s.restart_at.map(|t| t.ms()),
        final_status: s.outcome.final_status(),
        exhausted_by: s.outcome.exhausted_by().map(|by| by.name()),
        ledger: ledger_json(run.ledger()),
        events: run.records().iter().map(event_json).collect(),
        settings: run.settings(),
    }
}

/// The whole run as one pretty-printed JSON document.
pub fn run_to_json(run: &Run) -> String {
    // Serialising plain structs of strings and integers cannot fail.
    serde_json::to_string_pretty(&run_doc(run)).expect("run JSON serialises")
}

#[derive(Serialize)]
struct DivergenceJson {
    /// The position in both event lists.
    index: usize,
    t_ms: u64,
    a: Option<EventJson>,
    b: Option<EventJson>,
}

#[derive(Serialize)]
struct DifferencesJson {
    first_divergence: Option<DivergenceJson>,
    only_a: Vec<LedgerJson>,
    only_b: Vec<LedgerJson>,
    agree_before_fork: Option<bool>,
    lines: Vec<(&'static str, String)>,
}

#[derive(Serialize)]
struct CompareJson<'a> {
    fork_ms: Option<u64>,
    a: RunJson<'a>,
    b: RunJson<'a>,
    differences: DifferencesJson,
}

/// Two runs and their differences as one JSON document (the export of a
/// comparison).
pub fn compare_to_json(a: &Run, b: &Run, c: &Comparison, fork: Option<Millis>) -> String {
    let doc = CompareJson {
        fork_ms: fork.map(|t| t.ms()),
        a: run_doc(a),
        b: run_doc(b),
        differences: DifferencesJson {
            first_divergence: c.divergence.map(|d| DivergenceJson {
                index: d.index,
                t_ms: d.t().ms(),
                a: d.a.as_ref().map(event_json),
                b: d.b.as_ref().map(event_json),
            }),
            only_a: ledger_json(&c.only_a),
            only_b: ledger_json(&c.only_b),
            agree_before_fork: fork.map(|t| c.agree_before(t)),
            lines: differences(a, b, c, fork).into_iter().map(|l| (l.label, l.text)).collect(),
        },
    };
    serde_json::to_string_pretty(&doc).expect("comparison JSON serialises")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::ack::settings::DEDUP;

    #[test]
    fn a_comparison_exports_both_runs_and_the_divergence() {
        let a = Run::simulate(&Settings::default()).unwrap();
        let b = Run::simulate(&Settings::from_pairs(&[(&DEDUP, "off")]).unwrap()).unwrap();
        let c = Comparison::of(&a, &b);
        let json: serde_json::Value = serde_json::from_str(&compare_to_json(&a, &b, &c, Some(Millis(4000)))).unwrap();
        assert_eq!(json["a"]["committed"], 1);
        assert_eq!(json["b"]["committed"], 2);
        assert_eq!(json["b"]["settings"]["dedup"], "off");
        assert_eq!(json["differences"]["first_divergence"]["t_ms"], 4000);
        assert_eq!(json["differences"]["first_divergence"]["a"]["kind"], "dedup-replayed");
        assert_eq!(json["differences"]["first_divergence"]["b"]["kind"], "operation-started");
        assert_eq!(json["differences"]["only_b"][0]["t_ms"], 6000);
        assert_eq!(json["differences"]["agree_before_fork"], true);
        assert_eq!(json["fork_ms"], 4000);
    }
}
