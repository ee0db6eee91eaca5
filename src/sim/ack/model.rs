//! The lost-acknowledgement lab as a model for the shared driver: its
//! actors, and the one `match` that wires what they decide into events and
//! records.

use crate::sim::SimError;
use crate::sim::driver::{Model, Out};
use crate::sim::time::Millis;

use super::client::{Client, Reception};
use super::facts::{Attempt, ClientId, Decision, Event, MessageId, OpId, OpKey, Payload, Record, Status, What};
use super::ledger::Ledger;
use super::network::{Body, Network};
use super::server::{Admission, Server};
use super::settings::Settings;

/// The most events one run may handle. A run needs well under a hundred;
/// hitting this means a bug, and the run stops with an error instead of
/// looping.
pub const EVENT_BUDGET: usize = 10_000;

/// Every actor of one run.
#[derive(Clone, Debug)]
pub struct AckModel {
    pub(crate) clients: Vec<Client>,
    pub(crate) server: Server,
    pub(crate) network: Network,
    pub(crate) ledger: Ledger,
    pub(crate) late_responses: u32,
    /// When the server crashed and when it restarts, once it has crashed.
    pub(crate) crash: Option<(Millis, Millis)>,
    /// No event of the run can happen after this: markers later than it can
    /// never fall inside the run, so they are not scheduled at all.
    latest_end: Millis,
}

/// An upper bound on a run's end: every attempt waits at most its timeout
/// plus the backoff cap before the next is sent; the last request then
/// travels, executes, may meet a crash and a restart, and is answered.
fn latest_end(settings: &Settings) -> Millis {
    let (c, n, s) = (&settings.client, &settings.network, &settings.server);
    let per_attempt = (c.timeout + c.backoff_cap).ms().saturating_mul(u64::from(c.max_attempts));
    Millis(per_attempt) + n.request_transit + s.exec + s.restart + n.response_transit + n.response_transit
}

impl AckModel {
    pub fn new(settings: &Settings) -> AckModel {
        AckModel {
            clients: vec![Client::new(ClientId(0), settings.client)],
            server: Server::new(settings.server, settings.store),
            network: Network::new(settings.network),
            ledger: Ledger::default(),
            late_responses: 0,
            crash: None,
            latest_end: latest_end(settings),
        }
    }

    /// Makes this model a fresh run of `settings`, keeping the memory its
    /// actors hold.
    pub fn reset(&mut self, settings: &Settings) {
        self.clients.clear();
        self.clients.push(Client::new(ClientId(0), settings.client));
        self.server.reset(settings.server, settings.store);
        self.network.reset(settings.network);
        self.ledger.clear();
        self.late_responses = 0;
        self.crash = None;
        self.latest_end = latest_end(settings);
    }

    /// The one client of this lab.
    pub fn client(&self) -> &Client {
        &self.clients[0]
    }

    fn client_mut(&mut self, id: ClientId) -> &mut Client {
        &mut self.clients[id.0 as usize]
    }

    /// Puts an answer to `to` on the wire and schedules its delivery;
    /// returns when it is delivered (or lost).
    #[inline(always)]
    fn answer(
        network: &mut Network,
        out: &mut Out<'_, Self>,
        now: Millis,
        to: (ClientId, Attempt, OpKey),
        status: Status,
    ) -> Millis {
        let (client, attempt, key) = to;
        let (id, arrives_at) = network.send(now, client, attempt, key, Body::Response(status));
        out.schedule(arrives_at, Event::Delivery(id));
        arrives_at
    }

    #[inline(always)]
    fn after(out: &mut Out<'_, Self>, client: ClientId, decision: Decision) {
        if let Decision::Retry { at, .. } = decision {
            out.schedule(at, Event::ClientSends(client));
        }
    }

