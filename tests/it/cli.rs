//! The command line as a user or a script runs it: the real binary, its
//! output and its exit status.

use std::process::{Command, Output};

use serde_json::Value;

fn cli(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_idempotency-lab")).args(args).output().expect("binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("utf-8 stdout")
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("utf-8 stderr")
}

fn json(args: &[&str]) -> Value {
    let mut all = vec!["run", "--format", "json"];
    all.extend_from_slice(args);
    let out = cli(&all);
    assert!(out.status.success(), "{}", stderr(&out));
    serde_json::from_str(&stdout(&out)).expect("one JSON document")
}

#[test]
fn json_has_exactly_the_documented_fields() {
    let doc = json(&[]);
    let mut keys: Vec<&str> = doc.as_object().unwrap().keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "ack_ms",
            "attempts",
            "committed",
            "conflicts",
            "crash_at_ms",
            "dedup_hits",
            "end_ms",
            "events",
            "exhausted_by",
            "final_status",
            "late_responses",
            "ledger",
            "lost_responses",
            "mismatched_hits",
            "outcome",
            "outcome_ms",
            "refused",
            "restart_at_ms",
            "settings",
            "unprocessable"
        ]
    );
    assert_eq!(doc["outcome"], "succeeded");
    assert_eq!(doc["outcome_ms"], 4050);
    assert_eq!(doc["ack_ms"], 4050);
    assert_eq!(doc["end_ms"], 4050);
    assert_eq!(doc["committed"], 1);
    assert_eq!(doc["dedup_hits"], 1);
    assert_eq!(doc["ledger"], serde_json::json!([{"t_ms": 2000, "attempt": 1, "key": "intent-1", "payload": "A"}]));
    for null in ["crash_at_ms", "restart_at_ms", "final_status", "exhausted_by"] {
        assert!(doc[null].is_null(), "{null}");
    }
    let first = &doc["events"][0];
    let mut event_keys: Vec<&str> = first.as_object().unwrap().keys().map(String::as_str).collect();
    event_keys.sort_unstable();
    assert_eq!(event_keys, ["attempt", "key", "kind", "t_ms", "text"]);
    assert_eq!(first["kind"], "attempt-sent");
    assert!(first["text"].as_str().unwrap().starts_with("Client sends attempt 1"));
}

#[test]
fn json_settings_are_the_effective_settings() {
    let doc = json(&["--dedup", "off", "--timeout-ms=1234"]);
    assert_eq!(
        doc["settings"],
        serde_json::json!({
            "fault": "lose-first", "dedup": "off", "key": "stable", "retention_ms": 60000,
            "timeout_ms": 1234, "exec_ms": 2000, "max_attempts": 3, "initial_delay_ms": 1000,
            "backoff_cap_ms": 8000, "jitter": "off", "request_transit_ms": 0, "response_transit_ms": 50,
            "in_flight": "join", "payload": "same", "fingerprint": "on", "crash": "none", "restart_ms": 1000,
            "store": "in-memory", "lease_ms": 86400000, "deadline_ms": "off",
            "faults": "none"
        })
    );
}

#[test]
fn json_reports_what_v2_adds() {
    // MODEL.md v2 worked example 3 with a lease, and example 5.
    let doc =
        json(&["--fault", "none", "--crash", "after-effect", "--store", "durable-separate", "--lease-ms", "5000"]);
    assert_eq!((doc["crash_at_ms"].clone(), doc["restart_at_ms"].clone()), (2000.into(), 3000.into()));
    assert_eq!(doc["committed"], 2);
    let kinds: Vec<&str> = doc["events"].as_array().unwrap().iter().map(|e| e["kind"].as_str().unwrap()).collect();
    assert!(kinds.contains(&"server-crashed") && kinds.contains(&"lease-ended") && kinds.contains(&"server-restarted"));
    let doc = json(&["--payload", "changed"]);
    assert_eq!(doc["final_status"], 422);
    assert_eq!(doc["unprocessable"], 1);
    let doc = json(&["--fault", "lose-all", "--deadline-ms", "5000"]);
    assert_eq!(doc["exhausted_by"], "deadline");
    assert_eq!(doc["settings"]["deadline_ms"], 5000);
}

