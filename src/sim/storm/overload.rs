//! Workload 2: an overloaded server with a concurrency cap, a bounded FIFO
//! queue and 429s; clients with per-attempt timeouts, retries, backoff and
//! an optional retry budget; deduplication by key as in docs/model.md.
//!
//! Work continues after a client times out, so a queued or running
//! operation whose client gave up is wasted. Retries can then keep the
//! server saturated after the trigger is gone: a metastable failure.

use std::collections::VecDeque;

use crate::sim::SimError;
use crate::sim::driver::{Driver, Model, Out};
use crate::sim::rng::Rng;
use crate::sim::time::Micros;

use super::backoff::Sleeper;
use super::budget::{Failure, RetryBudget};
use super::series::{Bucket, Gauge, Series};
use super::settings::{Arrivals, ExecTime, StormSettings};

/// More events than this in one run is a bug.
pub const OVERLOAD_EVENT_BUDGET: usize = 200_000_000;

/// What reaches a client.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    Success,
    /// 429: the queue was full.
    TooMany,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StormEvent {
    /// An answer reaches a client.
    Response { client: u32, attempt: u8, answer: Answer },
    /// A client sends an attempt (its intent arrives with attempt 1).
    Send { client: u32, attempt: u8 },
    /// A request reaches the server.
    Request { client: u32, attempt: u8 },
    /// An operation finishes executing.
    Done(u32),
    /// A client's attempt times out.
    Deadline { client: u32, attempt: u8 },
}

impl StormEvent {
    /// docs/model.md's order at equal times: answers, sends, arrivals, commits,
    /// deadlines.
    fn class(&self) -> u8 {
        match self {
            StormEvent::Response { .. } => 1,
            StormEvent::Send { .. } => 2,
            StormEvent::Request { .. } => 4,
            StormEvent::Done(_) => 5,
            StormEvent::Deadline { .. } => 6,
        }
    }
}

/// How an intent ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    Acknowledged,
    Exhausted,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ClientState {
    Idle,
    Waiting { attempt: u8 },
    Awaiting { attempt: u8, deadline: Micros },
    Done(Ending),
}

#[derive(Clone, Copy, Debug)]
struct StormClient {
    state: ClientState,
    arrived_at: Micros,
    sleeper: Sleeper,
    /// Effects the server applied for this intent (the ledger).
    effects: u16,
}

/// What the server knows about a client's stable key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum KeyState {
    Free,
    /// An operation holds it, queued or running.
    Held(u32),
    /// A result is stored until then.
    Stored(Micros),
}

#[derive(Clone, Copy, Debug)]
struct Operation {
    client: u32,
    attempt: u8,
    /// The first joined attempt, as an index into the join list.
    first_join: u32,
}

#[derive(Clone, Copy, Debug)]
struct Join {
    attempt: u8,
    next: u32,
}

const NO_JOIN: u32 = u32::MAX;

/// Totals of one run (docs/storms.md's "Reported").
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Totals {
    pub intents: u64,
    pub acknowledged: u64,
    pub exhausted: u64,
    pub requests: u64,
    pub retries: u64,
    pub operations: u64,
    pub wasted: u64,
    /// Ledger entries beyond one per intent.
    pub duplicate_effects: u64,
    pub rejected: u64,
    pub timeouts: u64,
    pub replays: u64,
    pub joins: u64,
    pub max_queue: u64,
    pub max_in_flight: u64,
    /// The end of the run: when the last intent ended and the server was
    /// idle.
    pub end_us: u64,
}

/// Every actor of one overload run.
#[derive(Clone, Debug)]
pub struct OverloadModel {
    settings: StormSettings,
    rng: Rng,
    budget: RetryBudget,
    clients: Vec<StormClient>,
    keys: Vec<KeyState>,
    ops: Vec<Operation>,
    joins: Vec<Join>,
    queue: VecDeque<u32>,
    running: u32,
    /// Requests and answers on the wire.
    on_the_wire: u64,
    done: u32,
    totals: Totals,
    series: Series,
    /// Acknowledged intents' latencies, in µs.
    latencies: Vec<u64>,
    /// Every intent's time in the system, summed, in µs.
    residence_us: u128,
}

