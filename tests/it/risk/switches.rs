//! One row per pattern switch: starting from all patterns on, the preset
//! where turning that switch off, alone, breaks an invariant (see
//! `what_each_gate_keeps` and the README for the two gates). One more row
//! turns idempotent create and CAS off together, the contract's example of
//! two winners making two reviews. Worked out by hand from the defaults
//! listed in `scenarios.rs`.

use idempotency_lab::sim::risk::{CheckName, Fig, Value};

use super::{outline, run};

#[test]
fn each_switch_protects_an_invariant() {
    // checks, in order: same_request_key_one_row, same_business_key_one_review,
    // lost_response_converges, single_claim_winner, forged_no_downstream,
    // overload_fast_bounded, one_review_per_business_key, legal_transitions,
    // unknown_resolved, downstream_within_capacity, no_effect_after_deadline,
    // caller_token_not_forwarded.
    let table: &[(&str, &str)] = &[
        (
            // Unique request_key, alone (its Show me): the duplicated call's
            // two copies land in different generations of the order. Call 1
            // reaches A at 20 and inserts R10086 at 121 (generation 1); its
            // create is rejected at 121+410 = 531 and R10086 is FAILED at 532,
            // which closes generation 1. The copy, call 2, reaches B 2 s late,
            // at 2020. Without a unique request_key nothing remembers that
            // rk-0001 began in generation 1, so its insert at 2121 takes the
            // order's active generation, 2: a new business key, no conflict,
            // R10087. Its create makes RV-1 at 2121+410 = 2531 (the rejection
            // kept no review to return) and R10087 is SUCCEEDED at 2532: two
            // rows for one request_key, and a review after a rejection. One
            // review per order still holds.
            "--preset same-request-key --mode patterns --unique-request-key off \
             --fault business-rejection@1,call-delayed@2",
            "reviews=1 rows=[FAILED SUCCEEDED] creates=2 finds=0 claims=0/0 checks=F-----TT-T-T--",
        ),
        (
            // The same run with every pattern on: B's insert at 2121 runs into
            // the unique request_key and its read at 2122 returns R10086
            // FAILED, the answer A gave. No review: the Risk API refused.
            "--preset same-request-key --mode patterns --fault business-rejection@1,call-delayed@2",
            "reviews=0 rows=[FAILED] creates=1 finds=0 claims=0/0 checks=T------T-T-T--",
        ),
        (
            // Unique business_key: the second click (rk-0002) inserts R10087 at
            // 421 and creates under its own key: RV-2 at 831.
            "--preset same-business-key --mode patterns --unique-business-key off",
            "reviews=2 rows=[SUCCEEDED×2] creates=2 finds=0 claims=0/0 checks=-F----FT-T-T--",
        ),
        (
            // Timeout is UNKNOWN: the timeout at 2621 marks R10086 FAILED at
            // 2622 (illegal) although RV-1 exists.
            "--preset lost-create-response --mode patterns --timeout-is-unknown off",
            "reviews=1 rows=[FAILED] creates=1 finds=0 claims=0/0 checks=--F---TF-T-TT-",
        ),
        (
            // Idempotent create with CAS: both read-then-write claims hit at
            // 5002 (W2's moves PENDING to PENDING, illegal) and both resend at
            // version 4; without idempotent create the Risk API makes RV-1 and
            // RV-2 at 5412. W1's write at 5413 makes the row SUCCEEDED
            // (version 5); W2's, guarded by version 4, hits nothing.
            "--preset not-found-resend --mode patterns --idempotent-create off --cas off",
            "reviews=2 rows=[SUCCEEDED] creates=3 finds=2 claims=2/0 checks=---F--FFTT-T--",
        ),
        (
            // FindByRequestKey: the UNKNOWN row gets no probe time, so no worker
            // ever looks at it; it stays UNKNOWN.
            "--preset lost-create-response --mode patterns --find-by-key off",
            "reviews=1 rows=[UNKNOWN] creates=1 finds=0 claims=0/0 checks=--F---TTFT-T--",
        ),
        (
            // CAS: both claims hit at 5002 and both resend; idempotent create
            // keeps one review, but two workers won the same claim.
            "--preset not-found-resend --mode patterns --cas off",
            "reviews=1 rows=[SUCCEEDED] creates=3 finds=2 claims=2/0 checks=---F--TFTT-T--",
        ),
        (
            // Idempotent create (its Show me), with CAS on: without it the
            // Risk API cannot say that the slow create (landing at 3121) is
            // under way, so the probes of 3001 hear "not found" at 3101;
            // RETRYABLE at 3102, W1 alone wins the claim at 5002 and resends,
            // and the Risk API makes RV-2 at 5412. Two reviews for one
            // request_key, and a create sent after the first one's answer was
            // lost.
            "--preset probe-races-create --mode patterns --idempotent-create off",
            "reviews=2 rows=[SUCCEEDED] creates=2 finds=2 claims=1/1 checks=--FT--FTTT-T--",
        ),
        (
            // CAS off in the same preset changes nothing: with idempotent
            // create on the probes hear "in progress" (3102), then find RV-1
            // at 5101, and no worker ever claims the row.
            "--preset probe-races-create --mode patterns --cas off",
            "reviews=1 rows=[SUCCEEDED] creates=1 finds=4 claims=0/0 checks=--T---TTTT-T--",
        ),
        (
            // The per-replica gates, alone (their Show me): the global gate
            // lets the fleet work on 100 calls and every other call of the
            // burst waits in its replica's queue, which nothing bounds: 59 at
            // each replica, past the configured 16. They go in call order,
            // 100 every 512 ms from 20, until 2101, when the 780 still
            // waiting can no longer start within their deadline: answered
            // TEMPORARY_UNAVAILABLE and retried, as are the 280 whose retries
            // wait past 5222 (rows and times in
            // the_large_presets_move_by_their_formulas). Every call is
            // performed: 1 280 reviews, nothing OVERLOADED.
            "--preset wide-fleet --mode patterns --gates off",
            "reviews=1280 rows=[SUCCEEDED×1280] creates=1280 finds=0 claims=0/0 checks=T----FTT-T-TT-",
        ),
        (
            // The global gate, alone (its Show me): the 20 replicas' own caps
            // of 64 admit all 1 280 calls at 20; all insert at 121 and create
            // at once, in call order. The Risk API's admission limit takes the
            // first 100 (RV-1 to RV-100 at 531) and refuses the other 1 180
            // with 503 at once: their rows R10186 to R11365 are UNKNOWN at 122,
            // due at once. Both workers scan at 1001 and walk the 1 180 rows,
            // W1 from the first and W2 from the last, each a probe of 100 ms
            // (two at a time, far below the Risk API's limit) and a write of
            // 1: W1's k-th row (from 0) is RETRYABLE at 1102 + 101 k ("not
            // found": the refused create was never performed), so by the
            // horizon k = 0 to 286 (287 rows, the last at 30 089 is too late)
            // from each end; 1 180 - 574 = 606 rows in the middle are still
            // UNKNOWN since 122, far past three scans and a backoff. Each
            // worker sends its probe k = 287 at 29 988: 576 finds.
            "--preset wide-fleet --mode patterns --global-gate off",
            "reviews=100 rows=[SUCCEEDED×100 RETRYABLE×287 UNKNOWN×606 RETRYABLE×287] creates=1280 finds=576 \
             claims=0/0 checks=------TTFT-T--",
        ),
        (
            // Authorization: the forged order is inserted and reviewed. The
            // create still carries the replica's own credential (token
            // forwarding is a switch of its own), so only the forged call fails.
            "--preset forged-order --mode patterns --authorize off",
            "reviews=1 rows=[SUCCEEDED] creates=1 finds=0 claims=0/0 checks=----F-TT-T-T--",
        ),
        (
            // Deadline propagation (its Show me): A's checks end at 120 and it
            // pauses until 6120, past the 5 s deadline at which the agent gave
            // up; it goes on all the same: R10086 at 6121, RV-1 at 6531.
            "--preset replica-pause --mode patterns --deadline-propagation off",
            "reviews=1 rows=[SUCCEEDED] creates=1 finds=0 claims=0/0 checks=------TT-TFT--",
        ),
    ];
    let wrong = super::differing(table);
    assert!(wrong.is_empty(), "{wrong}");
}

