//! One row per pattern switch: starting from all patterns on, the preset
//! where turning that switch off, alone, breaks an invariant (see
//! `what_each_gate_keeps` and the README for the two gates). One more row
//! turns idempotent create and CAS off together, the contract's example of
//! two winners making two reviews. Worked out by hand from the defaults
//! listed in `scenarios.rs`.

use idempotency_lab::sim::risk::{CheckName, Value};

use super::{outline, run};

#[test]
fn each_switch_protects_an_invariant() {
    // checks, in order: same_request_key_one_row, same_business_key_one_review,
    // lost_response_converges, single_claim_winner, forged_no_downstream,
    // overload_fast_bounded, one_review_per_business_key, legal_transitions,
    // unknown_resolved, downstream_within_capacity.
    let table: &[(&str, &str)] = &[
        (
            // Unique request_key, alone: the duplicated call's two copies land
            // in different generations of the order. Both pass their checks at
            // 120; A's insert is the run's first (R10086 at 121, generation
            // 1), B's the second, which the pause holds until 120+6000 = 6120.
            // A's create is rejected at 121+410 = 531 and R10086 is FAILED at
            // 532, which closes generation 1. Without a unique request_key
            // nothing remembers that rk-0001 began in generation 1, so B's
            // insert at 6121 takes the order's active generation, 2: a new
            // business key, no conflict, R10087. Its create makes RV-1 at
            // 6121+410 = 6531 (the rejection kept no review to return) and
            // R10087 is SUCCEEDED at 6532: two rows for one request_key, and
            // a review after a rejection. One review per order still holds.
            "--preset same-request-key --mode patterns --unique-request-key off \
             --fault business-rejection@1,replica-pause@2",
            "reviews=1 rows=[FAILED SUCCEEDED] creates=2 finds=0 claims=0/0 checks=F-----TT-T",
        ),
        (
            // The same run with every pattern on: B's insert at 6121 runs into
            // the unique request_key and its read at 6122 returns R10086
            // FAILED, the answer A gave. No review: the Risk API refused.
            "--preset same-request-key --mode patterns --fault business-rejection@1,replica-pause@2",
            "reviews=0 rows=[FAILED] creates=1 finds=0 claims=0/0 checks=T------T-T",
        ),
        (
            // Unique business_key: the second click (rk-0002) inserts R10087 at
            // 421 and creates under its own key: RV-2 at 831.
            "--preset same-business-key --mode patterns --unique-business-key off",
            "reviews=2 rows=[SUCCEEDED×2] creates=2 finds=0 claims=0/0 checks=-F----FT-T",
        ),
        (
            // Timeout is UNKNOWN: the timeout at 2621 marks R10086 FAILED at
            // 2622 (illegal) although RV-1 exists.
            "--preset lost-create-response --mode patterns --timeout-is-unknown off",
            "reviews=1 rows=[FAILED] creates=1 finds=0 claims=0/0 checks=--F---TF-T",
        ),
        (
            // Idempotent create with CAS: both read-then-write claims hit at
            // 5002 (W2's moves PENDING to PENDING, illegal) and both resend;
            // without idempotent create the Risk API makes RV-1 and RV-2 at
            // 5412. W1's write at 5413 makes the row SUCCEEDED (version 5); W2's,
            // guarded by version 4, hits nothing.
            "--preset not-found-resend --mode patterns --idempotent-create off --cas off",
            "reviews=2 rows=[SUCCEEDED] creates=3 finds=2 claims=2/0 checks=---F--FFTT",
        ),
        (
            // FindByRequestKey: the UNKNOWN row gets no probe time, so no worker
            // ever looks at it; it stays UNKNOWN.
            "--preset lost-create-response --mode patterns --find-by-key off",
            "reviews=1 rows=[UNKNOWN] creates=1 finds=0 claims=0/0 checks=--F---TTFT",
        ),
        (
            // CAS: both claims hit at 5002 and both resend; idempotent create
            // keeps one review, but two workers won the same claim.
            "--preset not-found-resend --mode patterns --cas off",
            "reviews=1 rows=[SUCCEEDED] creates=3 finds=2 claims=2/0 checks=---F--TFTT",
        ),
        (
            // Idempotent create, with CAS on: the slow create lands at 3121
            // after the probe said "not found" at 3101; W1 alone wins the
            // claim (5002) and resends, and without idempotent create the
            // Risk API makes RV-2 at 5412. Two reviews for one request_key.
            "--preset probe-races-create --mode patterns --idempotent-create off",
            "reviews=2 rows=[SUCCEEDED] creates=2 finds=2 claims=1/1 checks=--FT--FTTT",
        ),
        (
            // CAS, with idempotent create on: both blind claims hit at 5002
            // (W2's PENDING to PENDING, illegal) and both resend; the
            // idempotent create keeps one review.
            "--preset probe-races-create --mode patterns --cas off",
            "reviews=1 rows=[SUCCEEDED] creates=3 finds=2 claims=2/0 checks=--TF--TFTT",
        ),
        (
            // The per-replica gates, alone (their Show me): the global gate
            // lets the fleet work on 98 calls and every other call of the
            // burst waits in its replica's queue, which nothing bounds. They
            // go in call order, 98 every 512 ms from 20 (rows and times in
            // the_large_presets_move_by_their_formulas): wave w is heard at
            // 20 + 512 (w + 1) + 20, past the 5 s client deadline from w = 9
            // on, so 1 280 - 9 x 98 = 398 answers come late (the last at
            // 7208). Every call is performed: 1 280 reviews, nothing
            // OVERLOADED, no request_key used twice.
            "--preset wide-fleet --mode patterns --gates off",
            "reviews=1280 rows=[SUCCEEDED×1280] creates=1280 finds=0 claims=0/0 checks=-----FTT-T",
        ),
        (
            // The global gate, alone (its Show me): the 20 replicas' own caps
            // of 64 admit all 1 280 calls at 20, all insert at 121 and create
            // at once, so the L-th create finds the Risk API working on L calls
            // and takes 410 ms, or 410 x L / 100 past its safe 100: peak
            // 1 280. Creates 1 to 609 (at most 2496 ms) answer within the
            // 2.5 s budget; the 671 from L = 610 (2501 ms) time out at 2621,
            // their rows UNKNOWN at 2622 (due at once), though every create is
            // performed, the last at 121+5248 = 5369: 1 280 reviews, 671 lost
            // responses. No replica's demand passed its cap and nothing was
            // queued, so overload is not judged.
            //
            // Both workers scan at 3001 and walk the same 671 rows in id
            // order, each probing every row: a find sent while the Risk API
            // works on L calls (itself included) takes L ms past 100, and the
            // next goes out a millisecond after the answer (the write). W1's
            // first find, at 3001, finds 1280 - 702 = 578 creates still at
            // work (L = 703 on end after 3001) and takes 579 ms: answered at
            // 3580 (W2's, sent at 3001 too, 580 ms). Then 437 ms (from 3581:
            // 436 creates, W2's find just done), 332, 249, 189, 143 and 108;
            // the eighth, sent at 5045, finds 80 calls and takes 100 ms, as
            // every find after it: W1 writes row n (from 0) at 5146 + 101
            // (n - 7), so by the horizon rows 0 to 253 are SUCCEEDED
            // (29 992) and 417 still UNKNOWN since 2622, far past three scans
            // and a backoff. W1 sends 255 finds by 30 000 (the last at
            // 29 992), W2 as many a millisecond behind: 510. Every probe
            // finds its review; W2's writes, a millisecond late, miss.
            "--preset wide-fleet --mode patterns --global-gate off",
            "reviews=1280 rows=[SUCCEEDED×863 UNKNOWN×417] creates=1280 finds=510 claims=0/0 checks=--F---TTFF",
        ),
        (
            // Authorization: the forged order is inserted and reviewed.
            "--preset forged-order --mode patterns --authorize off",
            "reviews=1 rows=[SUCCEEDED] creates=1 finds=0 claims=0/0 checks=----F-TT-T",
        ),
    ];
    for (flags, expected) in table {
        assert_eq!(outline(&run(flags)), *expected, "{flags}");
    }
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
            "reviews=2 rows=[SUCCEEDED×2] creates=2 finds=0 claims=0/0 checks=-F----FT-T",
        ),
        (
            // A lock on business_key with the 5 s lease: A's lock is taken at
            // 121 (until 120+5000 = 5120), its check at 122 finds nothing and
            // it pauses until 6122. B's tries, issued at 120, 221, ... every
            // 101 ms, find the lock held until the one issued at 120+50*101 =
            // 5170 (5120 <= 5170): taken at 5171, check 5172, R10086 at 5173,
            // RV-1 at 5583. A goes on at 6122 without looking again: R10087
            // at 6123, RV-2 at 6533.
            "--preset pause-past-lease --mode patterns --unique-business-key lock",
            "reviews=2 rows=[SUCCEEDED×2] creates=2 finds=0 claims=0/0 checks=-F----FT-T",
        ),
        (
            // Catch the timeout and resend: RV-1 at 531 (answer lost); at the
            // timeout, 2621, A sends the create again and the idempotent create
            // returns RV-1 at 3031: SUCCEEDED at 3032, one review, but two
            // creates for R10086 at version 1.
            "--preset lost-create-response --mode patterns --timeout-is-unknown resend",
            "reviews=1 rows=[SUCCEEDED] creates=2 finds=0 claims=0/0 checks=--TF--TT-T",
        ),
        (
            // Retry count below 3: both workers scan at 1001 and find R10086
            // PENDING (its create's answer was lost, the timeout is still to
            // come), count a resend at 1002 and resend; both get RV-1 back at
            // 1412. W1 writes SUCCEEDED at 1413, W2's write finds the version
            // moved; the replica's timeout write at 2622 too, and its read at
            // 2623 returns SUCCEEDED. Three creates at version 1.
            "--preset lost-create-response --mode patterns --recovery retry-count",
            "reviews=1 rows=[SUCCEEDED] creates=3 finds=0 claims=0/0 checks=--TF--TT-T",
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
            "reviews=1 rows=[SUCCEEDED] creates=3 finds=0 claims=0/0 checks=T--F--TF-T",
        ),
    ];
    let wrong = super::differing(table);
    assert!(wrong.is_empty(), "{wrong}");
}

