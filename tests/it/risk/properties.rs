//! Invariants the patterns promise: over random fault schedules (the
//! random-faults preset draws them from the seed), seeds and timings; and
//! over every preset with up to four aimed faults of every kind, race orders
//! and seeds. With one switch off, or one of the report's wrong designs,
//! only the checks it answers for may fail.

use std::collections::BTreeMap;

use idempotency_lab::cli::main_with;
use idempotency_lab::sim::Millis;
use idempotency_lab::sim::risk::facts::{Credential, FORGED_ORDER, What};
use idempotency_lab::sim::risk::settings::{FaultKind, Preset, WorkerOrder};
use idempotency_lab::sim::risk::{CheckName, Fig, Run, Status, Value};
use proptest::prelude::*;

use super::settings;

prop_compose! {
    /// Every pattern on; faults from the seed; timings anywhere in a wide,
    /// valid range; a horizon long enough for everything to settle.
    fn patterns_flags()(
        seed in any::<u32>(),
        db in 0u64..=20,
        transit in 0u64..=100,
        auth in 0u64..=300,
        create in 1u64..=3_000,
        find in 1u64..=1_000,
        scan in 100u64..=3_000,
        offset_percent in 0u64..100,
        backoff in 1u64..=3_000,
        lease in 1u64..=10_000,
        cap in 1u64..=8,
        queue in 0u64..=16,
        api in 1u64..=32,
        order in prop::sample::select(vec!["w1-first", "w2-first", "seeded"]),
        replicas in 1u64..=6,
    ) -> String {
        format!(
            "--preset random-faults --mode patterns --seed {seed} --worker-order {order} --replicas {replicas} --horizon-ms 600000 --db-statement-ms {db} \
             --call-transit-ms {transit} --auth-policy-ms {auth} --create-ms {create} --find-ms {find} \
             --scan-interval-ms {scan} --worker-offset-ms {} --backoff-ms {backoff} --claim-lease-ms {lease} \
             --concurrency-cap {cap} --queue-capacity {queue} --api-safe-concurrency {api}",
            scan * offset_percent / 100
        )
    }
}

