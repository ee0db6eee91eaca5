//! Workload 1: optimistic-concurrency contention, the experiment behind the
//! AWS Architecture Blog's "Exponential Backoff And Jitter".
//!
//! One row with a version. Each client reads it, then writes conditionally
//! on the version it read; a stale write fails, and the client sleeps (its
//! backoff) and starts again from the read. Every message takes
//! |N(mean, sd)|. Calls are writes, failed or not; the run ends when every
//! client has written once, and its completion time is when the last
//! client hears its write succeeded.
//!
//! Only a write reaching the server is an event. What a client does with
//! a reply touches nothing another client sees, so the server, as it
//! answers, sends the client's next messages on its behalf: the reply's
//! delay, a failed writer's backoff, then the read's and its reply's and
//! the write's. And a read changes nothing: the version it returns is the
//! number of writes that succeeded before it reached the server, and the
//! write based on it succeeds exactly when no write succeeded after that
//! read: when the latest success is no later than the read (a success at
//! the very microsecond of a read counts as before it). So the server keeps
//! the time of its latest success, not a list. One event per attempt
//! instead of one per message, and the same experiment.

use crate::sim::SimError;
use crate::sim::driver::{Driver, Model, Out};
use crate::sim::rng::{Rng, nearest};
use crate::sim::time::Micros;

use super::backoff::Sleeper;
use super::settings::OccConfig;

/// A run of this many events is a bug, not a contention episode.
pub const OCC_EVENT_BUDGET: usize = 50_000_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OccEvent {
    /// A conditional write reaches the server, based on the version the
    /// client's read found there at `read_at`.
    WriteAtServer { client: u32, read_at: Micros },
}

#[derive(Clone, Debug)]
struct OccClient {
    failures: u32,
    sleeper: Sleeper,
}

/// Every actor of one contention episode.
#[derive(Clone, Debug)]
pub struct OccModel {
    config: OccConfig,
    /// The network's mean and standard deviation in microseconds, as the
    /// normal distribution takes them.
    net: (f64, f64),
    rng: Rng,
    /// When the latest write that succeeded reached the server, if one has.
    latest_success: Option<Micros>,
    clients: Vec<OccClient>,
    done: u32,
    writes: u64,
    failed: u64,
    last_us: Micros,
}

/// What one episode reports.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OccRun {
    /// Writes that reached the server, failed or not (AWS's "calls").
    pub calls: u64,
    pub failed_writes: u64,
    /// When the last client heard its write succeeded.
    pub completion_us: u64,
    /// Events the driver handled.
    pub events: u64,
}

impl OccModel {
    pub fn new(config: OccConfig, rng: Rng) -> OccModel {
        let sleeper = Sleeper::new(&config.backoff);
        OccModel {
            config,
            net: (config.net_mean_us as f64, config.net_sd_us as f64),
            rng,
            latest_success: None,
            clients: vec![OccClient { failures: 0, sleeper }; config.clients as usize],
            done: 0,
            writes: 0,
            failed: 0,
            last_us: Micros::ZERO,
        }
    }

    /// One network delay, |N(mean, sd)|, in whole microseconds.
    #[inline(always)]
    fn delay(&mut self) -> Micros {
        Micros(nearest(self.rng.normal(self.net.0, self.net.1).abs()))
    }

    /// A read reaching the server at `at`, and the write based on it: the
    /// version it finds, travelling back, then the write, travelling out.
    fn read(&mut self, client: u32, at: Micros, out: &mut Out<'_, Self>) {
        let write_at = at + self.delay() + self.delay();
        out.schedule(write_at, OccEvent::WriteAtServer { client, read_at: at });
    }

    /// Whether a write based on a read that reached the server at `read_at`
    /// finds the version that read returned: no write succeeded after it.
    fn still_current(&self, read_at: Micros) -> bool {
        self.latest_success.is_none_or(|s| s <= read_at)
    }

    pub fn result(&self) -> OccRun {
        OccRun { calls: self.writes, failed_writes: self.failed, completion_us: self.last_us.us(), events: 0 }
    }
}

impl Model for OccModel {
    type Time = Micros;
    type Event = OccEvent;
    type Record = ();

    /// Every message is alike: at equal times they arrive in the order
    /// they were sent.
    fn class(_: &OccEvent) -> u8 {
        0
    }

    fn start(&mut self, out: &mut Out<'_, Self>) {
        for client in 0..self.config.clients {
            let at = self.delay();
            self.read(client, at, out);
        }
    }

    fn handle(&mut self, now: Micros, event: OccEvent, out: &mut Out<'_, Self>) -> Result<(), SimError> {
        let OccEvent::WriteAtServer { client, read_at } = event;
        debug_assert!(read_at <= now, "a write is based on an earlier read");
        self.writes += 1;
        let heard = now + self.delay();
        if self.still_current(read_at) {
            debug_assert!(self.latest_success.is_none_or(|s| s <= now), "successes come in time order");
            self.latest_success = Some(now);
            self.done += 1;
            self.last_us = self.last_us.max(heard);
        } else {
            // The failure travels back; the client sleeps, then reads
            // again: the read's delay is drawn first, then the backoff.
            self.failed += 1;
            let travel = self.delay();
            let backoff = self.config.backoff;
            let c = &mut self.clients[client as usize];
            c.failures += 1;
            let sleep = c.sleeper.sleep_us(&backoff, c.failures, &mut self.rng);
            self.read(client, heard + travel + Micros(sleep), out);
        }
        Ok(())
    }

    fn is_finished(&self) -> bool {
        self.done == self.config.clients
    }

    fn stamp(_: &()) -> (Micros, bool) {
        (Micros::ZERO, false)
    }
}

/// Runs contention episodes one after another, reusing memory.
#[derive(Default)]
pub struct OccRunner {
    driver: Option<Driver<OccModel>>,
}

impl OccRunner {
    /// A driver for one episode, ready to start.
    pub fn driver(config: OccConfig, rng: Rng) -> Driver<OccModel> {
        Driver::new(OccModel::new(config, rng), OCC_EVENT_BUDGET, None)
    }

    /// The results of a driver that has run to its end.
    pub fn finish(driver: &Driver<OccModel>) -> Result<OccRun, SimError> {
        if !driver.model().is_finished() {
            return Err(SimError::Stalled { at: driver.now().us() });
        }
        Ok(OccRun { events: driver.steps() as u64, ..driver.model().result() })
    }

    pub fn run(&mut self, config: OccConfig, rng: Rng) -> Result<OccRun, SimError> {
        let model = OccModel::new(config, rng);
        let driver = match &mut self.driver {
            Some(d) => {
                d.restart(model, None);
                d
            }
            None => self.driver.insert(Driver::new(model, OCC_EVENT_BUDGET, None)),
        };
        driver.run_to_end()?;
        OccRunner::finish(driver)
    }
}
