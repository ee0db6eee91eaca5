//! The explorer: every schedule of at most two aimed faults. With every
//! pattern on, no preset breaks under any of them; with one pattern off,
//! the shortest schedule that breaks the check it protects, replayed as an
//! ordinary run, breaks it too, and holds it with the pattern on.

use idempotency_lab::cli::main_with;
use idempotency_lab::sim::ParamDef;
use idempotency_lab::sim::risk::explore::{Exploration, Schedule, explore, schedules};
use idempotency_lab::sim::risk::settings::{BURST_CALLS, MODE, PRESET, Preset};
use idempotency_lab::sim::risk::{CheckName, Pattern, Run, Settings};
use idempotency_lab::view::risk::patterns::{protects, show_me};

fn cli(args: &[String]) -> (i32, String) {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let status = main_with(args, &mut out, &mut err);
    (status, String::from_utf8_lossy(&out).into_owned() + &String::from_utf8_lossy(&err))
}

/// Every check that some schedule broke, with the shortest that did.
fn broken(e: &Exploration) -> Vec<(CheckName, Option<Schedule>)> {
    e.checks.iter().filter(|b| b.broken > 0).map(|b| (b.check, b.shortest.clone())).collect()
}

/// Explores every schedule of at most two faults over each preset, with
/// every pattern on: nothing breaks.
fn nothing_breaks(presets: &[Preset], extra: &[(&'static ParamDef, &str)]) {
    // 2 x (1 + 37 + 618) schedules: see the unit test of `schedules`.
    assert_eq!(schedules(2).len(), 1_312);
    for preset in presets {
        let mut pairs = vec![(PRESET.def(), preset.value()), (MODE.def(), "patterns")];
        pairs.extend_from_slice(extra);
        let base = Settings::from_pairs(&pairs).unwrap();
        let e = explore(&base, 2, |_, _| true);
        assert_eq!((e.explored, e.failed), (1_312, 0), "{preset:?}: every run reaches its horizon");
        // Many schedules leave the same records (a fault aimed at a call the
        // run never makes changes nothing).
        assert!(e.distinct > 1 && e.distinct < e.explored, "{preset:?}: {}", e.distinct);
        assert!(broken(&e).is_empty(), "{preset:?}: {:?}", broken(&e));
    }
}

#[test]
fn with_every_pattern_on_no_two_faults_break_a_small_preset() {
    let small: Vec<Preset> = Preset::ALL
        .into_iter()
        .filter(|p| !matches!(p, Preset::Overload | Preset::WideFleet | Preset::SlowFleet | Preset::SlowingDownstream))
        .collect();
    assert_eq!(small.len(), 17);
    nothing_breaks(&small, &[]);
}

#[test]
fn with_every_pattern_on_no_two_faults_break_the_bursts() {
    nothing_breaks(&[Preset::Overload, Preset::SlowingDownstream], &[]);
}

#[test]
fn with_every_pattern_on_no_two_faults_break_the_slow_fleet() {
    nothing_breaks(&[Preset::SlowFleet], &[]);
}

#[test]
fn with_every_pattern_on_no_two_faults_break_the_wide_fleet() {
    // The wide fleet's 1 280 calls, 1 102 times over, are slow in a debug
    // build; 300 of them still outnumber the fleet's quota of 100 threefold,
    // and fill and overflow its queues.
    nothing_breaks(&[Preset::WideFleet], &[(BURST_CALLS.def(), "300")]);
}

/// The flags of `pairs` but their faults, as the command line spells them.
fn flags(pairs: &[(&'static ParamDef, &str)]) -> Vec<String> {
    pairs
        .iter()
        .filter(|(param, _)| param.name != "faults")
        .flat_map(|(param, value)| [param.flag.to_owned(), (*value).to_owned()])
        .collect()
}

/// `check`'s verdict in the JSON of `risk` run with `args` and `schedule`.
fn replayed(args: &[String], schedule: &Schedule, check: CheckName) -> serde_json::Value {
    let mut all: Vec<String> = vec!["risk".to_owned(), "--format".to_owned(), "json".to_owned()];
    all.extend_from_slice(args);
    let faults = schedule.fault_texts();
    if faults.is_empty() {
        all.extend(["--fault".to_owned(), "none".to_owned()]);
    }
    for f in faults {
        all.extend(["--fault".to_owned(), f]);
    }
    all.extend(["--worker-order".to_owned(), schedule.order.value().to_owned()]);
    let (status, out) = cli(&all);
    assert_eq!(status, 0, "{out}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    doc["checks"].as_array().unwrap().iter().find(|c| c["name"] == check.name()).unwrap()["holds"].clone()
}

/// The table of the acceptance: for every pattern, its Show me run
/// holds the check the pattern protects and fails it with that pattern
/// alone off; and explore's shortest schedule (at most two faults) that
/// breaks it with the pattern off, replayed with `risk --fault`, fails it
/// with the pattern off and holds it with the pattern on.
#[test]
fn every_pattern_alone_off_fails_its_check_in_its_show_me_run_and_in_the_shortest_schedule() {
    // Explore's shortest schedule is the first that breaks the check in its
    // order, fewest faults first; the schedules of at most one fault are
    // the first of those of at most two, so exploring 0, then 1, then 2
    // faults, and stopping at the first that breaks it, finds the schedule
    // `explore --max-faults 2` names, without running the wide fleet 1 102
    // times.
    assert_eq!(schedules(1)[..], schedules(2)[..schedules(1).len()]);
    assert_eq!(schedules(0)[..], schedules(1)[..schedules(0).len()]);
    let mut found = Vec::new();
    for pattern in Pattern::ALL {
        let check = protects(pattern);
        let verdict = |pairs: &[(&'static ParamDef, &str)]| {
            let run = Run::simulate(&Settings::from_pairs(pairs).unwrap()).unwrap();
            run.checks().into_iter().find(|c| c.name == check).and_then(|c| c.holds)
        };
        let on: Vec<(&'static ParamDef, &str)> = show_me(pattern).to_vec();
        let mut off = on.clone();
        off.push((pattern.param(), "off"));
        assert_ne!(verdict(&on), Some(false), "{pattern:?} on, its Show me");
        assert_eq!(verdict(&off), Some(false), "{pattern:?} off, its Show me");
        let base = Settings::from_pairs(&off).unwrap();
        let schedule = (0..=2)
            .find_map(|k| {
                let e = explore(&base, k, |_, _| true);
                e.checks.iter().find(|b| b.check == check && b.broken > 0).and_then(|b| b.shortest.clone())
            })
            .unwrap_or_else(|| panic!("{pattern:?}: no schedule of at most two faults breaks {check:?}"));
        // Replayed with the command line's own flags: the schedule's faults
        // take the place of the Show me run's.
        assert_eq!(replayed(&flags(&off), &schedule, check), false, "{pattern:?} off, replayed {schedule:?}");
        assert_ne!(replayed(&flags(&on), &schedule, check), false, "{pattern:?} on, replayed {schedule:?}");
        found.push((pattern, schedule.fault_texts().join(","), schedule.order.value()));
    }
    // The schedules, worked out by hand: with nothing aimed, the scripts of
    // same-business-key (a second click), forged-order (another user's
    // order), wide-fleet (the burst, for both gates) and slow-fleet (the
    // stream of creates slower than their budget) break their checks alone.
    // The others need their preset's fault back, the first in the
    // alphabet's order that breaks the check: the incident's and
    // lost-create-response's lost answer, not-found-resend's lost request
    // (a lost answer is found by the probe, and nothing is claimed),
    // probe-races-create's slow create (the first fault after which a
    // probe can hear "not found" of a create that is still performed), and
    // replica-pause's pause. The unique request_key needs two: the first
    // copy delayed 2 s, so that the other copy's create is rejected first
    // and closes the generation the late copy would have met.
    let expected = [
        (Pattern::UniqueRequestKey, "business-rejection@1,call-delayed@1"),
        (Pattern::UniqueBusinessKey, ""),
        (Pattern::TimeoutIsUnknown, "create-response-lost@1"),
        (Pattern::IdempotentCreate, "downstream-slow@1"),
        (Pattern::FindByKey, "create-response-lost@1"),
        (Pattern::Cas, "create-request-lost@1"),
        (Pattern::Authorize, ""),
        (Pattern::Gates, ""),
        (Pattern::GlobalGate, ""),
        (Pattern::DownstreamLimit, ""),
        (Pattern::DeadlinePropagation, "replica-pause@1"),
        // The protocol and identity designs: each preset's script is its
        // break (an invalid argument thrown, a user_id naming another user,
        // an extra argument, a create that carries the caller's token, a
        // timed-out call retried at once).
        (Pattern::ErrorResults, ""),
        (Pattern::SubjectFromToken, ""),
        (Pattern::StrictSchema, ""),
        (Pattern::OwnCredential, ""),
        (Pattern::RetryPolicy, ""),
    ];
    let expected: Vec<(Pattern, String, &str)> =
        expected.iter().map(|&(p, faults)| (p, faults.to_owned(), "w1-first")).collect();
    assert_eq!(found, expected);
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
    // 2 x (1 + 37) schedules of at most one fault.
    assert_eq!(doc["explored"], 76);
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
