//! The run as JSON: one schema for the command line's `--format json` and
//! the browser's export.

use serde::Serialize;

use super::run::Run;
use super::settings::Settings;

#[derive(Serialize)]
struct LedgerJson {
    t_ms: u64,
    attempt: u32,
    key: String,
}

#[derive(Serialize)]
struct EventJson {
    t_ms: u64,
    kind: &'static str,
    attempt: u32,
    key: String,
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
        ledger: run
            .ledger()
            .iter()
            .map(|e| LedgerJson { t_ms: e.t.ms(), attempt: e.attempt, key: e.key.to_string() })
            .collect(),
        events: run
            .records()
            .iter()
            .map(|r| EventJson {
                t_ms: r.t.ms(),
                kind: r.kind(),
                attempt: r.attempt,
                key: r.key.to_string(),
                text: r.sentence(),
            })
            .collect(),
        settings: run.settings(),
    };
    // Serialising plain structs of strings and integers cannot fail.
    serde_json::to_string_pretty(&doc).expect("run JSON serialises")
}
