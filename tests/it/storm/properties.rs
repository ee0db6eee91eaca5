//! Invariants of the overload workload over random seeds and settings
//! (STORMS.md), and metastability.

use idempotency_lab::sim::driver::Driver;
use idempotency_lab::sim::storm::overload::{OVERLOAD_EVENT_BUDGET, OverloadModel, StormEvent};
use idempotency_lab::sim::storm::settings::{
    ALGORITHM, ARRIVALS, BASE, BUDGET, CAP, CLIENTS, CONCURRENCY, DEDUP, EXEC, EXEC_DIST, KEY, MAX_ATTEMPTS, QUEUE,
    RATE, RETENTION, SEED, SPIKE, SPIKE_LENGTH, SPIKE_START, StormSettings, TIMEOUT, WINDOW,
};
use idempotency_lab::sim::storm::{OverloadRun, Totals};
use idempotency_lab::sim::{Micros, ParamDef, Schema};
use proptest::prelude::*;

fn settings(pairs: &[(&'static ParamDef, String)]) -> StormSettings {
    let pairs: Vec<(&'static ParamDef, &str)> = pairs.iter().map(|(p, v)| (*p, v.as_str())).collect();
    StormSettings::from_pairs(&pairs).expect("valid settings")
}

fn pick(values: &'static [&'static str]) -> impl Strategy<Value = String> {
    prop::sample::select(values).prop_map(str::to_owned)
}

prop_compose! {
    fn small_storm()(
        clients in 1u32..=300,
        algorithm in pick(&["none", "exponential", "full", "equal", "decorrelated"]),
        arrivals in pick(&["poisson", "uniform", "all-at-once"]),
        rate in 1u32..=2_000,
        window in 0u32..=3_000,
        spike in 1u32..=5,
        spike_start in 0u32..=2_000,
        spike_len in 0u32..=2_000,
        concurrency in 1u32..=20,
        queue in 0u32..=200,
        exec_dist in pick(&["fixed", "exponential"]),
        exec in 1u32..=100,
        timeout in 1u32..=500,
        attempts in 1u32..=10,
        key in pick(&["stable", "per-attempt"]),
        dedup in pick(&["on", "off"]),
        retention in 0u32..=10_000,
        budget in pick(&["none", "token-bucket", "grpc"]),
        base in 1u32..=50,
        seed in any::<u32>(),
    ) -> StormSettings {
        settings(&[
            (&CLIENTS, clients.to_string()), (&ALGORITHM, algorithm), (&ARRIVALS, arrivals),
            (&RATE, rate.to_string()), (&WINDOW, window.to_string()), (&SPIKE, spike.to_string()),
            (&SPIKE_START, spike_start.to_string()), (&SPIKE_LENGTH, spike_len.to_string()),
            (&CONCURRENCY, concurrency.to_string()), (&QUEUE, queue.to_string()), (&EXEC_DIST, exec_dist),
            (&EXEC, exec.to_string()), (&TIMEOUT, timeout.to_string()), (&MAX_ATTEMPTS, attempts.to_string()),
            (&KEY, key), (&DEDUP, dedup), (&RETENTION, retention.to_string()), (&BUDGET, budget),
            (&BASE, base.to_string()), (&CAP, "1000".to_owned()), (&SEED, seed.to_string()),
        ])
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn every_request_that_arrived_is_in_exactly_one_place_and_the_bounds_hold(s in small_storm()) {
        // STORMS.md: at every instant each request that has arrived is
        // queued, running, joined to an operation, answered or refused.
        // Judged from what is really there: the requests the driver
        // delivered, the server's queue, the operations whose end is
        // scheduled, the attempts joined to them, and the answers on the
        // way or delivered (a 429 is an answer too).
        let mut driver = Driver::new(OverloadModel::new(&s), OVERLOAD_EVENT_BUDGET, Some(Micros(s.horizon_us)));
        let (mut arrived, mut delivered) = (0u64, 0u64);
        while let Some((_, event)) = driver.step_event().unwrap() {
            match event {
                StormEvent::Request { .. } => arrived += 1,
                StormEvent::Response { .. } => delivered += 1,
                _ => {}
            }
            let m = driver.model();
            let running: Vec<u32> =
                driver.pending().filter_map(|(_, e)| if let StormEvent::Done(op) = e { Some(op) } else { None }).collect();
            let on_the_way = driver.pending().filter(|(_, e)| matches!(e, StormEvent::Response { .. })).count() as u64;
            let queued: Vec<u32> = m.queued_ops().collect();
            let joined: u64 = running.iter().chain(&queued).map(|&op| m.joins_of(op)).sum();
            prop_assert_eq!(
                arrived,
                queued.len() as u64 + running.len() as u64 + joined + delivered + on_the_way,
                "queued {}, running {}, joined {}, answered {} + {}", queued.len(), running.len(), joined, delivered, on_the_way
            );
            prop_assert_eq!(m.in_flight(), running.len() as u64, "in flight is what runs");
            prop_assert!(m.queue_len() <= u64::from(s.server.queue));
            prop_assert!(m.in_flight() <= u64::from(s.server.concurrency));
        }
        // A run that finished left nothing behind: every request answered.
        if driver.is_finished() && driver.pending().next().is_none() {
            prop_assert_eq!(arrived, delivered);
        }
    }

    #[test]
    fn every_intent_ends(s in small_storm()) {
        let run = OverloadRun::simulate(&s).unwrap();
        let Totals { intents, acknowledged, exhausted, .. } = run.totals;
        prop_assert_eq!(intents, u64::from(s.arrivals.clients));
        prop_assert_eq!(acknowledged + exhausted, intents);
        prop_assert!(run.totals.max_queue <= u64::from(s.server.queue));
        prop_assert!(run.totals.max_in_flight <= u64::from(s.server.concurrency));
        // Little's law holds exactly over a whole run: the area under
        // "intents in the system" is the sum of their residence times.
        prop_assert_eq!(run.system_area, run.residence_us);
        prop_assert_eq!(run.latencies_us.len() as u64, acknowledged);
    }

    #[test]
    fn stable_keys_with_long_retention_apply_at_most_one_effect_per_intent(s in small_storm()) {
        let s = s.with(&DEDUP, 1).and_then(|s| s.with(&KEY, 1)).and_then(|s| s.with(&RETENTION, 86_400_000)).unwrap();
        let run = OverloadRun::simulate(&s).unwrap();
        prop_assert_eq!(run.totals.duplicate_effects, 0);
        prop_assert!(run.totals.operations <= run.totals.intents);
    }

    #[test]
    fn the_same_seed_gives_the_same_run(s in small_storm()) {
        prop_assert_eq!(OverloadRun::simulate(&s).unwrap(), OverloadRun::simulate(&s).unwrap());
    }
}

#[test]
fn without_jitter_or_budget_a_spike_leaves_the_server_saturated() {
    // The defaults: 4000 intents at 400/s with a 3x spike from 2 s to 3 s,
    // against a server of 10 x 20 ms = 500/s, 500 ms timeouts and
    // immediate retries. Retries of work the server still does keep the
    // offered load above capacity long after the spike: at least twice its
    // length.
    let s = StormSettings::default();
    let run = OverloadRun::simulate(&s).unwrap();
    let spike = s.arrivals.spike_len_us;
    assert!(run.saturated_after_spike_us() >= 2 * spike, "{} us", run.saturated_after_spike_us());
    assert!(run.totals.wasted > run.totals.intents / 2, "most work is wasted: {:?}", run.totals);
}

#[test]
fn full_jitter_and_a_token_bucket_recover_within_one_timeout() {
    let s = StormSettings::default()
        .with_text(&ALGORITHM, "full")
        .and_then(|s| s.with_text(&BUDGET, "token-bucket"))
        .and_then(|s| s.with_text(&BASE, "100"))
        .and_then(|s| s.with_text(&CAP, "5000"))
        .unwrap();
    let run = OverloadRun::simulate(&s).unwrap();
    assert!(run.saturated_after_spike_us() <= s.client.timeout_us, "{} us", run.saturated_after_spike_us());
    let no_budget = OverloadRun::simulate(&StormSettings::default()).unwrap();
    assert!(run.totals.retries * 10 < no_budget.totals.retries, "the budget stops most retries");
}

#[test]
fn jitter_deduplication_and_a_small_queue_each_change_the_metastable_overload_and_say_by_how_much() {
    // STORMS.md: "full jitter, a retry budget, deduplication with stable
    // keys, or a queue bound with fast 429s each change that, and the run's
    // own figures say by how much". Each preset is the default spike with
    // one change; its explanation is filled in with its own run's figures.
    use idempotency_lab::view::storm::presets::PRESETS;
    use idempotency_lab::view::storm::report::OverloadReport;
    let run_of = |id: &str| {
        let preset = PRESETS.iter().find(|p| p.id == id).unwrap();
        let mut s = StormSettings::default();
        for &(param, value) in preset.setup {
            s = s.with_text(param, value).unwrap();
        }
        let run = OverloadRun::simulate(&s).unwrap();
        (preset.explain(&OverloadReport::of(&run)), run)
    };
    let (_, spike) = run_of("spike");
    let saturated = |run: &OverloadRun| format!("{:.2} s", OverloadReport::of(run).saturated_after_spike_ms / 1000.0);
    let t = spike.totals;
    // The spike alone: most work wasted, duplicates, saturated for seconds.
    assert!(t.duplicate_effects > 0 && spike.saturated_after_spike_us() > 2 * 1_000_000);

    // Full jitter spreads the retries but keeps them: as many retries, and
    // a different time over capacity, which its explanation states.
    let (words, jitter) = run_of("spike-jitter");
    assert_ne!(jitter.saturated_after_spike_us(), spike.saturated_after_spike_us());
    assert!(jitter.totals.retries * 2 > t.retries, "jitter does not make retries fewer");
    assert!(words.contains(&format!("{} retries in all", jitter.totals.retries)), "{words}");
    assert!(words.contains(&format!("over capacity for {}", saturated(&jitter))), "{words}");

    // Deduplication with stable keys: no duplicate effect, less work per
    // intent, a shorter overload.
    let (words, dedup) = run_of("dedup");
    assert_eq!(dedup.totals.duplicate_effects, 0);
    assert!(dedup.totals.operations < t.operations);
    assert!(dedup.saturated_after_spike_us() < spike.saturated_after_spike_us());
    assert!(words.contains("0 duplicate effects"), "{words}");
    assert!(words.contains(&format!("over capacity for {}", saturated(&dedup))), "{words}");

    // A queue of 20 that answers 429: refusals at once instead of waits past
    // the timeout, nothing executed for nobody, and the overload gone sooner.
    let (words, small) = run_of("small-queue");
    assert!(small.totals.rejected > 0);
    assert!(small.totals.timeouts < t.timeouts / 10);
    assert!(small.totals.wasted < t.wasted / 10);
    assert!(small.saturated_after_spike_us() < spike.saturated_after_spike_us());
    assert!(words.contains(&format!("({} 429s)", small.totals.rejected)), "{words}");
    assert!(words.contains(&format!("({} wasted operations)", small.totals.wasted)), "{words}");
}
