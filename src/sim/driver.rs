//! The one driver every lab runs on: a queue, a clock, an event budget, the
//! records a run leaves behind, and an end condition or a horizon.
//!
//! A lab is a [`Model`]: its own event type with tie-break classes, and
//! actors that decide. The driver pops the next event, advances the clock and
//! hands the event to the model, which schedules what its actors decided
//! through [`Out`]. Nothing here reads a clock: time advances only by popping
//! the queue.

use super::SimError;
use super::queue::EventQueue;
use super::time::Instant;

/// A lab's model, as the driver sees it.
pub trait Model {
    type Time: Instant;
    type Event: Copy + std::fmt::Debug;
    /// One line of the run's event list.
    type Record;

    /// The tie-break class of `event` at equal times (lower first).
    fn class(event: &Self::Event) -> u8;

    /// Schedules what happens first.
    fn start(&mut self, out: &mut Out<'_, Self>);

    /// Handles one event at `now`. Events may be stale (an operation voided
    /// by a crash, a deadline already decided): handlers check and ignore
    /// them without recording anything.
    fn handle(&mut self, now: Self::Time, event: Self::Event, out: &mut Out<'_, Self>) -> Result<(), SimError>;

    /// Nothing left to happen matters: whatever the queue still holds is
    /// stale or only a marker. Models that never go quiet (periodic workers)
    /// return false and run to a horizon.
    fn is_finished(&self) -> bool;
}

/// What a handler may do: schedule events and record what happened.
pub struct Out<'a, M: Model + ?Sized> {
    queue: &'a mut EventQueue<M::Time, M::Event>,
    records: &'a mut Vec<M::Record>,
}

impl<M: Model + ?Sized> Out<'_, M> {
    pub fn schedule(&mut self, at: M::Time, event: M::Event) {
        self.queue.schedule(at, M::class(&event), event);
    }

    pub fn record(&mut self, record: M::Record) {
        self.records.push(record);
    }

    /// How many records the run holds so far.
    pub fn recorded(&self) -> usize {
        self.records.len()
    }
}

/// A run in progress.
#[derive(Clone, Debug)]
pub struct Driver<M: Model> {
    model: M,
    queue: EventQueue<M::Time, M::Event>,
    records: Vec<M::Record>,
    now: M::Time,
    steps: usize,
    budget: usize,
    horizon: Option<M::Time>,
}

impl<M: Model> Driver<M> {
    /// A run of `model` that may handle at most `budget` events and, with a
    /// horizon, stops before the first event after it.
    pub fn new(model: M, budget: usize, horizon: Option<M::Time>) -> Driver<M> {
        let mut driver = Driver {
            model,
            queue: EventQueue::default(),
            records: Vec::new(),
            now: M::Time::default(),
            steps: 0,
            budget,
            horizon,
        };
        driver.start();
        driver
    }

    /// Starts a new run of `model`, keeping the memory of the last one (the
    /// queue and the record list), so sweeps allocate once.
    pub fn restart(&mut self, model: M, horizon: Option<M::Time>) {
        self.model = model;
        self.queue.clear();
        self.records.clear();
        self.now = M::Time::default();
        self.steps = 0;
        self.horizon = horizon;
        self.start();
    }

    fn start(&mut self) {
        let mut out = Out { queue: &mut self.queue, records: &mut self.records };
        self.model.start(&mut out);
    }

    pub fn now(&self) -> M::Time {
        self.now
    }

    pub fn model(&self) -> &M {
        &self.model
    }

    pub fn records(&self) -> &[M::Record] {
        &self.records
    }

    pub fn steps(&self) -> usize {
        self.steps
    }

    /// The model is done, the queue is empty, or the next event lies past
    /// the horizon.
    pub fn is_finished(&self) -> bool {
        if self.model.is_finished() {
            return true;
        }
        match (self.queue.peek_time(), self.horizon) {
            (None, _) => true,
            (Some(next), Some(h)) => next > h,
            (Some(_), None) => false,
        }
    }

    /// Handles the next event. `Ok(false)` once the run is over.
    pub fn step(&mut self) -> Result<bool, SimError> {
        if self.is_finished() {
            return Ok(false);
        }
        let Some((at, event)) = self.queue.pop() else {
            return Ok(false);
        };
        self.steps += 1;
        if self.steps > self.budget {
            return Err(SimError::EventBudgetExceeded { budget: self.budget });
        }
        debug_assert!(at >= self.now, "time never goes backwards");
        self.now = at;
        let mut out = Out { queue: &mut self.queue, records: &mut self.records };
        self.model.handle(at, event, &mut out)?;
        Ok(true)
    }

    /// Handles every event at or before `t`.
    pub fn run_until(&mut self, t: M::Time) -> Result<(), SimError> {
        while !self.is_finished() && self.queue.peek_time().is_some_and(|next| next <= t) {
            self.step()?;
        }
        Ok(())
    }

    /// Runs to the end (or the horizon).
    pub fn run_to_end(&mut self) -> Result<(), SimError> {
        while self.step()? {}
        Ok(())
    }

    /// The model and the records, once the run is over.
    pub fn into_parts(self) -> (M, Vec<M::Record>) {
        (self.model, self.records)
    }
}
