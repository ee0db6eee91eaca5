//! Arbitrary input at the risk lab's boundaries: no panic, and every
//! refusal is one line that says what was wrong and what is allowed.

use idempotency_lab::cli::main_with;
use idempotency_lab::sim::Millis;
use idempotency_lab::sim::params_file::{parse_settings_file, parse_settings_json};
use idempotency_lab::sim::risk::settings::Preset;
use idempotency_lab::sim::risk::{Run, Settings};
use idempotency_lab::view::risk::{run_to_json, text_mirror};
use proptest::prelude::*;

fn json_like() -> impl Strategy<Value = String> {
    let fields = prop::sample::select(vec![
        "preset",
        "mode",
        "unique_request_key",
        "unique_business_key",
        "timeout_is_unknown",
        "idempotent_create",
        "find_by_key",
        "cas",
        "authorize",
        "gates",
        "global_gate",
        "downstream_limit",
        "deadline_propagation",
        "seed",
        "burst_calls",
        "horizon_ms",
        "db_statement_ms",
        "create_ms",
        "scan_interval_ms",
        "worker_offset_ms",
        "claim_lease_ms",
        "queue_capacity",
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
        "\"auto\"",
        "true",
        "false",
        "null",
        "[]",
        "{}",
        "\"patterns\"",
        "\"naive\"",
        "\"overload\"",
        "\"random-faults\"",
        "\"worker-crash\"",
        "\"\\u0000\"",
        "999",
        "1000",
        "{\"cas\": \"off\"}",
    ]);
    prop::collection::vec((fields, values), 0..8).prop_map(|pairs| {
        let body: Vec<String> = pairs.into_iter().map(|(f, v)| format!("\"{f}\": {v}")).collect();
        format!("{{{}}}", body.join(", "))
    })
}

fn word() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        prop::sample::select(vec![
            "risk",
            "--preset",
            "--mode",
            "--cas",
            "--gates",
            "--authorize",
            "--unique-request-key",
            "--seed",
            "--burst-calls",
            "--horizon-ms",
            "--worker-offset-ms",
            "--scan-interval-ms",
            "--at-ms",
            "--format",
            "--settings",
            "--help",
            "json",
            "text",
            "naive",
            "patterns",
            "auto",
            "on",
            "off",
            "incident",
            "overload",
            "random-faults",
            "not-found-resend",
            "0",
            "1",
            "999",
            "1000",
            "30000",
            "-1",
            "--mode=patterns",
            "--preset=forged-order",
            "--seed=4294967296",
        ])
        .prop_map(str::to_owned),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn any_bytes_parse_as_settings_or_are_refused_with_a_message(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        if let Err(e) = parse_settings_file::<Settings>(&bytes) {
            let message = e.to_string();
            prop_assert!(message.starts_with("settings file"), "{message}");
            prop_assert!(message.contains("allowed"), "{message}");
            prop_assert_eq!(message.lines().count(), 1);
        }
    }

    #[test]
    fn json_shaped_files_are_accepted_or_refused_with_a_message(text in prop_oneof![json_like(), any::<String>()]) {
        match parse_settings_json::<Settings>(&text) {
            Ok(settings) => {
                let run = Run::simulate(&settings);
                prop_assert!(run.is_ok(), "{:?}", run.err());
            }
            Err(e) => prop_assert!(e.to_string().contains("allowed"), "{e}"),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, ..ProptestConfig::default() })]

    #[test]
    fn any_risk_command_line_exits_cleanly(rest in prop::collection::vec(word(), 0..8)) {
        let mut args = vec!["risk".to_owned()];
        args.extend(rest);
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code = main_with(&args, &mut out, &mut err);
        prop_assert!(code == 0 || code == 2, "{code}");
        if code == 2 {
            let err = String::from_utf8(err).unwrap();
            prop_assert_eq!(err.lines().count(), 1, "{}", err);
            prop_assert!(err.starts_with("idempotency-lab: ") && err.contains("allowed"), "{}", err);
            prop_assert!(out.is_empty());
        }
    }

    /// Any valid settings run, and their mirror and report render at any
    /// moment.
    #[test]
    fn any_valid_settings_run_and_render(
        preset in prop::sample::select(Preset::ALL.iter().map(|p| p.value()).collect::<Vec<_>>()),
        mode in prop::sample::select(vec!["naive", "patterns"]),
        switches in prop::collection::vec(prop::sample::select(vec!["auto", "on", "off"]), 11),
        seed in any::<u32>(),
        burst in 1u32..=60,
        db in 0u64..=50,
        create in 1u64..=5_000,
        lease in 1u64..=6_000,
        t in 0u64..=30_000,
    ) {
        let names = [
            "--unique-request-key", "--unique-business-key", "--timeout-is-unknown", "--idempotent-create",
            "--find-by-key", "--cas", "--authorize", "--gates", "--global-gate", "--downstream-limit",
            "--deadline-propagation",
        ];
        let mut flags = format!(
            "--preset {preset} --mode {mode} --seed {seed} --burst-calls {burst} --db-statement-ms {db} \
             --create-ms {create} --claim-lease-ms {lease}"
        );
        for (name, value) in names.iter().zip(&switches) {
            flags.push_str(&format!(" {name} {value}"));
        }
        let settings = super::settings(&flags);
        let run = Run::simulate(&settings).expect("valid settings finish");
        let mirror = text_mirror(&run, Millis(t));
        prop_assert!(mirror.starts_with("Risk-review lab: preset"));
        let doc: serde_json::Value = serde_json::from_str(&run_to_json(&run)).unwrap();
        prop_assert_eq!(doc["checks"].as_array().map(Vec::len), Some(14));
    }
}
