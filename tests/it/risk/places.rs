//! Held places, worked by hand on the slow-fleet preset: a timeout ends the
//! replica's wait, not the Risk API's work, so a replica's slot (and the
//! global gate's place) stays held until the Risk API is done with the
//! call's create. The leaky gate frees it when the replica answers; the
//! Risk API's admission limit refuses what comes past its safe concurrency.
//!
//! slow-fleet: 150 calls, call i made at 5 (i - 1) for its own order, at 20
//! replicas of 64 slots (call i at replica (i - 1) mod 20) against a Risk
//! API safe at 100, whose every create takes 3000 ms, half a second past
//! the replicas' 2.5 s budget (past its safe 100 it slows to 30 ms x load).
//! With every pattern on the global gate's quota is 100. Call j of the first
//! 100 arrives at 5 (j - 1) + 20, starts at once, inserts and creates at
//! 5 (j - 1) + 121 (the Risk API then works on j creates, so on 100 from
//! 616), times out at 5 (j - 1) + 2621, writes UNKNOWN and answers at
//! 5 (j - 1) + 2622; the Risk API performs its create at 5 (j - 1) + 3121.

use idempotency_lab::sim::risk::facts::{BudgetStep, DsKind, What};
use idempotency_lab::sim::risk::{Answer, CheckName, Fig, Run, Value};

use super::{outline, run, verdicts};

fn peak(run: &Run) -> Option<Value> {
    run.checks().into_iter().find(|c| c.name == CheckName::DownstreamWithinCapacity)?.figure(Fig::PeakConcurrency)
}

/// The Risk API's 503s, as (sent_ms, kind).
fn refused(run: &Run) -> Vec<(u64, DsKind)> {
    run.records()
        .iter()
        .filter_map(|r| match r.what {
            What::DownstreamReply { kind, answer: Answer::Unavailable, sent_at, .. } => Some((sent_at.ms(), kind)),
            _ => None,
        })
        .collect()
}

#[test]
fn a_place_is_held_until_the_risk_api_is_done_with_the_create() {
    let held = run("--preset slow-fleet --mode patterns");
    // Call j's place frees when its create is performed, 499 ms after the
    // replica answered: the first at 3121 (answered at 2622), the last of
    // the first hundred at 5 x 99 + 3121 = 3616 (answered at 3117).
    let released: Vec<(u64, u32, u64)> = held
        .records()
        .iter()
        .filter_map(|r| match r.what {
            What::SlotReleased { call, answered_at, .. } => Some((r.t.ms(), call.0, answered_at.ms())),
            _ => None,
        })
        .collect();
    assert_eq!(released.first(), Some(&(3121, 1, 2622)));
    assert!(released.contains(&(3616, 100, 3117)), "{:?}", &released[..5]);
    // Calls 101 to 150 arrive from 520 to 765 and wait for the fleet. A call
    // made at m may start until m + 2100, and the first place frees at
    // 3121: each is answered TEMPORARY_UNAVAILABLE at 5 (i - 1) + 2101, from
    // 2601 to 2846, and retried 1020 ms later, when every place is free
    // again (the retries arrive from 3641, after the last frees at 3616).
    let lapsed: Vec<u64> = held
        .records()
        .iter()
        .filter_map(|r| matches!(r.what, What::OutOfBudget { step: BudgetStep::Queue, .. }).then_some(r.t.ms()))
        .collect();
    assert_eq!(lapsed, (101..=150u64).map(|i| 5 * (i - 1) + 2101).collect::<Vec<_>>());
    let queued = held.records().iter().filter(|r| matches!(r.what, What::CallQueued { .. })).count();
    assert_eq!(queued, 50, "only the first burst's last 50 ever wait");
    // The workers' scan of 3000 finds rows 1 to 76 UNKNOWN and due (row j
    // is UNKNOWN from 5 (j - 1) + 2622, at most 3001). Their probes go out
    // while the Risk API works on its 100 creates: its admission limit
    // answers each 503 at once, and each worker walks its 76 rows a
    // millisecond apiece, from 3001 to 3076: 152 probes refused, none held.
    let probes = refused(&held);
    assert_eq!(probes.len(), 152);
    assert!(probes.iter().all(|&(t, kind)| kind == DsKind::Find && (3001..=3076).contains(&t)), "{probes:?}");
    assert_eq!(peak(&held), Some(Value::Count(100)));
    // The rest settles (every probe finds its review): the scan of 4000
    // probes rows 77 to 100 (due from 3001 to 3116; rows 1 to 76 are due
    // again only from 4039), 24 rows from each end, 48 finds, busy until
    // 4001 + 24 x 101 = 6425; the scan of 7000 probes rows 1 to 76 and the
    // 50 retries' rows (UNKNOWN from 6243 to 6488, their creates performed
    // by 6987), 126 rows from each end, 252 finds. 152 + 48 + 252 = 452.
    assert_eq!(
        outline(&held),
        "reviews=150 rows=[SUCCEEDED×150] creates=150 finds=452 claims=0/0 checks=T-T--TTTTT-TT-"
    );
}

