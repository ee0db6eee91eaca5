//! Invariants the model promises, over random valid settings.

use idempotency_lab::sim::settings::{MAX_DURATION_MS, MAX_RETENTION_MS, MAX_TRANSIT_MS};
use idempotency_lab::sim::{EVENT_BUDGET, Millis, Outcome, Param, RawSettings, Run, Settings, text_mirror};
use proptest::prelude::*;

/// Mostly small values, where interesting coincidences happen, sometimes
/// anything the model allows.
fn millis(min: u64, max: u64) -> impl Strategy<Value = u64> {
    prop_oneof![4 => min..=max.min(min + 5_000), 1 => min..=max, 1 => Just(min), 1 => Just(max)]
}

prop_compose! {
    pub fn any_settings()(
        fault in prop::sample::select(vec!["none", "lose-first", "lose-all", "first-503", "reject-400"]),
        dedup in prop::sample::select(vec!["on", "off"]),
        key in prop::sample::select(vec!["stable", "per-attempt"]),
        jitter in prop::sample::select(vec!["off", "full"]),
        retention in millis(0, MAX_RETENTION_MS),
        timeout in millis(1, MAX_DURATION_MS),
        exec in millis(0, MAX_DURATION_MS),
        attempts in 1u32..=10,
        initial in millis(0, MAX_DURATION_MS),
        cap in millis(0, MAX_DURATION_MS),
        request in millis(0, MAX_TRANSIT_MS),
        response in millis(0, MAX_TRANSIT_MS),
    ) -> Settings {
        let mut raw = RawSettings::default();
        for (param, value) in [
            (Param::Fault, fault.to_owned()), (Param::Dedup, dedup.to_owned()), (Param::Key, key.to_owned()),
            (Param::Jitter, jitter.to_owned()), (Param::RetentionMs, retention.to_string()),
            (Param::TimeoutMs, timeout.to_string()), (Param::ExecMs, exec.to_string()),
            (Param::MaxAttempts, attempts.to_string()), (Param::InitialDelayMs, initial.to_string()),
            (Param::BackoffCapMs, cap.to_string()), (Param::RequestTransitMs, request.to_string()),
            (Param::ResponseTransitMs, response.to_string()),
        ] {
            raw.set(param, value);
        }
        Settings::try_from(&raw).expect("strategy yields valid settings")
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn same_settings_same_run(s in any_settings()) {
        let a = Run::simulate(&s).unwrap();
        let b = Run::simulate(&s).unwrap();
        prop_assert_eq!(a, b);
    }

    #[test]
    fn every_run_ends_within_the_event_budget(s in any_settings()) {
        let run = Run::simulate(&s);
        prop_assert!(run.is_ok(), "{:?}", run);
        prop_assert!(run.unwrap().records().len() < EVENT_BUDGET);
    }

    #[test]
    fn time_never_goes_backwards(s in any_settings()) {
        let run = Run::simulate(&s).unwrap();
        for pair in run.records().windows(2) {
            prop_assert!(pair[0].t <= pair[1].t, "{:?} then {:?}", pair[0], pair[1]);
        }
    }

    #[test]
    fn counter_equals_ledger_length(s in any_settings()) {
        let run = Run::simulate(&s).unwrap();
        let commits = run.records().iter().filter(|r| r.kind() == "operation-committed").count();
        prop_assert_eq!(run.summary().committed, run.ledger().len() as u64);
        prop_assert_eq!(commits, run.ledger().len());
        // And at every moment, the snapshot's counter is the ledger so far.
        for t in [Millis(0), Millis(run.end().ms() / 2), run.end()] {
            let so_far = run.ledger().iter().filter(|e| e.t <= t).count() as u64;
            prop_assert_eq!(run.snapshot_at(t).counter(), so_far);
        }
    }

    #[test]
    fn a_success_is_preceded_by_a_commit(s in any_settings()) {
        let run = Run::simulate(&s).unwrap();
        let summary = run.summary();
        if summary.outcome == Outcome::Succeeded {
            let ack = summary.ack_at.expect("succeeded runs have an ack time");
            prop_assert!(run.ledger().iter().any(|e| e.t <= ack));
        } else {
            prop_assert_eq!(summary.ack_at, None);
        }
    }

    #[test]
    fn stable_keys_with_long_retention_commit_at_most_once(s in any_settings()) {
        let run = Run::simulate(&s).unwrap();
        if s.dedup() && s.key() == idempotency_lab::sim::KeyMode::Stable && s.retention() > run.end()
            && s.fault() != idempotency_lab::sim::Fault::Reject400
        {
            prop_assert!(run.summary().committed <= 1, "{}", run.summary().committed);
        }
    }

    #[test]
    fn summary_is_consistent_with_the_events(s in any_settings()) {
        let run = Run::simulate(&s).unwrap();
        let summary = run.summary();
        let count = |kind: &str| run.records().iter().filter(|r| r.kind() == kind).count() as u32;
        prop_assert_eq!(summary.attempts, count("attempt-sent"));
        prop_assert!(summary.attempts <= s.max_attempts());
        prop_assert_eq!(summary.lost_responses, count("response-lost"));
        prop_assert_eq!(summary.late_responses, count("response-late"));
        prop_assert_eq!(summary.dedup_hits, count("dedup-joined") + count("dedup-replayed"));
        prop_assert!(summary.outcome_at <= summary.end);
        let last_real = run.records().iter().rev().find(|r| r.kind() != "stored-result-expired").unwrap();
        prop_assert_eq!(last_real.t, summary.end);
        prop_assert!(run.records().iter().all(|r| r.t <= summary.end));
        if s.fault() == idempotency_lab::sim::Fault::None {
            prop_assert_eq!(summary.lost_responses, 0);
        }
        // Once over, nothing is left in flight.
        let end = run.snapshot_at(summary.end);
        prop_assert!(end.operations.is_empty() && end.in_transit.is_empty());
    }

    #[test]
    fn the_mirror_always_reports_time_counter_and_hits(s in any_settings(), frac in 0u64..=100) {
        let run = Run::simulate(&s).unwrap();
        let t = Millis(run.end().ms() * frac / 100);
        let mirror = text_mirror(&run, t);
        let snapshot = run.snapshot_at(t);
        let model_time = format!("Model time: {t} ");
        let counter = format!("\nCommitted counter: {}\n", snapshot.counter());
        let hits = format!("\nDeduplication hits: {}\n", snapshot.dedup_hits);
        prop_assert!(mirror.starts_with(&model_time));
        prop_assert!(mirror.contains(&counter));
        prop_assert!(mirror.contains(&hits));
        let decided = run.summary().outcome_at <= t;
        prop_assert_eq!(mirror.contains("\nClient outcome: "), decided);
    }
}