#[test]
fn ack_is_null_unless_succeeded() {
    let doc = json(&["--fault", "reject-400"]);
    assert_eq!(doc["outcome"], "rejected");
    assert!(doc["ack_ms"].is_null());
    assert_eq!(json(&["--fault", "lose-all"])["outcome"], "exhausted");
}

#[test]
fn text_shows_the_mirror_at_the_requested_time_then_every_event() {
    let out = cli(&["run", "--at-ms", "2050"]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.starts_with("Model time: 2.05 s (the run ends at 4.05 s)\n"), "{text}");
    assert!(text.contains("\nCommitted counter: 1\n"));
    assert!(!text.contains("Client outcome:"));
    let events = text.split_once("\nEvents:\n").expect("event list").1;
    assert_eq!(events.lines().count(), 8);
    assert!(events.lines().last().unwrap().contains("response-delivered"));
}

#[test]
fn text_defaults_to_the_end_of_the_run() {
    let text = stdout(&cli(&["run", "--dedup", "off"]));
    assert!(text.contains("Client outcome: succeeded at 6.05 s"));
    assert!(text.contains("Client and ledger disagree"));
}

/// Every refusal: status 2, nothing on stdout, one line on stderr that names
/// what was wrong and what is allowed.
#[test]
fn bad_input_is_refused_with_one_clear_line() {
    let cases: &[(&[&str], &[&str])] = &[
        (
            &["run", "--fault", "lose-some"],
            &["--fault", "lose-some", "none, lose-first, lose-all, first-503, reject-400"],
        ),
        (&["run", "--dedup", "maybe"], &["--dedup", "maybe", "on, off"]),
        (&["run", "--timeout-ms", "0"], &["--timeout-ms", "0", "from 1 to 600000"]),
        (&["run", "--retention-ms", "86400001"], &["--retention-ms", "86400001", "from 0 to 86400000"]),
        (&["run", "--max-attempts", "eleven"], &["--max-attempts", "eleven", "from 1 to 10"]),
        (&["run", "--exec-ms"], &["--exec-ms", "needs a value", "from 0 to 600000"]),
        (&["run", "--request-transit-ms", "-5"], &["--request-transit-ms", "-5", "from 0 to 60000"]),
        (&["run", "--wat"], &["--wat", "--fault", "--at-ms", "--crash", "--deadline-ms"]),
        (
            &["run", "--crash", "sometimes"],
            &["--crash", "sometimes", "none, before-commit, after-effect, after-record"],
        ),
        (&["run", "--store", "disk"], &["--store", "disk", "in-memory, durable-separate, durable-atomic"]),
        (&["run", "--in-flight", "queue"], &["--in-flight", "queue", "join, reject-409"]),
        (&["run", "--payload", "C"], &["--payload", "\"C\"", "same, changed"]),
        (&["run", "--fingerprint", "yes"], &["--fingerprint", "yes", "on, off"]),
        (&["run", "--restart-ms", "600001"], &["--restart-ms", "600001", "from 0 to 600000"]),
        (&["run", "--lease-ms", "0"], &["--lease-ms", "0", "from 1 to 86400000"]),
        (
            &["run", "--deadline-ms", "0"],
            &["--deadline-ms", "0", "off, or a whole number of milliseconds from 1 to 3600000"],
        ),
        (&["run", "--deadline-ms", "never"], &["--deadline-ms", "never", "off"]),
        (&["run", "--format", "xml"], &["--format", "xml", "text, json"]),
        (&["run", "--at-ms", "4051"], &["--at-ms", "4051", "from 0 to 4050"]),
        (&["run", "--at-ms", "soon"], &["--at-ms", "soon", "whole number"]),
        (&["run", "--settings", "/nonexistent/settings.json"], &["--settings", "/nonexistent/settings.json"]),
        (&["bench", "--runs", "0"], &["--runs", "0", "from 1 to"]),
        (&["bench", "--fast"], &["--fast", "--runs"]),
        (&["frobnicate"], &["frobnicate", "ack, risk, storms, explore, trace, bench, labs, opening, --help"]),
        (&[], &["missing command", "ack, risk, storms, explore, trace, bench, labs, opening, --help"]),
        (&["explore", "--max-faults", "4"], &["--max-faults", "4", "from 1 to 3"]),
        (&["bench", "--lab", "moon"], &["--lab", "moon", "ack, risk, storms"]),
        (&["opening", "--lab", "moon"], &["--lab", "moon", "ack|risk|storms"]),
        (&["opening", "--lab", "risk", "--dir", "dist"], &["--lab and --dir", "--lab LAB or --dir DIR"]),
        (&["opening", "--pages", "dist"], &["--pages", "--lab LAB, --dir DIR"]),
    ];
    for (args, mentions) in cases {
        let out = cli(args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?} printed to stdout");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        for m in *mentions {
            assert!(err.contains(m), "{args:?}: {err:?} should mention {m:?}");
        }
    }
}

