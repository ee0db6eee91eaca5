//! The explorer: every schedule of at most two aimed faults. With every
//! pattern on, the incident survives them all; with one pattern off, some
//! schedule breaks the check it protects, and replaying that schedule as an
//! ordinary run breaks it too.

use idempotency_lab::cli::main_with;
use idempotency_lab::sim::ParamDef;
use idempotency_lab::sim::risk::explore::explore;
use idempotency_lab::sim::risk::settings::{BURST_CALLS, UNIQUE_BUSINESS_KEY};
use idempotency_lab::sim::risk::{Pattern, Settings};
use idempotency_lab::view::risk::patterns::{protects, show_me};

fn cli(args: &[String]) -> (i32, String) {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let status = main_with(args, &mut out, &mut err);
    (status, String::from_utf8_lossy(&out).into_owned() + &String::from_utf8_lossy(&err))
}

#[test]
fn with_every_pattern_on_no_two_faults_break_the_incident() {
    let base = super::settings("--preset incident --mode patterns");
    let e = explore(&base, 2, |_, _| true);
    // 2 x (1 + 22 + 213) schedules, see the unit test of `schedules`.
    assert_eq!(e.explored, 472);
    assert_eq!(e.failed, 0, "every run reaches its horizon");
    // Many schedules leave the same records (a fault aimed at a call the run
    // never makes changes nothing).
    assert!(e.distinct > 1 && e.distinct < e.explored, "{}", e.distinct);
    let broken: Vec<_> = e.checks.iter().filter(|b| b.broken > 0).map(|b| (b.check, b.shortest.clone())).collect();
    assert!(broken.is_empty(), "{broken:?}");
}

#[test]
fn with_a_pattern_off_the_simplest_breaking_schedule_replays_as_a_run() {
    for pattern in Pattern::ALL {
        // The run that shows the pattern at work, with the pattern off.
        let mut pairs: Vec<(&'static ParamDef, &str)> = show_me(pattern).to_vec();
        pairs.push((pattern.param(), "off"));
        // The wide fleet's 1 280 calls, 472 times over, are slow in a debug
        // build; 300 of them still outnumber the Risk API's 100 threefold.
        if pattern == Pattern::GlobalGate {
            pairs.push((BURST_CALLS.def(), "300"));
        }
        // The unique request_key alone catches a copy only once a business
        // rejection has moved the order to its next generation, and the
        // alphabet holds no business answers, only the faults of the
        // infrastructure: explore it with the business key off too, where
        // a duplicated call needs no fault at all to make two rows.
        if pattern == Pattern::UniqueRequestKey {
            pairs.retain(|(param, _)| param.name != "faults");
            pairs.push((UNIQUE_BUSINESS_KEY.def(), "off"));
        }
        let base = Settings::from_pairs(&pairs).unwrap();
        let e = explore(&base, 2, |_, _| true);
        let check = protects(pattern);
        let found = e.checks.iter().find(|b| b.check == check).unwrap();
        assert!(found.broken > 0, "{pattern:?}: nothing breaks {check:?}");
        let schedule = found.shortest.clone().unwrap();
        // Replayed with the command line's own flags.
        let mut args: Vec<String> = vec!["risk".to_owned(), "--format".to_owned(), "json".to_owned()];
        for (param, value) in &pairs {
            args.extend([param.flag.to_owned(), (*value).to_owned()]);
        }
        let faults = schedule.fault_texts();
        if faults.is_empty() {
            args.extend(["--fault".to_owned(), "none".to_owned()]);
        }
        for f in faults {
            args.extend(["--fault".to_owned(), f]);
        }
        args.extend(["--worker-order".to_owned(), schedule.order.value().to_owned()]);
        let (status, out) = cli(&args);
        assert_eq!(status, 0, "{out}");
        let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
        let verdict = doc["checks"].as_array().unwrap().iter().find(|c| c["name"] == check.name()).unwrap();
        assert_eq!(verdict["holds"], false, "{pattern:?} replayed with {args:?}");
    }
}

#[test]
fn the_command_line_explores_and_links_the_simplest_schedule() {
    let args: Vec<String> =
        "explore --lab risk --max-faults 1 --preset lost-create-response --mode patterns --find-by-key off --format json"
            .split_whitespace()
            .map(str::to_owned)
            .collect();
    let (status, out) = cli(&args);
    assert_eq!(status, 0, "{out}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    // 2 x (1 + 22) schedules of at most one fault.
    assert_eq!(doc["explored"], 46);
    let stalled = doc["checks"].as_array().unwrap().iter().find(|c| c["name"] == "unknown_resolved").unwrap();
    assert!(stalled["broken"].as_u64().unwrap() > 0);
    // The preset's own lost response is replaced by the schedule's faults:
    // the simplest break needs one (with none, no row is ever UNKNOWN).
    let link = stalled["shortest"]["link"].as_str().unwrap();
    assert!(link.starts_with("?lab=risk&") && link.contains("fault="), "{link}");
    let (status, out) = cli(&["explore".to_owned(), "--lab".to_owned(), "storms".to_owned()]);
    assert_eq!(status, 2);
    assert!(out.contains("--lab") && out.contains("risk"), "{out}");
}

#[test]
fn a_flipped_tie_goes_against_the_race_order() {
    use idempotency_lab::sim::risk::Run;
    let records = |flags: &str| Run::simulate(&super::settings(flags)).unwrap().records().to_vec();
    // The incident's lost response leaves a row UNKNOWN. The workers wake
    // together at every scan, each wake a tie; the first two find nothing
    // due, so their order changes nothing. The third (3.001 s) finds the
    // row: flipped, worker 2 probes first and resolves it, as in the other
    // race order.
    let lost = "--preset incident --mode patterns --fault create-response-lost@1";
    let base = records(lost);
    for n in [1, 2] {
        assert_eq!(base, records(&format!("{lost},tie-flipped@{n}")), "tie {n}");
    }
    let flipped = records(&format!("{lost},tie-flipped@3"));
    assert_ne!(base, flipped);
    assert_eq!(flipped, records(&format!("{lost} --worker-order w2-first")));
    // A tie the run never meets changes nothing.
    assert_eq!(base, records(&format!("{lost},tie-flipped@999")));
}
