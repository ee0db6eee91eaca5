//! The driver: one queue, one `step()`, one `match` that wires the actors.
//!
//! Actors decide; the engine schedules what they decided and records it.
//! Nothing here reads a clock: time advances only by popping the queue.

use super::SimError;
use super::client::{Client, Reception};
use super::event::{Attempt, Decision, Event, OpKey, Record, Status, What};
use super::ledger::Ledger;
use super::network::{Network, Payload};
use super::queue::EventQueue;
use super::run::{Run, Summary};
use super::server::{Admission, Server};
use super::settings::Settings;
use super::snapshot::Snapshot;
use super::time::Millis;

/// The most queue entries one run may process. A v1 run needs well under a
/// hundred; hitting this means a bug, and the run stops with an error
/// instead of looping.
pub const EVENT_BUDGET: usize = 10_000;

/// A run in progress.
#[derive(Clone, Debug)]
pub struct Simulation {
    settings: Settings,
    now: Millis,
    queue: EventQueue,
    client: Client,
    server: Server,
    network: Network,
    ledger: Ledger,
    records: Vec<Record>,
    late_responses: u32,
    steps: usize,
}

impl Simulation {
    pub fn new(settings: &Settings) -> Simulation {
        let mut queue = EventQueue::default();
        queue.schedule(Millis::ZERO, Event::ClientSends(1));
        Simulation {
            settings: settings.clone(),
            now: Millis::ZERO,
            queue,
            client: Client::new(settings),
            server: Server::new(settings),
            network: Network::new(settings),
            ledger: Ledger::default(),
            records: Vec::with_capacity(32),
            late_responses: 0,
            steps: 0,
        }
    }

    pub fn now(&self) -> Millis {
        self.now
    }

    pub fn records(&self) -> &[Record] {
        &self.records
    }

    /// Nothing is left to happen: the client is done, no operation is in
    /// flight and nothing is on the wire (requests included: a request still
    /// travelling will start an operation when it lands). Whatever the queue
    /// still holds is then only stale deadlines and expiry markers.
    pub fn is_finished(&self) -> bool {
        self.client.is_done() && self.server.is_idle() && self.network.is_idle()
    }

    /// Handles the next queue entry. `Ok(false)` once the run is over.
    pub fn step(&mut self) -> Result<bool, SimError> {
        if self.is_finished() {
            return Ok(false);
        }
        let Some((at, event)) = self.queue.pop() else {
            // Unreachable while the actors and the queue agree; reported
            // rather than trusted.
            return Err(SimError::Stalled { at: self.now });
        };
        self.steps += 1;
        if self.steps > EVENT_BUDGET {
            return Err(SimError::EventBudgetExceeded { budget: EVENT_BUDGET });
        }
        debug_assert!(at >= self.now, "time never goes backwards");
        self.now = at;
        self.dispatch(at, event)?;
        Ok(true)
    }

    /// Handles every event at or before `t`.
    pub fn run_until(&mut self, t: Millis) -> Result<(), SimError> {
        while !self.is_finished() && self.queue.peek_time().is_some_and(|next| next <= t) {
            self.step()?;
        }
        Ok(())
    }

    /// Runs to the end and keeps what the run produced.
    pub fn run_to_end(mut self) -> Result<Run, SimError> {
        while self.step()? {}
        let summary = self.summary();
        Ok(Run::from_parts(self.settings, self.records, self.ledger.entries().to_vec(), summary))
    }

    /// The state of every actor now.
    pub fn snapshot(&self) -> Snapshot {
        self.snapshot_at(self.now)
    }

    /// The state of every actor, described as of `t` (at or after the last
    /// handled event): stored results that expire by `t` are left out.
    pub(crate) fn snapshot_at(&self, t: Millis) -> Snapshot {
        debug_assert!(t >= self.now);
        Snapshot {
            t,
            client: self.client.state(),
            attempts_sent: self.client.attempts_sent(),
            ack: self.client.ack(),
            operations: self.server.operations().to_vec(),
            store: self.server.valid_results(t).copied().collect(),
            in_transit: self.network.in_transit().to_vec(),
            lost: self.network.lost().to_vec(),
            ledger: self.ledger.entries().to_vec(),
            dedup_hits: self.server.dedup_hits(),
            late_responses: self.late_responses,
        }
    }

    fn summary(&self) -> Summary {
        let (outcome, outcome_at) = match self.client.state() {
            super::client::ClientState::Done { outcome, at } => (outcome, at),
            // run_to_end only returns once the client is done.
            other => unreachable!("run ended with the client in {other:?}"),
        };
        let end = self
            .records
            .iter()
            .rev()
            .find(|r| !matches!(r.what, What::StoredResultExpired { .. }))
            .map_or(Millis::ZERO, |r| r.t);
        Summary {
            outcome,
            outcome_at,
            ack_at: self.client.ack(),
            end,
            committed: self.ledger.counter(),
            dedup_hits: self.server.dedup_hits(),
            attempts: self.client.attempts_sent(),
            lost_responses: self.network.lost().len() as u32,
            late_responses: self.late_responses,
        }
    }

    fn record(&mut self, attempt: Attempt, key: OpKey, what: What) {
        self.records.push(Record { t: self.now, attempt, key, what });
    }