#[test]
fn help_lists_every_lab_and_each_lab_every_option_with_its_default() {
    let out = cli(&["--help"]);
    assert!(out.status.success());
    let text = stdout(&out);
    for lab in ["ack", "risk", "storms"] {
        assert!(text.contains(&format!("idempotency-lab {lab} ")), "help lacks {lab}: {text}");
    }
    // The first lab's command is `ack`, and `run` as it always was.
    for command in ["ack", "run"] {
        let out = cli(&[command, "--help"]);
        assert!(out.status.success());
        assert_eq!(stdout(&out), stdout(&cli(&["ack", "--help"])));
    }
    let text = stdout(&cli(&["ack", "--help"]));
    for flag in [
        "--fault",
        "--dedup",
        "--key",
        "--retention-ms",
        "--timeout-ms",
        "--exec-ms",
        "--max-attempts",
        "--initial-delay-ms",
        "--backoff-cap-ms",
        "--jitter",
        "--request-transit-ms",
        "--response-transit-ms",
        "--in-flight",
        "--payload",
        "--fingerprint",
        "--crash",
        "--restart-ms",
        "--store",
        "--lease-ms",
        "--deadline-ms",
        "--format",
        "--at-ms",
        "--settings",
    ] {
        assert!(text.contains(flag), "help lacks {flag}");
    }
    assert!(text.contains("(default lose-first)"));
}