fn holds(run: &Run, name: CheckName) -> Option<bool> {
    run.checks().into_iter().find(|c| c.name == name).and_then(|c| c.holds)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn with_every_pattern_on_the_invariants_hold(flags in patterns_flags()) {
        let run = Run::simulate(&settings(&flags)).expect("run finishes");
        let gates = run.settings().replica.gates;

        // At most one review per business_key.
        let mut reviews: BTreeMap<u32, u32> = BTreeMap::new();
        for review in run.reviews() {
            *reviews.entry(review.order.0).or_default() += 1;
        }
        prop_assert!(reviews.values().all(|&n| n <= 1), "{reviews:?}");
        prop_assert_ne!(holds(&run, CheckName::OneReviewPerBusinessKey), Some(false));

        for r in run.records() {
            // Only legal transitions.
            if let Some(m) = r.row_move() {
                prop_assert!(m.is_legal(), "illegal move at {}: {m:?}", r.t);
            }
            match r.what {
                // A forged order never reaches the Risk API, nor the table, and
                // the caller's token stays at the protocol boundary.
                What::CreateSent { order, credential, .. } => {
                    prop_assert_ne!(order, FORGED_ORDER);
                    prop_assert_eq!(credential, Credential::Service);
                }
                What::ReviewCreated { order, .. } => prop_assert_ne!(order, FORGED_ORDER),
                What::RowInserted { insert, .. } => prop_assert_ne!(insert.order, FORGED_ORDER),
                // Queues and slots never exceed their sizes.
                What::CallAdmitted { in_flight, queued, .. }
                | What::CallQueued { in_flight, queued, .. }
                | What::CallStarted { in_flight, queued, .. }
                | What::Overloaded { in_flight, queued, .. } => {
                    prop_assert!(in_flight <= gates.cap && queued <= gates.queue, "{in_flight} {queued}");
                }
                _ => {}
            }
        }
        prop_assert_ne!(holds(&run, CheckName::LegalTransitions), Some(false));
        // The forged call is refused before any write or Risk API call. Its
        // FORBIDDEN counts only if the agent hears it within its deadline,
        // and a slot freed by a slow Risk API can come later than that: so
        // the check as a whole holds when no forged call outlived its wait.
        let forged: Vec<_> = run.records().iter().filter_map(|r| match r.what {
            What::ToolCall { call, order: Some(FORGED_ORDER), .. } => Some(call),
            _ => None,
        }).collect();
        let gave_up: Vec<_> = run.records().iter().filter_map(|r| match r.what {
            What::DeadlinePassed { call, .. } if forged.contains(&call) => Some(call),
            _ => None,
        }).collect();
        // Whenever it comes, a forged call's answer is an error: never a
        // review.
        for r in run.records() {
            if let What::ToolResult { call, reply, .. } = r.what && forged.contains(&call) {
                prop_assert!(reply.is_error(), "the forged call {:?} was answered {:?}", call, reply);
            }
        }
        prop_assert_ne!(holds(&run, CheckName::CallerTokenNotForwarded), Some(false));
        let forged_check = run.checks().into_iter().find(|c| c.name == CheckName::ForgedNoDownstream);
        if let Some(check) = &forged_check {
            for figure in [Fig::Rows, Fig::DownstreamCalls] {
                prop_assert_eq!(check.figure(figure), Some(Value::Count(0)), "{:?}", figure);
            }
            // Only a call the agent gave up on may go unrefused.
            let unrefused = match check.figure(Fig::NotRefused) {
                Some(Value::Count(n)) => n,
                other => panic!("not_refused is {other:?}"),
            };
            prop_assert!(unrefused <= gave_up.len() as u64, "{:?}; the agent gave up on {:?}", check, gave_up);
            if gave_up.is_empty() {
                prop_assert_ne!(check.holds, Some(false), "{:?}", check);
            }
        }
        prop_assert_ne!(holds(&run, CheckName::SingleClaimWinner), Some(false));
        prop_assert_ne!(holds(&run, CheckName::SameRequestKeyOneRow), Some(false));
        prop_assert_ne!(holds(&run, CheckName::SameBusinessKeyOneReview), Some(false));
        prop_assert_ne!(holds(&run, CheckName::LostResponseConverges), Some(false));

        // Every UNKNOWN converges once the Risk API answers again: its faults
        // are finite, and ten minutes is long enough for every row to settle.
        for row in run.rows() {
            prop_assert!(row.status.is_final(), "{:?} is {} at the horizon", row.id, row.status.name());
        }
        prop_assert_ne!(holds(&run, CheckName::UnknownResolved), Some(false));
    }

    #[test]
    fn checks_at_any_moment_never_see_a_broken_invariant(seed in any::<u32>(), t in 0u64..40_000) {
        let run = Run::simulate(&settings(&format!("--preset random-faults --mode patterns --seed {seed}")))
            .expect("run finishes");
        for check in run.checks_at(Millis(t)) {
            // UNKNOWN gets resolved is judged at the horizon: as of a moment,
            // a row the Risk API's faults keep unresolved for longer than
            // three scans and a backoff fails it until it settles.
            if matches!(check.name, CheckName::LegalTransitions | CheckName::OneReviewPerBusinessKey
                | CheckName::SingleClaimWinner | CheckName::DownstreamWithinCapacity) {
                prop_assert_ne!(check.holds, Some(false), "{:?} at {}", check.name, t);
            }
        }
    }
}