    fn send_response(&mut self, now: Millis, attempt: Attempt, key: OpKey, status: Status) {
        let message = self.network.send(now, attempt, key, Payload::Response(status));
        self.queue.schedule(message.arrives_at, Event::ResponseArrives(message.id));
    }

    fn schedule_decision(&mut self, decision: Decision) {
        if let Decision::Retry { next, at, .. } = decision {
            self.queue.schedule(at, Event::ClientSends(next));
        }
    }

    fn dispatch(&mut self, now: Millis, event: Event) -> Result<(), SimError> {
        match event {
            Event::ClientSends(attempt) => {
                let (key, deadline) = self.client.on_send(now, attempt);
                let request = self.network.send(now, attempt, key, Payload::Request);
                self.queue.schedule(request.arrives_at, Event::RequestArrives(request.id));
                self.queue.schedule(deadline, Event::DeadlinePasses(attempt));
                self.record(attempt, key, What::AttemptSent { deadline, arrives_at: request.arrives_at });
            }
            Event::RequestArrives(id) => {
                let request = self.network.on_arrival(id);
                let (attempt, key) = (request.attempt, request.key);
                match self.server.on_arrival(now, attempt, key)? {
                    Admission::Reject => {
                        self.record(attempt, key, What::RequestRejected);
                        self.send_response(now, attempt, key, Status::Rejected);
                    }
                    Admission::Unavailable => {
                        self.record(attempt, key, What::RequestUnavailable);
                        self.send_response(now, attempt, key, Status::Unavailable);
                    }
                    Admission::Joined { origin, commits_at } => {
                        self.record(attempt, key, What::DedupJoined { origin, commits_at });
                    }
                    Admission::Replayed { result } => {
                        self.record(
                            attempt,
                            key,
                            What::DedupReplayed {
                                origin: result.origin,
                                committed_at: result.committed_at,
                                value: result.value,
                            },
                        );
                        self.send_response(now, attempt, key, Status::Success);
                    }
                    Admission::Started { op, commits_at, reserved } => {
                        self.queue.schedule(commits_at, Event::OperationCommits(op));
                        self.record(attempt, key, What::OperationStarted { reserved, commits_at });
                    }
                }
            }
            Event::OperationCommits(op) => {
                let commit = self.server.on_commit(now, op, &mut self.ledger)?;
                self.record(
                    commit.origin,
                    commit.key,
                    What::OperationCommitted {
                        started_at: commit.started_at,
                        value: commit.value,
                        stored_until: commit.stored_until,
                        answered: commit.answer.len() as u32,
                    },
                );
                for &attempt in &commit.answer {
                    self.send_response(now, attempt, commit.key, Status::Success);
                }
                if let Some(until) = commit.stored_until {
                    self.queue.schedule(until, Event::StoredResultExpires(commit.key));
                }
            }
            Event::ResponseArrives(id) => {
                let response = self.network.on_arrival(id);
                let Payload::Response(status) = response.payload else {
                    unreachable!("only responses are scheduled as ResponseArrives")
                };
                let (attempt, key, sent_at) = (response.attempt, response.key, response.sent_at);
                if response.dropped {
                    self.record(attempt, key, What::ResponseLost { status, sent_at });
                    return Ok(());
                }
                match self.client.on_response(now, attempt, status) {
                    Reception::Decided(decision) => {
                        self.record(attempt, key, What::ResponseDelivered { status, sent_at, decision });
                        self.schedule_decision(decision);
                    }
                    Reception::Late => {
                        self.late_responses += 1;
                        self.record(attempt, key, What::ResponseLate { status, sent_at });
                    }
                }
            }
            Event::DeadlinePasses(attempt) => {
                if let Some((key, decision)) = self.client.on_deadline(now, attempt) {
                    self.record(attempt, key, What::AttemptTimedOut { decision });
                    self.schedule_decision(decision);
                }
            }
            Event::StoredResultExpires(key) => {
                if let Some(result) = self.server.on_expiry(now, key) {
                    self.record(result.origin, key, What::StoredResultExpired { committed_at: result.committed_at });
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stepping_by_hand_gives_the_same_run_as_running_to_the_end() {
        let settings = Settings::default();
        let whole = Run::simulate(&settings).unwrap();
        let mut sim = Simulation::new(&settings);
        let mut times = Vec::new();
        while sim.step().unwrap() {
            times.push(sim.now());
        }
        assert!(times.windows(2).all(|w| w[0] <= w[1]), "time never goes backwards");
        assert_eq!(sim.records(), whole.records());
        assert!(sim.is_finished());
        assert!(!sim.step().unwrap(), "a finished run stays finished");
    }

    #[test]
    fn run_until_handles_everything_at_or_before_its_time_and_nothing_after() {
        let mut sim = Simulation::new(&Settings::default());
        sim.run_until(Millis(2000)).unwrap();
        assert_eq!(sim.now(), Millis(2000));
        assert_eq!(sim.records().last().map(|r| r.kind()), Some("operation-committed"));
        assert_eq!(sim.snapshot().counter(), 1);
        // The lost response at 2050 has not happened yet.
        assert_eq!(sim.snapshot().in_transit.len(), 1);
    }
}
