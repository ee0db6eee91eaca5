//! The first lab's explorer, counted by hand from MODEL.md's rules over the
//! defaults (timeout 3 s, execution 2 s, three attempts, first retry delay
//! 1 s, responses 50 ms, restart 1 s, in-memory store), with no response
//! fault of the settings' own.

use idempotency_lab::cli::main_with;
use idempotency_lab::sim::ack::checks::CheckName;
use idempotency_lab::sim::ack::explore::{alphabet, explore};
use idempotency_lab::sim::ack::settings::{DEDUP, FAULT, STORE};
use idempotency_lab::sim::ack::{Run, Settings};

fn cli(args: &str) -> (i32, String) {
    let args: Vec<String> = args.split_whitespace().map(str::to_owned).collect();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let status = main_with(&args, &mut out, &mut err);
    (status, String::from_utf8_lossy(&out).into_owned() + &String::from_utf8_lossy(&err))
}

#[test]
fn deduplication_off_one_fault_doubles_the_counter_three_ways() {
    let base = Settings::from_pairs(&[(DEDUP.def(), "off"), (FAULT.def(), "none")]).unwrap();
    // Six kinds aimed at each of three attempts.
    assert_eq!(alphabet(&base).len(), 18);
    let e = explore(&base, 1, |_, _| true);
    // No fault, and each of the 18 alone.
    assert_eq!(e.explored, 19);
    // Attempt 2 and 3 are never sent unless attempt 1 fails, and one fault
    // aimed at attempt 1 is all there is: the 12 faults aimed at them leave
    // the fault-free run's records. That run plus the six aimed at attempt 1.
    assert_eq!(e.distinct, 7);
    // Every run reached its end.
    assert_eq!(e.failed, 0);
    // Attempt 1's success lost at 2.05 s: attempt 2 at 4.00 s executes
    // again (6.00 s). A crash after the effect, or after the (unkept)
    // record: the increment stays, the server is back at 3.00 s, attempt 2
    // executes again. Each time the client reports one success over two
    // increments. Losing the request, a 503 or a crash before the effect
    // leave one increment.
    let by = |name| e.checks.iter().find(|b| b.check == name).unwrap();
    assert_eq!(by(CheckName::CommittedAtMostOnce).broken, 3);
    assert_eq!(by(CheckName::StatusAgreesWithLedger).broken, 3);
    assert_eq!(by(CheckName::NoIncrementAfterGivingUp).broken, 0);
    let shortest = by(CheckName::CommittedAtMostOnce).shortest.clone().unwrap();
    assert_eq!(shortest.fault_texts(), vec!["response-lost@1"]);
    // Replayed as an ordinary run: two increments, at 2.00 and 6.00 s.
    let run = Run::simulate(&shortest.settings(&base).unwrap()).unwrap();
    let times: Vec<u64> = run.ledger().iter().map(|e| e.t.ms()).collect();
    assert_eq!(times, vec![2000, 6000]);
}

#[test]
fn deduplication_on_an_in_memory_store_still_loses_to_a_crash_after_the_effect() {
    let base = Settings::from_pairs(&[(FAULT.def(), "none")]).unwrap();
    let e = explore(&base, 1, |_, _| true);
    let doubled = e.checks.iter().find(|b| b.check == CheckName::CommittedAtMostOnce).unwrap();
    // The crash wipes the reservation and the stored result; after-effect
    // and after-record both leave the increment and forget the key. A lost
    // response alone is replayed from the store.
    assert_eq!(doubled.broken, 2);
    assert_eq!(doubled.shortest.clone().unwrap().fault_texts(), vec!["crash-after-effect@1"]);
    // A store atomic with the effect survives every schedule of two faults.
    let atomic = Settings::from_pairs(&[(FAULT.def(), "none"), (STORE.def(), "durable-atomic")]).unwrap();
    let e = explore(&atomic, 2, |_, _| true);
    assert!(e.all_hold(), "{:?}", e.checks);
}

#[test]
fn the_command_line_explores_and_replays_the_simplest_schedule() {
    let (status, out) = cli("explore --lab ack --max-faults 1 --dedup off --fault none --format json");
    assert_eq!(status, 0, "{out}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["explored"], 19);
    assert_eq!(doc["distinct"], 7);
    let once = doc["checks"].as_array().unwrap().iter().find(|c| c["name"] == "committed_at_most_once").unwrap();
    assert_eq!(once["broken"], 3);
    assert_eq!(once["shortest"]["faults"], serde_json::json!(["response-lost@1"]));
    let link = once["shortest"]["link"].as_str().unwrap();
    assert!(link.contains("faults=response-lost%401") || link.contains("faults=response-lost@1"), "{link}");
    // `run --faults` replays it: the client succeeds, the ledger counts two.
    let (status, out) = cli("run --dedup off --fault none --faults response-lost@1 --format json");
    assert_eq!(status, 0, "{out}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["outcome"], "succeeded", "{doc}");
    assert_eq!(doc["committed"], 2, "{doc}");
    // What it teaches, in words.
    let (_, text) = cli("explore --lab ack --max-faults 2 --fault none --store durable-atomic");
    assert!(text.contains("No schedule of at most 2 faults breaks an invariant"), "{text}");
    // A wrong value says what is allowed.
    let (status, text) = cli("explore --lab storms");
    assert_eq!(status, 2);
    assert!(text.contains("ack or risk"), "{text}");
    let (status, text) = cli("run --faults response-lost@11");
    assert_eq!(status, 2);
    assert!(text.contains("--faults"), "{text}");
}