prop_compose! {
    /// Any preset in the registry, up to four aimed faults of any kind in
    /// place of its own (none drawn: its own), a race order and a seed, with
    /// a horizon of ten minutes so that every finite fault can settle.
    fn any_run()(
        preset in prop::sample::select(Preset::ALL.to_vec()),
        faults in prop::collection::vec((prop::sample::select(FaultKind::ALL.to_vec()), 1u32..=4), 0..=4),
        order in prop::sample::select(WorkerOrder::ALL.to_vec()),
        seed in any::<u32>(),
    ) -> String {
        let mut flags = format!(
            "--preset {} --horizon-ms 600000 --worker-order {} --seed {seed}",
            preset.value(),
            order.value()
        );
        if !faults.is_empty() {
            let list: Vec<String> = faults.iter().map(|(k, n)| format!("{}@{n}", k.value())).collect();
            flags.push_str(&format!(" --fault {}", list.join(",")));
        }
        flags
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// Whatever the preset, the race order and the aimed faults, the
    /// patterns keep every check, with no exception, and every row settles.
    #[test]
    fn aimed_faults_never_break_an_invariant_with_every_pattern_on(flags in any_run()) {
        let flags = format!("{flags} --mode patterns");
        let run = Run::simulate(&settings(&flags)).expect("run finishes");
        for check in run.checks() {
            prop_assert_ne!(check.holds, Some(false), "{:?} with {}: {:?}", check.name, flags, check.figures);
        }
        for row in run.rows() {
            prop_assert!(row.status.is_final(), "{:?} is {} at the horizon with {}", row.id, row.status.name(), flags);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    /// The same command twice gives byte-identical JSON (and text).
    #[test]
    fn the_same_command_twice_gives_the_same_bytes(
        seed in any::<u32>(),
        mode in prop::sample::select(vec!["naive", "patterns"]),
        cas in prop::sample::select(vec!["auto", "on", "off"]),
        format in prop::sample::select(vec!["json", "text"]),
    ) {
        let args: Vec<String> = [
            "risk", "--preset", "random-faults", "--mode", mode, "--cas", cas, "--seed", &seed.to_string(),
            "--format", format,
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let once = || {
            let (mut out, mut err) = (Vec::new(), Vec::new());
            assert_eq!(main_with(&args, &mut out, &mut err), 0, "{}", String::from_utf8_lossy(&err));
            out
        };
        prop_assert_eq!(once(), once());
    }
}

#[test]
fn a_row_stays_unknown_only_while_it_is_being_probed() {
    // The lost response's row is UNKNOWN from 2622 until the probe's write at
    // 3102; in between its next probe is scheduled, so it is not stalled.
    let run = Run::simulate(&settings("--preset lost-create-response --mode patterns")).unwrap();
    for t in [2622, 2900, 3101] {
        let snapshot = run.snapshot_at(Millis(t));
        assert_eq!(snapshot.rows[0].status, Status::Unknown, "at {t}");
        assert!(snapshot.rows[0].next_retry_at.is_some());
        let check = run.checks_at(Millis(t)).into_iter().find(|c| c.name == CheckName::UnknownResolved).unwrap();
        assert_eq!(check.holds, Some(true), "at {t}");
    }
    assert_eq!(run.snapshot_at(Millis(3102)).rows[0].status, Status::Succeeded);
}

/// Regression: with room for one Risk API call at a time, one worker's probe
/// took the slot and the other's got 503 at once; the failed probe's write
/// bumped the row's version, so the first worker's answer was always
/// refused by its version guard, and the workers probed forever (14,868
/// finds in ten minutes). A failed probe no longer changes the version.
#[test]
fn two_workers_sharing_one_risk_api_slot_still_settle() {
    let run = Run::simulate(&settings(
        "--preset random-faults --mode patterns --seed 1977110520 --horizon-ms 600000 --db-statement-ms 0 \
         --call-transit-ms 0 --auth-policy-ms 0 --create-ms 2501 --find-ms 169 --scan-interval-ms 100 \
         --backoff-ms 1 --claim-lease-ms 1 --concurrency-cap 1 --queue-capacity 0 --api-safe-concurrency 1",
    ))
    .unwrap();
    assert!(run.rows().iter().all(|r| r.status.is_final()), "{:?}", run.rows());
    assert!(run.summary().finds < 100, "{} finds", run.summary().finds);
}

/// With one switch off, or set to one of the report's wrong designs (the
/// others on), the checks that may fail: the one it protects, and those that
/// follow from it, each for a stated reason.
fn may_fail(switch: &str) -> &'static [CheckName] {
    use CheckName as C;
    match switch {
        // Without it a copy of a call that arrives after its generation
        // closed gets a second row; the idempotent create keeps its review
        // the key's only one.
        "--unique-request-key off" => &[C::SameRequestKeyOneRow],
        // A second row for the order is a second review for it too.
        "--unique-business-key off" => &[C::SameBusinessKeyOneReview, C::OneReviewPerBusinessKey],
        // A timeout's FAILED is illegal and leaves a performed create's row
        // FAILED; it also closes the order's generation, so the next click
        // for the order opens another and creates a second review.
        "--timeout-is-unknown off" => {
            &[C::LegalTransitions, C::LostResponseConverges, C::OneReviewPerBusinessKey, C::SameBusinessKeyOneReview]
        }
        // A resent create makes a second review for its key and its order.
        "--idempotent-create off" => {
            &[C::OneReviewPerBusinessKey, C::LostResponseConverges, C::SameBusinessKeyOneReview]
        }
        // An UNKNOWN row nobody probes never converges.
        "--find-by-key off" => &[C::UnknownResolved, C::LostResponseConverges],
        // A blind claim's write over a PENDING row is an illegal move; and of
        // two resends at once, one may be performed with its answer lost
        // while the other's answer decides the row.
        "--cas off" => &[C::SingleClaimWinner, C::LegalTransitions, C::LostResponseConverges],
        // A forged call reaches the Risk API (the replica still calls it
        // with its own credential: token forwarding is a switch of its own).
        "--authorize off" => &[C::ForgedNoDownstream],
        // Without the per-replica gates a burst holds more calls in a
        // replica's slots and queue than their configured sizes (overload,
        // wide-fleet), which overload judges whatever the switch.
        "--gates off" => &[C::OverloadFastBounded],
        // The fleet's own caps let more calls through than the Risk API was
        // verified for; its admission limit refuses the excess with 503, and
        // each refused create leaves an UNKNOWN row that the two workers may
        // not settle in time (wide-fleet).
        "--global-gate off" => &[C::UnknownResolved],
        // The leaky gate frees a place while the Risk API still works on the
        // call, so the fleet starts more calls than the Risk API takes: its
        // limit refuses them with 503, and their rows are left for the
        // workers, as with the gate off, if fewer (slow-fleet).
        "--global-gate leaky" => &[C::UnknownResolved],
        // Without its own limit the Risk API takes whatever the callers
        // send: the fleet's 100 held places for creates slower than their
        // budget, and the workers' probes on top (slow-fleet).
        "--downstream-limit off" => &[C::DownstreamWithinCapacity],
        // Without deadline propagation a queued call waits for a slot
        // whatever is left of its deadline, past the moment its budget
        // lapsed, and a paused or late replica inserts and creates for a
        // caller that gave up (replica-pause, pause-past-lease).
        "--deadline-propagation off" => &[C::OverloadFastBounded, C::NoEffectAfterDeadline],
        // Check-then-insert and the lock fail the key they replace, as the
        // switch off does.
        "--unique-request-key check-then-insert" | "--unique-request-key lock" => may_fail("--unique-request-key off"),
        // And, as their check comes first and finds the order's first row,
        // a late copy of a call whose key already has a row of its own (a
        // second row for the order) is answered with the first row's
        // review: one request_key, two review ids.
        "--unique-business-key check-then-insert" | "--unique-business-key lock" => {
            &[C::SameBusinessKeyOneReview, C::OneReviewPerBusinessKey, C::SameRequestKeyOneRow]
        }
        // Resending at the timeout sends a second create for the row, after
        // the first one's answer may have been lost; its answer then decides
        // the row as the naive server's would, so a second timeout is an
        // illegal FAILED with the first create performed, and the FAILED
        // closes the order's generation. (No worker claims anything: the
        // claim check has nothing to judge.)
        "--timeout-is-unknown resend" => {
            &[C::LegalTransitions, C::LostResponseConverges, C::OneReviewPerBusinessKey, C::SameBusinessKeyOneReview]
        }
        // Both workers resend every unfinished row, without a claim (so the
        // claim check has nothing to judge), even after an answer was lost,
        // and write SUCCEEDED over FAILED (a review for a rejected order,
        // beside the next generation's). After three resends they stop, never
        // having asked the Risk API: a row whose three resends met faults
        // stays UNKNOWN for good, though its review may exist.
        "--recovery retry-count" => &[
            C::LegalTransitions,
            C::OneReviewPerBusinessKey,
            C::SameBusinessKeyOneReview,
            C::UnknownResolved,
            C::LostResponseConverges,
        ],
        _ => &[],
    }
}

#[test]
fn a_business_key_checked_first_answers_a_late_copy_with_another_keys_review() {
    // Two clicks at once, rk-0001 (call 1) and rk-0002 (call 2), both reach
    // replica A at 20 ms; each checks the order's business key, finds no
    // row, and inserts its own (R10086 and R10087): two creates, RV-1 and
    // RV-2. Call 2 is delivered twice, and its copy (call 3) is 2 s late:
    // its check of the order's business key finds R10086 first, so
    // rk-0002 is answered with RV-1 as well as RV-2.
    let run = Run::simulate(&settings(
        "--preset check-then-insert-race --worker-order w1-first --seed 0 --fault call-delayed@2,duplicate-delivery@2 \
         --mode patterns --unique-business-key check-then-insert",
    ))
    .unwrap();
    let check = run.checks().into_iter().find(|c| c.name == CheckName::SameRequestKeyOneRow).unwrap();
    assert_eq!(check.holds, Some(false));
    assert_eq!(check.figure(Fig::MaxRows), Some(Value::Count(1)));
    assert_eq!(check.figure(Fig::MaxReviewIds), Some(Value::Count(2)));
}

/// Every switch off, and every wrong design.
const SWITCHES: [&str; 18] = [
    "--unique-request-key off",
    "--unique-business-key off",
    "--timeout-is-unknown off",
    "--idempotent-create off",
    "--find-by-key off",
    "--cas off",
    "--authorize off",
    "--gates off",
    "--global-gate off",
    "--downstream-limit off",
    "--deadline-propagation off",
    "--global-gate leaky",
    "--unique-request-key check-then-insert",
    "--unique-request-key lock",
    "--unique-business-key check-then-insert",
    "--unique-business-key lock",
    "--timeout-is-unknown resend",
    "--recovery retry-count",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 800, ..ProptestConfig::default() })]

    /// One switch off, or one wrong design, among any preset, race order and
    /// aimed faults: only the checks it answers for fail.
    #[test]
    fn with_one_switch_off_only_its_checks_fail(switch in prop::sample::select(SWITCHES.to_vec()), flags in any_run()) {
        let flags = format!("{flags} --mode patterns {switch}");
        let run = Run::simulate(&settings(&flags)).expect("run finishes");
        for check in run.checks() {
            if check.holds == Some(false) {
                prop_assert!(may_fail(switch).contains(&check.name), "{:?} failed with {}: {:?}", check.name, flags, check.figures);
            }
        }
    }

    /// The same over the random-faults preset's scripts and faults.
    #[test]
    fn with_one_pattern_off_among_random_faults_only_its_checks_fail(
        switch in prop::sample::select(SWITCHES.to_vec()),
        seed in any::<u32>(),
        order in prop::sample::select(WorkerOrder::ALL.to_vec()),
    ) {
        let flags = format!(
            "--preset random-faults --mode patterns --seed {seed} --worker-order {} --horizon-ms 600000 {switch}",
            order.value()
        );
        let run = Run::simulate(&settings(&flags)).expect("run finishes");
        for check in run.checks() {
            if check.holds == Some(false) {
                prop_assert!(may_fail(switch).contains(&check.name), "{:?} failed with {}: {:?}", check.name, flags, check.figures);
            }
        }
    }
}
