//! `idempotency-lab risk` as a user or a script runs it: the real binary,
//! its output and its exit status.

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
    let mut all = vec!["risk", "--format", "json"];
    all.extend_from_slice(args);
    let out = cli(&all);
    assert!(out.status.success(), "{}", stderr(&out));
    serde_json::from_str(&stdout(&out)).expect("one JSON document")
}

fn keys(v: &Value) -> Vec<&str> {
    let mut keys: Vec<&str> = v.as_object().expect("an object").keys().map(String::as_str).collect();
    keys.sort_unstable();
    keys
}

fn is_clock(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() == 12
        && [2, 5].iter().all(|&i| b[i] == b':')
        && b[8] == b'.'
        && b.iter().enumerate().all(|(i, c)| [2, 5, 8].contains(&i) || c.is_ascii_digit())
}

#[test]
#[expect(clippy::too_many_lines, reason = "one assertion per observable field")]
fn json_carries_every_observable_field() {
    let doc = json(&["--preset", "not-found-resend", "--mode", "patterns"]);
    assert_eq!(
        keys(&doc),
        [
            "checks",
            "claims",
            "clock_origin",
            "downstream_calls",
            "downstream_peak_concurrency",
            "downstream_safe_concurrency",
            "end_ms",
            "events",
            "faults",
            "fleet",
            "gates",
            "horizon_ms",
            "jsonrpc_errors",
            "lab",
            "refused_out_of_budget",
            "reviews",
            "rows",
            "series",
            "settings",
            "summary",
            "switches",
            "tool_calls",
            "tool_results",
            "transitions",
        ]
    );
    assert_eq!(doc["clock_origin"], "10:31:08.120");
    assert_eq!(keys(&doc["reviews"][0]), ["business_key", "clock", "order_id", "request_key", "review_ref", "t_ms"]);
    assert_eq!(
        keys(&doc["rows"][0]),
        [
            "business_key",
            "downstream_ref",
            "generation",
            "id",
            "next_retry_at",
            "order_id",
            "request_key",
            "requester_id",
            "retry_count",
            "status",
            "version",
        ]
    );
    // Worked out in the scenario table: claimed once (retry_count 1), versions
    // 1 inserted, 2 UNKNOWN, 3 RETRYABLE, 4 PENDING, 5 SUCCEEDED.
    assert_eq!(
        doc["rows"][0],
        serde_json::json!({"id": "R10086", "request_key": "rk-0001", "business_key": "O20260728001:risk:1",
            "order_id": "O20260728001", "requester_id": "u-1001", "status": "SUCCEEDED", "downstream_ref": "RV-1",
            "retry_count": 1, "next_retry_at": null, "version": 5, "generation": 1})
    );
    for (list, fields) in [
        ("tool_calls", &["call", "clock", "order_id", "replica", "request_key", "t_ms", "tool"][..]),
        ("tool_results", &["call", "clock", "code", "is_error", "replica", "review_id", "status", "t_ms", "tool"][..]),
        ("transitions", &["actor", "cause", "clock", "from", "legal", "row", "t_ms", "to"][..]),
        (
            "downstream_calls",
            &["answered_ms", "clock", "kind", "outcome", "replica", "request_key", "sent_ms", "t_ms"][..],
        ),
        ("claims", &["clock", "row", "t_ms", "won", "worker"][..]),
    ] {
        let first = &doc[list][0];
        for field in fields {
            assert!(first.get(*field).is_some(), "{list} lacks {field}: {first}");
        }
    }
    assert_eq!(doc["transitions"][0]["from"], Value::Null, "an insert comes from nothing");
    // Replica A's create (sent at 121) is lost on the way: the Risk API never
    // works on it. The two probes at 3001 are its only calls at once (until
    // 3101); W1's resend at 5002 is alone.
    let first = &doc["downstream_calls"][0];
    assert_eq!(
        (&first["replica"], &first["sent_ms"], &first["answered_ms"]),
        (&Value::from("A"), &Value::from(121), &Value::Null)
    );
    assert_eq!(doc["downstream_calls"][3]["replica"], Value::Null, "a worker's resend");
    assert_eq!(doc["downstream_calls"][3]["answered_ms"], 5412);
    assert_eq!(
        (&doc["downstream_peak_concurrency"], &doc["downstream_safe_concurrency"]),
        (&Value::from(2), &Value::from(32))
    );
    // The sizes the run used, which the settings leave at auto: with the
    // downstream limit the Risk API admits its safe concurrency, and the
    // global gate's quota is all of it (the workers call the Risk API on
    // their own, outside the gate). Nothing was refused for its deadline.
    assert_eq!(doc["settings"]["replicas"], "auto");
    assert_eq!(
        doc["fleet"],
        serde_json::json!({"replicas": 2, "concurrency_cap": 8, "queue_capacity": 16, "burst_calls": 200,
            "risk_api_capacity": 32, "api_safe_concurrency": 32, "global_gate_quota": 32})
    );
    assert_eq!(doc["refused_out_of_budget"], 0);
    // Naive, the Risk API has no admission limit: its capacity is unbounded,
    // written null, and no gate has a quota.
    let naive = json(&["--preset", "overload", "--mode", "naive"]);
    assert_eq!(naive["fleet"]["risk_api_capacity"], Value::Null);
    assert_eq!(naive["fleet"]["global_gate_quota"], Value::Null);
    assert_eq!(
        doc["claims"],
        serde_json::json!([
            {"t_ms": 5002, "clock": "10:31:13.122", "worker": "W1", "row": "R10086", "version": 3, "won": true},
            {"t_ms": 5002, "clock": "10:31:13.122", "worker": "W2", "row": "R10086", "version": 3, "won": false},
        ])
    );
    let outcomes: Vec<(&str, &str)> = doc["downstream_calls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["kind"].as_str().unwrap(), d["outcome"].as_str().unwrap()))
        .collect();
    assert_eq!(
        outcomes,
        [("create", "request_lost"), ("find", "not_found"), ("find", "not_found"), ("create", "created")]
    );
    for replica in ["A", "B"] {
        assert_eq!(
            keys(&doc["gates"][replica]),
            [
                "concurrency_cap",
                "gates_on",
                "max_in_flight",
                "max_queue",
                "overloaded",
                "queue_capacity",
                "waited_for_fleet"
            ]
        );
    }
    let names: Vec<&str> = doc["checks"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "same_request_key_one_row",
            "same_business_key_one_review",
            "lost_response_converges",
            "single_claim_winner",
            "forged_no_downstream",
            "overload_fast_bounded",
            "one_review_per_business_key",
            "legal_transitions",
            "unknown_resolved",
            "downstream_within_capacity",
            "no_effect_after_deadline",
            "caller_token_not_forwarded",
            "business_errors_are_results",
            "outside_schema_refused",
        ]
    );
    assert_eq!(doc["checks"][3]["holds"], true);
    assert_eq!(doc["checks"][3]["figures"]["won"], 1);
    assert_eq!(doc["checks"][0]["holds"], Value::Null);
}