impl OverloadModel {
    pub fn new(settings: &StormSettings) -> OverloadModel {
        let n = settings.arrivals.clients as usize;
        let sleeper = Sleeper::new(&settings.client.backoff);
        OverloadModel {
            rng: Rng::new(settings.seed),
            budget: RetryBudget::new(settings.client.budget),
            clients: vec![StormClient { state: ClientState::Idle, arrived_at: Micros::ZERO, sleeper, effects: 0 }; n],
            keys: vec![KeyState::Free; n],
            ops: Vec::new(),
            joins: Vec::new(),
            queue: VecDeque::new(),
            running: 0,
            on_the_wire: 0,
            done: 0,
            totals: Totals::default(),
            series: Series::new(settings.bucket_us),
            latencies: Vec::new(),
            residence_us: 0,
            settings: settings.clone(),
        }
    }

    /// The operations waiting in the queue, oldest first.
    pub fn queued_ops(&self) -> impl Iterator<Item = u32> + '_ {
        self.queue.iter().copied()
    }

    /// How many requests wait joined to operation `op` (they are answered
    /// when it finishes).
    pub fn joins_of(&self, op: u32) -> u64 {
        let mut n = 0;
        let mut j = self.ops.get(op as usize).map_or(NO_JOIN, |o| o.first_join);
        while j != NO_JOIN {
            n += 1;
            j = self.joins[j as usize].next;
        }
        n
    }

    pub fn queue_len(&self) -> u64 {
        self.queue.len() as u64
    }

    pub fn in_flight(&self) -> u64 {
        u64::from(self.running)
    }

    /// Arrival times of the intents, in client order.
    fn arrival_times(&mut self) -> Vec<Micros> {
        let a = self.settings.arrivals;
        let n = a.clients as usize;
        match a.pattern {
            Arrivals::AllAtOnce => vec![Micros::ZERO; n],
            Arrivals::Uniform => {
                let mut times: Vec<u64> =
                    (0..n).map(|_| (self.rng.unit() * a.window_us as f64).floor() as u64).collect();
                times.sort_unstable();
                times.into_iter().map(Micros).collect()
            }
            Arrivals::Poisson => {
                // A Poisson process whose rate is multiplied during the
                // spike: exponential gaps at the current rate; a gap that
                // would cross into the other rate is redrawn from the
                // boundary (memorylessness makes that exact).
                let spike_from = a.spike_start_us as f64;
                let spike_to = (a.spike_start_us + a.spike_len_us) as f64;
                let rate_at = |t: f64| {
                    let r = a.rate_per_s as f64 / 1e6;
                    if t >= spike_from && t < spike_to { r * a.spike as f64 } else { r }
                };
                let mut t = 0.0f64;
                let mut times = Vec::with_capacity(n);
                while times.len() < n {
                    let next = t + self.rng.exponential(1.0 / rate_at(t));
                    let boundary = if t < spike_from {
                        spike_from
                    } else if t < spike_to {
                        spike_to
                    } else {
                        f64::INFINITY
                    };
                    if next >= boundary && a.spike > 1 {
                        t = boundary;
                        continue;
                    }
                    t = next;
                    times.push(Micros(t.floor() as u64));
                }
                times
            }
        }
    }

    fn transit(&self) -> Micros {
        Micros(self.settings.transit_us)
    }

    fn exec_time(&mut self) -> Micros {
        let mean = self.settings.server.exec_us;
        match self.settings.server.exec {
            ExecTime::Fixed => Micros(mean),
            ExecTime::Exponential => Micros((self.rng.exponential(mean as f64).round() as u64).max(1)),
        }
    }

    fn send_answer(&mut self, out: &mut Out<'_, Self>, now: Micros, client: u32, attempt: u8, answer: Answer) {
        self.on_the_wire += 1;
        out.schedule(now + self.transit(), StormEvent::Response { client, attempt, answer });
    }

    fn set_levels(&mut self, now: Micros) {
        debug_assert!(self.queue.len() <= self.settings.server.queue as usize, "the queue holds at most Q");
        debug_assert!(self.running <= self.settings.server.concurrency, "at most C operations run at once");
        self.series.set(now, Gauge::Queue, self.queue.len() as u64);
        self.series.set(now, Gauge::InFlight, u64::from(self.running));
        self.totals.max_queue = self.totals.max_queue.max(self.queue.len() as u64);
        self.totals.max_in_flight = self.totals.max_in_flight.max(u64::from(self.running));
    }

    fn start_op(&mut self, out: &mut Out<'_, Self>, now: Micros, op: u32) {
        self.running += 1;
        let at = now + self.exec_time();
        out.schedule(at, StormEvent::Done(op));
    }

    fn on_request(&mut self, now: Micros, client: u32, attempt: u8, out: &mut Out<'_, Self>) {
        self.on_the_wire -= 1;
        self.totals.requests += 1;
        self.series.count(now, |b| b.requests += 1);
        let stable = self.settings.server.dedup && self.settings.client.stable_key;
        if stable {
            match self.keys[client as usize] {
                KeyState::Stored(until) if now < Micros(until.us()) => {
                    self.totals.replays += 1;
                    self.send_answer(out, now, client, attempt, Answer::Success);
                    return;
                }
                KeyState::Held(op) => {
                    let join = self.joins.len() as u32;
                    let o = &mut self.ops[op as usize];
                    self.joins.push(Join { attempt, next: o.first_join });
                    o.first_join = join;
                    self.totals.joins += 1;
                    return;
                }
                _ => {}
            }
        }
        self.series.count(now, |b| b.work += 1);
        let cap = self.settings.server.concurrency;
        if self.running >= cap && self.queue.len() >= self.settings.server.queue as usize {
            self.totals.rejected += 1;
            self.series.count(now, |b| b.rejected += 1);
            self.send_answer(out, now, client, attempt, Answer::TooMany);
            return;
        }
        let op = self.ops.len() as u32;
        self.ops.push(Operation { client, attempt, first_join: NO_JOIN });
        if stable {
            self.keys[client as usize] = KeyState::Held(op);
        }
        if self.running < cap {
            self.start_op(out, now, op);
        } else {
            self.queue.push_back(op);
        }
        self.set_levels(now);
    }

    /// Whether `client` still waits for `attempt`'s answer at `now`.
    fn awaits(&self, client: u32, attempt: u8, now: Micros) -> bool {
        matches!(self.clients[client as usize].state,
            ClientState::Awaiting { attempt: a, deadline } if a == attempt && now < deadline)
    }

    fn on_done(&mut self, now: Micros, op: u32, out: &mut Out<'_, Self>) {
        let Operation { client, attempt, first_join } = self.ops[op as usize];
        self.running -= 1;
        self.totals.operations += 1;
        // The effect: one ledger entry for this intent.
        let c = &mut self.clients[client as usize];
        c.effects += 1;
        if c.effects > 1 {
            self.totals.duplicate_effects += 1;
        }
        if self.settings.server.dedup && self.settings.client.stable_key {
            self.keys[client as usize] = KeyState::Stored(now + Micros(self.settings.server.retention_us));
        }
        let mut waited = self.awaits(client, attempt, now);
        self.send_answer(out, now, client, attempt, Answer::Success);
        let mut j = first_join;
        while j != NO_JOIN {
            let Join { attempt, next } = self.joins[j as usize];
            waited |= self.awaits(client, attempt, now);
            self.send_answer(out, now, client, attempt, Answer::Success);
            j = next;
        }
        self.series.count(now, |b| {
            b.completions += 1;
            if !waited {
                b.wasted += 1;
            }
        });
        if !waited {
            self.totals.wasted += 1;
        }
        if let Some(next) = self.queue.pop_front() {
            self.start_op(out, now, next);
        }
        self.set_levels(now);
    }

    fn on_send(&mut self, now: Micros, client: u32, attempt: u8, out: &mut Out<'_, Self>) {
        let c = &mut self.clients[client as usize];
        match c.state {
            ClientState::Idle if attempt == 1 => {
                c.arrived_at = now;
                self.totals.intents += 1;
                self.series.count(now, |b| b.intents += 1);
                let in_system = self.series.level(Gauge::InSystem) + 1;
                self.series.set(now, Gauge::InSystem, in_system);
            }
            ClientState::Waiting { attempt: a } if a == attempt => {
                self.totals.retries += 1;
                self.series.count(now, |b| b.retries += 1);
            }
            _ => return,
        }
        let deadline = now + Micros(self.settings.client.timeout_us);
        self.clients[client as usize].state = ClientState::Awaiting { attempt, deadline };
        self.on_the_wire += 1;
        out.schedule(now + self.transit(), StormEvent::Request { client, attempt });
        out.schedule(deadline, StormEvent::Deadline { client, attempt });
    }

    fn finish(&mut self, now: Micros, client: u32, ending: Ending) {
        let c = &mut self.clients[client as usize];
        c.state = ClientState::Done(ending);
        let residence = now.us() - c.arrived_at.us();
        self.residence_us += u128::from(residence);
        self.done += 1;
        match ending {
            Ending::Acknowledged => {
                self.totals.acknowledged += 1;
                self.latencies.push(residence);
                self.series.count(now, |b| b.acknowledged += 1);
            }
            Ending::Exhausted => self.totals.exhausted += 1,
        }
        let in_system = self.series.level(Gauge::InSystem) - 1;
        self.series.set(now, Gauge::InSystem, in_system);
    }

    /// An attempt failed: retry after backoff if an attempt and the budget
    /// allow it, otherwise give up.
    fn after_failure(&mut self, now: Micros, client: u32, attempt: u8, failure: Failure, out: &mut Out<'_, Self>) {
        let c = self.settings.client;
        if u32::from(attempt) >= c.max_attempts || !self.budget.on_failure(failure) {
            self.finish(now, client, Ending::Exhausted);
            return;
        }
        let sleep = self.clients[client as usize].sleeper.sleep_us(&c.backoff, u32::from(attempt), &mut self.rng);
        let next = attempt + 1;
        self.clients[client as usize].state = ClientState::Waiting { attempt: next };
        out.schedule(now + Micros(sleep), StormEvent::Send { client, attempt: next });
    }

    /// The run's results, once it is over.
    pub fn into_run(self, end: Micros) -> OverloadRun {
        let mut totals = self.totals;
        totals.end_us = end.us();
        let (series, system_area) = self.series.finish(end);
        let mut latencies = self.latencies;
        latencies.sort_unstable();
        OverloadRun {
            capacity_per_s: self.settings.capacity_per_s(),
            bucket_us: self.settings.bucket_us,
            settings: self.settings,
            totals,
            series,
            latencies_us: latencies,
            residence_us: self.residence_us,
            system_area,
        }
    }
}

