//! The model's scenarios, one table row each. Every expected figure was
//! worked out by hand from MODEL.md's rules (the arithmetic is in the
//! comments), not copied from the program's output.

use idempotency_lab::sim::ack::{RawSettings, Run, Settings};
use idempotency_lab::sim::{Millis, Schema};
use idempotency_lab::view::ack::{text_mirror, text_mirror_with};

/// Settings from flag-style text, e.g. "--dedup off --exec-ms 500".
pub fn settings(flags: &str) -> Settings {
    let words: Vec<&str> = flags.split_whitespace().collect();
    let mut raw = RawSettings::core();
    for pair in words.chunks(2) {
        let param = Settings::by_flag(pair[0]).unwrap_or_else(|| panic!("unknown flag {}", pair[0]));
        raw.set(param, pair[1]);
    }
    raw.validate().unwrap_or_else(|e| panic!("invalid test settings: {e}"))
}

pub fn run(flags: &str) -> Run {
    Run::simulate(&settings(flags)).expect("run finishes")
}

/// The summary in one line, so a failing row shows every figure at once.
fn summary_line(run: &Run) -> String {
    let s = run.summary();
    let ack = s.ack_at.map_or("-".to_owned(), |t| t.ms().to_string());
    format!(
        "{}@{} ack={ack} end={} committed={} hits={} attempts={} lost={} late={}",
        s.outcome.name(),
        s.outcome_at.ms(),
        s.end.ms(),
        s.committed,
        s.dedup_hits,
        s.attempts,
        s.lost_responses,
        s.late_responses
    )
}

/// "t:kind" for every event, to pin down order as well as figures.
fn timeline(run: &Run) -> String {
    run.records().iter().map(|r| format!("{}:{}#{}", r.t.ms(), r.kind(), r.attempt)).collect::<Vec<_>>().join(" ")
}

