//! Every preset in both modes, one table row each. Every expected figure
//! was worked out by hand from RISK-MODEL.md and the documented timing
//! defaults (the arithmetic is in the comments), not copied from the
//! program's output.
//!
//! Defaults: agent to replica transit 20 ms each way, auth and policy
//! 100 ms, database statements 1 ms, Risk API create 410 ms and find 100 ms,
//! downstream timeout 2500 ms, client deadline 5000 ms, poll interval
//! 1000 ms, workers wake at every whole 1000 ms (both at once), backoff
//! 1000 ms doubled per resend, claim lease 5000 ms, 8 slots and 16 queue
//! places per replica, a Risk API safe at 32 calls at once (past which it
//! slows: base x load / 32). In patterns mode its admission limit refuses
//! what comes past its safe concurrency with a 503, the global gate's quota
//! is that safe concurrency, and deadline propagation lets a queued call
//! start only while 100 + 300 + 2500 = 2900 ms of its deadline are left;
//! in naive mode the Risk API admits any number. Round robin starts at A.
//!
//! The last check, unknown_resolved, judges only rows that were ever
//! UNKNOWN or RETRYABLE: where none was (every naive run, where a timeout
//! is a FAILED at once, and every run without a timeout), it is "-".
//!
//! The random-faults preset draws its faults from the seed and cannot be
//! worked by hand; the properties cover it.

use idempotency_lab::sim::Millis;
use idempotency_lab::sim::risk::facts::{DsKind, Reply, What};
use idempotency_lab::sim::risk::{CheckName, Fig, Run, Value};
use idempotency_lab::view::risk::names::clock;

use super::{outline, run, statuses};

/// Each row's moves: "t row from->to cause".
fn moves(run: &Run) -> Vec<String> {
    run.records()
        .iter()
        .filter_map(|r| r.row_move().map(|m| (r.t, m)))
        .map(|(t, m)| {
            let from = m.from.map_or("", |f| f.name());
            format!("{} R{} {from}->{} {}", t.ms(), m.row.0, m.to.name(), m.cause.name())
        })
        .collect()
}

