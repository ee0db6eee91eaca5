//! The run as JSON: one schema for the command line's `--format json` and
//! the browser's export.

use serde::Serialize;

use crate::sim::ack::{Run, Settings};

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

/// The whole run as one pretty-printed JSON document.
pub fn run_to_json(run: &Run) -> String {
    let s = run.summary();
    let doc = RunJson {
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
        ledger: run
            .ledger()
            .iter()
            .map(|e| LedgerJson {
                t_ms: e.t.ms(),
                attempt: e.attempt,
                key: e.key.to_string(),
                payload: e.payload.name(),
            })
            .collect(),
        events: run
            .records()
            .iter()
            .map(|r| EventJson {
                t_ms: r.t.ms(),
                kind: r.kind(),
                attempt: r.attempt,
                key: r.key.map(|k| k.to_string()),
                text: sentence(r),
            })
            .collect(),
        settings: run.settings(),
    };
    // Serialising plain structs of strings and integers cannot fail.
    serde_json::to_string_pretty(&doc).expect("run JSON serialises")
}