impl Model for OverloadModel {
    type Time = Micros;
    type Event = StormEvent;
    type Record = ();

    fn class(event: &StormEvent) -> u8 {
        event.class()
    }

    fn start(&mut self, out: &mut Out<'_, Self>) {
        for (client, at) in self.arrival_times().into_iter().enumerate() {
            out.schedule(at, StormEvent::Send { client: client as u32, attempt: 1 });
        }
    }

    fn handle(&mut self, now: Micros, event: StormEvent, out: &mut Out<'_, Self>) -> Result<(), SimError> {
        match event {
            StormEvent::Send { client, attempt } => self.on_send(now, client, attempt, out),
            StormEvent::Request { client, attempt } => self.on_request(now, client, attempt, out),
            StormEvent::Done(op) => self.on_done(now, op, out),
            StormEvent::Response { client, attempt, answer } => {
                self.on_the_wire -= 1;
                if !self.awaits(client, attempt, now)
                    && !matches!(self.clients[client as usize].state,
                        ClientState::Awaiting { attempt: a, deadline } if a == attempt && now == deadline)
                {
                    // Late: the client no longer waits for it.
                    return Ok(());
                }
                match answer {
                    Answer::Success => {
                        self.budget.on_success();
                        self.finish(now, client, Ending::Acknowledged);
                    }
                    Answer::TooMany => self.after_failure(now, client, attempt, Failure::Refused, out),
                }
            }
            StormEvent::Deadline { client, attempt } => {
                if matches!(self.clients[client as usize].state,
                    ClientState::Awaiting { attempt: a, deadline } if a == attempt && deadline == now)
                {
                    self.totals.timeouts += 1;
                    self.series.count(now, |b| b.timeouts += 1);
                    self.after_failure(now, client, attempt, Failure::TimedOut, out);
                }
            }
        }
        Ok(())
    }