#[test]
#[expect(clippy::too_many_lines, reason = "one row per worked scenario")]
fn every_preset_in_both_modes() {
    // checks, in order: same_request_key_one_row, same_business_key_one_review,
    // lost_response_converges, single_claim_winner, forged_no_downstream,
    // overload_fast_bounded, one_review_per_business_key, legal_transitions,
    // unknown_resolved, downstream_within_capacity, no_effect_after_deadline,
    // caller_token_not_forwarded.
    //
    // The last two: no_effect_after_deadline is judged only where the agent
    // gave up on a call (its 5 s deadline passed unanswered), which no run
    // here does but the replica pauses; caller_token_not_forwarded is judged
    // wherever a create was sent, and fails in every naive run that sends
    // one (authorization off passes the caller's token on).
    let table: &[(&str, &str)] = &[
        (
            // Call 1 reaches A at 20, checks end at 120, INSERT R10086 at 121
            // and the create goes out; RV-1 is created at 121+410 = 531 and its
            // answer is lost. The timeout fires at 121+2500 = 2621 and the
            // UPDATE to FAILED (illegal: a timeout is not a rejection) ends at
            // 2622. The scripted retry at 3880 reaches B at 3900; with no unique
            // key the INSERT of R10087 succeeds at 4001; RV-2 at 4411; SUCCEEDED
            // at 4412. rk-0001 was used twice and has 2 rows; one business key
            // has 2 reviews; the lost response ended FAILED.
            "--preset incident --mode naive",
            "reviews=2 rows=[FAILED SUCCEEDED] creates=2 finds=0 claims=0/0 checks=F-F---FF-T-FT-",
        ),
        (
            // As above until 2621, where the row becomes UNKNOWN (due at once).
            // Both workers wake at 3000, scan at 3001 and probe; FindByRequestKey
            // answers "found RV-1" at 3101: W1's guarded UPDATE makes R10086
            // SUCCEEDED at 3102, W2's finds the version moved (0 rows). The
            // retry at 3880 reaches A at 3900 (the poll at 3642 took B); its
            // INSERT conflicts on request_key at 4001 and the read at 4002
            // returns R10086 SUCCEEDED. Two finds, one create, one review.
            // The agent's retry is a status poll of the review it was given
            // (its retry policy), so no second call carries rk-0001.
            "--preset incident --mode patterns",
            "reviews=1 rows=[SUCCEEDED] creates=1 finds=2 claims=0/0 checks=--T---TTTT-T--",
        ),
        (
            // The call goes to A and, duplicated, to B; both insert at 121
            // (R10086, R10087) and both create with rk-0001; without idempotent
            // create each makes a review at 531.
            "--preset same-request-key --mode naive",
            "reviews=2 rows=[SUCCEEDED×2] creates=2 finds=0 claims=0/0 checks=F-----FT-T-F--",
        ),
        (
            // A inserts R10086 at 121; B's insert conflicts on request_key at
            // 121 and its read at 122 returns R10086 PENDING. A's create makes
            // RV-1 at 531 and R10086 is SUCCEEDED at 532. Both results name
            // R10086.
            "--preset same-request-key --mode patterns",
            "reviews=1 rows=[SUCCEEDED] creates=1 finds=0 claims=0/0 checks=T-----TT-T-T--",
        ),
        (
            // The second click (rk-0002, same order) at 300 reaches B at 320,
            // inserts R10087 at 421 and creates RV-2 at 831.
            "--preset same-business-key --mode naive",
            "reviews=2 rows=[SUCCEEDED×2] creates=2 finds=0 claims=0/0 checks=-F----FT-T-F--",
        ),
        (
            // The second click's insert conflicts on business_key at 421; the
            // read at 422 returns R10086 PENDING (its create lands at 531); the
            // agent polls at 442+1000 = 1442 and reads SUCCEEDED at 1563.
            "--preset same-business-key --mode patterns",
            "reviews=1 rows=[SUCCEEDED] creates=1 finds=0 claims=0/0 checks=-T----TT-T-T--",
        ),
        (
            // The incident without the retry: one review, one FAILED row.
            "--preset lost-create-response --mode naive",
            "reviews=1 rows=[FAILED] creates=1 finds=0 claims=0/0 checks=--F---TF-T-FT-",
        ),
        (
            // UNKNOWN at 2622, found by both probes at 3101, SUCCEEDED at 3102.
            "--preset lost-create-response --mode patterns",
            "reviews=1 rows=[SUCCEEDED] creates=1 finds=2 claims=0/0 checks=--T---TTTT-T--",
        ),
        (
            // The create never arrives: no review; the timeout at 2621 makes
            // R10086 FAILED (illegal). No response was lost, so no convergence
            // to judge; no review, so none per business key; the Risk API
            // never worked on a call, so its capacity is not judged, but the
            // create that was lost carried the caller's token.
            "--preset not-found-resend --mode naive",
            "reviews=0 rows=[FAILED] creates=1 finds=0 claims=0/0 checks=-------F---FT-",
        ),
        (
            // UNKNOWN at 2622; probes at 3001 answer "not found" at 3101 (the
            // lost create never reached the Risk API, so nothing with the key
            // is under way there); W1 makes R10086 RETRYABLE at 3102 with
            // next_retry_at 3101+1000 = 4101. The scan at 4000 finds nothing
            // due (4101 > 4000); at 5000 both scan (5001) and claim: W1's
            // compare-and-set hits at 5002, W2's finds version 4 instead of 3
            // and loses. W1 resends: RV-1 at 5002+410 = 5412, SUCCEEDED at
            // 5413. Two creates, two finds.
            "--preset not-found-resend --mode patterns",
            "reviews=1 rows=[SUCCEEDED] creates=2 finds=2 claims=1/1 checks=---T--TTTT-T--",
        ),
        (
            // Authorization off: u-1001's call for u-2002's order inserts and
            // creates a review, with the caller's token.
            "--preset forged-order --mode naive",
            "reviews=1 rows=[SUCCEEDED] creates=1 finds=0 claims=0/0 checks=----F-TT-T-F--",
        ),
        (
            // FORBIDDEN at 120: no row, no Risk API call, nothing else to judge.
            "--preset forged-order --mode patterns",
            "reviews=0 rows=[] creates=0 finds=0 claims=0/0 checks=----T-------T-",
        ),
        (
            // No gates: 100 calls in flight on each replica, 12.5 times the cap
            // of 8 (overload is judged on the configured sizes whatever the
            // switch: it fails). All 200 insert at 121 (R10086 to R10285 in
            // call order) and create at once; without its admission limit the
            // Risk API takes them all, so the L-th create finds it working on
            // L calls and takes 410 ms, or 410 x L / 32 past its safe 32
            // (rounded down): L = 195 takes 79 950 / 32 = 2498 ms, answered at
            // 2619 before the 2.5 s timeout (2621); L = 196 takes 80 360 / 32 =
            // 2511 ms and times out, and so do L = 197 to 200. The naive server
            // marks those five rows FAILED at 2622 (illegal) though their
            // creates are performed (the last at 121 + 410 x 200 / 32 = 2683):
            // 200 reviews, five lost responses, peak 200 against a safe 32.
            "--preset overload --mode naive",
            "reviews=200 rows=[SUCCEEDED×195 FAILED×5] creates=200 finds=0 claims=0/0 checks=--F--FTF-F-FT-",
        ),
        (
            // 100 calls per replica at 20: 8 in slots, 16 queued, 76 OVERLOADED.
            // All 200 intents are eventually admitted (see the overload test
            // below), each with one row and one review; request_keys are reused
            // by the retries and never get a second row.
            "--preset overload --mode patterns",
            "reviews=200 rows=[SUCCEEDED×200] creates=200 finds=0 claims=0/0 checks=T----TTT-T-TT-",
        ),
        (
            // Naive: as not-found-resend; no worker ever sends, so none crashes.
            "--preset worker-crash --mode naive",
            "reviews=0 rows=[FAILED] creates=1 finds=0 claims=0/0 checks=-------F---FT-",
        ),
        (
            // As not-found-resend until W1 wins the claim at 5002 (lease until
            // 5001+5000 = 10001), resends and crashes. RV-1 is created at 5412;
            // the answer reaches nobody. W2's scans at 6000..10000 find nothing
            // due; at 11000 R10086 is due (10001 <= 11000): W2 marks it UNKNOWN
            // at 11002, probes, finds RV-1 at 11102, SUCCEEDED at 11103. Three
            // finds (two at 3001, one at 11002).
            "--preset worker-crash --mode patterns",
            "reviews=1 rows=[SUCCEEDED] creates=2 finds=3 claims=1/1 checks=---T--TTTT-T--",
        ),
        (
            // The slow create, sent at 121, lands 0.5 s after its 2.5 s
            // timeout, at 3121 (RV-1). The naive server marks R10086 FAILED
            // at 2622 (illegal); nobody resends. The lost response never
            // converges.
            "--preset probe-races-create --mode naive",
            "reviews=1 rows=[FAILED] creates=1 finds=0 claims=0/0 checks=--F---TF-T-FT-",
        ),
        (
            // UNKNOWN at 2622; both probes sent at 3001 are answered at 3101,
            // before the create lands at 3121. The idempotent create is still
            // under way with the key, so the Risk API says "in progress": both
            // writes keep the row UNKNOWN (3102), due again at 3101+1000 =
            // 4101. The scan at 4000 is too early; at 5000 both probe again and
            // find RV-1 at 5101: SUCCEEDED at 5102 (W2's write, at the moved
            // version, misses). No claim, no resend: one create, four finds.
            "--preset probe-races-create --mode patterns",
            "reviews=1 rows=[SUCCEEDED] creates=1 finds=4 claims=0/0 checks=--T---TTTT-T--",
        ),
        (
            // Two clicks at 0 for O20260728001 (rk-0001 to A, rk-0002 to B).
            // With no unique keys both INSERT at 121 (R10086 at A, whose
            // statement went first, and R10087 at B) and both create: RV-1 and
            // RV-2 at 531.
            "--preset check-then-insert-race --mode naive",
            "reviews=2 rows=[SUCCEEDED×2] creates=2 finds=0 claims=0/0 checks=-F----FT-T-F--",
        ),
        (
            // A inserts R10086 at 121; B's insert runs into the unique
            // business_key at 121 and its read at 122 returns R10086 PENDING.
            // One create, RV-1 at 531.
            "--preset check-then-insert-race --mode patterns",
            "reviews=1 rows=[SUCCEEDED] creates=1 finds=0 claims=0/0 checks=-T----TT-T-T--",
        ),
        (
            // A's checks end at 120 and it pauses before its insert until
            // 6120; B inserts R10086 at 121, RV-1 at 531. A goes on: R10087 at
            // 6121, RV-2 at 6531. The agent gave up on A's call at its 5 s
            // deadline, before that insert and create.
            "--preset pause-past-lease --mode naive",
            "reviews=2 rows=[SUCCEEDED×2] creates=2 finds=0 claims=0/0 checks=-F----FT-TFF--",
        ),
        (
            // As above until 6120, when A resumes past its caller's deadline
            // (5000): with deadline propagation it writes nothing and answers
            // TEMPORARY_UNAVAILABLE, which nobody waits for any more.
            "--preset pause-past-lease --mode patterns",
            "reviews=1 rows=[SUCCEEDED] creates=1 finds=0 claims=0/0 checks=-T----TT-TTTT-",
        ),
        (
            // One call: A's checks end at 120 and it pauses until 6120. The
            // agent gives up at 5000; A inserts R10086 at 6121 all the same,
            // creates RV-1 at 6531 (SUCCEEDED at 6532) for nobody.
            "--preset replica-pause --mode naive",
            "reviews=1 rows=[SUCCEEDED] creates=1 finds=0 claims=0/0 checks=------TT-TFF--",
        ),
        (
            // A resumes at 6120, past the deadline: no insert, no create, an
            // error result nobody hears. Nothing but the deadline to judge.
            "--preset replica-pause --mode patterns",
            "reviews=0 rows=[] creates=0 finds=0 claims=0/0 checks=----------T-T-",
        ),
        (
            // The first create is rejected at 531: R10086 FAILED at 532, which
            // closes generation 1. The new request (rk-0002, at 1000) reaches B
            // at 1020 and inserts R10087 as O20260728001:risk:2 at 1121; RV-1 at
            // 1531. With no keys the second click (rk-0003, at 1300, to A)
            // inserts R10088 at 1421 and creates RV-2 at 1831.
            "--preset new-generation --mode naive",
            "reviews=2 rows=[FAILED SUCCEEDED×2] creates=3 finds=0 claims=0/0 checks=-F----FT-T-F--",
        ),
        (
            // As above to 1121; the second click's insert at 1421 runs into
            // the unique business_key O20260728001:risk:2 and reads R10087
            // PENDING at 1422. One row per business key, one review.
            "--preset new-generation --mode patterns",
            "reviews=1 rows=[FAILED SUCCEEDED] creates=2 finds=0 claims=0/0 checks=-T----TT-T-T--",
        ),
        (
            // The token names another audience, and nothing checks it: the
            // call goes on as any other (R10086 at 121, RV-1 at 531), and the
            // create carries the caller's token to the Risk API.
            "--preset wrong-audience --mode naive",
            "reviews=1 rows=[SUCCEEDED] creates=1 finds=0 claims=0/0 checks=----F-TT-T-F--",
        ),
        (
            // Refused at the protocol step at 120 with JSON-RPC error -32001,
            // heard at 140: no tool result, no row, no Risk API call.
            "--preset wrong-audience --mode patterns",
            "reviews=0 rows=[] creates=0 finds=0 claims=0/0 checks=----T---------",
        ),
        (
            // 1 280 calls at 0 over 20 replicas of 64 slots: 64 each, all
            // admitted (no replica exceeds its cap). All insert at 121 and
            // create at once, in call order, so the L-th create finds the
            // Risk API working on L calls: past its safe 100 it takes
            // 410 x L / 100 ms. Up to L = 609 (2496 ms) it answers before the
            // 2.5 s timeout; from L = 610 (2501 ms) on, 671 creates time out
            // at 2621 and the naive server marks their rows FAILED (illegal)
            // at 2622, though every create is performed, the last at
            // 121 + 5248 = 5369: 1 280 reviews, 671 lost responses.
            "--preset wide-fleet --mode naive",
            "reviews=1280 rows=[SUCCEEDED×609 FAILED×671] creates=1280 finds=0 claims=0/0 checks=--F---TF-F-FT-",
        ),
        (
            // The global gate lets the fleet work on the Risk API's safe 100
            // calls at once; a call that finds the fleet at its quota waits in
            // its replica's queue, and the per-replica gates answer OVERLOADED
            // once that queue holds 16. The 1 280 calls reach their replicas
            // at 20 in call order, call c at replica (c - 1) mod 20: calls 1 to
            // 100 start (five at each), the next 16 at each replica queue for
            // the fleet (calls 101 to 420, 320 in all) and calls 421 to 1 280
            // (860) get OVERLOADED at once. A call works 100+1+410+1 = 512 ms
            // (100 creates at once are within the safe 100), so 100 places
            // free together at 20 + 512 w and go to the 100 oldest waiting
            // calls. A call made at m may start until m + 5000 - 2900 (its
            // deadline less auth, the database's 300 and the Risk API's 2500):
            // the burst's until 2100, and its last 20 start at 2068.
            //
            // An OVERLOADED call is retried 1000 ms after it was heard: batch
            // b of retries is made at 1040 b and arrives at 20 + 1040 b, after
            // the services at 20 + 512 (2b - 1) and 20 + 512 (2b) (1040 b -
            // 1024 b = 16 b < 512), so it finds 120 waiting (6 at each
            // replica) and room for 10 at each: 200 queue, the rest is
            // refused again. Refused: 860, then 660, 460, 260 and 60; the
            // fifth batch's 60 all queue. Batch b's calls start by 20 + 512
            // (2b + 1), 2052 + 16 b before their own limit of 1040 b + 2100:
            // none is refused for its deadline. Calls 1 280 + 860 + 660 + 460
            // + 260 + 60 = 3 580, OVERLOADED 2 300; every intent was created:
            // 1 280 reviews, never more than 100 at the Risk API at once.
            "--preset wide-fleet --mode patterns",
            "reviews=1280 rows=[SUCCEEDED×1280] creates=1280 finds=0 claims=0/0 checks=T----TTT-T-TT-",
        ),
        (
            // 150 calls, call i made at 5 (i - 1), each for its own order, at
            // 20 replicas without gates: all admitted, seven or eight at each.
            // Every create takes 3000 ms (slowed past the safe 100), longer
            // than the 2.5 s timeout: call i inserts at 5 (i - 1) + 121, its
            // create times out at 5 (i - 1) + 2621 and the naive server marks
            // the row FAILED (illegal). The creates overlap (the first ends
            // at 3121, after the last is sent at 866), so the L-th finds the
            // Risk API working on L and takes 3000, or 30 L past 100 (4500 for
            // L = 150): all performed, 150 reviews, 150 lost responses, peak
            // 150. Every answer is heard at made + 2642, within 5 s.
            "--preset slow-fleet --mode naive",
            "reviews=150 rows=[FAILED×150] creates=150 finds=0 claims=0/0 checks=--F---TF-F-FT-",
        ),
        (
            // With every pattern on, places are held until the Risk API is
            // done (worked out in places.rs): the first 100 calls hold the
            // fleet's 100 places until their creates land (3121 to 3616), the
            // last 50 wait, are answered TEMPORARY_UNAVAILABLE when their
            // budget lapses and are retried into a free fleet. Every create
            // is performed once, each answer lost to a timeout and found by a
            // probe: 150 reviews, all SUCCEEDED; 452 probes (152 of them
            // refused by the Risk API's limit while it works on its 100).
            "--preset slow-fleet --mode patterns",
            "reviews=150 rows=[SUCCEEDED×150] creates=150 finds=452 claims=0/0 checks=T-T--TTTTT-TT-",
        ),
        (
            // One call every 100 ms from 0 to 19.9 s, each for its own order,
            // while the create latency rises from 410 ms to 410 + 990 x t /
            // 20000 (1.4 s from 20 s on). The last create, sent at 19 900 +
            // 20 + 100 + 1 = 20 021, takes the full 1400 ms. A call stays at
            // most 102 + 1400 = 1502 ms, so each replica (a call every 200 ms)
            // holds at most 8 at once (itself and 7 before it): nothing
            // queues, nothing times out, every create succeeds.
            "--preset slowing-downstream --mode naive",
            "reviews=200 rows=[SUCCEEDED×200] creates=200 finds=0 claims=0/0 checks=------TT-T-F--",
        ),
        (
            // The same with every pattern on: no key is ever reused, no gate
            // fills (at most 8 per replica, 15 in the fleet of a quota of 32;
            // see the_large_presets_move_by_their_formulas).
            "--preset slowing-downstream --mode patterns",
            "reviews=200 rows=[SUCCEEDED×200] creates=200 finds=0 claims=0/0 checks=------TT-T-T--",
        ),
    ];
    let wrong = super::differing(table);
    assert!(wrong.is_empty(), "{wrong}");
}

