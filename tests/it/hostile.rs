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

/// One rule for the text of a file, the command line's and the page's
/// alike (both read bytes through `file_text`): a UTF-8 byte-order mark is
/// no part of it, UTF-16 is refused, and a field named twice is refused by
/// its name, whichever object it is in.
#[test]
fn a_byte_order_mark_is_ignored_and_a_field_named_twice_is_refused_by_name() {
    use idempotency_lab::sim::params_file::{file_text, parse_import};
    let plain = br#"{"dedup": "off"}"#;
    let marked = [&[0xEF, 0xBB, 0xBF][..], plain].concat();
    let with_mark = parse_settings_file::<Settings>(&marked).unwrap();
    assert_eq!(with_mark, parse_settings_file::<Settings>(plain).unwrap());
    assert!(!with_mark.dedup());
    // The page reads the file's bytes the same way, then imports the text.
    assert_eq!(parse_import::<Settings>(file_text(&marked).unwrap()).unwrap().settings, with_mark);
    let utf16 = [0xFF, 0xFE, b'{', 0, b'}', 0];
    assert_eq!(
        parse_settings_file::<Settings>(&utf16).unwrap_err().to_string(),
        "settings file is UTF-16 text; allowed: UTF-8 text (with or without a byte-order mark)"
    );
    let twice = "settings file has the field \"dedup\" more than once; allowed: each field once";
    for doc in [
        r#"{"dedup": "off", "dedup": "on"}"#,
        r#"{"settings": {"fault": "none", "dedup": "off", "dedup": "on"}}"#,
        r#"{"a": {"settings": {}}, "b": {"settings": {"dedup": "off", "dedup": "on"}}}"#,
    ] {
        assert_eq!(parse_settings_file::<Settings>(doc.as_bytes()).unwrap_err().to_string(), twice, "{doc}");
        assert_eq!(parse_import::<Settings>(doc).unwrap_err().to_string(), twice, "{doc}");
    }
}

/// A file's fork point reads as a moment, as large as the link's may be;
/// whether it lies within the run is one check for both
/// (`view::compare::fork_within`), which the page makes once the run is
/// known.
#[test]
fn a_fork_after_the_runs_end_is_refused_from_a_link_and_a_file_alike() {
    use idempotency_lab::sim::Millis;
    use idempotency_lab::sim::params_file::parse_import;
    use idempotency_lab::view::compare::fork_within;
    let end = Run::simulate(&Settings::default()).unwrap().end();
    // MODEL.md's opening run ends at 4.05 s.
    assert_eq!(end, Millis(4_050));
    let file = r#"{"a": {"settings": {}}, "b": {"settings": {"dedup": "off"}}, "fork_ms": 18446744073709551615}"#;
    let from_file = parse_import::<Settings>(file).unwrap().fork.unwrap();
    let from_link = parse_query("b.dedup=off&fork=99999999.999", ACK).state.page.fork.unwrap();
    assert_eq!(
        fork_within(from_file, end).unwrap_err(),
        "fork: 18446744073709551.615 s is after the run's end; allowed: a moment from 0 to 4.05 s. Run B is compared without a fork point."
    );
    assert_eq!(
        fork_within(from_link, end).unwrap_err(),
        "fork: 99999999.999 s is after the run's end; allowed: a moment from 0 to 4.05 s. Run B is compared without a fork point."
    );
    assert_eq!(fork_within(Millis(4_050), end), Ok(Millis(4_050)), "the end itself is a moment of the run");
    for bad in [r#""4000""#, "-1", "1.5"] {
        let doc = format!(r#"{{"a": {{"settings": {{}}}}, "b": {{"settings": {{}}}}, "fork_ms": {bad}}}"#);
        let message = parse_import::<Settings>(&doc).unwrap_err().to_string();
        assert!(message.starts_with("settings file field fork_ms is "), "{message}");
    }
}

/// A quoted value cannot turn the words around it: bidirectional controls
/// and other format characters show as U+FFFD.
#[test]
fn a_quoted_value_neutralises_bidirectional_and_format_controls() {
    let read = read_lab::<Settings>(&parse_query("fault=%E2%80%AEenon%E2%81%A6x%E2%80%8B", ACK));
    assert_eq!(
        read.notices,
        [
            "fault: \"\u{fffd}enon\u{fffd}x\u{fffd}\" is not a known option; allowed: one of none, lose-first, lose-all, first-503, reject-400"
        ]
    );
    for c in ['\u{202a}', '\u{202e}', '\u{2066}', '\u{2069}', '\u{200e}', '\u{200f}', '\u{61c}', '\u{feff}', '\u{2028}']
    {
        let message = idempotency_lab::sim::params::shorten(&format!("a{c}b"));
        assert_eq!(message, "a\u{fffd}b", "U+{:04X}", c as u32);
    }
}
