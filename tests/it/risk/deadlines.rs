//! Deadline propagation, worked by hand: each call carries the agent's 5 s
//! deadline, and a replica spends no more of it than is left. A queued call
//! starts only while what is left covers auth and policy (100 ms), the
//! database's budget (300 ms) and the Risk API's timeout (2500 ms), so a
//! call made at m may start until m + 5000 - 2900 = m + 2100; otherwise it
//! is answered TEMPORARY_UNAVAILABLE at once, an error result the agent
//! retries after its backoff. The deadline is checked again before the
//! insert and before the create, and the create's timeout is the smaller of
//! 2.5 s and what is left. And the check that judges what the pattern
//! prevents: no insert and no create begins after the agent gave up.

use idempotency_lab::sim::risk::facts::{BudgetStep, DsKind, Issuer, Reply, What};
use idempotency_lab::sim::risk::{CheckName, Fig, Run, Value};

use super::{outline, run, verdicts};

/// Each refusal for the deadline, as "t callN step".
fn refusals(run: &Run) -> Vec<String> {
    run.records()
        .iter()
        .filter_map(|r| match r.what {
            What::OutOfBudget { call, step, .. } => Some(format!("{} call{} {}", r.t.ms(), call.0, step.name())),
            _ => None,
        })
        .collect()
}

/// Each tool result, as "t callN STATUS" or "t callN CODE".
fn results(run: &Run) -> Vec<String> {
    run.records()
        .iter()
        .filter_map(|r| match r.what {
            What::ToolResult { call, reply: Reply::Review { status, .. }, .. } => {
                Some(format!("{} call{} {}", r.t.ms(), call.0, status.name()))
            }
            What::ToolResult { call, reply: Reply::Error { code, .. }, .. } => {
                Some(format!("{} call{} {}", r.t.ms(), call.0, code.name()))
            }
            _ => None,
        })
        .collect()
}

fn figure(run: &Run, name: CheckName, figure: Fig) -> Option<Value> {
    run.checks().into_iter().find(|c| c.name == name)?.figure(figure)
}

fn holds(run: &Run, name: CheckName) -> Option<bool> {
    run.checks().into_iter().find(|c| c.name == name)?.holds
}

#[test]
fn a_queued_call_starts_only_while_what_is_left_covers_its_work() {
    // 18 calls at 0, odd ones to A and even ones to B: at each replica eight
    // take the slots and the ninth (calls 17 and 18) queues. A slot's call
    // inserts at 121 and creates at once; with a create of 1978 ms it is
    // answered at 121 + 1978 + 1 = 2100, and the queued call starts then,
    // with exactly 5000 - 2100 = 2900 ms left: enough. Its create goes out at
    // 2201 with min(2500, 5000 - 2201) = 2500 ms, answers at 4179, and the
    // call is answered at 4180, heard at 4200. Nothing refused.
    let on_time = run("--preset overload --mode patterns --burst-calls 18 --create-ms 1978");
    assert!(refusals(&on_time).is_empty(), "{:?}", refusals(&on_time));
    assert_eq!(on_time.summary().tool_calls, 18);
    assert_eq!(on_time.summary().end.ms(), 4200);
    // A millisecond slower, the slots free at 2101 with 2899 ms left: calls
    // 17 and 18 are answered TEMPORARY_UNAVAILABLE at 2101, as the replica
    // takes them from the queue. The agent hears it at 2121 and retries at
    // 3121 (calls 19 and 20, same request_keys), which find free slots at
    // 3141: insert at 3242, create answered at 3242 + 1979 = 5221, heard at
    // 5242, within their own deadline (8121). 18 rows, 18 reviews.
    let late = run("--preset overload --mode patterns --burst-calls 18 --create-ms 1979");
    assert_eq!(refusals(&late), ["2101 call17 queue", "2101 call18 queue"]);
    let refused: Vec<String> = results(&late).into_iter().filter(|r| r.contains("TEMPORARY")).collect();
    assert_eq!(refused, ["2101 call17 TEMPORARY_UNAVAILABLE", "2101 call18 TEMPORARY_UNAVAILABLE"]);
    assert_eq!(results(&late).last().map(String::as_str), Some("5222 call20 SUCCEEDED"));
    assert_eq!((late.summary().tool_calls, late.summary().end.ms()), (20, 5242));
    assert_eq!(outline(&late), "reviews=18 rows=[SUCCEEDED×18] creates=18 finds=0 claims=0/0 checks=T----TTT-T-TT-");
    // No call waited past the instant its budget stopped covering the work.
    assert_eq!(figure(&late, CheckName::OverloadFastBounded, Fig::WaitedPastBudget), Some(Value::Count(0)));
}

