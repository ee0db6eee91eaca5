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

    /// The time of a record, and whether it counts towards the end of the
    /// run (markers, which only say when something stops being valid, do
    /// not).
    fn stamp(record: &Self::Record) -> (Self::Time, bool);
}

/// An event a run handled, with its time.
pub type Handled<M> = (<M as Model>::Time, <M as Model>::Event);

/// Whether a run keeps its event list. Sweeps that read only summaries
/// (the crash matrix, the benchmark's summary figure) need not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keep {
    Records,
    SummaryOnly,
}

/// What a handler may do: schedule events and record what happened.
pub struct Out<'a, M: Model + ?Sized> {
    queue: &'a mut EventQueue<M::Time, M::Event>,
    records: &'a mut Vec<M::Record>,
    keep: Keep,
    /// The time of the last record that counts towards the end.
    end: &'a mut M::Time,
}

impl<M: Model + ?Sized> Out<'_, M> {
    // Inlined so the event is written straight into the queue rather than
    // built on the stack and copied (a copy that stalls on every call).
    #[inline(always)]
    pub fn schedule(&mut self, at: M::Time, event: M::Event) {
        self.queue.schedule(at, M::class(&event), event);
    }

    /// Records what `make` builds, at `at`; `counts` says whether it moves
    /// the end of the run (markers do not). Runs that keep only summaries
    /// never build the record at all.
    #[inline(always)]
    pub fn record_with(&mut self, at: M::Time, counts: bool, make: impl FnOnce() -> M::Record) {
        if counts {
            *self.end = at;
        }
        if self.keep == Keep::Records {
            self.records.push(make());
        }
    }

    #[inline(always)]
    pub fn record(&mut self, record: M::Record) {
        let (t, counts) = M::stamp(&record);
        if counts {
            *self.end = t;
        }
        if self.keep == Keep::Records {
            self.records.push(record);
        }
    }
}

/// A run in progress.
#[derive(Clone, Debug)]
pub struct Driver<M: Model> {
    model: M,
    queue: EventQueue<M::Time, M::Event>,
    records: Vec<M::Record>,
    now: M::Time,
    /// The time of the last record that counts towards the end.
    end: M::Time,
    steps: usize,
    budget: usize,
    horizon: Option<M::Time>,
    keep: Keep,
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
            end: M::Time::default(),
            steps: 0,
            budget,
            horizon,
            keep: Keep::Records,
        };
        driver.start();
        driver
    }

    /// Starts a new run of `model`, keeping the memory of the last one (the
    /// queue and the record list), so sweeps allocate once.
    pub fn restart(&mut self, model: M, horizon: Option<M::Time>) {
        self.restart_with(|m| *m = model, horizon);
    }

    /// Keep the event list, or only what the summary needs, from the next
    /// start on.
    pub fn set_keep(&mut self, keep: Keep) {
        self.keep = keep;
    }

    /// Starts a new run by resetting the model in place (keeping the
    /// memory its actors hold, too).
    pub fn restart_with(&mut self, reset: impl FnOnce(&mut M), horizon: Option<M::Time>) {
        reset(&mut self.model);
        self.queue.clear();
        self.records.clear();
        self.now = M::Time::default();
        self.end = M::Time::default();
        self.steps = 0;
        self.horizon = horizon;
        self.start();
    }

    fn out(&mut self) -> (&mut M, Out<'_, M>) {
        let out = Out { queue: &mut self.queue, records: &mut self.records, keep: self.keep, end: &mut self.end };
        (&mut self.model, out)
    }

    fn start(&mut self) {
        let (model, mut out) = self.out();
        model.start(&mut out);
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

    /// The events still to come, in no particular order.
    pub fn pending(&self) -> impl Iterator<Item = (M::Time, M::Event)> + '_ {
        self.queue.pending()
    }

    pub fn steps(&self) -> usize {
        self.steps
    }

    /// The run's work so far, as a count that tests and the bench compare
    /// between runs of different sizes (never a time): every event handled,
    /// and the queue's work beyond a constant per event.
    pub fn work(&self) -> u64 {
        self.steps as u64 + self.queue.work()
    }

    /// The time of the last record that counts towards the end of the run.
    pub fn end(&self) -> M::Time {
        self.end
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
        let Some((at, event)) = self.next() else {
            return Ok(false);
        };
        self.handle(at, event)?;
        Ok(true)
    }

    /// Handles the next event and says which it was (`None` once the run
    /// is over), for walking two runs side by side.
    pub fn step_event(&mut self) -> Result<Option<Handled<M>>, SimError> {
        let Some((at, event)) = self.next() else {
            return Ok(None);
        };
        self.handle(at, event)?;
        Ok(Some((at, event)))
    }

    /// Takes the next event off the queue, unless the run is over.
    #[inline(always)]
    fn next(&mut self) -> Option<(M::Time, M::Event)> {
        if self.model.is_finished() {
            return None;
        }
        self.queue.pop_through(self.horizon)
    }

    #[inline(always)]
    fn handle(&mut self, at: M::Time, event: M::Event) -> Result<(), SimError> {
        self.steps += 1;
        if self.steps > self.budget {
            return Err(SimError::EventBudgetExceeded { budget: self.budget });
        }
        debug_assert!(at >= self.now, "time never goes backwards");
        self.now = at;
        let (model, mut out) = self.out();
        model.handle(at, event, &mut out)
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
        // One loop around the handlers, rather than a call per event.
        while let Some((at, event)) = self.next() {
            self.handle(at, event)?;
        }
        Ok(())
    }

    /// The model and the records, once the run is over.
    pub fn into_parts(self) -> (M, Vec<M::Record>) {
        (self.model, self.records)
    }
}