#[test]
fn every_event_has_a_clock_and_database_events_show_their_sql_and_rows() {
    let doc = json(&["--preset", "not-found-resend", "--mode", "patterns"]);
    let events = doc["events"].as_array().unwrap();
    for e in events {
        assert_eq!(keys(e), ["actor", "clock", "kind", "t_ms", "text"]);
        assert!(is_clock(e["clock"].as_str().unwrap()), "{e}");
    }
    let text_of =
        |kind: &str| events.iter().find(|e| e["kind"] == kind).map(|e| e["text"].as_str().unwrap().to_owned()).unwrap();
    let insert = text_of("row_inserted");
    assert!(insert.contains("INSERT INTO risk_requests") && insert.ends_with("ON CONFLICT DO NOTHING; -- 1 row"));
    let claim = text_of("claim");
    assert!(claim.contains("WHERE id = 'R10086' AND status = 'RETRYABLE' AND version = 3"), "{claim}");
    assert!(claim.ends_with("-- 1 row"), "{claim}");
    let kinds: Vec<&str> = events.iter().map(|e| e["kind"].as_str().unwrap()).collect();
    for kind in [
        "tool_call",
        "tool_result",
        "row_inserted",
        "downstream_create",
        "downstream_timeout",
        "review_created",
        "transition",
        "probe",
        "claim",
    ] {
        assert!(kinds.contains(&kind), "no {kind}");
    }
    let overload = json(&["--preset", "overload", "--mode", "patterns"]);
    assert!(overload["events"].as_array().unwrap().iter().any(|e| e["kind"] == "overloaded"));
    assert_eq!(overload["gates"]["A"]["overloaded"], 220);
    assert_eq!(overload["gates"]["A"]["max_queue"], 16);
}

