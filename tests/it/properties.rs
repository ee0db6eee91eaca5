//! Invariants the model promises, over random valid settings (v1 and v2).

use idempotency_lab::sim::ack::settings::{MAX_DEADLINE_MS, MAX_DURATION_MS, MAX_RETENTION_MS, MAX_TRANSIT_MS, PARAMS};
use idempotency_lab::sim::ack::{
    CrashPoint, EVENT_BUDGET, KeyMode, Outcome, RawSettings, Run, Settings, Status, StoreKind, What,
};
use idempotency_lab::sim::{Millis, Schema};
use idempotency_lab::view::ack::text_mirror;
use proptest::prelude::*;

/// Mostly small values, where interesting coincidences happen, sometimes
/// anything the model allows.
fn millis(min: u64, max: u64) -> impl Strategy<Value = u64> {
    prop_oneof![4 => min..=max.min(min + 5_000), 1 => min..=max, 1 => Just(min), 1 => Just(max)]
}

fn pick(values: &'static [&'static str]) -> impl Strategy<Value = String> {
    prop::sample::select(values).prop_map(str::to_owned)
}

prop_compose! {
    /// Any valid v1 settings, with the v2 parameters at their defaults.
    pub fn v1_settings()(
        fault in pick(&["none", "lose-first", "lose-all", "first-503", "reject-400"]),
        dedup in pick(&["on", "off"]),
        key in pick(&["stable", "per-attempt"]),
        jitter in pick(&["off", "full"]),
        retention in millis(0, MAX_RETENTION_MS),
        timeout in millis(1, MAX_DURATION_MS),
        exec in millis(0, MAX_DURATION_MS),
        attempts in 1u32..=10,
        initial in millis(0, MAX_DURATION_MS),
        cap in millis(0, MAX_DURATION_MS),
        request in millis(0, MAX_TRANSIT_MS),
        response in millis(0, MAX_TRANSIT_MS),
    ) -> Vec<(&'static str, String)> {
        vec![
            ("--fault", fault), ("--dedup", dedup), ("--key", key), ("--jitter", jitter),
            ("--retention-ms", retention.to_string()), ("--timeout-ms", timeout.to_string()),
            ("--exec-ms", exec.to_string()), ("--max-attempts", attempts.to_string()),
            ("--initial-delay-ms", initial.to_string()), ("--backoff-cap-ms", cap.to_string()),
            ("--request-transit-ms", request.to_string()), ("--response-transit-ms", response.to_string()),
        ]
    }
}

prop_compose! {
    /// Any valid v1 and v2 settings.
    pub fn v2_pairs()(
        v1 in v1_settings(),
        in_flight in pick(&["join", "reject-409"]),
        payload in pick(&["same", "changed"]),
        fingerprint in pick(&["on", "off"]),
        crash in pick(&["none", "before-commit", "after-effect", "after-record"]),
        restart in millis(0, MAX_DURATION_MS),
        store in pick(&["in-memory", "durable-separate", "durable-atomic"]),
        lease in millis(1, MAX_RETENTION_MS),
        deadline in prop_oneof![2 => Just("off".to_owned()), 1 => millis(1, MAX_DEADLINE_MS).prop_map(|d| d.to_string())],
    ) -> Vec<(&'static str, String)> {
        let mut pairs = v1;
        pairs.extend([
            ("--in-flight", in_flight), ("--payload", payload), ("--fingerprint", fingerprint), ("--crash", crash),
            ("--restart-ms", restart.to_string()), ("--store", store), ("--lease-ms", lease.to_string()),
            ("--deadline-ms", deadline),
        ]);
        pairs
    }
}