#[test]
fn without_gates_the_burst_lands_on_every_replica_and_the_risk_api() {
    // 100 calls per replica run at once; the Risk API takes 32 creates and
    // answers 168 with 503 at once, which makes those rows UNKNOWN at 122.
    // The workers probe them one by one (101 ms each, until 1001+168*101 =
    // 17969) and claim the RETRYABLE ones from 18000, one winner each. With no
    // gates there is nothing to keep within sizes and nothing is OVERLOADED:
    // every answer is back by 552. But the rows the burst threw out are still
    // cycling at the horizon, 30000 - 122 = 29878 ms after they first became
    // UNKNOWN, far past three scans and a backoff.
    let run = run("--preset overload --mode patterns --gates off --global-gate off");
    let checks = run.checks();
    let check = |name| checks.iter().find(|c| c.name == name).unwrap();
    let gates = check(CheckName::OverloadFastBounded);
    assert_eq!(gates.holds, Some(true));
    assert_eq!(gates.figure("max_in_flight"), Some(Value::Count(100)));
    assert_eq!(gates.figure("overloaded"), Some(Value::Count(0)));
    assert_eq!(gates.figure("slowest_answer_ms"), Some(Value::Ms(552)));
    let resolved = check(CheckName::UnknownResolved);
    assert_eq!(resolved.holds, Some(false));
    assert_eq!(resolved.figure("longest_unresolved_ms"), Some(Value::Ms(29_878)));
    let (Some(Value::Count(rows)), Some(Value::Count(settled)), Some(Value::Count(stalled))) =
        (resolved.figure("rows"), resolved.figure("settled"), resolved.figure("stalled"))
    else {
        panic!("figures")
    };
    assert_eq!((rows, stalled), (200, rows - settled));
    assert!(stalled > 0);
    assert_eq!(check(CheckName::SingleClaimWinner).holds, Some(true));
    assert_eq!(super::verdicts(&run), "---T-TTTFT");
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
    // the fleet works on at most 32 - 2 = 30 calls and the other 170 wait in
    // the queues, nothing refused. A call works 100+1+410+1 = 512 ms, so
    // they start in waves of 30 at 20 + 512 w: 200 = 6 x 30 + 20, the last
    // 20 at 20 + 512 x 6 = 3092, heard at 3092 + 512 + 20 = 3624, within the
    // 5 s deadline. No retries (200 calls, no request_key used twice), the
    // Risk API never above 30: in a fleet of two the burst drains in time,
    // and every check with something to judge holds.
    let alone = run("--preset overload --mode patterns --gates off");
    let s = alone.summary();
    assert_eq!((s.tool_calls, s.overloaded, s.end.ms()), (200, 0, 3624));
    let figure = |run: &idempotency_lab::sim::risk::Run, name, figure: &str| {
        run.checks().into_iter().find(|c| c.name == name).and_then(|c| c.figure(figure))
    };
    assert_eq!(figure(&alone, CheckName::DownstreamWithinCapacity, "peak_concurrency"), Some(Value::Count(30)));
    assert_eq!(figure(&alone, CheckName::OverloadFastBounded, "waited_for_fleet"), Some(Value::Count(170)));
    assert_eq!(outline(&alone), "reviews=200 rows=[SUCCEEDED×200] creates=200 finds=0 claims=0/0 checks=-----TTT-T");
    // With both gates the quota of 30 is never reached (two replicas of 8
    // slots hold 16): the per-replica gates decide alone, as without the
    // global gate (640 calls, 440 OVERLOADED; see overload_with_the_gates_
    // works_in_waves).
    let both = outline(&run("--preset overload --mode patterns"));
    assert_eq!(outline(&run("--preset overload --mode patterns --global-gate off")), both);
    // In the wide fleet each gate keeps its own check (the switch table):
    // without the global gate the Risk API takes 1 280 at once; without the
    // per-replica gates, 398 calls wait past their deadline for the fleet.
    let wide = |flags: &str| super::verdicts(&run(&format!("--preset wide-fleet --mode patterns {flags}")));
    assert_eq!([wide(""), wide("--gates off"), wide("--global-gate off")], ["T----TTT-T", "-----FTT-T", "--F---TTFF"]);
}

