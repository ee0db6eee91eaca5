//! Arbitrary input at every boundary: no panic, and every refusal says
//! what was wrong.

use idempotency_lab::cli::main_with;
use idempotency_lab::sim::ack::{Run, Settings};
use idempotency_lab::sim::params_file::{parse_settings_file, parse_settings_json};
use idempotency_lab::view::ack::ACK;
use idempotency_lab::view::url::{LinkState, ParsedLink, parse_query, read_lab, to_query};
use proptest::prelude::*;

/// Fragments that make random text look like the real thing often enough
/// to reach the deeper paths.
fn query_like() -> impl Strategy<Value = String> {
    let names = prop::sample::select(vec![
        "fault",
        "dedup",
        "key",
        "retention",
        "timeout",
        "exec",
        "attempts",
        "delay",
        "cap",
        "jitter",
        "req",
        "resp",
        "inflight",
        "payload",
        "fp",
        "crash",
        "restart",
        "store",
        "lease",
        "deadline",
        "at",
        "embed",
        "theme",
        "accent",
        "font",
        "x",
        "",
    ]);
    let values = prop_oneof![
        any::<String>(),
        "[0-9]{0,25}(\\.[0-9]{0,5})?",
        prop::sample::select(vec![
            "on",
            "off",
            "lose-all",
            "per-attempt",
            "full",
            "dark",
            "%",
            "%4",
            "%zz",
            "%E2%9C",
            "after-effect",
            "durable-separate",
            "reject-409",
            "changed"
        ])
        .prop_map(str::to_owned),
    ];
    prop::collection::vec((names, values), 0..12)
        .prop_map(|pairs| pairs.into_iter().map(|(n, v)| format!("{n}={v}")).collect::<Vec<_>>().join("&"))
}

fn json_like() -> impl Strategy<Value = String> {
    let fields = prop::sample::select(vec![
        "fault",
        "dedup",
        "key",
        "retention_ms",
        "timeout_ms",
        "exec_ms",
        "max_attempts",
        "initial_delay_ms",
        "backoff_cap_ms",
        "jitter",
        "request_transit_ms",
        "response_transit_ms",
        "in_flight",
        "payload",
        "fingerprint",
        "crash",
        "restart_ms",
        "store",
        "lease_ms",
        "deadline_ms",
        "settings",
        "bogus",
    ]);
    let values = prop::sample::select(vec![
        "0",
        "1",
        "-1",
        "1.5",
        "1e400",
        "99999999999999999999999",
        "\"on\"",
        "\"off\"",
        "true",
        "null",
        "[]",
        "{}",
        "\"lose-all\"",
        "\"after-effect\"",
        "\"durable-atomic\"",
        "\"reject-409\"",
        "\"changed\"",
        "\"\\u0000\"",
        "{\"dedup\": \"off\"}",
    ]);
    prop::collection::vec((fields, values), 0..8).prop_map(|pairs| {
        let body: Vec<String> = pairs.into_iter().map(|(f, v)| format!("\"{f}\": {v}")).collect();
        format!("{{{}}}", body.join(", "))
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn any_query_decodes_without_panic_and_notices_say_something(query in prop_oneof![any::<String>(), query_like()]) {
        let link = parse_query(&query, ACK);
        let read = read_lab::<Settings>(&link);
        for n in &read.notices {
            prop_assert!(n.contains(':') && n.len() > 10, "{n:?}");
            prop_assert!(n.len() < 400, "notices stay short: {n:?}");
        }
        // Whatever was accepted round-trips through a link.
        let accepted = LinkState::of(ACK, &read.settings, read.b.as_deref(), link.state.page.clone());
        let again = parse_query(&to_query(&accepted), ACK);
        let reread = read_lab::<Settings>(&again);
        prop_assert!(reread.notices.is_empty(), "{:?}", reread.notices);
        prop_assert_eq!(&reread.settings, &read.settings);
        prop_assert_eq!(&reread.b, &read.b);
        prop_assert_eq!(&again.state.page, &link.state.page);
        let ParsedLink { .. } = again;
    }

    #[test]
    fn any_bytes_parse_as_settings_or_are_refused_with_a_message(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        if let Err(e) = parse_settings_file::<Settings>(&bytes) {
            let message = e.to_string();
            prop_assert!(message.starts_with("settings file"), "{message}");
            prop_assert!(message.contains("allowed"), "{message}");
        }
    }

    #[test]
    fn json_shaped_files_are_accepted_or_refused_with_a_message(text in prop_oneof![json_like(), any::<String>()]) {
        match parse_settings_json::<Settings>(&text) {
            Ok(settings) => prop_assert!(Run::simulate(&settings).is_ok()),
            Err(e) => prop_assert!(e.to_string().contains("allowed"), "{e}"),
        }
    }

    #[test]
    fn any_command_line_exits_cleanly(args in prop::collection::vec(
        prop_oneof![
            any::<String>(),
            prop::sample::select(vec!["run", "bench", "--help", "--fault", "--dedup", "--timeout-ms", "--at-ms",
                "--format", "json", "--max-attempts", "--runs", "0", "1", "10", "-1", "off", "--exec-ms=5",
                "--key", "--settings", "--crash", "--store", "--lease-ms", "--deadline-ms", "--in-flight", "--payload",
                "--fingerprint", "--restart-ms", "after-effect", "durable-atomic", "reject-409"]).prop_map(str::to_owned),
        ],
        0..8,
    )) {
        // Keep the benchmark quick if it is ever asked for.
        let args: Vec<String> = args.into_iter().map(|a| if a == "bench" { "run".to_owned() } else { a }).collect();
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code = main_with(&args, &mut out, &mut err);
        prop_assert!(code == 0 || code == 2, "{code}");
        if code == 2 {
            let err = String::from_utf8(err).unwrap();
            prop_assert_eq!(err.lines().count(), 1, "{}", err);
            prop_assert!(out.is_empty());
        }
    }
}