prop_compose! {
    /// Any valid settings with deduplication on, stable keys, retention
    /// and lease at their longest (longer than any run), and either no
    /// crash or a durable store: the case where the ledger must hold at
    /// most one entry.
    pub fn deduplicated_settings()(
        pairs in v2_pairs(),
        durable in pick(&["durable-separate", "durable-atomic"]),
    ) -> Settings {
        let mut pairs: Vec<(&'static str, String)> = pairs
            .into_iter()
            .filter(|(flag, _)| !matches!(*flag, "--dedup" | "--key" | "--retention-ms" | "--lease-ms"))
            .collect();
        pairs.extend([
            ("--dedup", "on".to_owned()),
            ("--key", "stable".to_owned()),
            ("--retention-ms", MAX_RETENTION_MS.to_string()),
            ("--lease-ms", MAX_RETENTION_MS.to_string()),
        ]);
        let crashes = pairs.iter().any(|(flag, value)| *flag == "--crash" && value != "none");
        if crashes {
            pairs.retain(|(flag, _)| *flag != "--store");
            pairs.push(("--store", durable));
        }
        settings_of(&pairs)
    }
}

pub fn settings_of(pairs: &[(&'static str, String)]) -> Settings {
    let mut raw = RawSettings::core();
    for (flag, value) in pairs {
        raw.set(Settings::by_flag(flag).expect("a known flag"), value.clone());
    }
    raw.validate().expect("strategy yields valid settings")
}

pub fn any_settings() -> impl Strategy<Value = Settings> {
    v2_pairs().prop_map(|p| settings_of(&p))
}

/// Ledger increments the event list shows up to `t`: commits, and crashes
/// that applied their effect.
fn increments_in_events(run: &Run, t: Millis) -> u64 {
    run.records_until(t)
        .iter()
        .filter(|r| matches!(r.what, What::OperationCommitted { .. } | What::ServerCrashed { applied: Some(_), .. }))
        .count() as u64
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
    fn every_increment_comes_from_an_operation_that_started(s in any_settings()) {
        // The ledger against the event list: each entry is a commit (or a
        // crash that applied its effect) of an operation that was started by
        // its attempt at or before that time, and the values count up from 1.
        let run = Run::simulate(&s).unwrap();
        prop_assert_eq!(increments_in_events(&run, run.end()), run.ledger().len() as u64);
        for (i, entry) in run.ledger().iter().enumerate() {
            prop_assert_eq!(entry.value, i as u64 + 1);
            let started = run.records().iter().any(|r| {
                r.t <= entry.t && r.attempt == entry.attempt && matches!(r.what, What::OperationStarted { .. })
            });
            prop_assert!(started, "entry {:?} has no started operation", entry);
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
    fn stable_keys_with_long_retention_commit_at_most_once(s in deduplicated_settings()) {
        // MODEL.md v2: with deduplication on, stable keys, retention and lease
        // longer than the run, and either no crash or a durable store, the
        // ledger holds at most one entry. The strategy makes every case meet
        // that condition; the first assertion says so.
        let run = Run::simulate(&s).unwrap();
        let end = run.end();
        prop_assert!(s.dedup() && s.key() == KeyMode::Stable && s.retention() > end && s.lease() > end);
        prop_assert!(s.crash() == CrashPoint::None || s.store_kind() != StoreKind::InMemory);
        prop_assert!(run.summary().committed <= 1, "{}", run.summary().committed);
    }

    #[test]
    fn a_422_never_increments(s in any_settings()) {
        let run = Run::simulate(&s).unwrap();
        for r in run.records().iter().filter(|r| matches!(r.what, What::PayloadMismatch { .. })) {
            prop_assert!(run.ledger().iter().all(|e| e.attempt != r.attempt), "attempt {} was refused yet applied", r.attempt);
            let started = run.records().iter().any(|o| o.attempt == r.attempt && matches!(o.what, What::OperationStarted { .. }));
            prop_assert!(!started);
        }
    }

    #[test]
    fn no_response_leaves_the_server_while_it_is_down(s in any_settings()) {
        let run = Run::simulate(&s).unwrap();
        let summary = run.summary();
        let (Some(down), Some(up)) = (summary.crash_at, summary.restart_at) else {
            return Ok(());
        };
        // In event order: between the crash and the restart the server does
        // nothing at all (an answer at the crash instant but before it is fine).
        let records = run.records();
        let crashed = records.iter().position(|r| matches!(r.what, What::ServerCrashed { .. })).unwrap();
        let restarted = records.iter().position(|r| matches!(r.what, What::ServerRestarted { .. })).unwrap_or(records.len());
        for r in &records[crashed + 1..restarted] {
            let server_acts = matches!(
                r.what,
                What::OperationStarted { .. } | What::OperationCommitted { .. } | What::DedupReplayed { .. }
                    | What::DedupJoined { .. } | What::RequestRejected | What::RequestUnavailable
                    | What::InFlightConflict { .. } | What::PayloadMismatch { .. }
            );
            prop_assert!(!server_acts, "{:?} while down", r);
        }
        // In time: no answer but a refusal is sent strictly inside the outage.
        for r in records {
            let sent = match r.what {
                What::ResponseDelivered { status, sent_at, .. }
                | What::ResponseLate { status, sent_at }
                | What::ResponseLost { status, sent_at } if status != Status::Refused => Some(sent_at),
                _ => None,
            };
            if let Some(sent_at) = sent {
                prop_assert!(sent_at <= down || sent_at >= up, "{:?} sent while down ({:?}..{:?})", r, down, up);
            }
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
        prop_assert_eq!(summary.conflicts, count("in-flight-conflict"));
        prop_assert_eq!(summary.unprocessable, count("payload-mismatch"));
        prop_assert_eq!(summary.refused, count("request-refused"));
        prop_assert!(summary.outcome_at <= summary.end);
        if let Some(last_real) = run.records().iter().rev().find(|r| !r.what.is_marker()) {
            prop_assert_eq!(last_real.t, summary.end);
        }
        prop_assert!(run.records().iter().all(|r| r.t <= summary.end));
        if s.fault() == idempotency_lab::sim::ack::Fault::None {
            prop_assert_eq!(summary.lost_responses, 0);
        }
        if !s.dedup() {
            prop_assert_eq!(summary.dedup_hits + summary.conflicts + summary.unprocessable, 0);
        }
        // Once over, nothing is left in flight.
        let end = run.snapshot_at(summary.end);
        prop_assert!(end.operations.is_empty() && end.in_transit.is_empty());
    }

    #[test]
    fn the_mirror_agrees_with_the_event_list(s in any_settings(), frac in 0u64..=100) {
        // Counted from the records, not from the state the mirror reads.
        let run = Run::simulate(&s).unwrap();
        let t = Millis(run.end().ms() * frac / 100);
        let mirror = text_mirror(&run, t);
        let so_far = run.records_until(t);
        let hits = so_far.iter().filter(|r| matches!(r.what, What::DedupJoined { .. } | What::DedupReplayed { .. })).count();
        let sent = so_far.iter().filter(|r| matches!(r.what, What::AttemptSent { .. })).count();
        let model_time = format!("Model time: {t} ");
        let counter = format!("\nCommitted counter: {}\n", increments_in_events(&run, t));
        let hits = format!("\nDeduplication hits: {hits}\n");
        let attempts = format!("\nAttempts sent: {sent} of at most {}\n", s.max_attempts());
        prop_assert!(mirror.starts_with(&model_time));
        prop_assert!(mirror.contains(&counter), "{}", mirror);
        prop_assert!(mirror.contains(&hits), "{}", mirror);
        prop_assert!(mirror.contains(&attempts), "{}", mirror);
        let decided = run.summary().outcome_at <= t;
        prop_assert_eq!(mirror.contains("\nClient outcome: "), decided);
    }

    #[test]
    fn every_settings_value_round_trips_through_a_file(s in any_settings()) {
        let json = serde_json::to_string(&s.to_json()).unwrap();
        let again: Settings = idempotency_lab::sim::params_file::parse_settings_json(&json).unwrap();
        prop_assert_eq!(&again, &s);
        prop_assert_eq!(PARAMS.len(), s.values().len());
    }
}