    /// Attempt `to` reaches the server carrying `payload`.
    fn on_request(
        &mut self,
        now: Millis,
        to: (ClientId, Attempt, OpKey),
        payload: Payload,
        out: &mut Out<'_, Self>,
    ) -> Result<(), SimError> {
        let (client, attempt, key) = to;
        let record = |what| Record { t: now, client, attempt, key: Some(key), what };
        let network = &mut self.network;
        match self.server.on_arrival(now, client, attempt, key, payload)? {
            Admission::Refused => {
                let delivers_at = Self::answer(network, out, now, to, Status::Refused);
                out.record_with(now, true, || record(What::RequestRefused { delivers_at }));
            }
            Admission::Reject => {
                out.record_with(now, true, || record(What::RequestRejected));
                Self::answer(network, out, now, to, Status::Rejected);
            }
            Admission::Unavailable => {
                out.record_with(now, true, || record(What::RequestUnavailable));
                Self::answer(network, out, now, to, Status::Unavailable);
            }
            Admission::Mismatch { with, origin } => {
                out.record_with(now, true, || {
                    record(What::PayloadMismatch { with, origin: origin.attempt, expected: origin.payload })
                });
                Self::answer(network, out, now, to, Status::Unprocessable);
            }
            Admission::Conflict { origin } => {
                out.record_with(now, true, || record(What::InFlightConflict { origin: origin.attempt }));
                Self::answer(network, out, now, to, Status::Conflict);
            }
            Admission::Joined { origin, commits_at, mismatched } => {
                out.record_with(now, true, || {
                    record(What::DedupJoined { origin: origin.attempt, commits_at, mismatched })
                });
            }
            Admission::Replayed { result, mismatched } => {
                out.record_with(now, true, || {
                    record(What::DedupReplayed {
                        origin: result.origin.attempt,
                        committed_at: result.committed_at,
                        value: result.value,
                        mismatched,
                    })
                });
                Self::answer(network, out, now, to, Status::Success);
            }
            Admission::Started { op, reserved, took_over, lease_ends } => {
                out.schedule(op.commits_at, Event::Commit(op.id));
                if let Some(ends) = lease_ends.filter(|&t| t <= self.latest_end) {
                    out.schedule(ends, Event::LeaseEnds(op.id));
                }
                out.record_with(now, true, || {
                    record(What::OperationStarted {
                        op: op.id,
                        reserved,
                        took_over,
                        commits_at: op.commits_at,
                        lease_ends,
                        payload,
                    })
                });
            }
        }
        Ok(())
    }

    fn on_commit(&mut self, now: Millis, op: OpId, out: &mut Out<'_, Self>) -> Result<(), SimError> {
        let Some(commit) = self.server.on_commit(now, op, &mut self.ledger)? else {
            return Ok(());
        };
        let operation = commit.op;
        let record = |what| Record {
            t: now,
            client: operation.client,
            attempt: operation.origin,
            key: Some(operation.key),
            what,
        };
        if let Some(until) = commit.stored_until.filter(|&t| t <= self.latest_end) {
            out.schedule(until, Event::ResultExpires(operation.id));
        }
        if let Some(crash) = commit.crash {
            self.crash.get_or_insert((now, crash.restarts_at));
            out.schedule(crash.restarts_at, Event::ServerRestarts);
            out.record_with(now, true, || {
                record(What::ServerCrashed {
                    op: operation.id,
                    point: crash.point,
                    applied: commit.applied,
                    stored_until: commit.stored_until,
                    released: commit.released,
                    lost_operations: crash.lost_operations,
                    wiped: crash.wiped,
                    restarts_at: crash.restarts_at,
                })
            });
            return Ok(());
        }
        // The originating attempt first, then every joined one in order.
        let answered = if commit.respond { 1 + self.server.joins_to(operation.id) } else { 0 };
        out.record_with(now, true, || {
            record(What::OperationCommitted {
                op: operation.id,
                started_at: operation.started_at,
                value: commit.applied.unwrap_or(0),
                payload: operation.payload,
                stored_until: commit.stored_until,
                released: commit.released,
                answered,
            })
        });
        if commit.respond {
            let network = &mut self.network;
            let key = operation.key;
            Self::answer(network, out, now, (operation.client, operation.origin, key), Status::Success);
            self.server.take_joins(operation.id, |j| {
                Self::answer(network, out, now, (j.client, j.attempt, key), Status::Success);
            });
        }
        Ok(())
    }

    /// Message `id` reaches its client, or vanishes.
    #[inline(always)]
    fn on_delivery(&mut self, now: Millis, id: MessageId, out: &mut Out<'_, Self>) {
        let Some(message) = self.network.on_arrival(id) else {
            return;
        };
        let Body::Response(status) = message.body else { unreachable!("only answers are scheduled as Delivery") };
        let (client, attempt, key, sent_at, dropped) =
            (message.client, message.attempt, message.key, message.sent_at, message.dropped);
        let record = |what| Record { t: now, client, attempt, key: Some(key), what };
        if dropped {
            out.record_with(now, true, || record(What::ResponseLost { status, sent_at }));
            return;
        }
        match self.client_mut(client).on_response(now, attempt, status) {
            Reception::Decided(decision) => {
                out.record_with(now, true, || record(What::ResponseDelivered { status, sent_at, decision }));
                Self::after(out, client, decision);
            }
            Reception::Late => {
                self.late_responses += 1;
                out.record_with(now, true, || record(What::ResponseLate { status, sent_at }));
            }
        }
    }
}