#[test]
fn the_naive_incident_reproduces_the_reports_six_log_lines() {
    let run = run("--preset incident --mode naive");
    let records = run.records();
    let first = |kind: &str, nth: usize| {
        records.iter().filter(|r| r.kind() == kind).nth(nth).unwrap_or_else(|| panic!("no {kind} #{nth}")).t
    };
    // (what the report says, when, the model's event)
    let lines = [
        ("the agent calls request_risk_review", "10:31:08.120", first("tool_call", 0)),
        ("a replica creates R10086 and calls the Risk API", "10:31:08.241", first("row_inserted", 0)),
        ("the Risk API call times out", "10:31:10.742", first("downstream_timeout", 0)),
        ("the replica returns submission failed", "10:31:10.743", first("tool_result", 0)),
        ("the agent retries the same intent", "10:31:12.000", first("tool_call", 1)),
        ("the Risk API creates a second review", "10:31:12.531", first("review_created", 1)),
    ];
    let to_ms = |c: &str| {
        let (hms, ms) = c.split_once('.').unwrap();
        let p: Vec<u64> = hms.split(':').map(|x| x.parse().unwrap()).collect();
        ((p[0] * 60 + p[1]) * 60 + p[2]) * 1000 + ms.parse::<u64>().unwrap()
    };
    for (what, report, t) in lines {
        let model = clock(t);
        assert!(to_ms(&model).abs_diff(to_ms(report)) <= 5, "{what}: report {report}, model {model}");
    }
    // 0, 20+100+1, 121+2500, 2621+1, 3880, 3880+20+100+1+410.
    let got: Vec<u64> = [
        first("tool_call", 0),
        first("row_inserted", 0),
        first("downstream_timeout", 0),
        first("tool_result", 0),
        first("tool_call", 1),
        first("review_created", 1),
    ]
    .iter()
    .map(|t| t.ms())
    .collect();
    assert_eq!(got, [0, 121, 2621, 2622, 3880, 4411]);
    assert_eq!(first("downstream_create", 0), Millis(121), "the create goes out with the insert");
    let failed = records.iter().find_map(|r| match r.what {
        What::ToolResult { reply, .. } => Some(reply),
        _ => None,
    });
    assert!(failed.is_some_and(|r| r.is_error()), "the first result is an error result");
}