#[test]
fn a_queued_call_is_answered_when_its_budget_lapses_never_dropped() {
    // 24 calls per replica at 20: 8 take slots, 16 queue. A slot serves a
    // call in 100+1+2400+1 = 2502 ms, until 2522. The 32 queued calls, made
    // at 0, may start until 2100: at 2101 each is answered
    // TEMPORARY_UNAVAILABLE, heard at 2121 and retried at 3121. The retries
    // reach their replicas at 3141, where the slots are free: 8 start at
    // each (done at 3141 + 2502 = 5643) and 8 queue again, answered at
    // 3121 + 2101 = 5222 and retried at 6242, to start at 6262 (done at
    // 8764, heard at 8784). 48 + 32 + 16 = 96 calls; every intent gets its
    // row and its review, and every call is answered within its deadline.
    let flags = "--preset overload --mode patterns --burst-calls 48 --create-ms 2400";
    let with = run(flags);
    let times: Vec<u64> = with
        .records()
        .iter()
        .filter_map(|r| matches!(r.what, What::OutOfBudget { step: BudgetStep::Queue, .. }).then_some(r.t.ms()))
        .collect();
    let mut expected = vec![2101; 32];
    expected.extend([5222; 16]);
    assert_eq!(times, expected);
    let s = with.summary();
    assert_eq!((s.tool_calls, s.rows, s.reviews, s.end.ms()), (96, 48, 48, 8784));
    assert_eq!(verdicts(&with), "T----TTT-T-TT-");
    // Without the pattern the queued calls wait for a slot whatever their
    // deadline: the second eight at each replica start at 2522 and are
    // answered at 5024, heard at 5044; the last eight start at 5024, insert
    // at 5125 and are answered at 7526. The agent gave up on both batches
    // at 5000, so it never retries, and the last batch's 16 inserts and 16
    // creates come after it gave up. 32 calls waited in a queue past the
    // instant their budget lapsed (2101).
    let without = run(&format!("{flags} --deadline-propagation off"));
    let s = without.summary();
    assert_eq!((s.tool_calls, s.rows, s.reviews, s.end.ms()), (48, 48, 48, 7546));
    assert_eq!(figure(&without, CheckName::OverloadFastBounded, Fig::WaitedPastBudget), Some(Value::Count(32)));
    assert_eq!(figure(&without, CheckName::NoEffectAfterDeadline, Fig::CallsGivenUp), Some(Value::Count(32)));
    assert_eq!(figure(&without, CheckName::NoEffectAfterDeadline, Fig::InsertsAfter), Some(Value::Count(16)));
    assert_eq!(figure(&without, CheckName::NoEffectAfterDeadline, Fig::CreatesAfter), Some(Value::Count(16)));
    assert_eq!(verdicts(&without), "-----FTT-TFT--");
}

#[test]
fn a_replica_that_resumes_after_the_deadline_writes_nothing() {
    // replica-pause: one call reaches A at 20, its checks end at 120 and A
    // pauses before its insert until 6120. The agent gives up at 5000. With
    // deadline propagation A finds the deadline passed and answers
    // TEMPORARY_UNAVAILABLE at 6120, before any write: no row, no create.
    let with = run("--preset replica-pause --mode patterns");
    assert_eq!(refusals(&with), ["6120 call1 insert"]);
    assert_eq!(results(&with), ["6120 call1 TEMPORARY_UNAVAILABLE"]);
    assert_eq!(outline(&with), "reviews=0 rows=[] creates=0 finds=0 claims=0/0 checks=----------T-T-");
    // Without it A inserts R10086 at 6121 and creates RV-1 at 6531 for a
    // caller that gave up 1.1 s before: the new check fails on one insert
    // and one create after the deadline.
    let without = run("--preset replica-pause --mode patterns --deadline-propagation off");
    assert_eq!(results(&without), ["6532 call1 SUCCEEDED"]);
    let after = |name| figure(&without, CheckName::NoEffectAfterDeadline, name);
    assert_eq!(
        [after(Fig::CallsGivenUp), after(Fig::InsertsAfter), after(Fig::CreatesAfter)],
        [Some(Value::Count(1)), Some(Value::Count(1)), Some(Value::Count(1))]
    );
    assert_eq!(
        (holds(&with, CheckName::NoEffectAfterDeadline), holds(&without, CheckName::NoEffectAfterDeadline)),
        (Some(true), Some(false))
    );
    // The naive server does the same as the pattern switched off alone.
    assert_eq!(holds(&run("--preset replica-pause --mode naive"), CheckName::NoEffectAfterDeadline), Some(false));
}

