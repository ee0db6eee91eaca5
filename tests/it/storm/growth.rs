//! The storm engine's work grows about linearly with the clients, for
//! every arrival pattern: counted (events handled and the queue's work
//! beyond a constant per event, `Driver::work`), never timed.
//!
//! It once grew with their square: 100 000 clients arriving at once with a
//! 1 ms timeout each put their request (soon) into the queue's bucket being
//! emptied before every deadline (later) scheduled so far, so each moved
//! all the deadlines before it, and the run took 69 s instead of 0.3 s.

use idempotency_lab::sim::storm::OverloadRun;
use idempotency_lab::sim::storm::settings::{ARRIVALS, CLIENTS, MAX_ATTEMPTS, RATE, StormSettings, TIMEOUT};

fn work(arrivals: &str, clients: u64) -> u64 {
    let clients = clients.to_string();
    // The link's storm: every client retries up to ten times after a 1 ms
    // timeout. The rate spreads Poisson arrivals over ten seconds whatever
    // the clients, so the server is as overloaded in both runs.
    let rate = (clients.parse::<u64>().unwrap() / 10).to_string();
    let settings = StormSettings::from_pairs(&[
        (&ARRIVALS, arrivals),
        (&CLIENTS, &clients),
        (&MAX_ATTEMPTS, "10"),
        (&TIMEOUT, "1"),
        (&RATE, &rate),
    ])
    .unwrap();
    let (run, work) = OverloadRun::simulate_counting(&settings).unwrap();
    assert_eq!(run.totals.intents, clients.parse::<u64>().unwrap(), "{arrivals}: every client arrived");
    work
}

#[test]
fn ten_times_the_clients_is_about_ten_times_the_work_for_every_arrival_pattern() {
    for arrivals in ["all-at-once", "uniform", "poisson"] {
        let (small, large) = (work(arrivals, 10_000), work(arrivals, 100_000));
        let growth = large as f64 / small as f64;
        // Linear is 10x; the sorts and heaps add a factor of the bits of
        // their sizes, about 17/14 = 1.2 from 10 000 to 100 000 keys, so
        // 12x. A square would be 100x.
        assert!(growth < 15.0, "{arrivals}: the work grew {growth:.1}x ({small} to {large})");
    }
}