#[test]
fn the_naive_incident_shows_the_reports_wall_clock() {
    let doc = json(&[]);
    assert_eq!(doc["settings"]["preset"], "incident");
    assert_eq!(doc["settings"]["mode"], "naive");
    let events = doc["events"].as_array().unwrap();
    let clock = |kind: &str, nth: usize| {
        events.iter().filter(|e| e["kind"] == kind).nth(nth).unwrap()["clock"].as_str().unwrap().to_owned()
    };
    assert_eq!(
        [
            clock("tool_call", 0),
            clock("row_inserted", 0),
            clock("downstream_timeout", 0),
            clock("tool_result", 0),
            clock("tool_call", 1),
            clock("review_created", 1),
        ],
        ["10:31:08.120", "10:31:08.241", "10:31:10.741", "10:31:10.742", "10:31:12.000", "10:31:12.531"]
    );
    assert_eq!(doc["tool_results"][0]["code"], "SUBMISSION_FAILED");
    assert_eq!(doc["tool_results"][0]["is_error"], true);
    let illegal: Vec<&Value> = doc["transitions"].as_array().unwrap().iter().filter(|t| t["legal"] == false).collect();
    assert_eq!(illegal.len(), 1);
    assert_eq!((illegal[0]["from"].as_str(), illegal[0]["to"].as_str()), (Some("PENDING"), Some("FAILED")));
    assert_eq!(illegal[0]["cause"], "timeout");
}