#[test]
fn the_downstream_limit_and_held_places_keep_the_risk_api_within_its_safe_concurrency() {
    // Held places without the Risk API's own limit: the fleet holds its 100
    // places for the 100 creates, and the workers' first probes, at 3001,
    // come on top of them: 101 and 102 at once (the probes, slowed to 101
    // and 102 ms, hear that the creates are in progress).
    let unlimited = run("--preset slow-fleet --mode patterns --downstream-limit off");
    assert_eq!(peak(&unlimited), Some(Value::Count(102)));
    assert!(refused(&unlimited).is_empty());
    assert_eq!(verdicts(&unlimited), "T-T--TTTTF-TT-");
    // The leaky gate frees a place when the replica answers, while the Risk
    // API still works on the create. Place j frees at 5 (j - 1) + 2622; calls
    // 101 to 105 have lapsed by then (2601 to 2621), and call 105 + j, whose
    // budget lapses at 5 (j - 1) + 2626, takes place j: calls 106 to 150
    // start from 2622 to 2842 and create from 2723 to 2943. Without the
    // limit the Risk API takes them on top of its 100: 145 creates at once,
    // and at 3001 the two probes make 147.
    let leaky = run("--preset slow-fleet --mode patterns --global-gate leaky --downstream-limit off");
    assert_eq!(peak(&leaky), Some(Value::Count(147)));
    let lapsed = leaky.records().iter().filter(|r| matches!(r.what, What::OutOfBudget { .. })).count();
    assert_eq!(lapsed, 5);
    let holds = |run: &Run| {
        run.checks().into_iter().find(|c| c.name == CheckName::DownstreamWithinCapacity).and_then(|c| c.holds)
    };
    assert_eq!(holds(&leaky), Some(false));
    // With the limit the leaky gate's 45 creates find the Risk API at its 100
    // and get 503 at once: it stays within its safe concurrency, and the
    // refused creates' rows are left UNKNOWN for the workers. A refused
    // create is done at once, so its call answers (UNKNOWN) 102 ms after it
    // started and its place passes on: calls 106 to 126 take the places the
    // first hundred free at 2622 + 5 k (k = 0 to 20); from 2724 the places
    // their refusals free come in between, so the last 24 start in pairs at
    // 2724 + 5 m and 2727 + 5 m (m = 0 to 11). Each sends its create 101 ms
    // after it starts.
    let limited = run("--preset slow-fleet --mode patterns --global-gate leaky");
    assert_eq!(peak(&limited), Some(Value::Count(100)));
    let creates: Vec<u64> =
        refused(&limited).into_iter().filter(|&(_, kind)| kind == DsKind::Create).map(|(t, _)| t).collect();
    let mut starts: Vec<u64> = (0..=20u64).map(|k| 2622 + 5 * k).collect();
    starts.extend((0..=11u64).flat_map(|m| [2724 + 5 * m, 2727 + 5 * m]));
    assert_eq!(creates, starts.iter().map(|s| s + 101).collect::<Vec<_>>());
    assert_eq!(holds(&limited), Some(true));
    // And with held places and the limit, both of which the patterns turn on,
    // no create is refused at all: the retries of calls 101 to 150 find the
    // Risk API idle (the test above).
    let patterns = run("--preset slow-fleet --mode patterns");
    assert!(refused(&patterns).iter().all(|&(_, kind)| kind == DsKind::Find));
}