#[test]
#[expect(clippy::too_many_lines, reason = "one row per worked scenario")]
fn summaries() {
    let table: &[(&str, &str, &str)] = &[
        (
            "worked example: lost first ack, stable key, dedup on",
            "",
            // commit 2000, lost 2050, timeout 3000, retry at 3000+1000, replay, ack 4050
            "succeeded@4050 ack=4050 end=4050 committed=1 hits=1 attempts=2 lost=1 late=0",
        ),
        (
            "worked example with dedup off: attempt 2 executes again",
            "--dedup off",
            // attempt 2 at 4000 starts an op: commit 6000, ack 6050
            "succeeded@6050 ack=6050 end=6050 committed=2 hits=0 attempts=2 lost=1 late=0",
        ),
        (
            "no fault: first response acknowledges",
            "--fault none",
            "succeeded@2050 ack=2050 end=2050 committed=1 hits=0 attempts=1 lost=0 late=0",
        ),
        (
            "lose every success, dedup on: replays are lost too, one increment",
            "--fault lose-all",
            // sends 0, 4000 (3000+1000), 9000 (7000+2000); timeouts 3000, 7000, 12000
            "exhausted@12000 ack=- end=12000 committed=1 hits=2 attempts=3 lost=3 late=0",
        ),
        (
            "lose every success, dedup off: every attempt increments",
            "--fault lose-all --dedup off",
            // commits 2000, 6000, 11000; lost +50; exhausted at the third timeout
            "exhausted@12000 ack=- end=12000 committed=3 hits=0 attempts=3 lost=3 late=0",
        ),
        (
            "first attempt gets 503, retried after backoff",
            "--fault first-503",
            // 503 delivered at 50; attempt 2 at 1050, commit 3050, ack 3100 (deadline 4050)
            "succeeded@3100 ack=3100 end=3100 committed=1 hits=0 attempts=2 lost=0 late=0",
        ),
        (
            "first attempt gets 503 and there is no second",
            "--fault first-503 --max-attempts 1",
            "exhausted@50 ack=- end=50 committed=0 hits=0 attempts=1 lost=0 late=0",
        ),
        (
            "400 is final and never retried",
            "--fault reject-400",
            "rejected@50 ack=- end=50 committed=0 hits=0 attempts=1 lost=0 late=0",
        ),
        (
            "a new key per attempt defeats deduplication",
            "--key per-attempt",
            "succeeded@6050 ack=6050 end=6050 committed=2 hits=0 attempts=2 lost=1 late=0",
        ),
        (
            "retention zero: nothing is remembered",
            "--retention-ms 0",
            "succeeded@6050 ack=6050 end=6050 committed=2 hits=0 attempts=2 lost=1 late=0",
        ),
        (
            "retry arrives exactly at commit + retention: expired, executes again",
            "--retention-ms 2000",
            // commit 2000 + 2000 = 4000 = arrival of attempt 2
            "succeeded@6050 ack=6050 end=6050 committed=2 hits=0 attempts=2 lost=1 late=0",
        ),
        (
            "retry arrives one millisecond before expiry: replayed",
            "--retention-ms 2001",
            "succeeded@4050 ack=4050 end=4050 committed=1 hits=1 attempts=2 lost=1 late=0",
        ),
        (
            "response lands exactly at the deadline and wins",
            "--fault none --timeout-ms 2050",
            "succeeded@2050 ack=2050 end=2050 committed=1 hits=0 attempts=1 lost=0 late=0",
        ),
        (
            "deadline one millisecond earlier: the response is late",
            "--fault none --timeout-ms 2049",
            // timeout 2049, attempt 2 at 3049 replays, ack 3099
            "succeeded@3099 ack=3099 end=3099 committed=1 hits=1 attempts=2 lost=0 late=1",
        ),
        (
            "retry joins the operation still in flight",
            "--fault none --timeout-ms 1000 --exec-ms 2500",
            // attempt 2 at 2000 joins; commit 2500 answers 1 (late) then 2 (ack 2550)
            "succeeded@2550 ack=2550 end=2550 committed=1 hits=1 attempts=2 lost=0 late=1",
        ),
        (
            "joined retry with the first success lost",
            "--timeout-ms 1000 --exec-ms 2500",
            "succeeded@2550 ack=2550 end=2550 committed=1 hits=1 attempts=2 lost=1 late=0",
        ),
        (
            "timeout shorter than execution, no dedup: exhausted yet three increments",
            "--fault none --dedup off --timeout-ms 1000 --exec-ms 2500",
            // sends 0, 2000, 5000; commits 2500, 4500, 7500; all responses late; end 7550
            "exhausted@6000 ack=- end=7550 committed=3 hits=0 attempts=3 lost=0 late=3",
        ),
        (
            "full jitter spreads the retries deterministically",
            "--fault lose-all --dedup off --jitter full --max-attempts 4",
            // delays 500, 500, 3000: sends 0, 3500, 7000, 13000; last timeout 16000
            "exhausted@16000 ack=- end=16000 committed=4 hits=0 attempts=4 lost=4 late=0",
        ),
        (
            "backoff is capped",
            "--fault lose-all --dedup off --backoff-cap-ms 1500 --max-attempts 4",
            // delays 1000, 1500, 1500: sends 0, 4000, 8500, 13000; last timeout 16000
            "exhausted@16000 ack=- end=16000 committed=4 hits=0 attempts=4 lost=4 late=0",
        ),
        (
            "one attempt only",
            "--max-attempts 1",
            "exhausted@3000 ack=- end=3000 committed=1 hits=0 attempts=1 lost=1 late=0",
        ),
        (
            "zero transit times",
            "--fault none --request-transit-ms 0 --response-transit-ms 0",
            "succeeded@2000 ack=2000 end=2000 committed=1 hits=0 attempts=1 lost=0 late=0",
        ),
        (
            "zero transit times with the first ack lost",
            "--response-transit-ms 0",
            "succeeded@4000 ack=4000 end=4000 committed=1 hits=1 attempts=2 lost=1 late=0",
        ),
        (
            "instant execution",
            "--fault none --exec-ms 0",
            "succeeded@50 ack=50 end=50 committed=1 hits=0 attempts=1 lost=0 late=0",
        ),
        (
            "requests still in flight keep the run going after the client gives up",
            "--fault none --timeout-ms 100 --request-transit-ms 500 --max-attempts 2",
            // arrivals 500 (starts, commits 2500) and 1600 (joins); client exhausted at 1200
            "exhausted@1200 ack=- end=2550 committed=1 hits=1 attempts=2 lost=0 late=2",
        ),
    ];
    let mut failures = Vec::new();
    for (name, flags, expected) in table {
        let got = summary_line(&run(flags));
        if got != *expected {
            failures.push(format!("{name} [{flags}]\n  expected {expected}\n  got      {got}"));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn event_orders() {
    let table: &[(&str, &str)] = &[
        (
            "",
            "0:attempt-sent#1 0:operation-started#1 2000:operation-committed#1 2050:response-lost#1 \
             3000:attempt-timed-out#1 4000:attempt-sent#2 4000:dedup-replayed#2 4050:response-delivered#2",
        ),
        (
            // The expiry marker follows the commit at the same instant; the
            // second one at 6000 is inside the run and shown.
            "--retention-ms 0",
            "0:attempt-sent#1 0:operation-started#1 2000:operation-committed#1 2000:stored-result-expired#1 \
             2050:response-lost#1 3000:attempt-timed-out#1 4000:attempt-sent#2 4000:operation-started#2 \
             6000:operation-committed#2 6000:stored-result-expired#2 6050:response-delivered#2",
        ),
        (
            // Expiry at 4000 is handled before the send at 4000.
            "--retention-ms 2000",
            "0:attempt-sent#1 0:operation-started#1 2000:operation-committed#1 2050:response-lost#1 \
             3000:attempt-timed-out#1 4000:stored-result-expired#1 4000:attempt-sent#2 4000:operation-started#2 \
             6000:operation-committed#2 6050:response-delivered#2",
        ),
        (
            // Expiry at 4001 falls inside the run (ends 4050); the one at 62000 would not.
            "--retention-ms 2001",
            "0:attempt-sent#1 0:operation-started#1 2000:operation-committed#1 2050:response-lost#1 \
             3000:attempt-timed-out#1 4000:attempt-sent#2 4000:dedup-replayed#2 4001:stored-result-expired#1 \
             4050:response-delivered#2",
        ),
        (
            // The original attempt is answered first, then the joined one.
            "--fault none --timeout-ms 1000 --exec-ms 2500",
            "0:attempt-sent#1 0:operation-started#1 1000:attempt-timed-out#1 2000:attempt-sent#2 \
             2000:dedup-joined#2 2500:operation-committed#1 2550:response-late#1 2550:response-delivered#2",
        ),
        (
            // Attempt 2 is sent and arrives at 2000, the instant attempt 1's
            // operation commits: sends and arrivals come before commits, so it joins.
            "--fault none --timeout-ms 1000",
            "0:attempt-sent#1 0:operation-started#1 1000:attempt-timed-out#1 2000:attempt-sent#2 \
             2000:dedup-joined#2 2000:operation-committed#1 2050:response-late#1 2050:response-delivered#2",
        ),
        (
            // A 503's deadline at 3000 is not an event: the attempt was decided at 50.
            "--fault first-503",
            "0:attempt-sent#1 0:request-unavailable#1 50:response-delivered#1 1050:attempt-sent#2 \
             1050:operation-started#2 3050:operation-committed#2 3100:response-delivered#2",
        ),
        ("--fault reject-400", "0:attempt-sent#1 0:request-rejected#1 50:response-delivered#1"),
        (
            "--fault none --response-transit-ms 0",
            "0:attempt-sent#1 0:operation-started#1 2000:operation-committed#1 2000:response-delivered#1",
        ),
    ];
    for (flags, expected) in table {
        let expected: String = expected.split_whitespace().collect::<Vec<_>>().join(" ");
        assert_eq!(timeline(&run(flags)), expected, "[{flags}]");
    }
}

#[test]
fn jittered_send_times_follow_van_der_corput() {
    let run = run("--fault lose-all --dedup off --jitter full --max-attempts 4");
    let sends: Vec<u64> = run.records().iter().filter(|r| r.kind() == "attempt-sent").map(|r| r.t.ms()).collect();
    assert_eq!(sends, vec![0, 3500, 7000, 13000]);
}

#[test]
fn keys_follow_the_key_mode() {
    let keys = |flags| {
        run(flags)
            .records()
            .iter()
            .filter_map(|r| r.key.map(|k| k.to_string()))
            .collect::<std::collections::BTreeSet<_>>()
    };
    assert_eq!(keys("").into_iter().collect::<Vec<_>>(), vec!["intent-1"]);
    assert_eq!(keys("--key per-attempt").into_iter().collect::<Vec<_>>(), vec!["attempt-1", "attempt-2"]);
}

#[test]
fn mirror_of_the_opening_run_midway() {
    let run = run("");
    assert_eq!(
        text_mirror(&run, Millis(1000)),
        "Model time: 1.00 s (the run ends at 4.05 s)
Client: waiting for attempt 1 (key intent-1) to be answered; it times out at 3.00 s.
Server: attempt 1's operation (key intent-1) has been running since 0.00 s and commits at 2.00 s.
Deduplication store: no stored results.
Network: nothing in transit.
Lost responses: none.
Ledger: no increments yet.
Committed counter: 0
Deduplication hits: 0
Attempts sent: 1 of at most 3
Late responses: 0
Latest event (0.00 s): Server reserves key intent-1 and starts attempt 1's operation; it commits at 2.00 s.
"
    );
    assert_eq!(
        text_mirror(&run, Millis(2050)),
        "Model time: 2.05 s (the run ends at 4.05 s)
Client: waiting for attempt 1 (key intent-1) to be answered; it times out at 3.00 s.
Server: no operation in flight.
Deduplication store: key intent-1 holds attempt 1's result (counter 1) until 62.00 s.
Network: nothing in transit.
Lost responses: attempt 1's success response vanished at 2.05 s.
Ledger: 1 increment: 2.00 s by attempt 1 (key intent-1).
Committed counter: 1
Deduplication hits: 0
Attempts sent: 1 of at most 3
Late responses: 0
Latest event (2.05 s): Attempt 1's success response is lost in the network; the client never sees it.
"
    );
}

#[test]
fn mirror_at_the_end_of_the_duplicate_run() {
    let run = run("--dedup off");
    assert_eq!(
        text_mirror(&run, run.end()),
        "Model time: 6.05 s (the run ends at 6.05 s)
Client: done; succeeded at 6.05 s.
Server: no operation in flight.
Deduplication: off; the server does not look at keys.
Network: nothing in transit.
Lost responses: attempt 1's success response vanished at 2.05 s.
Ledger: 2 increments: 2.00 s by attempt 1 (key intent-1); 6.00 s by attempt 2 (key intent-1).
Committed counter: 2
Deduplication hits: 0
Attempts sent: 2 of at most 3
Late responses: 0
Client outcome: succeeded at 6.05 s
Client and ledger disagree: the client reports one success, but the ledger holds 2 increments.
Latest event (6.05 s): Attempt 2's success response reaches the client: the client reports success.
"
    );
}

#[test]
fn mirror_shows_messages_in_transit_and_joined_attempts() {
    let run = run("--timeout-ms 1000 --exec-ms 2500 --request-transit-ms 10");
    // attempt 2 sent at 2000 arrives 2010 and joins; at 2005 its request is on the wire.
    let at_2005 = text_mirror(&run, Millis(2005));
    assert!(at_2005.contains("Network: in transit: attempt 2's request, arriving at 2.01 s."), "{at_2005}");
    let at_2100 = text_mirror(&run, Millis(2100));
    assert!(at_2100.contains("commits at 2.51 s; joined by attempt 2."), "{at_2100}");
    // At 2530 both success responses are on the wire; the first will be lost.
    let at_2530 = text_mirror(&run, Millis(2530));
    assert!(
        at_2530.contains(
            "Network: in transit: attempt 1's success response, which will be lost at 2.56 s; \
             attempt 2's success response, due at 2.56 s."
        ),
        "{at_2530}"
    );
}

#[test]
fn the_mirror_so_far_says_nothing_of_what_is_to_come() {
    // The same moment as above, for a reader whose future is hidden: the
    // response that will be lost is on its way like any other, the
    // operation runs without a word of when it commits, and the run's end
    // is unsaid.
    let run = run("--timeout-ms 1000 --exec-ms 2500 --request-transit-ms 10");
    let at_2100 = text_mirror_with(&run, Millis(2100), true);
    assert!(at_2100.starts_with("Model time: 2.10 s\n"), "{at_2100}");
    assert!(at_2100.contains("has been running since 0.01 s; joined by attempt 2."), "{at_2100}");
    let at_2530 = text_mirror_with(&run, Millis(2530), true);
    assert!(
        at_2530.contains(
            "Network: in transit: attempt 1's success response, due at 2.56 s; \
             attempt 2's success response, due at 2.56 s."
        ),
        "{at_2530}"
    );
    assert!(!at_2530.contains("lost") && !at_2530.contains("the run ends"), "{at_2530}");
}

#[test]
fn mirror_states_the_outcome_only_once_decided() {
    let run = run("--fault none --dedup off --timeout-ms 1000 --exec-ms 2500");
    assert!(!text_mirror(&run, Millis(5999)).contains("Client outcome:"));
    let at_6000 = text_mirror(&run, Millis(6000));
    assert!(at_6000.contains("Client outcome: exhausted at 6.00 s"), "{at_6000}");
    assert!(at_6000.contains("the ledger holds 2 increments"), "{at_6000}");
    // The third commit lands after the client gave up.
    assert!(text_mirror(&run, run.end()).contains("the ledger holds 3 increments"));
}

/// v1's summary plus everything v2 adds, for the v2 table.
fn summary_line_v2(run: &Run) -> String {
    let s = run.summary();
    let opt = |t: Option<Millis>| t.map_or("-".to_owned(), |t| t.ms().to_string());
    format!(
        "{} | conflicts={} refused={} unprocessable={} mismatched={} crash={} restart={} final={} by={}",
        summary_line(run),
        s.conflicts,
        s.refused,
        s.unprocessable,
        s.mismatched_hits,
        opt(s.crash_at),
        opt(s.restart_at),
        s.outcome.final_status().map_or("-".to_owned(), |c| c.to_string()),
        s.outcome.exhausted_by().map_or("-", |b| b.name()),
    )
}

fn check_table(table: &[(&str, &str, &str)], line: fn(&Run) -> String) {
    let mut failures = Vec::new();
    for (name, flags, expected) in table {
        let got = line(&run(flags));
        if got != *expected {
            failures.push(format!("{name} [{flags}]\n  expected {expected}\n  got      {got}"));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn v1_rows_an_audit_found_missing() {
    check_table(
        &[
            (
                "a late 400",
                "--fault reject-400 --timeout-ms 20",
                // 400s sent at 0, 1020, 3040 arrive 50 ms later, each after its
                // attempt's deadline (20, 1040, 3060): all three are late.
                "exhausted@3060 ack=- end=3090 committed=0 hits=0 attempts=3 lost=0 late=3",
            ),
            (
                "a late 503",
                "--fault first-503 --timeout-ms 20",
                // 503 at 0 lands at 50, after the deadline at 20; attempt 2 at
                // 1020 commits at 3020 (answer 3070, late: deadline 1040);
                // attempt 3 at 3040 is replayed (answer 3090, late: deadline 3060).
                "exhausted@3060 ack=- end=3090 committed=1 hits=1 attempts=3 lost=0 late=3",
            ),
            (
                "an expiry exactly at the end",
                "--retention-ms 2050",
                // stored at 2000 until 4050; the replay at 4000 is inside it.
                "succeeded@4050 ack=4050 end=4050 committed=1 hits=1 attempts=2 lost=1 late=0",
            ),
            (
                "the opening settings with a 1 s timeout: the seed's 2.05 s",
                "--timeout-ms 1000",
                // attempt 2 at 2000 joins op 1 at its commit instant; the first
                // answer (to attempt 1) is the one lost; attempt 2's lands at 2050.
                "succeeded@2050 ack=2050 end=2050 committed=1 hits=1 attempts=2 lost=1 late=0",
            ),
            (
                "cap 0: retries go out at once",
                "--fault lose-all --dedup off --backoff-cap-ms 0",
                // sends 0, 3000, 6000; commits 2000, 5000, 8000; exhausted at 9000
                "exhausted@9000 ack=- end=9000 committed=3 hits=0 attempts=3 lost=3 late=0",
            ),
            (
                "initial delay 0",
                "--initial-delay-ms 0",
                // timeout at 3000, retry at 3000 is replayed, answer 3050
                "succeeded@3050 ack=3050 end=3050 committed=1 hits=1 attempts=2 lost=1 late=0",
            ),
            (
                "a request in transit keeps the run going, not only the client",
                "--fault none --timeout-ms 100 --request-transit-ms 500 --max-attempts 1",
                // exhausted at 100; the request lands at 500 and commits at 2500
                "exhausted@100 ack=- end=2550 committed=1 hits=0 attempts=1 lost=0 late=1",
            ),
            (
                "the README's short-timeout example with the default three attempts",
                "--fault none --timeout-ms 100 --request-transit-ms 500",
                // sends 0, 1100, 3200 (deadlines 100, 1200, 3300); arrivals 500
                // (starts), 1600 (joins), 3700 (replayed, answer 3750)
                "exhausted@3300 ack=- end=3750 committed=1 hits=2 attempts=3 lost=0 late=3",
            ),
        ],
        summary_line,
    );
}

#[test]
fn v2_worked_examples_and_more() {
    check_table(
        &[
            (
                "1: crash after the effect, in-memory store",
                "--fault none --crash after-effect",
                "succeeded@6050 ack=6050 end=6050 committed=2 hits=0 attempts=2 lost=0 late=0 \
                 | conflicts=0 refused=0 unprocessable=0 mismatched=0 crash=2000 restart=3000 final=- by=-",
            ),
            (
                "2: the same with a durable atomic store",
                "--fault none --crash after-effect --store durable-atomic",
                "succeeded@4050 ack=4050 end=4050 committed=1 hits=1 attempts=2 lost=0 late=0 \
                 | conflicts=0 refused=0 unprocessable=0 mismatched=0 crash=2000 restart=3000 final=- by=-",
            ),
            (
                "3: durable separate store: an orphaned reservation for 24 hours",
                "--fault none --crash after-effect --store durable-separate",
                // attempts 2 (4000) and 3 (9000) join the dead operation
                "exhausted@12000 ack=- end=12000 committed=1 hits=2 attempts=3 lost=0 late=0 \
                 | conflicts=0 refused=0 unprocessable=0 mismatched=0 crash=2000 restart=3000 final=- by=attempts",
            ),
            (
                "3: with a 5 s lease",
                "--fault none --crash after-effect --store durable-separate --lease-ms 5000",
                // attempt 2 joins at 4000; the lease ends at 5000; attempt 3 at
                // 9000 reserves afresh, commits 11000, answered 11050
                "succeeded@11050 ack=11050 end=11050 committed=2 hits=1 attempts=3 lost=0 late=0 \
                 | conflicts=0 refused=0 unprocessable=0 mismatched=0 crash=2000 restart=3000 final=- by=-",
            ),
            (
                "4: crash after the record, in-memory",
                "--fault none --crash after-record",
                "succeeded@6050 ack=6050 end=6050 committed=2 hits=0 attempts=2 lost=0 late=0 \
                 | conflicts=0 refused=0 unprocessable=0 mismatched=0 crash=2000 restart=3000 final=- by=-",
            ),
            (
                "4: crash after the record, durable separate",
                "--fault none --crash after-record --store durable-separate",
                "succeeded@4050 ack=4050 end=4050 committed=1 hits=1 attempts=2 lost=0 late=0 \
                 | conflicts=0 refused=0 unprocessable=0 mismatched=0 crash=2000 restart=3000 final=- by=-",
            ),
            (
                "5: a changed payload gets 422",
                "--payload changed",
                "rejected@4050 ack=- end=4050 committed=1 hits=0 attempts=2 lost=1 late=0 \
                 | conflicts=0 refused=0 unprocessable=1 mismatched=0 crash=- restart=- final=422 by=-",
            ),
            (
                "5: without the fingerprint check, a mismatched hit",
                "--payload changed --fingerprint off",
                "succeeded@4050 ack=4050 end=4050 committed=1 hits=1 attempts=2 lost=1 late=0 \
                 | conflicts=0 refused=0 unprocessable=0 mismatched=1 crash=- restart=- final=- by=-",
            ),
            (
                "6: 409 for a duplicate in flight",
                "--fault none --timeout-ms 1000 --in-flight reject-409",
                // 409 at 2000 lands 2050 (retry at 4050); op 1's answer is late
                "succeeded@4100 ack=4100 end=4100 committed=1 hits=1 attempts=3 lost=0 late=1 \
                 | conflicts=1 refused=0 unprocessable=0 mismatched=0 crash=- restart=- final=- by=-",
            ),
            (
                "6: with join, as in the seed",
                "--fault none --timeout-ms 1000",
                "succeeded@2050 ack=2050 end=2050 committed=1 hits=1 attempts=2 lost=0 late=1 \
                 | conflicts=0 refused=0 unprocessable=0 mismatched=0 crash=- restart=- final=- by=-",
            ),
            (
                "7: an overall deadline",
                "--fault lose-all --deadline-ms 5000",
                // attempt 2's deadline is min(7000, 5000); the next send (7000) is too late
                "exhausted@5000 ack=- end=5000 committed=1 hits=1 attempts=2 lost=2 late=0 \
                 | conflicts=0 refused=0 unprocessable=0 mismatched=0 crash=- restart=- final=- by=deadline",
            ),
            (
                "8: a lease shorter than the work duplicates it with no fault",
                "--fault none --timeout-ms 1000 --lease-ms 1500",
                "succeeded@5050 ack=5050 end=5050 committed=2 hits=1 attempts=3 lost=0 late=2 \
                 | conflicts=0 refused=0 unprocessable=0 mismatched=0 crash=- restart=- final=- by=-",
            ),
            (
                "a request refused while the server is down; the restart ends the run",
                "--fault none --crash before-commit --timeout-ms 500 --restart-ms 3000",
                // attempt 2 (1500) joins op 1; the crash at 2000 kills it; attempt
                // 3 at 4000 is refused (answer 4050): out of attempts; restart 5000
                "exhausted@4050 ack=- end=5000 committed=0 hits=1 attempts=3 lost=0 late=0 \
                 | conflicts=0 refused=1 unprocessable=0 mismatched=0 crash=2000 restart=5000 final=- by=attempts",
            ),
        ],
        summary_line_v2,
    );
}

#[test]
fn v2_event_orders() {
    let table: &[(&str, &str)] = &[
        (
            // Example 8: the lease marker at 1500 comes before anything else;
            // attempt 2 arrives before op 1's commit at the same instant and
            // reserves afresh.
            "--fault none --timeout-ms 1000 --lease-ms 1500",
            "0:attempt-sent#1 0:operation-started#1 1000:attempt-timed-out#1 1500:lease-ended#1 \
             2000:attempt-sent#2 2000:operation-started#2 2000:operation-committed#1 2050:response-late#1 \
             3000:attempt-timed-out#2 3500:lease-ended#2 4000:operation-committed#2 4050:response-late#2 \
             5000:attempt-sent#3 5000:dedup-replayed#3 5050:response-delivered#3",
        ),
        (
            // The restart (class 3) comes before the deadline (class 6) at 3000.
            "--fault none --crash after-effect",
            "0:attempt-sent#1 0:operation-started#1 2000:server-crashed#1 3000:server-restarted#0 \
             3000:attempt-timed-out#1 4000:attempt-sent#2 4000:operation-started#2 \
             6000:operation-committed#2 6050:response-delivered#2",
        ),
        (
            // An expiry exactly at the end is inside the run, before the answer.
            "--retention-ms 2050",
            "0:attempt-sent#1 0:operation-started#1 2000:operation-committed#1 2050:response-lost#1 \
             3000:attempt-timed-out#1 4000:attempt-sent#2 4000:dedup-replayed#2 4050:stored-result-expired#1 \
             4050:response-delivered#2",
        ),
        (
            // Example 6: the 409 (scheduled first) lands before the late success.
            "--fault none --timeout-ms 1000 --in-flight reject-409",
            "0:attempt-sent#1 0:operation-started#1 1000:attempt-timed-out#1 2000:attempt-sent#2 \
             2000:in-flight-conflict#2 2000:operation-committed#1 2050:response-delivered#2 2050:response-late#1 \
             4050:attempt-sent#3 4050:dedup-replayed#3 4100:response-delivered#3",
        ),
    ];
    for (flags, expected) in table {
        let expected: String = expected.split_whitespace().collect::<Vec<_>>().join(" ");
        assert_eq!(timeline(&run(flags)), expected, "[{flags}]");
    }
}

#[test]
fn operations_in_flight_stay_oldest_first() {
    // Regression: committing the oldest of three operations used to swap the
    // newest into its place. Ops run 0-5000, 1000-6000 and 2000-7000.
    let run = run("--fault none --dedup off --timeout-ms 1000 --exec-ms 5000 --initial-delay-ms 0");
    let mirror = text_mirror(&run, Millis(5500));
    let second = mirror.find("attempt 2's operation").expect("attempt 2 still runs");
    let third = mirror.find("attempt 3's operation").expect("attempt 3 still runs");
    assert!(second < third, "{mirror}");
}

#[test]
fn times_that_are_not_whole_hundredths_show_milliseconds() {
    let run = run("--fault none --timeout-ms 2049");
    let mirror = text_mirror(&run, run.end());
    assert!(mirror.contains("Model time: 3.099 s"), "{mirror}");
    let first = idempotency_lab::view::ack::sentence(&run.records()[0]);
    assert!(first.ends_with("it times out at 2.049 s unless answered."), "{first}");
}

#[test]
fn giving_up_says_the_intent_is_kept_for_reconciliation() {
    let run = run("--fault lose-all");
    let mirror = text_mirror(&run, run.end());
    assert!(mirror.contains("the intent is kept for reconciliation"), "{mirror}");
    assert!(mirror.contains("Client outcome: exhausted at 12.00 s (out of attempts)"), "{mirror}");
    let last = idempotency_lab::view::ack::sentence(run.records().last().unwrap());
    assert!(last.contains("kept for reconciliation"), "{last}");
}

#[test]
fn the_mirror_says_what_v2_draws() {
    // Example 3: the orphaned reservation, and the attempts stranded on it.
    let r = run("--fault none --crash after-effect --store durable-separate");
    let at_2500 = text_mirror(&r, Millis(2500));
    assert!(at_2500.contains("Server: down since the crash at 2.00 s; it restarts at 3.00 s"), "{at_2500}");
    assert!(at_2500.contains("which died in the crash; the orphaned reservation blocks the key"), "{at_2500}");
    let at_5000 = text_mirror(&r, Millis(5000));
    assert!(at_5000.contains("attempt 2 joined an operation that died in the crash"), "{at_5000}");
    // Example 5 without the fingerprint check: payloads named everywhere.
    let r = run("--payload changed --fingerprint off");
    let end = text_mirror(&r, r.end());
    assert!(end.contains("Ledger: 1 increment: 2.00 s by attempt 1 (key intent-1, payload A)."), "{end}");
    assert!(end.contains("Mismatched hits: 1"), "{end}");
    assert!(end.contains("believes its payload B was applied"), "{end}");
}