    /// Every intent ended, the server is idle and nothing is on the wire.
    fn is_finished(&self) -> bool {
        self.done as usize == self.clients.len() && self.running == 0 && self.queue.is_empty() && self.on_the_wire == 0
    }

    fn stamp(_: &()) -> (Micros, bool) {
        (Micros::ZERO, false)
    }
}

/// One overload run's results.
#[derive(Clone, Debug, PartialEq)]
pub struct OverloadRun {
    pub settings: StormSettings,
    pub totals: Totals,
    pub series: Vec<Bucket>,
    pub bucket_us: u64,
    pub capacity_per_s: f64,
    /// Acknowledged intents' latencies, sorted.
    pub latencies_us: Vec<u64>,
    /// The sum of every intent's time in the system.
    pub residence_us: u128,
    /// The area under "intents in the system", integrated over the run.
    pub system_area: u128,
}

impl OverloadRun {
    pub fn simulate(settings: &StormSettings) -> Result<OverloadRun, SimError> {
        let mut driver = OverloadRun::driver(settings);
        driver.run_to_end()?;
        OverloadRun::finish(driver)
    }

    /// A run, and its work (`Driver::work`): how the engine's cost grows
    /// with the clients, counted rather than timed.
    pub fn simulate_counting(settings: &StormSettings) -> Result<(OverloadRun, u64), SimError> {
        let mut driver = OverloadRun::driver(settings);
        driver.run_to_end()?;
        let work = driver.work();
        Ok((OverloadRun::finish(driver)?, work))
    }

