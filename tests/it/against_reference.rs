//! The core against `reference`, a deliberately plain second implementation
//! of MODEL.md v2 that shares no code with `src/sim`: on random v1 and v2
//! settings, the summaries and the ledgers must be equal.

use idempotency_lab::sim::Schema;
use idempotency_lab::sim::ack::Run;
use idempotency_lab::view::ack::run_to_json;
use proptest::prelude::*;
use serde_json::Value;

use super::properties::any_settings;
use super::reference;

/// The summary fields and the ledger of a core run, from its JSON report.
fn comparable(doc: &Value) -> Value {
    let mut out = serde_json::Map::new();
    for field in [
        "outcome",
        "outcome_ms",
        "ack_ms",
        "end_ms",
        "committed",
        "dedup_hits",
        "attempts",
        "lost_responses",
        "late_responses",
        "conflicts",
        "refused",
        "unprocessable",
        "mismatched_hits",
        "crash_at_ms",
        "restart_at_ms",
        "final_status",
        "exhausted_by",
        "ledger",
    ] {
        out.insert(field.to_owned(), doc[field].clone());
    }
    Value::Object(out)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 10_000, ..ProptestConfig::default() })]

    #[test]
    fn the_core_and_the_reference_agree(s in any_settings()) {
        let run = Run::simulate(&s).unwrap();
        let core: Value = serde_json::from_str(&run_to_json(&run)).unwrap();
        let settings = serde_json::to_value(s.to_json()).unwrap();
        let expected = comparable(&reference::simulate(&settings));
        prop_assert_eq!(comparable(&core), expected, "settings {}", settings);
    }
}

#[test]
fn the_reference_is_not_trivially_agreeable() {
    // Guard against a comparison that cannot fail: two runs that differ in
    // the core differ in the reference too.
    let a = reference::simulate(&serde_json::to_value(super::scenarios::settings("").to_json()).unwrap());
    let b = reference::simulate(&serde_json::to_value(super::scenarios::settings("--dedup off").to_json()).unwrap());
    assert_ne!(comparable(&a), comparable(&b));
    assert_eq!(a["committed"], 1);
    assert_eq!(b["committed"], 2);
}