#[test]
fn text_shows_the_mirror_at_the_requested_time_then_every_event() {
    let out = cli(&["risk", "--at-ms", "2622"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("Risk-review lab: preset incident, mode naive.\n"), "{text}");
    assert!(text.contains("Model time: 2.622 s, 10:31:10.742 on the wall clock"), "{text}");
    assert!(text.contains("  R10086  rk-0001      O20260728001:risk:1  FAILED"), "{text}");
    assert!(text.contains("Risk API reviews (1): RV-1 for rk-0001"), "{text}");
    assert!(text.contains("  legal_transitions: fails (transitions 2, illegal 1"), "{text}");
    let (mirror, events) = text.split_once("\nEvents:\n").expect("an event list");
    assert!(!mirror.contains("R10087"), "the retry comes later");
    assert!(events.lines().next().unwrap().starts_with("10:31:08.120"));
    assert!(events.lines().all(|l| is_clock(&l[..12])));
    let end = stdout(&cli(&["risk"]));
    assert!(end.contains("Model time: 30.00 s, 10:31:38.120"), "the horizon by default");
}

#[test]
fn the_same_command_twice_gives_byte_identical_json() {
    let args = ["risk", "--preset", "random-faults", "--mode", "patterns", "--seed", "42", "--format", "json"];
    let (a, b) = (cli(&args), cli(&args));
    assert!(a.status.success());
    assert_eq!(a.stdout, b.stdout);
}

/// Every refusal: status 2, nothing on stdout, one line on stderr that names
/// the flag, the value and what is allowed.
#[test]
fn bad_input_is_refused_with_one_clear_line() {
    let cases: &[(&[&str], &[&str])] = &[
        (&["risk", "--preset", "chaos"], &["--preset", "chaos", "incident, same-request-key", "random-faults"]),
        (&["risk", "--mode", "lazy"], &["--mode", "lazy", "one of naive, patterns"]),
        (&["risk", "--cas", "maybe"], &["--cas", "maybe", "one of auto, on, off"]),
        (&["risk", "--gates"], &["--gates", "needs a value", "auto, on, off"]),
        (&["risk", "--seed", "-1"], &["--seed", "-1", "from 0 to 4294967295"]),
        (&["risk", "--seed", "4294967296"], &["--seed", "4294967296", "out of range"]),
        (&["risk", "--burst-calls", "2001"], &["--burst-calls", "2001", "auto", "from 1 to 2000"]),
        (&["risk", "--horizon-ms", "999"], &["--horizon-ms", "999", "from 1000 to 3600000"]),
        (&["risk", "--scan-interval-ms", "99"], &["--scan-interval-ms", "99", "from 100"]),
        (&["risk", "--worker-offset-ms", "1000"], &["--worker-offset-ms", "1000", "less than the scan interval"]),
        (&["risk", "--create-ms", "soon"], &["--create-ms", "soon", "whole number"]),
        (&["risk", "--format", "xml"], &["--format", "xml", "text, json"]),
        (&["risk", "--at-ms", "30001"], &["--at-ms", "30001", "from 0 to 30000"]),
        (&["risk", "--wat"], &["--wat", "--preset", "--cas", "--settings"]),
        (&["risk", "--settings", "/nonexistent/risk.json"], &["--settings", "/nonexistent/risk.json"]),
        (&["bench", "--lab", "stroms"], &["--lab", "stroms", "ack, risk, storms"]),
    ];
    for (args, mentions) in cases {
        let out = cli(args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?} printed to stdout");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains("allowed"), "{args:?}: {err}");
        for m in *mentions {
            assert!(err.contains(m), "{args:?}: {err:?} should mention {m:?}");
        }
    }
}

#[test]
fn help_lists_every_option_with_its_default() {
    let out = cli(&["risk", "--help"]);
    assert!(out.status.success());
    let text = stdout(&out);
    for flag in [
        "--preset",
        "--mode",
        "--unique-request-key",
        "--unique-business-key",
        "--timeout-is-unknown",
        "--idempotent-create",
        "--find-by-key",
        "--cas",
        "--authorize",
        "--gates",
        "--global-gate",
        "--downstream-limit",
        "--deadline-propagation",
        "--recovery",
        "--seed",
        "--burst-calls",
        "--horizon-ms",
        "--call-transit-ms",
        "--auth-policy-ms",
        "--db-statement-ms",
        "--create-ms",
        "--find-ms",
        "--downstream-timeout-ms",
        "--client-deadline-ms",
        "--poll-interval-ms",
        "--scan-interval-ms",
        "--worker-offset-ms",
        "--backoff-ms",
        "--claim-lease-ms",
        "--concurrency-cap",
        "--queue-capacity",
        "--api-safe-concurrency",
        "--replicas",
        "--worker-order",
        "--fault",
        "--settings",
        "--format",
        "--at-ms",
    ] {
        assert!(text.contains(flag), "help lacks {flag}");
    }
    assert!(text.contains("(default incident)") && text.contains("(default naive)") && text.contains("(default auto)"));
    assert!(text.contains("(default 2500)") && text.contains("(default 5000)"));
}

#[test]
fn settings_files_are_read_and_flags_override_them() {
    let dir = std::env::temp_dir().join(format!("idempotency-lab-risk-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("risk.json");
    std::fs::write(&file, r#"{"preset": "not-found-resend", "mode": "patterns", "cas": "off"}"#).unwrap();
    let path = file.to_str().unwrap();
    let doc = json(&["--settings", path]);
    assert_eq!((doc["switches"]["cas"].clone(), doc["summary"]["claims_won"].clone()), (false.into(), 2.into()));
    let doc = json(&["--cas", "on", "--settings", path]);
    assert_eq!(doc["summary"]["claims_won"], 1, "the flag wins over the file whatever the order");

    // An exported run is itself a settings file.
    let exported = dir.join("exported.json");
    std::fs::write(
        &exported,
        stdout(&cli(&["risk", "--format", "json", "--preset", "forged-order", "--gates", "off"])),
    )
    .unwrap();
    let doc = json(&["--settings", exported.to_str().unwrap()]);
    assert_eq!(
        (doc["settings"]["preset"].clone(), doc["settings"]["gates"].clone()),
        ("forged-order".into(), "off".into())
    );

    for (body, mentions) in [
        (r#"{"preset": "later"}"#, "settings file field preset: \"later\" is not a known option"),
        (r#"{"cas": true}"#, "settings file field cas is a boolean"),
        (r#"{"seed": -3}"#, "settings file field seed: -3 is out of range"),
        (r#"{"retries": 5}"#, "unknown field \"retries\""),
    ] {
        std::fs::write(&file, body).unwrap();
        let out = cli(&["risk", "--settings", path]);
        assert_eq!(out.status.code(), Some(2), "{body}");
        assert!(stderr(&out).contains(mentions), "{body}: {}", stderr(&out));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn fault_flags_add_up_and_the_json_says_which_faults_played() {
    // Given one flag each or as one list, the same faults; the preset's own
    // without any.
    let one_each = json(&[
        "--preset",
        "not-found-resend",
        "--fault",
        "create-request-lost@1",
        "--fault",
        "worker-crash-after-send@1",
    ]);
    let listed = json(&["--preset", "not-found-resend", "--fault", "worker-crash-after-send@1,create-request-lost@1"]);
    assert_eq!(one_each["faults"], serde_json::json!(["create-request-lost@1", "worker-crash-after-send@1"]));
    assert_eq!(one_each["faults"], listed["faults"]);
    assert_eq!(one_each["settings"]["faults"], "create-request-lost@1,worker-crash-after-send@1");
    let own = json(&["--preset", "worker-crash"]);
    assert_eq!(own["faults"], one_each["faults"], "worker-crash is exactly these two");
    assert_eq!(own["settings"]["faults"], "");
}

#[test]
fn a_fault_the_lab_does_not_know_is_refused_with_what_is_allowed() {
    let out = cli(&["risk", "--fault", "create-response-lost@1", "--fault", "meteor@2"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("\"create-response-lost@1,meteor@2\" is not a list of aimed faults"), "{err}");
    assert!(err.contains("KIND one of create-response-lost, create-request-lost, downstream-5xx"), "{err}");
}