/// The incident report's wrong designs, each a value of the switch it
/// replaces, everything else on: the check that catches each.
#[test]
fn each_wrong_design_fails_its_check() {
    let table: &[(&str, &str)] = &[
        (
            // Check-then-insert on business_key: both replicas' SELECTs at 121
            // find nothing (each takes 1 ms), both INSERTs succeed at 122
            // (R10086, R10087), RV-1 and RV-2 at 532.
            "--preset check-then-insert-race --mode patterns --unique-business-key check-then-insert",
            "reviews=2 rows=[SUCCEEDED×2] creates=2 finds=0 claims=0/0 checks=-F----FT-T-T--",
        ),
        (
            // A lock on business_key with the 5 s lease, and a client deadline
            // of 10 s so that the paused replica may still write when it
            // resumes (deadline propagation stops it otherwise). A's lock is
            // taken at 121 (until 120+5000 = 5120), its check at 122 finds
            // nothing and it pauses until 6122. B's tries, issued at 120, 221,
            // ... every 101 ms, find the lock held until the one issued at
            // 120+50*101 = 5170 (5120 <= 5170): taken at 5171, check 5172,
            // R10086 at 5173, RV-1 at 5583. A goes on at 6122 without looking
            // again: R10087 at 6123, RV-2 at 6533.
            "--preset pause-past-lease --mode patterns --unique-business-key lock --client-deadline-ms 10000",
            "reviews=2 rows=[SUCCEEDED×2] creates=2 finds=0 claims=0/0 checks=-F----FT-T-T--",
        ),
        (
            // Catch the timeout and resend: RV-1 at 531 (answer lost); at the
            // timeout, 2621, A sends the create again (waiting at most what is
            // left of the deadline, 5000 - 2621 = 2379 ms) and the idempotent
            // create returns RV-1 at 3031: SUCCEEDED at 3032, one review, but
            // a create sent after the first one's answer was lost.
            "--preset lost-create-response --mode patterns --timeout-is-unknown resend",
            "reviews=1 rows=[SUCCEEDED] creates=2 finds=0 claims=0/0 checks=--F---TT-T-T--",
        ),
        (
            // Retry count below 3: both workers scan at 1001 and find R10086
            // PENDING (its create's answer was lost, the timeout is still to
            // come), count a resend at 1002 and resend; both get RV-1 back at
            // 1412. W1 writes SUCCEEDED at 1413, W2's write finds the version
            // moved; the replica's timeout write at 2622 too, and its read at
            // 2623 returns SUCCEEDED. Two creates sent after the first one's
            // answer was lost (no claim was made: nothing for one claim to win).
            "--preset lost-create-response --mode patterns --recovery retry-count",
            "reviews=1 rows=[SUCCEEDED] creates=3 finds=0 claims=0/0 checks=--F---TT-T-T--",
        ),
        (
            // Retry count resends what the business refused: the duplicated
            // call's create is rejected at 531 (R10086 FAILED at 532, version
            // 2). At 1001 both workers find it FAILED with retry_count 0 and
            // resend at 1002; the rejection kept no review for rk-0001, so the
            // first resend creates RV-1 at 1412 (the second gets RV-1 back),
            // and W1 moves R10086 FAILED -> SUCCEEDED at 1413: illegal, and a
            // review for an order the Risk API refused.
            "--preset same-request-key --mode patterns --recovery retry-count --fault business-rejection@1",
            "reviews=1 rows=[SUCCEEDED] creates=3 finds=0 claims=0/0 checks=T-----TF-T-T--",
        ),
    ];
    let wrong = super::differing(table);
    assert!(wrong.is_empty(), "{wrong}");
}