#[test]
fn settings_files_are_read_and_flags_override_them() {
    let dir = std::env::temp_dir().join(format!("idempotency-lab-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.json");
    std::fs::write(&good, r#"{"dedup": "off", "fault": "none"}"#).unwrap();
    let doc = json(&["--settings", good.to_str().unwrap()]);
    assert_eq!(doc["settings"]["dedup"], "off");
    assert_eq!(doc["outcome_ms"], 2050);
    let doc = json(&["--fault", "lose-first", "--settings", good.to_str().unwrap()]);
    assert_eq!(doc["committed"], 2, "the flag wins over the file whatever the order");

    // An exported run is itself a settings file.
    let exported = dir.join("exported.json");
    std::fs::write(&exported, stdout(&cli(&["run", "--format", "json", "--key", "per-attempt"]))).unwrap();
    assert_eq!(json(&["--settings", exported.to_str().unwrap()])["settings"]["key"], "per-attempt");

    let v2 = dir.join("v2.json");
    std::fs::write(
        &v2,
        r#"{"crash": "after-effect", "store": "durable-atomic", "fault": "none", "deadline_ms": "off"}"#,
    )
    .unwrap();
    let doc = json(&["--settings", v2.to_str().unwrap()]);
    assert_eq!((doc["committed"].clone(), doc["outcome_ms"].clone()), (1.into(), 4050.into()));
    for (body, mentions) in [
        (r#"{"crash": "later"}"#, "settings file field crash: \"later\" is not a known option"),
        (r#"{"lease_ms": 0}"#, "settings file field lease_ms: 0 is out of range"),
        (r#"{"deadline_ms": true}"#, "settings file field deadline_ms is a boolean"),
        (r#"{"restart": 5}"#, "unknown field \"restart\""),
    ] {
        std::fs::write(&v2, body).unwrap();
        let out = cli(&["run", "--settings", v2.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{body}");
        assert!(stderr(&out).contains(mentions), "{body}: {}", stderr(&out));
    }

    let bad = dir.join("bad.json");
    std::fs::write(&bad, r#"{"max_attempts": 0}"#).unwrap();
    let out = cli(&["run", "--settings", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("max_attempts: 0 is out of range; allowed: a whole number from 1 to 10"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bench_prints_figures() {
    let out = cli(&["bench", "--runs", "200"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let figure = |name: &str| -> f64 {
        let line = text.lines().find(|l| l.starts_with(name)).unwrap_or_else(|| panic!("no {name} in {text}"));
        line.split('\t').nth(1).unwrap().parse().unwrap()
    };
    assert_eq!(figure("runs"), 200.0);
    assert!(figure("events") >= 200.0 * 3.0, "every run has at least three events");
    assert!(figure("core events/s") > 0.0);
}

#[test]
fn opening_prints_the_markup_the_build_writes_into_the_page() {
    let out = cli(&["opening"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let html = stdout(&out);
    assert_eq!(html.trim_end(), idempotency_lab::view::ack::opening::page());
    assert!(html.starts_with("<div class=\"lab-root prerendered page-opening\""));
    let risk = cli(&["opening", "--lab", "risk"]);
    assert!(risk.status.success(), "{}", stderr(&risk));
    assert_eq!(stdout(&risk).trim_end(), idempotency_lab::view::risk::opening::page());
}

#[test]
fn opening_writes_every_other_labs_opening_beside_its_bundle_and_names_them() {
    let dir = std::env::temp_dir().join(format!("idempotency-lab-openings-{}", std::process::id()));
    for lab in ["ack", "risk", "storms"] {
        std::fs::create_dir_all(dir.join(lab)).unwrap();
    }
    let out = cli(&["opening", "--dir", dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    // The first lab's goes in the page.
    assert_eq!(stdout(&out), "risk\nstorms\n");
    let written = std::fs::read_to_string(dir.join("risk/opening.html")).unwrap();
    assert_eq!(written.trim_end(), idempotency_lab::view::risk::opening::page());
    let written = std::fs::read_to_string(dir.join("storms/opening.html")).unwrap();
    assert_eq!(written.trim_end(), idempotency_lab::view::storm::opening::page());
    assert!(!dir.join("ack/opening.html").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs the binary with its address space bounded to 256 MiB (a reader
/// that kept what it read of an endless source would die there, not exit
/// with a message), its standard input from `stdin`.
fn bounded_cli(args: &[&str], stdin: std::process::Stdio) -> Output {
    Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 262144 && exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_idempotency-lab"))
        .args(args)
        .stdin(stdin)
        .output()
        .expect("binary runs")
}

#[test]
fn a_settings_file_from_an_endless_stream_is_refused_at_the_limit_with_bounded_memory() {
    let limit = "is longer than 1048576 bytes (the limit), so it was not read; allowed: a JSON settings file of at most 1048576 bytes, or - for standard input";
    let out = bounded_cli(&["ack", "--settings", "/dev/zero"], std::process::Stdio::null());
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(stderr(&out), format!("idempotency-lab: --settings: \"/dev/zero\" {limit}\n"));
    // Standard input is read through the same limit.
    let zero = std::fs::File::open("/dev/zero").unwrap();
    let out = bounded_cli(&["ack", "--settings", "-"], zero.into());
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(stderr(&out), format!("idempotency-lab: --settings: \"-\" {limit}\n"));
}

#[test]
fn settings_come_from_standard_input_with_a_dash() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_idempotency-lab"))
        .args(["ack", "--format", "json", "--settings", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child.stdin.take().unwrap().write_all(br#"{"dedup": "off"}"#).unwrap();
    let out = child.wait_with_output().unwrap();
    let doc: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(doc["settings"]["dedup"], "off");
}

#[test]
fn help_keeps_two_spaces_between_every_name_and_its_text() {
    // The first lab's longest preset names are 24 characters, as wide as
    // the column once was: "crash-after-effect-memoryCrash after the
    // effect" ran them together.
    for lab in ["ack", "risk", "storms"] {
        let text = stdout(&cli(&[lab, "--help"]));
        // Every row of a table (not the usage line) has its name, two
        // spaces or more, and its text.
        let rows = text.lines().filter(|l| l.starts_with("  ") && !l.starts_with("   "));
        for row in rows.filter(|l| !l.starts_with("  idempotency-lab")) {
            assert!(row[2..].trim_end().contains("  "), "{lab}: {row:?}");
        }
    }
    let text = stdout(&cli(&["ack", "--help"]));
    assert!(text.contains("  crash-after-effect-memory  Crash after the effect, in-memory store\n"), "{text}");
}

/// Every command reads its words one way: `--help` anywhere answers with
/// the command's own help (and runs nothing), and `--flag=value` is
/// `--flag value`, refused in the same words when the value is not allowed.
#[test]
fn every_command_answers_help_and_takes_flag_equals_value() {
    for (command, named) in [
        ("ack", "ack"),
        ("run", "ack"),
        ("risk", "risk"),
        ("storms", "storms"),
        ("storm", "storms"),
        ("explore", "explore"),
        ("bench", "bench"),
        ("labs", "labs"),
        ("opening", "opening"),
    ] {
        let out = cli(&[command, "--help"]);
        let text = stdout(&out);
        assert!(out.status.success(), "{command} --help: {}", stderr(&out));
        assert!(text.starts_with(&format!("idempotency-lab {named}: ")), "{command} --help: {text}");
        assert!(text.contains("Usage:"), "{command} --help: {text}");
    }
    // Help, not an exploration, wherever it comes.
    let out = cli(&["explore", "--lab", "risk", "--max-faults", "1", "--help"]);
    assert!(out.status.success() && !stdout(&out).contains("Explored"), "{}", stdout(&out));
    for (inline, spaced) in [
        (&["labs", "--format=text"][..], &["labs", "--format", "text"][..]),
        (&["labs", "--format=json"], &["labs", "--format", "json"]),
        (
            &["explore", "--lab=risk", "--max-faults=1", "--preset=lost-create-response", "--format=json"],
            &["explore", "--lab", "risk", "--max-faults", "1", "--preset", "lost-create-response", "--format", "json"],
        ),
        (
            &["storms", "--workload=occ", "--clients=20", "--reps=2", "--format=json"],
            &["storms", "--workload", "occ", "--clients", "20", "--reps", "2", "--format", "json"],
        ),
        (&["ack", "--dedup=off", "--at-ms=2050"], &["ack", "--dedup", "off", "--at-ms", "2050"]),
    ] {
        let (a, b) = (cli(inline), cli(spaced));
        assert!(a.status.success(), "{inline:?}: {}", stderr(&a));
        assert_eq!(stdout(&a), stdout(&b), "{inline:?}");
    }
    let out = cli(&["bench", "--runs=5", "--lab=ack"]);
    assert!(out.status.success() && stdout(&out).starts_with("runs\t5\n"), "{}", stderr(&out));
    for (args, message) in [
        (
            &["labs", "--format=xml"][..],
            "idempotency-lab: --format: \"xml\" is not allowed; allowed: one of text, json\n",
        ),
        (
            &["bench", "--runs=0"],
            "idempotency-lab: --runs: 0 is out of range; allowed: a whole number from 1 to 100000000\n",
        ),
        (&["explore", "--lab=storms"], "idempotency-lab: --lab: \"storms\" is not allowed; allowed: ack or risk\n"),
    ] {
        let out = cli(args);
        assert_eq!((out.status.code(), stderr(&out).as_str()), (Some(2), message), "{args:?}");
    }
}