#[test]
#[expect(clippy::too_many_lines, reason = "one row per worked scenario")]
fn rows_move_as_worked_out() {
    let table: &[(&str, &[&str])] = &[
        (
            "--preset incident --mode naive",
            &[
                "121 R10086 ->PENDING inserted",
                "2622 R10086 PENDING->FAILED timeout",
                "4001 R10087 ->PENDING inserted",
                "4412 R10087 PENDING->SUCCEEDED create_succeeded",
            ],
        ),
        (
            "--preset incident --mode patterns",
            &[
                "121 R10086 ->PENDING inserted",
                "2622 R10086 PENDING->UNKNOWN timeout",
                "3102 R10086 UNKNOWN->SUCCEEDED find_found",
            ],
        ),
        (
            "--preset not-found-resend --mode patterns",
            &[
                "121 R10086 ->PENDING inserted",
                "2622 R10086 PENDING->UNKNOWN timeout",
                "3102 R10086 UNKNOWN->RETRYABLE find_not_found",
                "5002 R10086 RETRYABLE->PENDING claim_won",
                "5413 R10086 PENDING->SUCCEEDED create_succeeded",
            ],
        ),
        (
            "--preset worker-crash --mode patterns",
            &[
                "121 R10086 ->PENDING inserted",
                "2622 R10086 PENDING->UNKNOWN timeout",
                "3102 R10086 UNKNOWN->RETRYABLE find_not_found",
                "5002 R10086 RETRYABLE->PENDING claim_won",
                // Lease 5001+5000 = 10001; W2's scan at 11000 ends at 11001.
                "11002 R10086 PENDING->UNKNOWN claim_lease_ended",
                "11103 R10086 UNKNOWN->SUCCEEDED find_found",
            ],
        ),
        (
            // Inserted at 20+100+1 = 121; the slow create's timeout fires at
            // 121+2500 = 2621 and the naive UPDATE ends at 2622. The create
            // itself lands later (3121) and moves no row.
            "--preset probe-races-create --mode naive",
            &["121 R10086 ->PENDING inserted", "2622 R10086 PENDING->FAILED timeout"],
        ),
        (
            // UNKNOWN at 2622 (due at 2621). Both workers wake at 3000, scan
            // until 3001 and probe; the finds take 100 ms and answer at 3101,
            // 20 ms before the create lands at 121+2500+500 = 3121. The
            // idempotent create with the key is still under way, so the Risk
            // API says so: both writes keep R10086 UNKNOWN at 3102 (a probe
            // that settles nothing leaves the version alone, so W2's write
            // hits too), due at 3101+1000 = 4101. The scan at 4000 is too
            // early; the probes of 5001 find RV-1 at 5101 and W1's write makes
            // R10086 SUCCEEDED at 5102 (W2's, at the old version, misses).
            "--preset probe-races-create --mode patterns",
            &[
                "121 R10086 ->PENDING inserted",
                "2622 R10086 PENDING->UNKNOWN timeout",
                "3102 R10086 UNKNOWN->UNKNOWN find_in_progress",
                "3102 R10086 UNKNOWN->UNKNOWN find_in_progress",
                "5102 R10086 UNKNOWN->SUCCEEDED find_found",
            ],
        ),
        (
            // Without idempotent create the Risk API knows nothing of a create
            // under way: the probes hear "not found" at 3101 and W1's write
            // makes R10086 RETRYABLE at 3102 until 4101 (W2's misses); at 5000
            // W1's claim, issued at 5001, hits at 5002 and it resends at once:
            // a second review at 5002+410 = 5412, SUCCEEDED at 5413.
            "--preset probe-races-create --mode patterns --idempotent-create off",
            &[
                "121 R10086 ->PENDING inserted",
                "2622 R10086 PENDING->UNKNOWN timeout",
                "3102 R10086 UNKNOWN->RETRYABLE find_not_found",
                "5002 R10086 RETRYABLE->PENDING claim_won",
                "5413 R10086 PENDING->SUCCEEDED create_succeeded",
            ],
        ),
        (
            // Two clicks at 0: rk-0001 to A, rk-0002 to B. Both insert at 121,
            // A's statement first (it was issued first, at 120); both creates
            // answer at 121+410 = 531 and both rows are SUCCEEDED at 532.
            "--preset check-then-insert-race --mode naive",
            &[
                "121 R10086 ->PENDING inserted",
                "121 R10087 ->PENDING inserted",
                "532 R10086 PENDING->SUCCEEDED create_succeeded",
                "532 R10087 PENDING->SUCCEEDED create_succeeded",
            ],
        ),
        (
            // B's insert runs into the unique business key at 121 and uses no
            // id; A's row is the only one.
            "--preset check-then-insert-race --mode patterns",
            &["121 R10086 ->PENDING inserted", "532 R10086 PENDING->SUCCEEDED create_succeeded"],
        ),
        (
            // A reaches the run's first insert at 120 and pauses until 6120;
            // B's insert (rk-0002) is the first to complete: R10086 at 121,
            // SUCCEEDED at 532. A inserts R10087 at 6121, SUCCEEDED at
            // 6121+410+1 = 6532.
            "--preset pause-past-lease --mode naive",
            &[
                "121 R10086 ->PENDING inserted",
                "532 R10086 PENDING->SUCCEEDED create_succeeded",
                "6121 R10087 ->PENDING inserted",
                "6532 R10087 PENDING->SUCCEEDED create_succeeded",
            ],
        ),
        (
            // A resumes at 6120, past its caller's 5 s deadline: no insert.
            "--preset pause-past-lease --mode patterns",
            &["121 R10086 ->PENDING inserted", "532 R10086 PENDING->SUCCEEDED create_succeeded"],
        ),
        (
            // R10086 inserted at 121, its create rejected at 531: FAILED at
            // 532. rk-0002 (made at 1000, to B) inserts R10087 at 1121 in
            // generation 2, rk-0003 (made at 1300, to A) R10088 at 1421; their
            // creates answer at 1531 and 1831, SUCCEEDED a millisecond later.
            "--preset new-generation --mode naive",
            &[
                "121 R10086 ->PENDING inserted",
                "532 R10086 PENDING->FAILED business_rejection",
                "1121 R10087 ->PENDING inserted",
                "1421 R10088 ->PENDING inserted",
                "1532 R10087 PENDING->SUCCEEDED create_succeeded",
                "1832 R10088 PENDING->SUCCEEDED create_succeeded",
            ],
        ),
        (
            // rk-0003's insert at 1421 runs into generation 2's business key.
            "--preset new-generation --mode patterns",
            &[
                "121 R10086 ->PENDING inserted",
                "532 R10086 PENDING->FAILED business_rejection",
                "1121 R10087 ->PENDING inserted",
                "1532 R10087 PENDING->SUCCEEDED create_succeeded",
            ],
        ),
        (
            // Nothing checks the audience: an ordinary call.
            "--preset wrong-audience --mode naive",
            &["121 R10086 ->PENDING inserted", "532 R10086 PENDING->SUCCEEDED create_succeeded"],
        ),
        ("--preset wrong-audience --mode patterns", &[]),
    ];
    for (flags, expected) in table {
        assert_eq!(moves(&run(flags)), *expected, "{flags}");
    }
}

/// A run's moves and ledger in sorted order, to compare with lists built
/// from a formula (moves at one instant may come in either order).
fn sorted(mut list: Vec<String>) -> Vec<String> {
    list.sort();
    list
}

fn figure(run: &Run, name: CheckName, figure: Fig) -> Option<Value> {
    run.checks().into_iter().find(|c| c.name == name)?.figure(figure)
}