    /// A driver for one run of `settings`, ready to start.
    pub fn driver(settings: &StormSettings) -> Driver<OverloadModel> {
        let horizon = Some(Micros(settings.horizon_us));
        Driver::new(OverloadModel::new(settings), OVERLOAD_EVENT_BUDGET, horizon)
    }

    /// The results of a driver that has run to its end.
    pub fn finish(driver: Driver<OverloadModel>) -> Result<OverloadRun, SimError> {
        if !driver.model().is_finished() {
            return Err(SimError::HorizonReached { horizon: driver.model().settings.horizon_us / 1000 });
        }
        let end = driver.now();
        let (model, _) = driver.into_parts();
        Ok(model.into_run(end))
    }

    /// The latency at percentile `p` (0 to 100) of acknowledged intents.
    pub fn percentile_us(&self, p: u32) -> Option<u64> {
        let n = self.latencies_us.len();
        if n == 0 {
            return None;
        }
        // Nearest rank.
        let rank = (u64::from(p) * n as u64).div_ceil(100).max(1) as usize;
        Some(self.latencies_us[rank.min(n) - 1])
    }

    /// Operations executed per intent.
    pub fn amplification(&self) -> f64 {
        if self.totals.intents == 0 { 0.0 } else { self.totals.operations as f64 / self.totals.intents as f64 }
    }

    /// Little's law: (L measured by integration, λ, W, λ × W).
    pub fn littles_law(&self) -> (f64, f64, f64, f64) {
        let t = self.totals.end_us.max(1) as f64;
        let l = self.system_area as f64 / t;
        let lambda = self.totals.intents as f64 / t;
        let w = if self.totals.intents == 0 { 0.0 } else { self.residence_us as f64 / self.totals.intents as f64 };
        (l, lambda * 1e6, w / 1e3, lambda * w)
    }

    /// Requests a bucket may bring before the server is over capacity.
    pub fn capacity_per_bucket(&self) -> f64 {
        self.capacity_per_s * self.bucket_us as f64 / 1e6
    }

    /// After the spike ends: the index of the first bucket whose offered
    /// work (requests needing an operation) is at or under capacity, if any.
    pub fn recovery_bucket(&self) -> Option<usize> {
        let a = self.settings.arrivals;
        let spike_end = a.spike_start_us + a.spike_len_us;
        let first = spike_end.div_ceil(self.bucket_us) as usize;
        let cap = self.capacity_per_bucket();
        (first..self.series.len()).find(|&i| f64::from(self.series[i].work) <= cap)
    }

    /// How long after the spike's end the offered work stayed above
    /// capacity, in µs (to the start of the first bucket at or under it).
    pub fn saturated_after_spike_us(&self) -> u64 {
        let a = self.settings.arrivals;
        let spike_end = a.spike_start_us + a.spike_len_us;
        let recovered = self.recovery_bucket().map_or(self.totals.end_us, |i| i as u64 * self.bucket_us);
        recovered.saturating_sub(spike_end)
    }
}