impl Model for AckModel {
    type Time = Millis;
    type Event = Event;
    type Record = Record;

    fn class(event: &Event) -> u8 {
        event.class()
    }

    fn start(&mut self, out: &mut Out<'_, Self>) {
        for client in &self.clients {
            out.schedule(Millis::ZERO, Event::ClientSends(client.id()));
        }
    }

    // Inlined into the driver's loop, so every event is not a call.
    #[inline(always)]
    fn handle(&mut self, now: Millis, event: Event, out: &mut Out<'_, Self>) -> Result<(), SimError> {
        match event {
            Event::ClientSends(client) => {
                let Some(sent) = self.client_mut(client).on_send(now) else {
                    return Ok(());
                };
                let attempt = sent.attempt;
                let (id, arrives_at) = self.network.send(now, client, attempt, sent.key, Body::Request(sent.payload));
                out.schedule(arrives_at, Event::RequestArrives(id));
                out.schedule(sent.deadline, Event::DeadlinePasses(id));
                out.record_with(now, true, || Record {
                    t: now,
                    client,
                    attempt,
                    key: Some(sent.key),
                    what: What::AttemptSent { deadline: sent.deadline, arrives_at, payload: sent.payload },
                });
            }
            Event::RequestArrives(id) => {
                let Some(request) = self.network.on_arrival(id) else {
                    return Ok(());
                };
                let Body::Request(payload) = request.body else {
                    unreachable!("only requests are scheduled as RequestArrives")
                };
                let to = (request.client, request.attempt, request.key);
                if request.dropped {
                    let sent_at = request.sent_at;
                    out.record_with(now, true, || Record {
                        t: now,
                        client: to.0,
                        attempt: to.1,
                        key: Some(to.2),
                        what: What::RequestLost { sent_at },
                    });
                    return Ok(());
                }
                self.on_request(now, to, payload, out)?;
            }
            Event::Commit(op) => self.on_commit(now, op, out)?,
            Event::Delivery(id) => self.on_delivery(now, id, out),
            Event::DeadlinePasses(id) => {
                let request = self.network.message(id);
                let (client, attempt) = (request.client, request.attempt);
                if let Some((key, decision)) = self.client_mut(client).on_deadline(now, attempt) {
                    out.record_with(now, true, || Record {
                        t: now,
                        client,
                        attempt,
                        key: Some(key),
                        what: What::AttemptTimedOut { decision },
                    });
                    Self::after(out, client, decision);
                }
            }
            Event::ServerRestarts => {
                if let Some(crashed_at) = self.server.on_restart(now) {
                    out.record_with(now, true, || Record {
                        t: now,
                        client: ClientId(0),
                        attempt: 0,
                        key: None,
                        what: What::ServerRestarted { crashed_at },
                    });
                }
            }
            Event::ResultExpires(op) => {
                if let Some(result) = self.server.on_expiry(now, op) {
                    out.record_with(now, false, || Record {
                        t: now,
                        client: result.key.client,
                        attempt: result.origin.attempt,
                        key: Some(result.key),
                        what: What::StoredResultExpired { committed_at: result.committed_at },
                    });
                }
            }
            Event::LeaseEnds(op) => {
                if let Some((held, orphaned)) = self.server.on_lease_end(now, op) {
                    out.record_with(now, false, || Record {
                        t: now,
                        client: held.key.client,
                        attempt: held.origin.attempt,
                        key: Some(held.key),
                        what: What::LeaseEnded { reserved_at: held.reserved_at, orphaned },
                    });
                }
            }
        }
        Ok(())
    }

    /// Nothing is left to happen: every client is done, no operation is in
    /// flight, the server is up and nothing is on the wire (requests
    /// included: a request still travelling will start an operation when it
    /// lands). Whatever the queue still holds is then only stale deadlines
    /// and markers.
    fn is_finished(&self) -> bool {
        // Asked before every event: the checks that fail most often mid-run
        // come first.
        self.network.is_idle() && self.server.is_idle() && self.clients.iter().all(Client::is_done)
    }

    fn stamp(record: &Record) -> (Millis, bool) {
        (record.t, !record.what.is_marker())
    }
}