#[test]
fn without_gates_the_burst_lands_on_every_replica_and_the_risk_api() {
    // 100 calls per replica run at once, 12.5 times the configured cap of 8:
    // overload is judged on the sizes whatever the gates switch, and fails.
    // The Risk API's admission limit takes 32 creates and answers 168 with
    // 503 at once, which makes those rows UNKNOWN at 122. The workers probe
    // them one by one, W1 from the first and W2 from the last, each walking
    // all 168 (101 ms each, until 1001+168*101 = 17969), and claim the
    // RETRYABLE ones from 18000, one winner each. Nothing is OVERLOADED. But
    // the rows the burst threw out are still cycling at the horizon, 30000 -
    // 122 = 29878 ms after they first became UNKNOWN, far past three scans
    // and a backoff.
    let run = run("--preset overload --mode patterns --gates off --global-gate off");
    let checks = run.checks();
    let check = |name| checks.iter().find(|c| c.name == name).unwrap();
    let gates = check(CheckName::OverloadFastBounded);
    assert_eq!(gates.holds, Some(false));
    assert_eq!(gates.figure(Fig::MaxInFlight), Some(Value::Count(100)));
    assert_eq!(gates.figure(Fig::ConcurrencyCap), Some(Value::Count(8)));
    assert_eq!(gates.figure(Fig::Overloaded), Some(Value::Count(0)));
    assert_eq!(gates.figure(Fig::MaxQueue), Some(Value::Count(0)));
    assert_eq!(check(CheckName::DownstreamWithinCapacity).figure(Fig::PeakConcurrency), Some(Value::Count(32)));
    let resolved = check(CheckName::UnknownResolved);
    assert_eq!(resolved.holds, Some(false));
    assert_eq!(resolved.figure(Fig::LongestUnresolvedMs), Some(Value::Ms(29_878)));
    let (Some(Value::Count(rows)), Some(Value::Count(settled)), Some(Value::Count(stalled))) =
        (resolved.figure(Fig::Rows), resolved.figure(Fig::Settled), resolved.figure(Fig::Stalled))
    else {
        panic!("figures")
    };
    assert_eq!((rows, stalled), (200, rows - settled));
    assert!(stalled > 0);
    assert_eq!(check(CheckName::SingleClaimWinner).holds, Some(true));
    assert_eq!(super::verdicts(&run), "---T-FTTFT-T--");
}