#[test]
fn the_large_presets_move_by_their_formulas() {
    // wide-fleet, naive: all 1 280 calls reach their replicas at 20 (64 each,
    // no gates), insert at 121 in call order and create at once, so the L-th
    // create finds the Risk API working on L calls and takes 410 ms, or
    // 410 x L / 100 past its safe 100 (rounded down): L = 100 answers at
    // 121+410 = 531 (SUCCEEDED at 532), L = 101 at 121+414 = 535, L = 609 at
    // 121+2496 = 2617 (SUCCEEDED at 2618). From L = 610 (2501 ms) the 2.5 s
    // timeout at 2621 comes first and the naive UPDATE makes the row FAILED
    // at 2622; the create is performed all the same, the last (L = 1 280)
    // at 121+5248 = 5369.
    let lat = |l: u64| if l <= 100 { 410 } else { 410 * l / 100 };
    assert_eq!([lat(100), lat(101), lat(609), lat(610), lat(1280)], [410, 414, 2496, 2501, 5248]);
    let mut expected = Vec::new();
    let mut reviews = Vec::new();
    for l in 1..=1280u64 {
        let id = 10085 + l;
        expected.push(format!("121 R{id} ->PENDING inserted"));
        if lat(l) <= 2500 {
            expected.push(format!("{} R{id} PENDING->SUCCEEDED create_succeeded", 121 + lat(l) + 1));
        } else {
            expected.push(format!("2622 R{id} PENDING->FAILED timeout"));
        }
        reviews.push(format!("{} RV-{l} rk-{l:04}", 121 + lat(l)));
    }
    let naive = run("--preset wide-fleet --mode naive");
    assert_eq!(sorted(moves(&naive)), sorted(expected), "wide-fleet naive");
    assert_eq!(sorted(ledger(&naive)), sorted(reviews), "wide-fleet naive");
    assert_eq!(figure(&naive, CheckName::DownstreamWithinCapacity, Fig::PeakConcurrency), Some(Value::Count(1280)));

    // wide-fleet with both gates: the fleet works on 100 calls at once (the
    // Risk API's safe concurrency), and every other call waits in its
    // replica's queue or is refused (the table above). 100 places free
    // together at 20 + 512 w and the 100 oldest waiting calls take them, so
    // calls start in waves: each inserts at start + 101, creates RV at
    // start + 511 (100 at once are within the safe 100) and is SUCCEEDED at
    // start + 512, when its wave's places pass to the next. At least 100 wait
    // whenever places free (320, 220, then 320 and 220 between batches of
    // retries, 180 at 5652, the last 80 at 6164), so the n-th call to start
    // is in wave (n - 1) / 100: waves 0 to 11 of 100 and wave 12 of 80,
    // started at 20 + 512 x 12 = 6164. Which intent is in which wave after
    // the first depends on the retries: compare the moves without their
    // rows.
    let wave = |n: u64| (n - 1) / 100;
    let start = |w: u64| 20 + 512 * w;
    let (mut expected, mut reviews) = (Vec::new(), Vec::new());
    for n in 1..=1280u64 {
        let (s, id) = (start(wave(n)), 10085 + n);
        expected.push(format!("{} R{id} ->PENDING inserted", s + 101));
        expected.push(format!("{} R{id} PENDING->SUCCEEDED create_succeeded", s + 512));
        reviews.push(format!("{} RV-{n} rk-{n:04}", s + 511));
    }
    assert_eq!((wave(1280), start(12)), (12, 6164));
    let at = |list: Vec<String>| {
        let without_row = |m: &String| {
            let words: Vec<&str> = m.split(' ').collect();
            format!("{} {}", words[0], words[2..].join(" "))
        };
        sorted(list.iter().map(without_row).collect())
    };
    let gated = run("--preset wide-fleet --mode patterns");
    assert_eq!(at(moves(&gated)), at(expected), "wide-fleet patterns");
    // The first wave is calls 1 to 100, whose intents are rk-0001 to rk-0100.
    assert_eq!(ledger(&gated)[..100], reviews[..100], "wide-fleet patterns, the first wave");

    // wide-fleet with the global gate alone (per-replica gates off): all
    // 1 280 wait but the first 100, and being alike they go in call order,
    // 100 every 512 ms: calls 1 to 500 start at 20, 532, 1044, 1556 and
    // 2068. A call made at 0 may start until 5000 - 2900 = 2100: at 2101 the
    // 780 still waiting are answered TEMPORARY_UNAVAILABLE, heard at 2121,
    // retried at 3121 in call order, and reach an idle fleet at 3141: intents
    // 501 to 1000 start at 3141 + 512 w (w = 0 to 4). Those retries may start
    // until 3121 + 2100 = 5221: at 5222 the last 280 are refused again,
    // retried at 6242 and start at 6262, 6774 and 7286 (the last 80). Rows
    // are inserted in intent order, so intent n has row R(10085 + n) and
    // review RV-n.
    let start_of = |n: u64| match n {
        1..=500 => 20 + 512 * ((n - 1) / 100),
        501..=1000 => 3141 + 512 * ((n - 501) / 100),
        _ => 6262 + 512 * ((n - 1001) / 100),
    };
    assert_eq!(
        [start_of(500), start_of(501), start_of(1000), start_of(1001), start_of(1280)],
        [2068, 3141, 5189, 6262, 7286]
    );
    let (mut expected, mut reviews) = (Vec::new(), Vec::new());
    for n in 1..=1280u64 {
        let (s, id) = (start_of(n), 10085 + n);
        expected.push(format!("{} R{id} ->PENDING inserted", s + 101));
        expected.push(format!("{} R{id} PENDING->SUCCEEDED create_succeeded", s + 512));
        reviews.push(format!("{} RV-{n} rk-{n:04}", s + 511));
    }
    assert_eq!(reviews.last().map(String::as_str), Some("7797 RV-1280 rk-1280"));
    let waiting = run("--preset wide-fleet --mode patterns --gates off");
    assert_eq!(sorted(moves(&waiting)), sorted(expected), "wide-fleet, the global gate alone");
    assert_eq!(ledger(&waiting), reviews, "wide-fleet, the global gate alone");

    // slowing-downstream, both modes: call i (1 to 200) is made at
    // 100 (i - 1), inserted at s = 100 (i - 1) + 121, and its create takes
    // 410 + 990 x min(s, 20000) / 20000 ms (rounded down); the row is
    // SUCCEEDED a millisecond after the answer. Call 1: s = 121, 410 + 5 =
    // 415, SUCCEEDED at 537; call 100: s = 10 021, 410 + 496 = 906, at
    // 10 928; call 199: s = 19 921, 410 + 986 = 1396, at 21 318; call 200:
    // s = 20 021, the full 1400, at 21 422. Answers come in call order (s
    // grows by 100 per call, the latency by at most 5), so RV-i is rk-i's.
    let slow = |i: u64| {
        let s = 100 * (i - 1) + 121;
        (s, 410 + 990 * s.min(20_000) / 20_000)
    };
    assert_eq!([slow(1), slow(100), slow(199), slow(200)], [(121, 415), (10_021, 906), (19_921, 1396), (20_021, 1400)]);
    let (mut expected, mut reviews) = (Vec::new(), Vec::new());
    for i in 1..=200u64 {
        let ((s, lat), id) = (slow(i), 10085 + i);
        expected.push(format!("{s} R{id} ->PENDING inserted"));
        expected.push(format!("{} R{id} PENDING->SUCCEEDED create_succeeded", s + lat + 1));
        reviews.push(format!("{} RV-{i} rk-{i:04}", s + lat));
    }
    for mode in ["naive", "patterns"] {
        let steady = run(&format!("--preset slowing-downstream --mode {mode}"));
        assert_eq!(sorted(moves(&steady)), sorted(expected.clone()), "slowing-downstream {mode}");
        assert_eq!(ledger(&steady), reviews, "slowing-downstream {mode}");
        // A replica holds a call from its arrival, s - 101, to its answer,
        // s + lat + 1: 102 + lat ms, at most 1502. Calls reach a replica
        // every 200 ms, so one that arrives finds those of the last 1400 ms
        // still there only if they stay longer than 200 m - 102 for the m-th
        // before it: m = 7 needs a latency above 1298, which calls from
        // s = 17 960 on have (call 180 on). Call 200 arrives with 186 to 198
        // still at B (186's latency is 410 + 921 = 1331): 8 in flight, the
        // cap exactly, so nothing ever queues.
        assert_eq!(figure(&steady, CheckName::OverloadFastBounded, Fig::MaxInFlight), Some(Value::Count(8)));
        // The Risk API holds create j when create i is sent if 100 (i - j)
        // is less than j's latency: at most 13 before it (a latency above
        // 1300, from s = 18 000 on), so 14 at once, first when call 193's
        // create goes out with 180 to 192 still at work.
        assert_eq!(figure(&steady, CheckName::DownstreamWithinCapacity, Fig::PeakConcurrency), Some(Value::Count(14)));
    }
}