#[test]
fn workers_that_do_not_wake_together_do_not_race() {
    // W2 wakes at 1500, 2500, ...: R10086 is RETRYABLE from 3102, due at 4101;
    // W1's scan at 4000 is too early, W2's at 4500 claims it alone (read-then-
    // write, at 4502) and resends: RV-1 at 4912. Only W1 probed (at 3001).
    let run = run("--preset not-found-resend --mode patterns --cas off --worker-offset-ms 500");
    assert_eq!(outline(&run), "reviews=1 rows=[SUCCEEDED] creates=2 finds=1 claims=1/0 checks=---T--TTTT");
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

#[test]
fn deadline_propagation_drops_queued_work_whose_client_gave_up() {
    // 24 calls per replica at 20: 8 take slots, 16 queue. A slot serves a
    // call in 100+1+2400+1 = 2502 ms: the first eight are answered at 2522
    // and the next eight start then and are answered at 5024. The last eight
    // have waited in the queue since 20, and their client's 5 s deadline
    // passed at 5000: with propagation they are dropped at 5024, never
    // started, so 16 calls make no row and no Risk API call.
    let flags = "--preset overload --mode patterns --burst-calls 48 --create-ms 2400";
    let with = run(&format!("{flags} --deadline-propagation on"));
    let dropped: Vec<u64> = with
        .records()
        .iter()
        .filter(|r| matches!(r.what, idempotency_lab::sim::risk::facts::What::OutOfBudget { .. }))
        .map(|r| r.t.ms())
        .collect();
    assert_eq!(dropped, [5024; 16]);
    assert_eq!((with.summary().rows, with.summary().reviews), (32, 32));
    let without = run(flags);
    assert_eq!((without.summary().rows, without.summary().reviews), (48, 48), "the abandoned calls still run");
}