#[test]
fn the_lone_switches_the_partners_cover() {
    // With the business key unique, the duplicated call's insert, in the same
    // generation as the first, conflicts on business_key instead: the same
    // single row as with every pattern on. (The switch table's row holds the
    // copy until its generation has closed, where only request_key catches it.)
    // With CAS on, one claim wins and one resend goes out, so idempotent create
    // is not needed in this preset. Both runs equal the patterns run.
    let patterns = outline(&run("--preset same-request-key --mode patterns"));
    assert_eq!(outline(&run("--preset same-request-key --mode patterns --unique-request-key off")), patterns);
    let patterns = outline(&run("--preset not-found-resend --mode patterns"));
    assert_eq!(outline(&run("--preset not-found-resend --mode patterns --idempotent-create off")), patterns);
}

#[test]
fn what_each_gate_keeps() {
    // The global gate alone (per-replica gates off) on the overload burst:
    // the fleet works on at most 32 calls (the Risk API's safe concurrency)
    // and the other 168 wait in the queues, nothing refused at the door. A
    // call works 100+1+410+1 = 512 ms, so they start in waves of 32 at
    // 20 + 512 w: by 2068 five waves (160 calls). A call made at 0 may start
    // until 5000 - 2900 = 2100: at 2101 the 40 still waiting are answered
    // TEMPORARY_UNAVAILABLE, heard at 2121 and retried at 3121. They arrive
    // at 3141 to an idle fleet: 32 start, 8 wait until 3653 and are heard at
    // 3653 + 512 + 20 = 4185. 240 calls, 40 request_keys used twice, the
    // Risk API never above 32. But the queues held 84 and the slots 16 at
    // each replica, past the configured 16 and 8: overload fails.
    let alone = run("--preset overload --mode patterns --gates off");
    let s = alone.summary();
    assert_eq!((s.tool_calls, s.overloaded, s.end.ms()), (240, 0, 4185));
    let figure = |run: &idempotency_lab::sim::risk::Run, name, figure: Fig| {
        run.checks().into_iter().find(|c| c.name == name).and_then(|c| c.figure(figure))
    };
    assert_eq!(figure(&alone, CheckName::DownstreamWithinCapacity, Fig::PeakConcurrency), Some(Value::Count(32)));
    // 168 at 20, and 8 of the retries at 3141.
    assert_eq!(figure(&alone, CheckName::OverloadFastBounded, Fig::WaitedForFleet), Some(Value::Count(176)));
    assert_eq!(figure(&alone, CheckName::OverloadFastBounded, Fig::MaxQueue), Some(Value::Count(84)));
    assert_eq!(figure(&alone, CheckName::OverloadFastBounded, Fig::MaxInFlight), Some(Value::Count(16)));
    assert_eq!(
        outline(&alone),
        "reviews=200 rows=[SUCCEEDED×200] creates=200 finds=0 claims=0/0 checks=T----FTT-T-TT-"
    );
    // With both gates the quota of 32 is never reached (two replicas of 8
    // slots hold 16): the per-replica gates decide alone, as without the
    // global gate (640 calls, 440 OVERLOADED; see overload_with_the_gates_
    // works_in_waves).
    let both = outline(&run("--preset overload --mode patterns"));
    assert_eq!(outline(&run("--preset overload --mode patterns --global-gate off")), both);
    // In the wide fleet each gate keeps its own check (the switch table):
    // without the global gate the Risk API refuses 1 180 creates and the
    // workers cannot settle their rows in time; without the per-replica
    // gates the queues grow past their size.
    let wide = |flags: &str| super::verdicts(&run(&format!("--preset wide-fleet --mode patterns {flags}")));
    assert_eq!(
        [wide(""), wide("--gates off"), wide("--global-gate off")],
        ["T----TTT-T-TT-", "T----FTT-T-TT-", "------TTFT-T--"]
    );
}