/// Each tool result, or JSON-RPC error, as "t callN review STATUS", "t callN
/// CODE" or "t callN rpc CODE".
fn results(run: &Run) -> Vec<String> {
    run.records()
        .iter()
        .filter_map(|r| match r.what {
            What::ToolResult { call, reply: Reply::Review { row, status }, .. } => {
                Some(format!("{} call{} R{} {}", r.t.ms(), call.0, row.0, status.name()))
            }
            What::ToolResult { call, reply: Reply::Error { code, .. }, .. } => {
                Some(format!("{} call{} {}", r.t.ms(), call.0, code.name()))
            }
            What::RpcError { call, error } => Some(format!("{} call{} rpc {}", r.t.ms(), call.0, error.code())),
            _ => None,
        })
        .collect()
}

/// The Risk API's ledger as "t RV-n rk-000k".
fn ledger(run: &Run) -> Vec<String> {
    run.reviews().iter().map(|r| format!("{} RV-{} rk-{:04}", r.at.ms(), r.review.0, r.request_key.0)).collect()
}

#[test]
fn the_new_presets_answer_and_create_as_worked_out() {
    // (flags, tool results, reviews). Polls: a result heard at h is polled
    // at h+1000 on the next replica in the rotation and read at
    // h+1000+20+100+1.
    let table: &[(&str, &[&str], &[&str])] = &[
        (
            // The replica answers FAILED ("submission failed") at 2622; the
            // slow create, performed all the same, lands at 121+3000 = 3121.
            "--preset probe-races-create --mode naive",
            &["2622 call1 SUBMISSION_FAILED"],
            &["3121 RV-1 rk-0001"],
        ),
        (
            // UNKNOWN at 2622, heard at 2642; polls at 3642 (B, read at 3763:
            // UNKNOWN, the probes heard "in progress" at 3101), at 3783+1000 =
            // 4783 (A, read at 4904: still UNKNOWN, the next probes go out at
            // 5001) and at 4924+1000 = 5924 (B, read at 6045: SUCCEEDED since
            // 5102). One review, RV-1, made by the only create.
            "--preset probe-races-create --mode patterns",
            &[
                "2622 call1 R10086 UNKNOWN",
                "3763 call2 R10086 UNKNOWN",
                "4904 call3 R10086 UNKNOWN",
                "6045 call4 R10086 SUCCEEDED",
            ],
            &["3121 RV-1 rk-0001"],
        ),
        (
            // Without idempotent create W1's resend at 5002 makes RV-2 at 5412,
            // under the same request_key as RV-1: a resend keeps its key.
            "--preset probe-races-create --mode patterns --idempotent-create off",
            &[
                "2622 call1 R10086 UNKNOWN",
                "3763 call2 R10086 RETRYABLE",
                "4904 call3 R10086 RETRYABLE",
                "6045 call4 R10086 SUCCEEDED",
            ],
            &["3121 RV-1 rk-0001", "5412 RV-2 rk-0001"],
        ),
        (
            // A's create went out first at 121, so RV-1 is rk-0001's.
            "--preset check-then-insert-race --mode naive",
            &["532 call1 R10086 SUCCEEDED", "532 call2 R10087 SUCCEEDED"],
            &["531 RV-1 rk-0001", "531 RV-2 rk-0002"],
        ),
        (
            // B's read after its conflict returns R10086 PENDING at 122, heard
            // at 142; its poll at 1142 goes to A and reads SUCCEEDED at 1263.
            "--preset check-then-insert-race --mode patterns",
            &["122 call2 R10086 PENDING", "532 call1 R10086 SUCCEEDED", "1263 call3 R10086 SUCCEEDED"],
            &["531 RV-1 rk-0001"],
        ),
        (
            // A answers at 6532, after its client's 5 s deadline.
            "--preset pause-past-lease --mode naive",
            &["532 call2 R10086 SUCCEEDED", "6532 call1 R10087 SUCCEEDED"],
            &["531 RV-1 rk-0002", "6531 RV-2 rk-0001"],
        ),
        (
            // A resumes at 6120, past its caller's deadline (5000): with
            // deadline propagation it answers TEMPORARY_UNAVAILABLE at once,
            // having written nothing.
            "--preset pause-past-lease --mode patterns",
            &["532 call2 R10086 SUCCEEDED", "6120 call1 TEMPORARY_UNAVAILABLE"],
            &["531 RV-1 rk-0002"],
        ),
        (
            // The same one call, alone.
            "--preset replica-pause --mode patterns",
            &["6120 call1 TEMPORARY_UNAVAILABLE"],
            &[],
        ),
        (
            // Without the pattern A inserts at 6121 and creates RV-1 at 6531:
            // SUCCEEDED at 6532, long after the agent gave up (5000).
            "--preset replica-pause --mode naive",
            &["6532 call1 R10086 SUCCEEDED"],
            &["6531 RV-1 rk-0001"],
        ),
        (
            // A rejection is a business answer, not an error result. The
            // rejected create keeps no review, so the ledger starts at 1531.
            "--preset new-generation --mode naive",
            &["532 call1 R10086 FAILED", "1532 call2 R10087 SUCCEEDED", "1832 call3 R10088 SUCCEEDED"],
            &["1531 RV-1 rk-0002", "1831 RV-2 rk-0003"],
        ),
        (
            // rk-0003 reads R10087 PENDING at 1422 (its create answers at
            // 1531), heard at 1442; its poll at 2442 goes to B (calls 1 to 3
            // went A, B, A) and reads SUCCEEDED at 2563.
            "--preset new-generation --mode patterns",
            &[
                "532 call1 R10086 FAILED",
                "1422 call3 R10087 PENDING",
                "1532 call2 R10087 SUCCEEDED",
                "2563 call4 R10087 SUCCEEDED",
            ],
            &["1531 RV-1 rk-0002"],
        ),
        ("--preset wrong-audience --mode naive", &["532 call1 R10086 SUCCEEDED"], &["531 RV-1 rk-0001"]),
        (
            // Refused at the protocol step once the checks end at 120: a
            // JSON-RPC error, no tool result, nothing created.
            "--preset wrong-audience --mode patterns",
            &["120 call1 rpc -32001"],
            &[],
        ),
    ];
    for (flags, answers, reviews) in table {
        let run = run(flags);
        assert_eq!(results(&run), *answers, "{flags}");
        assert_eq!(ledger(&run), *reviews, "{flags}");
    }
}

#[test]
fn the_patterns_incident_returns_r10086_to_the_retry() {
    let run = run("--preset incident --mode patterns");
    let results: Vec<String> = run
        .records()
        .iter()
        .filter_map(|r| match r.what {
            What::ToolResult { call, reply, .. } => {
                Some(format!("{} call{} R{} {}", r.t.ms(), call.0, reply.row().unwrap().0, reply.is_error()))
            }
            _ => None,
        })
        .collect();
    // UNKNOWN at 2622; the poll (call 2, made at 2642+1000 = 3642) reads at
    // 3642+20+100+1 = 3763; the scripted retry at 3880 is, under the agent's
    // poll-the-review policy, a status poll of R10086 (call 3): it reads the
    // row at 3880+20+100+1 = 4001 (a second request_risk_review would insert,
    // meet the conflict and read it at 4002).
    assert_eq!(results, ["2622 call1 R10086 false", "3763 call2 R10086 false", "4001 call3 R10086 false"]);
    let statuses: Vec<&str> = run.records().iter().filter_map(|r| r.row_move()).map(|m| m.to.name()).collect();
    assert!(!statuses.contains(&"FAILED"), "never FAILED");
}

