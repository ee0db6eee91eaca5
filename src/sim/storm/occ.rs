//! Workload 1: optimistic-concurrency contention, the experiment behind the
//! AWS Architecture Blog's "Exponential Backoff And Jitter".
//!
//! One row with a version. Each client reads it, then writes conditionally
//! on the version it read; a stale write fails, and the client sleeps (its
//! backoff) and starts again from the read. Every message takes
//! |N(mean, sd)|, drawn when it is sent. Calls are writes, failed or not; the
//! run ends when every client has written once, and its completion time is
//! when the last client hears its write succeeded.

use crate::sim::SimError;
use crate::sim::driver::{Driver, Model, Out};
use crate::sim::rng::Rng;
use crate::sim::time::Micros;

use super::backoff::Sleeper;
use super::settings::OccConfig;

/// A run of this many events is a bug, not a contention episode.
pub const OCC_EVENT_BUDGET: usize = 50_000_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OccEvent {
    /// A client's read reaches the server.
    ReadAtServer(u32),
    /// The version the server read reaches the client.
    ReadReply { client: u32, version: u64 },
    /// A conditional write reaches the server.
    WriteAtServer { client: u32, version: u64 },
    /// The write's verdict reaches the client.
    WriteReply { client: u32, ok: bool },
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
    rng: Rng,
    version: u64,
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
            rng,
            version: 0,
            clients: vec![OccClient { failures: 0, sleeper }; config.clients as usize],
            done: 0,
            writes: 0,
            failed: 0,
            last_us: Micros::ZERO,
        }
    }

    /// One network delay, |N(mean, sd)|, in whole microseconds.
    fn delay(&mut self) -> Micros {
        let d = self.rng.normal(self.config.net_mean_us as f64, self.config.net_sd_us as f64);
        // |d| + 0.5, truncated: rounding to the nearest microsecond.
        Micros((d.abs() + 0.5) as u64)
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
            out.schedule(at, OccEvent::ReadAtServer(client));
        }
    }

    fn handle(&mut self, now: Micros, event: OccEvent, out: &mut Out<'_, Self>) -> Result<(), SimError> {
        self.last_us = now;
        match event {
            OccEvent::ReadAtServer(client) => {
                let at = now + self.delay();
                out.schedule(at, OccEvent::ReadReply { client, version: self.version });
            }
            OccEvent::ReadReply { client, version } => {
                let at = now + self.delay();
                out.schedule(at, OccEvent::WriteAtServer { client, version });
            }
            OccEvent::WriteAtServer { client, version } => {
                self.writes += 1;
                let ok = version == self.version;
                if ok {
                    self.version += 1;
                } else {
                    self.failed += 1;
                }
                let at = now + self.delay();
                out.schedule(at, OccEvent::WriteReply { client, ok });
            }
            OccEvent::WriteReply { client, ok: true } => {
                let _ = client;
                self.done += 1;
            }
            OccEvent::WriteReply { client, ok: false } => {
                // Sleep, then read again: the read's network delay is drawn
                // first, then the backoff.
                let travel = self.delay();
                let backoff = self.config.backoff;
                let c = &mut self.clients[client as usize];
                c.failures += 1;
                let sleep = c.sleeper.sleep_us(&backoff, c.failures, &mut self.rng);
                out.schedule(now + travel + Micros(sleep), OccEvent::ReadAtServer(client));
            }
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
