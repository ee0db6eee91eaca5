//! The run as JSON: one schema for the command line's `--format json` and
//! the browser's export.

use crate::sim::Millis;
use crate::sim::Schema;
use crate::sim::ack::compare::Comparison;
use crate::sim::ack::ledger::LedgerEntry;
use crate::sim::ack::{Record, Run};
use crate::sim::json::Json;

use super::compare::differences;
use super::sentences::sentence;
use crate::view::compare::comparison_json;

fn ms(t: Millis) -> Json {
    Json::num(t.ms())
}

fn ledger_json(entries: &[LedgerEntry]) -> Json {
    Json::Arr(
        entries
            .iter()
            .map(|e| {
                Json::obj(vec![
                    ("t_ms", ms(e.t)),
                    ("attempt", Json::num(e.attempt)),
                    ("key", Json::str(e.key.to_string())),
                    ("payload", Json::str(e.payload.name())),
                ])
            })
            .collect(),
    )
}

fn event_json(r: &Record) -> Json {
    Json::obj(vec![
        ("t_ms", ms(r.t)),
        ("kind", Json::str(r.kind())),
        ("attempt", Json::num(r.attempt)),
        ("key", Json::opt(r.key, |k| Json::str(k.to_string()))),
        ("text", Json::str(sentence(r))),
    ])
}

/// The run's summary, ledger, events and settings as one JSON object.
fn run_doc(run: &Run) -> Json {
    let s = run.summary();
    Json::obj(vec![
        ("outcome", Json::str(s.outcome.name())),
        ("outcome_ms", ms(s.outcome_at)),
        ("ack_ms", Json::opt(s.ack_at, ms)),
        ("end_ms", ms(s.end)),
        ("committed", Json::num(s.committed)),
        ("dedup_hits", Json::num(s.dedup_hits)),
        ("attempts", Json::num(s.attempts)),
        ("lost_responses", Json::num(s.lost_responses)),
        ("late_responses", Json::num(s.late_responses)),
        ("conflicts", Json::num(s.conflicts)),
        ("refused", Json::num(s.refused)),
        ("unprocessable", Json::num(s.unprocessable)),
        ("mismatched_hits", Json::num(s.mismatched_hits)),
        ("crash_at_ms", Json::opt(s.crash_at, ms)),
        ("restart_at_ms", Json::opt(s.restart_at, ms)),
        ("final_status", Json::opt(s.outcome.final_status(), Json::num)),
        ("exhausted_by", Json::opt(s.outcome.exhausted_by(), |by| Json::str(by.name()))),
        ("ledger", ledger_json(run.ledger())),
        ("events", Json::Arr(run.records().iter().map(event_json).collect())),
        ("settings", run.settings().to_json()),
    ])
}

/// The whole run as one pretty-printed JSON document.
pub fn run_to_json(run: &Run) -> String {
    run_doc(run).pretty()
}

/// Two runs and their differences as one JSON document (the export of a
/// comparison).
pub fn compare_to_json(a: &Run, b: &Run, c: &Comparison, fork: Option<Millis>) -> String {
    comparison_json([run_doc(a), run_doc(b)], c, fork, differences(a, b, c, fork), event_json, ledger_json)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::ack::Settings;
    use crate::sim::ack::settings::DEDUP;

    #[test]
    fn the_run_document_is_what_serde_would_write_for_the_same_fields() {
        // The report is written by hand (see `sim::json`); its settings
        // object is the settings' own, in parameter order, and reads back
        // as the same settings.
        let run = Run::simulate(&Settings::from_pairs(&[(&DEDUP, "off")]).unwrap()).unwrap();
        let text = run_to_json(&run);
        let ours = crate::sim::json::parse(&text).unwrap();
        let settings = ours.get("settings").unwrap();
        assert_eq!(settings, &run.settings().to_json());
        assert_eq!(crate::sim::params_file::settings_from_value::<Settings>(settings).unwrap(), *run.settings());
        let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(doc["settings"]["dedup"], "off");
        assert_eq!(doc["committed"], 2);
        assert_eq!(doc["ack_ms"], 6050);
        assert_eq!(doc["crash_at_ms"], serde_json::Value::Null);
        assert_eq!(doc["ledger"][1]["key"], "intent-1");
        assert_eq!(doc["events"][0]["kind"], "attempt-sent");
        assert_eq!(doc["events"][0]["text"], sentence(&run.records()[0]));
    }

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
        // Importing the comparison's file restores run A's settings.
        let text = compare_to_json(&b, &a, &Comparison::of(&b, &a), None);
        let imported: Settings = crate::sim::params_file::parse_settings_json(&text).unwrap();
        assert_eq!(&imported, b.settings());
    }

    #[test]
    fn importing_a_comparison_gives_both_runs_settings_and_the_fork() {
        use crate::sim::params_file::{Imported, parse_import};
        let a = Run::simulate(&Settings::default()).unwrap();
        let b = Run::simulate(&Settings::from_pairs(&[(&DEDUP, "off")]).unwrap()).unwrap();
        let forked = compare_to_json(&a, &b, &Comparison::of(&a, &b), Some(Millis(4000)));
        let file: Imported<Settings> = parse_import(&forked).unwrap();
        assert_eq!(
            file,
            Imported { settings: Settings::default(), b: Some(b.settings().clone()), fork: Some(Millis(4000)) }
        );
        let unforked = compare_to_json(&a, &b, &Comparison::of(&a, &b), None);
        assert_eq!(parse_import::<Settings>(&unforked).unwrap().fork, None);
        // A single run, or plain settings, have no run B.
        let single: Imported<Settings> = parse_import(&run_to_json(&b)).unwrap();
        assert_eq!((single.settings, single.b), (b.settings().clone(), None));
        // A run B with a refused setting refuses the file, naming the field.
        let broken = forked.replacen("\"dedup\": \"off\"", "\"dedup\": \"maybe\"", 1);
        assert_ne!(broken, forked);
        let e = parse_import::<Settings>(&broken).unwrap_err().to_string();
        assert!(e.starts_with("run B: settings file field dedup"), "{e}");
    }
}