#[test]
fn overload_with_the_gates_works_in_waves() {
    let run = run("--preset overload --mode patterns");
    let s = run.summary();
    // Per replica: the first 100 calls at 20 fill 8 slots and 16 queue places
    // and 76 get OVERLOADED. A slot serves one call per 100+1+410+1 = 512 ms:
    // slots free at 532 and 1044, which drains the queue. The 76 retries (made
    // at 40+1000 = 1040) arrive at 1060 with 8 in flight and an empty queue:
    // 16 queued, 60 OVERLOADED; then 44, 28 and 12, and the fifth wave of 12
    // all queue. OVERLOADED per replica: 76+60+44+28+12 = 220, so 440.
    assert_eq!(s.overloaded, 440);
    // Calls: 200 + 152 + 120 + 88 + 56 + 24 = 640.
    assert_eq!(s.tool_calls, 640);
    // The fifth wave, made at 5200, arrives at 5220 behind the batch started
    // at 5140 (done 5652): its last four start at 6164 and answer at 6676,
    // heard at 6696.
    assert_eq!(s.end, Millis(6696));
    let check = run.checks().into_iter().find(|c| c.name == CheckName::OverloadFastBounded).unwrap();
    // The longest wait in a queue: a first-wave call queued 9th to 16th at 20
    // starts at 1044, 1024 ms later (each later wave waits 16 ms less: its
    // batch arrives 1040 ms after the last, two services of 512 before its
    // start). Each queued call starts well before its budget lapses: the
    // first wave's may start until 5000 - (100 + 300 + 2500) = 2100.
    assert_eq!(check.figure(Fig::LongestQueueWaitMs), Some(Value::Ms(1024)));
    assert_eq!(check.figure(Fig::BudgetNeededMs), Some(Value::Ms(2900)));
    assert_eq!(check.figure(Fig::WaitedPastBudget), Some(Value::Count(0)));
    assert_eq!(check.figure(Fig::MaxQueue), Some(Value::Count(16)));
    assert_eq!(check.figure(Fig::MaxInFlight), Some(Value::Count(8)));
    // An OVERLOADED is answered the instant its call arrives: made, 20 ms
    // there and 20 back, within the 10 ms plus the two transits allowed.
    assert_eq!(check.figure(Fig::SlowestOverloadedMs), Some(Value::Ms(40)));
    assert_eq!(check.figure(Fig::OverloadedWithinMs), Some(Value::Ms(50)));
    assert_eq!(check.holds, Some(true));
}

#[test]
fn checks_are_live_at_the_playhead() {
    // The agent retries at once as in the incident (a poll of the review
    // would carry no request_key), every server pattern on.
    let run = run("--preset incident --mode patterns --retry-policy off");
    let at = |t: u64, name: CheckName| run.checks_at(Millis(t)).into_iter().find(|c| c.name == name).unwrap().holds;
    // Nothing lost before the answer is dropped at 531; from then until the
    // probe's write at 3102 the lost response has not converged.
    assert_eq!(at(530, CheckName::LostResponseConverges), None);
    assert_eq!(at(531, CheckName::LostResponseConverges), Some(false));
    assert_eq!(at(3101, CheckName::LostResponseConverges), Some(false));
    assert_eq!(at(3102, CheckName::LostResponseConverges), Some(true));
    // The request_key is reused only once the retry is made at 3880.
    assert_eq!(at(3879, CheckName::SameRequestKeyOneRow), None);
    assert_eq!(at(3880, CheckName::SameRequestKeyOneRow), Some(true));
    let naive = super::run("--preset incident --mode naive");
    let legal =
        |t: u64| naive.checks_at(Millis(t)).into_iter().find(|c| c.name == CheckName::LegalTransitions).unwrap().holds;
    assert_eq!([legal(0), legal(121), legal(2621), legal(2622)], [None, Some(true), Some(true), Some(false)]);
}

#[test]
fn the_risk_apis_admission_limit_refuses_the_excess_at_once() {
    // A Risk API safe at one call at a time, its admission limit on, and no
    // global gate to keep the replicas below it. Two calls at 0 (A and B)
    // insert R10086 and R10087 at 121 and create at once; the Risk API
    // admits the first and refuses the second with 503 at 121, so R10087 is
    // UNKNOWN at 122 (a 5xx, due at once). At 1000 both workers probe
    // R10087: W1's find takes the one place, W2's gets 503 at once and keeps
    // the row UNKNOWN (due again at 1001+1000 = 2001) without moving its
    // version, so W1's "not found" at 1101 still applies: RETRYABLE at 1102
    // until 2101. At 3000 W1 claims (3002) and resends: RV-2 at 3412,
    // SUCCEEDED at 3413. The Risk API never works on more than one call.
    let run = run("--preset overload --burst-calls 2 --api-safe-concurrency 1 --global-gate off --mode patterns");
    assert_eq!(
        moves(&run),
        [
            "121 R10086 ->PENDING inserted",
            "121 R10087 ->PENDING inserted",
            "122 R10087 PENDING->UNKNOWN downstream_5xx",
            "532 R10086 PENDING->SUCCEEDED create_succeeded",
            "1002 R10087 UNKNOWN->UNKNOWN downstream_5xx",
            "1102 R10087 UNKNOWN->RETRYABLE find_not_found",
            "3002 R10087 RETRYABLE->PENDING claim_won",
            "3413 R10087 PENDING->SUCCEEDED create_succeeded",
        ]
    );
    assert_eq!(outline(&run), "reviews=2 rows=[SUCCEEDED×2] creates=3 finds=2 claims=1/1 checks=---T--TTTT-T--");
    assert_eq!(figure(&run, CheckName::DownstreamWithinCapacity, Fig::PeakConcurrency), Some(Value::Count(1)));
}

#[test]
fn a_call_unanswered_within_the_client_deadline_ends_its_intent() {
    // With a 1 s client deadline the create, sent at 121, gets what is left of
    // it at the Risk API: min(2500, 1000 - 121) = 879 ms, so the replica stops
    // waiting at 1000 (not at 2621), makes the row UNKNOWN at 1001 and
    // answers. The agent stopped waiting at 1000 and ignores the UNKNOWN that
    // reaches it at 1021. No poll follows, but the workers settle the row:
    // their scan of 1000 ran before the UNKNOWN was written (nothing due at
    // 1001); the one of 2000 probes at 2001 and finds RV-1 (created at 531,
    // its answer lost) at 2101: SUCCEEDED at 2102.
    let run = run("--preset lost-create-response --mode patterns --client-deadline-ms 1000");
    let agent = |run: &Run| -> Vec<String> {
        run.records()
            .iter()
            .filter(|r| matches!(r.what, What::DeadlinePassed { .. } | What::ResultReceived { .. }))
            .map(|r| format!("{} {}", r.t.ms(), r.kind()))
            .collect()
    };
    let timeouts = |run: &Run| -> Vec<(u64, u64)> {
        run.records()
            .iter()
            .filter_map(|r| match r.what {
                What::DownstreamTimeout { kind: DsKind::Create, sent_at, .. } => Some((sent_at.ms(), r.t.ms())),
                _ => None,
            })
            .collect()
    };
    assert_eq!(agent(&run), ["1000 deadline_passed", "1021 result_received"]);
    assert_eq!(timeouts(&run), [(121, 1000)]);
    assert_eq!(run.summary().tool_calls, 1);
    assert_eq!(moves(&run).last().map(String::as_str), Some("2102 R10086 UNKNOWN->SUCCEEDED find_found"));
    // Nothing was written or sent after the agent gave up.
    assert_eq!(figure(&run, CheckName::NoEffectAfterDeadline, Fig::CallsGivenUp), Some(Value::Count(1)));
    assert_eq!(super::verdicts(&run), "--T---TTTTTT--");
    // Without deadline propagation the create gets the whole 2.5 s: the
    // replica answers UNKNOWN at 2622, heard at 2642, and the probes of 3001
    // settle the row at 3102.
    let full = super::run(
        "--preset lost-create-response --mode patterns --client-deadline-ms 1000 --deadline-propagation off",
    );
    assert_eq!(agent(&full), ["1000 deadline_passed", "2642 result_received"]);
    assert_eq!(timeouts(&full), [(121, 2621)]);
    assert_eq!(moves(&full).last().map(String::as_str), Some("3102 R10086 UNKNOWN->SUCCEEDED find_found"));
}