#[test]
fn workers_that_do_not_wake_together_do_not_race() {
    // W2 wakes at 1500, 2500, ...: R10086 is RETRYABLE from 3102, due at 4101;
    // W1's scan at 4000 is too early, W2's at 4500 claims it alone (read-then-
    // write, at 4502) and resends: RV-1 at 4912. Only W1 probed (at 3001).
    let run = run("--preset not-found-resend --mode patterns --cas off --worker-offset-ms 500");
    assert_eq!(outline(&run), "reviews=1 rows=[SUCCEEDED] creates=2 finds=1 claims=1/0 checks=---T--TTTT-T--");
}

#[test]
fn without_find_the_agent_polls_until_it_gives_up() {
    // UNKNOWN heard at 2642; polls at 3642 and every 1000+20+100+1+20 = 1141
    // ms after: the 20th at 3642+19*1141 = 25321 is heard at 25462, and the
    // agent gives up. 1 request + 20 polls.
    let run = run("--preset lost-create-response --mode patterns --find-by-key off");
    assert_eq!(run.summary().tool_calls, 21);
    assert_eq!(run.summary().end.ms(), 25_462);
}

#[test]
fn the_race_order_decides_who_goes_first_at_a_tie() {
    use idempotency_lab::sim::risk::facts::{Actor, What, WorkerId};
    // Both workers wake at 5000 to claim R10086 (RETRYABLE since 3102, due
    // at 4101). With W2 first, W2's compare-and-set claim is the one that
    // hits (5002) and W2 resends; W1's finds the version moved.
    let claims = |flags: &str| -> Vec<(WorkerId, bool)> {
        run(flags)
            .records()
            .iter()
            .filter_map(|r| match r.what {
                What::Claim { by, won, .. } => Some((by, won)),
                _ => None,
            })
            .collect()
    };
    let base = "--preset not-found-resend --mode patterns";
    assert_eq!(claims(base), [(WorkerId::W1, true), (WorkerId::W2, false)]);
    assert_eq!(claims(&format!("{base} --worker-order w2-first")), [(WorkerId::W2, true), (WorkerId::W1, false)]);
    let resender = run(&format!("{base} --worker-order w2-first"))
        .records()
        .iter()
        .find_map(|r| matches!((r.actor, r.what), (Actor::Worker(_), What::CreateSent { .. })).then_some(r.actor));
    assert_eq!(resender, Some(Actor::Worker(WorkerId::W2)));
    // Two clicks at one instant: with the second first, rk-0002 is call 1,
    // goes to A and gets R10086; rk-0001's insert runs into its business key.
    let race = run("--preset check-then-insert-race --mode patterns --worker-order w2-first");
    assert_eq!(race.rows()[0].request_key.0, 2);
    // A seeded order is the same for the same seed, and both orders occur.
    let seeded = |seed: u32| claims(&format!("{base} --worker-order seeded --seed {seed}"))[0].0;
    let firsts: std::collections::BTreeSet<WorkerId> = (0..16).map(seeded).collect();
    assert_eq!(firsts.len(), 2, "both workers win some seeds");
}