#[test]
fn the_deadline_is_checked_again_before_the_create() {
    // A deadline of 6121 ms: A's checks end at 120, it pauses until 6120,
    // still before the deadline, and issues its insert; R10086 is written at
    // 6121, the deadline's instant. With deadline propagation no create goes
    // out: the row is left as a timeout leaves it, UNKNOWN at 6122 (due at
    // 6121), and the call is answered so. The workers settle the row: their
    // scan of 7000 probes at 7001, "not found" at 7101, RETRYABLE at 7102
    // until 8101; at 9000 W1's claim wins at 9002 and it sends the create:
    // RV-1 at 9412, SUCCEEDED at 9413 (the workers' resend is not the call's
    // doing).
    let flags = "--preset replica-pause --mode patterns --client-deadline-ms 6121";
    let by_whom = |run: &Run| -> Vec<(u64, bool)> {
        run.records()
            .iter()
            .filter_map(|r| match r.what {
                What::CreateSent { by, .. } => Some((r.t.ms(), matches!(by, Issuer::Worker(_)))),
                _ => None,
            })
            .collect()
    };
    let with = run(flags);
    assert_eq!(refusals(&with), ["6121 call1 create"]);
    assert_eq!(results(&with), ["6122 call1 UNKNOWN"]);
    assert_eq!(by_whom(&with), [(9002, true)]);
    assert_eq!(with.reviews().iter().map(|r| r.at.ms()).collect::<Vec<_>>(), [9412]);
    assert_eq!(outline(&with), "reviews=1 rows=[SUCCEEDED] creates=1 finds=2 claims=1/1 checks=---T--TTTTTT--");
    // Without it the replica sends its create at 6121 (RV-1 at 6531). That
    // is the deadline's instant, when the agent gives up: not after it, so
    // the check holds either way; one millisecond later, it would not.
    let without = run(&format!("{flags} --deadline-propagation off"));
    assert_eq!(by_whom(&without), [(6121, false)]);
    assert_eq!(holds(&without, CheckName::NoEffectAfterDeadline), Some(true));
}

#[test]
fn the_risk_api_gets_no_longer_than_what_is_left() {
    // A deadline of 8 s, so the paused replica resumes in time (6120) and
    // inserts R10086 at 6121; its create, of 2000 ms, goes out with
    // min(2500, 8000 - 6121) = 1879 ms to answer, so the replica stops
    // waiting at 8000 (the create lands at 8121) and makes the row UNKNOWN
    // at 8001. The probes of 9001 find RV-1: SUCCEEDED at 9102.
    let flags = "--preset replica-pause --mode patterns --client-deadline-ms 8000 --create-ms 2000";
    let timeouts = |run: &Run| -> Vec<(u64, u64)> {
        run.records()
            .iter()
            .filter_map(|r| match r.what {
                What::DownstreamTimeout { kind: DsKind::Create, sent_at, .. } => Some((sent_at.ms(), r.t.ms())),
                _ => None,
            })
            .collect()
    };
    let with = run(flags);
    assert_eq!(timeouts(&with), [(6121, 8000)]);
    assert_eq!(results(&with), ["8001 call1 UNKNOWN"]);
    assert_eq!(outline(&with), "reviews=1 rows=[SUCCEEDED] creates=1 finds=2 claims=0/0 checks=--T---TTTTTT--");
    // Without the pattern it waits its whole 2.5 s (until 8621) and hears
    // RV-1 at 8121: SUCCEEDED at 8122, for a caller that gave up at 8000.
    let without = run(&format!("{flags} --deadline-propagation off"));
    assert!(timeouts(&without).is_empty());
    assert_eq!(results(&without), ["8122 call1 SUCCEEDED"]);
}

/// Regression: a forged call refused from the queue for its deadline (an
/// error result the agent retries, before any authorization step) counted
/// as a forged call the server failed to refuse, so the forged-order check
/// failed with every pattern on.
#[test]
fn a_forged_call_answered_for_its_deadline_was_turned_away_before_authorization() {
    // slow-fleet with intent 1 naming u-2002's order and its call arriving
    // 2 s late: calls 2 to 101 hold the fleet's 100 places (the first frees
    // at call 2's create, 5 + 121 + 3000 = 3126), so call 1 waits for the
    // fleet from 2020 until its budget lapses at 2101: TEMPORARY_UNAVAILABLE,
    // heard at 2121 and retried at 3121. The retry arrives at 3141, when the
    // places of calls 2 to 5 are free (3126 to 3141): it starts, and its
    // checks refuse it FORBIDDEN at 3241, heard at 3261, within its deadline.
    // It is the first call made after the burst: call 151.
    let run = run("--preset slow-fleet --mode patterns --fault call-delayed@1,forged-order@1");
    let forged: Vec<String> =
        results(&run).into_iter().filter(|r| r.contains(" call1 ") || r.contains("FORBIDDEN")).collect();
    assert_eq!(forged, ["2101 call1 TEMPORARY_UNAVAILABLE", "3241 call151 FORBIDDEN"]);
    let check = |name| figure(&run, CheckName::ForgedNoDownstream, name);
    assert_eq!(
        [
            check(Fig::ForgedCalls),
            check(Fig::Refused),
            check(Fig::NotRefused),
            check(Fig::Rows),
            check(Fig::DownstreamCalls)
        ],
        [
            Some(Value::Count(2)),
            Some(Value::Count(1)),
            Some(Value::Count(0)),
            Some(Value::Count(0)),
            Some(Value::Count(0))
        ]
    );
    assert_eq!(holds(&run, CheckName::ForgedNoDownstream), Some(true));
}