#[test]
fn aimed_faults_take_the_place_of_the_presets_own() {
    // not-found-resend is lost-create-response's script with the create's
    // request lost instead of its response.
    assert_eq!(
        outline(&run("--preset lost-create-response --mode patterns --fault create-request-lost@1")),
        outline(&run("--preset not-found-resend --mode patterns"))
    );
    // The incident's own fault, written out, is the incident; worker-crash
    // is not-found-resend with the first resend's worker crashing.
    assert_eq!(outline(&run("--preset incident --fault create-response-lost@1")), outline(&run("--preset incident")));
    assert_eq!(
        outline(&run(
            "--preset not-found-resend --mode patterns --fault create-request-lost@1,worker-crash-after-send@1"
        )),
        outline(&run("--preset worker-crash --mode patterns"))
    );
    // No fault at all: the first create succeeds (RV-1 at 121+410 = 531),
    // and the naive server still makes a second review for the scripted
    // retry (inserted at 3880+20+100+1 = 4001, created at 4411).
    let clean = run("--preset incident --fault none");
    let at: Vec<u64> = clean.reviews().iter().map(|r| r.at.ms()).collect();
    assert_eq!(at, [531, 4411]);
    // A fault aimed at the second create hits the retry's: its response is
    // lost, so the naive server marks R10087 FAILED at 4001+2500+1 = 6502.
    let second = run("--preset incident --fault create-response-lost@2");
    assert_eq!(statuses(&second), "SUCCEEDED FAILED");
}

#[test]
fn a_failed_review_closes_its_generation_and_the_next_request_opens_another() {
    let run = run("--preset new-generation --mode patterns");
    let keys: Vec<(u32, u32)> = run.rows().iter().map(|r| (r.id.0, r.generation)).collect();
    assert_eq!(keys, [(10086, 1), (10087, 2)]);
    let names: Vec<String> =
        run.rows().iter().map(|r| idempotency_lab::view::risk::names::business_key(r.business_key())).collect();
    assert_eq!(names, ["O20260728001:risk:1", "O20260728001:risk:2"]);
    // The second click's conflict names generation 2's row.
    let conflict = run.records().iter().find_map(|r| match r.what {
        What::InsertConflict { existing, insert, .. } => Some((existing.0, insert.generation)),
        _ => None,
    });
    assert_eq!(conflict, Some((10087, 2)));
    // Without a unique request_key nothing keeps a retry in the generation
    // its key began in: the naive incident's timeout makes R10086 FAILED at
    // 2622, closing generation 1, and the retry's R10087 (inserted at 4001)
    // takes generation 2.
    let naive = super::run("--preset incident --mode naive");
    let keys: Vec<(u32, u32)> = naive.rows().iter().map(|r| (r.id.0, r.generation)).collect();
    assert_eq!(keys, [(10086, 1), (10087, 2)]);
}

#[test]
fn the_wide_fleet_outnumbers_the_risk_api_unless_one_gate_spans_it() {
    // Worked out in the table above: 3 580 calls, 2 300 of them OVERLOADED by
    // a full queue, 1 180 waited for the fleet; the Risk API never held more
    // than 100. The 80 calls of the last wave start at 6164 and are heard at
    // 6164 + 512 + 20 = 6696. The longest wait is the first burst's: of the
    // 320 queued at 20, the last 20 start at 2068, 2048 ms later and before
    // 2101, when their budget would lapse; each later batch waits 16 ms less.
    let gated = run("--preset wide-fleet --mode patterns");
    let s = gated.summary();
    assert_eq!((s.tool_calls, s.overloaded, s.end.ms()), (3_580, 2_300, 6_696));
    let fast = |run: &Run, name: Fig| figure(run, CheckName::OverloadFastBounded, name);
    assert_eq!(
        [fast(&gated, Fig::WaitedForFleet), fast(&gated, Fig::WaitedPastBudget), fast(&gated, Fig::MaxQueue)],
        [Some(Value::Count(1_180)), Some(Value::Count(0)), Some(Value::Count(16))]
    );
    assert_eq!(
        [fast(&gated, Fig::LongestQueueWaitMs), fast(&gated, Fig::SlowestOverloadedMs)],
        [Some(Value::Ms(2_048)), Some(Value::Ms(40))]
    );
    let refused = |run: &Run| run.records().iter().filter(|r| matches!(r.what, What::OutOfBudget { .. })).count();
    assert_eq!(refused(&gated), 0);
    // Without the per-replica gates nothing bounds the queues: 1 180 wait at
    // 20, 59 at each replica, past the configured 16. Deadline propagation
    // keeps the wait within each call's budget instead: 780 are answered
    // TEMPORARY_UNAVAILABLE at 2101 and 280 of their retries at 5222 (the
    // formulas above); the retries wait too, 680 at 3141 and 180 at 6262.
    // Nothing is OVERLOADED: 1 280 + 780 + 280 = 2 340 calls, the last heard
    // at 7286 + 512 + 20 = 7818.
    let unbounded = run("--preset wide-fleet --mode patterns --gates off");
    let s = unbounded.summary();
    assert_eq!((s.tool_calls, s.overloaded, s.end.ms()), (2_340, 0, 7_818));
    assert_eq!(refused(&unbounded), 1_060);
    assert_eq!(
        [
            fast(&unbounded, Fig::WaitedForFleet),
            fast(&unbounded, Fig::MaxQueue),
            fast(&unbounded, Fig::WaitedPastBudget)
        ],
        [Some(Value::Count(2_040)), Some(Value::Count(59)), Some(Value::Count(0))]
    );
    assert_eq!(super::verdicts(&unbounded), "T----FTT-T-TT-");
    let peak = |run: &Run| figure(run, CheckName::DownstreamWithinCapacity, Fig::PeakConcurrency);
    assert_eq!(peak(&gated), Some(Value::Count(100)));
    // Without the global gate the fleet's own caps admit all 1 280 at once;
    // the Risk API's admission limit keeps it at 100 and refuses 1 180
    // creates with 503 (their rows are left for the workers: the switch
    // table). Without that limit too, the L-th create finds the Risk API
    // working on L calls: 1 280 at once, 12.8 times its safe concurrency.
    let open = run("--preset wide-fleet --mode patterns --global-gate off");
    assert_eq!(peak(&open), Some(Value::Count(100)));
    let refused_creates = open
        .records()
        .iter()
        .filter(|r| {
            matches!(
                r.what,
                What::DownstreamReply {
                    kind: DsKind::Create,
                    answer: idempotency_lab::sim::risk::Answer::Unavailable,
                    ..
                }
            )
        })
        .count();
    assert_eq!(refused_creates, 1_180);
    let unlimited = run("--preset wide-fleet --mode patterns --global-gate off --downstream-limit off");
    assert_eq!(peak(&unlimited), Some(Value::Count(1_280)));
    let verdict = |run: &Run| run.checks().into_iter().find(|c| c.name == CheckName::DownstreamWithinCapacity)?.holds;
    assert_eq!([verdict(&gated), verdict(&open), verdict(&unlimited)], [Some(true), Some(true), Some(false)]);
}

#[test]
fn a_freed_place_goes_to_the_oldest_call_waiting_anywhere_in_the_fleet() {
    // Three replicas, a quota of 2 (the Risk API's safe concurrency). Calls 1
    // to 5 reach A, B, C, A, B at 20: 1 and 2 start, 3, 4 and 5 wait for the
    // fleet though their replicas' slots are free. At 532 call 1 (A) is
    // answered first and its place goes to call 3 at C, the oldest waiting
    // (queued at 20, the lowest number), not to A's own call 4; call 2's
    // place (B) goes to call 4. At 1044 call 3 (C) is answered first: call 5
    // starts at B, well before 2100, when its budget would lapse.
    let run = run("--preset overload --mode patterns --replicas 3 --burst-calls 5 --api-safe-concurrency 2");
    let started: Vec<String> = run
        .records()
        .iter()
        .filter_map(|r| match (r.actor, r.what) {
            (idempotency_lab::sim::risk::Actor::Replica(at), What::CallStarted { call, freed_by, .. }) => {
                Some(format!("{} call{} at {} freed by {}", r.t.ms(), call.0, at.name(), freed_by.name()))
            }
            _ => None,
        })
        .collect();
    assert_eq!(started, ["532 call3 at C freed by A", "532 call4 at A freed by B", "1044 call5 at B freed by C"]);
    // Every call answered by 1044 + 512 + 20 = 1576, nothing refused.
    assert_eq!((run.summary().overloaded, run.summary().end.ms()), (0, 1576));
}
