//! `idempotency-lab storm` as a user runs it.

use std::process::{Command, Output};

use serde_json::Value;

fn cli(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_idempotency-lab")).args(args).output().expect("binary runs")
}

fn json(args: &[&str]) -> Value {
    let mut all = vec!["storm", "--format", "json"];
    all.extend_from_slice(args);
    let out = cli(&all);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("one JSON document")
}

#[test]
fn occ_runs_report_calls_time_and_their_means() {
    let doc = json(&["--workload", "occ", "--clients", "20", "--algorithm", "full", "--reps", "3"]);
    let runs = doc["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 3);
    for r in runs {
        assert!(r["calls"].as_u64().unwrap() >= 20, "every client writes once");
    }
    let mean = runs.iter().map(|r| r["calls"].as_f64().unwrap()).sum::<f64>() / 3.0;
    assert!((doc["mean_calls"].as_f64().unwrap() - mean).abs() < 1e-9);
    assert!(doc["mean_time_ms"].as_f64().unwrap() > 0.0);
}

#[test]
fn the_same_command_gives_the_same_json() {
    let a = cli(&["storm", "--format", "json", "--clients", "500", "--seed", "9"]);
    let b = cli(&["storm", "--format", "json", "--clients", "500", "--seed", "9"]);
    assert_eq!(a.stdout, b.stdout);
    let c = cli(&["storm", "--format", "json", "--clients", "500", "--seed", "10"]);
    assert_ne!(a.stdout, c.stdout, "the seed matters");
}

#[test]
fn overload_json_has_the_reported_figures() {
    let doc = json(&["--clients", "300"]);
    let run = &doc["runs"][0];
    for field in ["intents", "acknowledged", "exhausted", "operations", "wasted_operations", "duplicate_effects"] {
        assert!(run["totals"][field].is_u64(), "{field}");
    }
    for field in ["amplification", "latency_p50_ms", "latency_p99_ms", "capacity_per_s"] {
        assert!(run[field].is_number(), "{field}");
    }
    let law = &run["littles_law"];
    let l = law["mean_in_system"].as_f64().unwrap();
    assert!((l - law["rate_times_residence"].as_f64().unwrap()).abs() <= 1e-9 * l.max(1.0));
    let bucket = &run["series"][0];
    for field in ["intents", "queue", "in_flight", "completions", "rejected_429", "timeouts", "retries"] {
        assert!(bucket[field].is_number(), "{field}");
    }
}

#[test]
fn the_sweep_has_ninety_five_cells() {
    let doc = json(&["--sweep", "aws", "--reps", "1"]);
    let cells = doc["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 95);
    let first = &cells[0];
    let mut keys: Vec<&str> = first.as_object().unwrap().keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(keys, ["algorithm", "clients", "mean_calls", "mean_time_ms"]);
    assert_eq!((first["clients"].as_u64(), first["algorithm"].as_str()), (Some(10), Some("none")));
    assert_eq!((cells[94]["clients"].as_u64(), cells[94]["algorithm"].as_str()), (Some(190), Some("decorrelated")));
}

#[test]
fn each_workload_has_its_own_defaults_and_refuses_the_others_options() {
    // The contention workload's sweep sets its own clients: nothing of the
    // overload's 4 000 stands in its way.
    let doc = json(&["--workload", "occ", "--sweep", "aws", "--reps", "2"]);
    assert_eq!(doc["cells"].as_array().unwrap().len(), 95);
    // A run of it starts from the AWS experiment's values.
    let doc = json(&["--workload", "occ"]);
    assert_eq!(doc["settings"]["clients"], 100, "{}", doc["settings"]);
    assert_eq!(doc["settings"]["algorithm"], "full");
    // The overload's own stay as they were.
    let doc = json(&[]);
    assert_eq!(doc["settings"]["clients"], 4000);
    // An option only the other workload has is refused, naming both.
    let out = cli(&["storm", "--workload", "occ", "--rate", "100"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--rate") && err.contains("occ") && err.contains("--workload overload"), "{err}");
    let out = cli(&["storm", "--net-mean-us", "5"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--workload occ"));
}

#[test]
fn bad_input_is_refused_with_one_clear_line() {
    let cases: &[(&[&str], &[&str])] = &[
        (&["storm", "--clients", "0"], &["--clients", "0", "from 1 to 100000"]),
        (&["storm", "--clients", "100001"], &["--clients", "100001", "from 1 to 100000"]),
        (&["storm", "--rate", "-5"], &["--rate", "-5", "whole number"]),
        (&["storm", "--queue", "100001"], &["--queue", "100001", "from 0 to 100000"]),
        (
            &["storm", "--algorithm", "linear"],
            &["--algorithm", "linear", "none, exponential, full, equal, decorrelated"],
        ),
        (&["storm", "--seed", "9007199254740992"], &["--seed", "9007199254740992", "from 0 to 9007199254740991"]),
        (&["storm", "--seed", "-1"], &["--seed", "-1"]),
        (&["storm", "--reps", "0"], &["--reps", "0", "from 1 to 10000"]),
        (&["storm", "--sweep", "gcp"], &["--sweep", "gcp", "aws"]),
        (&["storm", "--workload", "chaos"], &["--workload", "chaos", "overload, occ"]),
        (&["storm", "--cap-ms", "1", "--base-ms", "10"], &["--cap-ms", "at least the backoff base"]),
        (&["storm", "--wat"], &["--wat", "--clients", "--reps", "--sweep"]),
        (
            &["storm", "--workload", "occ", "--clients", "5000"],
            &["--clients", "5000", "at most 1000 clients with the occ workload"],
        ),
    ];
    for (args, mentions) in cases {
        let out = cli(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(out.stdout.is_empty());
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        for m in *mentions {
            assert!(err.contains(m), "{args:?}: {err:?} should mention {m:?}");
        }
    }
}

mod hostile {
    use idempotency_lab::cli::main_with;
    use idempotency_lab::sim::params_file::parse_settings_json;
    use idempotency_lab::sim::storm::StormSettings;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

        #[test]
        fn any_storm_command_line_exits_cleanly(args in prop::collection::vec(
            prop_oneof![
                any::<String>(),
                prop::sample::select(vec!["--workload", "occ", "overload", "--clients", "--rate", "--queue",
                    "--algorithm", "full", "--seed", "--reps", "--sweep", "aws", "--budget", "grpc", "--format",
                    "json", "0", "1", "3", "-1", "1e9", "99999999999999999999", "--timeout-ms", "--spike",
                    "--cap-ms", "--base-ms", "--settings", "--at-ms"]).prop_map(str::to_owned),
            ],
            0..7,
        )) {
            // Keep every run small: a sweep and large client counts are
            // tried elsewhere.
            let mut args: Vec<String> = args.into_iter().filter(|a| a != "--sweep" && a != "--reps").collect();
            args.insert(0, "storm".to_owned());
            args.extend(["--clients".to_owned(), "50".to_owned()]);
            let (mut out, mut err) = (Vec::new(), Vec::new());
            let code = main_with(&args, &mut out, &mut err);
            prop_assert!(code == 0 || code == 2, "{code}");
            if code == 2 {
                let err = String::from_utf8(err).unwrap();
                prop_assert_eq!(err.lines().count(), 1, "{}", err);
                prop_assert!(err.contains("allowed"), "{}", err);
            }
        }

        #[test]
        fn storm_settings_files_are_accepted_or_refused_with_a_message(text in prop_oneof![
            any::<String>(),
            prop::collection::vec((
                prop::sample::select(vec!["clients", "rate_per_s", "queue", "seed", "algorithm", "budget", "workload", "bogus"]),
                prop::sample::select(vec!["0", "5", "-3", "1.5", "\"full\"", "\"occ\"", "true", "null", "[]", "9007199254740992"]),
            ), 0..6).prop_map(|pairs| {
                let body: Vec<String> = pairs.into_iter().map(|(k, v)| format!("\"{k}\": {v}")).collect();
                format!("{{{}}}", body.join(", "))
            }),
        ]) {
            if let Err(e) = parse_settings_json::<StormSettings>(&text) {
                prop_assert!(e.to_string().contains("allowed"), "{}", e);
            }
        }
    }
}
