//! The server: refusals while it is down, fault injection at the door,
//! stored results checked before reservations, leases, 409 and 422, and
//! operations whose commit is four steps a crash can fall between.

use crate::sim::SimError;
use crate::sim::time::Millis;

use super::facts::{Attempt, ClientId, MismatchWith, OpId, OpKey, Origin, Payload};
use super::ledger::Ledger;
use super::settings::{CrashPoint, Door, InFlight, ServerConfig, StoreConfig, StoreKind};

/// The most stored results and reservations the server keeps at once. One
/// client with at most ten attempts needs ten; the bound is a guard.
pub const STORE_CAPACITY: usize = 1024;

/// An operation in flight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Operation {
    pub id: OpId,
    pub client: ClientId,
    pub origin: Attempt,
    pub key: OpKey,
    pub payload: Payload,
    pub started_at: Millis,
    pub commits_at: Millis,
}

/// An attempt waiting for an operation to commit (a join).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Join {
    pub op: OpId,
    pub client: ClientId,
    pub attempt: Attempt,
}

/// A key held by an operation, blocking duplicates while its lease runs.
// Laid out as declared, the key comes first; reordered, it followed the
// payload byte and its padding, and was copied in pieces that straddle
// the ones it was just written in, which makes the copy wait.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct Reservation {
    pub key: OpKey,
    pub origin: Origin,
    pub reserved_at: Millis,
    pub lease_ends: Millis,
}

/// A retained result, valid while `now < expires_at`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoredResult {
    pub key: OpKey,
    pub origin: Origin,
    pub committed_at: Millis,
    pub expires_at: Millis,
    /// The counter value the operation produced.
    pub value: u64,
}

/// Whether the server is serving.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Power {
    Up,
    Down { since: Millis, until: Millis },
}

/// How the server answers an arriving attempt (docs/model.md's server rules).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Admission {
    /// Rule 0: down.
    Refused,
    /// Rule 1: 400.
    Reject,
    /// Rule 2: 503.
    Unavailable,
    /// Rules 3a and 4a: 422.
    Mismatch { with: MismatchWith, origin: Origin },
    /// Rule 3b: the stored result, at once.
    Replayed { result: StoredResult, mismatched: bool },
    /// Rule 4b: joined the operation holding the key; `commits_at` is `None`
    /// when that operation died in a crash and will never answer.
    Joined { origin: Origin, commits_at: Option<Millis>, mismatched: bool },
    /// Rule 4c: 409.
    Conflict { origin: Origin },
    /// Rules 5 and 6.
    Started { op: Operation, reserved: bool, took_over: bool, lease_ends: Option<Millis> },
}

/// The steps of a commit, in order. A crash falls before one of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Step {
    /// The counter is incremented and the ledger entry appended.
    Effect,
    /// The result is stored for the key.
    Record,
    /// The reservation is released.
    Release,
    /// Success responses are sent.
    Respond,
}

/// What a commit (or the crash during one) did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Commit {
    pub op: Operation,
    /// The counter after the effect, if it was applied.
    pub applied: Option<u64>,
    pub stored_until: Option<Millis>,
    pub released: bool,
    /// Whether responses go out (no crash).
    pub respond: bool,
    pub crash: Option<Crash>,
}

/// What a crash destroyed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Crash {
    pub point: CrashPoint,
    pub lost_operations: u32,
    pub wiped: bool,
    pub restarts_at: Millis,
}

#[derive(Clone, Debug)]
pub struct Server {
    config: ServerConfig,
    store_kind: StoreKind,
    power: Power,
    crashed: bool,
    /// Operations in flight, oldest first.
    in_flight: Vec<Operation>,
    /// Attempts waiting on operations, in the order they joined.
    joins: Vec<Join>,
    reservations: Vec<Reservation>,
    results: Vec<StoredResult>,
    next_op: u32,
    dedup_hits: u32,
    mismatched_hits: u32,
    conflicts: u32,
    unprocessable: u32,
    refused: u32,
}

impl Server {
    pub fn new(config: ServerConfig, store: StoreConfig) -> Server {
        Server {
            config,
            store_kind: store.kind,
            power: Power::Up,
            crashed: false,
            in_flight: Vec::new(),
            joins: Vec::new(),
            reservations: Vec::new(),
            results: Vec::new(),
            next_op: 0,
            dedup_hits: 0,
            mismatched_hits: 0,
            conflicts: 0,
            unprocessable: 0,
            refused: 0,
        }
    }

    /// A fresh server for a new run, keeping this one's memory.
    pub fn reset(&mut self, config: ServerConfig, store: StoreConfig) {
        let mut vecs = (
            std::mem::take(&mut self.in_flight),
            std::mem::take(&mut self.joins),
            std::mem::take(&mut self.reservations),
            std::mem::take(&mut self.results),
        );
        vecs.0.clear();
        vecs.1.clear();
        vecs.2.clear();
        vecs.3.clear();
        *self = Server::new(config, store);
        (self.in_flight, self.joins, self.reservations, self.results) = vecs;
    }

    /// Nothing in flight and serving: nothing of the server's can still
    /// happen (orphaned reservations and stored results only wait).
    pub fn is_idle(&self) -> bool {
        self.in_flight.is_empty() && self.power == Power::Up
    }

    pub fn power(&self) -> Power {
        self.power
    }
    pub fn operations(&self) -> &[Operation] {
        &self.in_flight
    }
    pub fn joins(&self) -> &[Join] {
        &self.joins
    }
    pub fn reservations(&self) -> &[Reservation] {
        &self.reservations
    }
    pub fn dedup_hits(&self) -> u32 {
        self.dedup_hits
    }
    pub fn mismatched_hits(&self) -> u32 {
        self.mismatched_hits
    }
    pub fn conflicts(&self) -> u32 {
        self.conflicts
    }
    pub fn unprocessable(&self) -> u32 {
        self.unprocessable
    }
    pub fn refused(&self) -> u32 {
        self.refused
    }

    /// Stored results still valid at `now`.
    pub fn valid_results(&self, now: Millis) -> impl Iterator<Item = &StoredResult> {
        self.results.iter().filter(move |r| now < r.expires_at)
    }

    /// Whether operation `op` is still in flight (it may have died in a crash).
    pub fn is_alive(&self, op: OpId) -> bool {
        self.in_flight.iter().any(|o| o.id == op)
    }

    /// Attempt `attempt` of `client` with `key` and `payload` arrives at
    /// `now`: the first rule that applies decides.
    pub fn on_arrival(
        &mut self,
        now: Millis,
        client: ClientId,
        attempt: Attempt,
        key: OpKey,
        payload: Payload,
    ) -> Result<Admission, SimError> {
        if let Power::Down { .. } = self.power {
            self.refused += 1;
            return Ok(Admission::Refused);
        }
        match self.config.door {
            Door::Reject400 => return Ok(Admission::Reject),
            Door::First503 if attempt == 1 => return Ok(Admission::Unavailable),
            _ if self.config.aimed.unavailable.has(attempt) => return Ok(Admission::Unavailable),
            _ => {}
        }
        // A reservation whose lease has ended, which a new one replaces.
        let mut lapsed = None;
        if self.config.dedup {
            // A completed result wins over a reservation of the same key.
            if let Some(&result) = self.results.iter().find(|r| r.key == key && now < r.expires_at) {
                let mismatched = payload != result.origin.payload;
                if mismatched && self.config.fingerprint {
                    self.unprocessable += 1;
                    return Ok(Admission::Mismatch { with: MismatchWith::StoredResult, origin: result.origin });
                }
                self.count_hit(mismatched);
                return Ok(Admission::Replayed { result, mismatched });
            }
            if let Some(index) = self.reservations.iter().position(|r| r.key == key) {
                let held = self.reservations[index];
                if now < held.lease_ends {
                    let mismatched = payload != held.origin.payload;
                    if mismatched && self.config.fingerprint {
                        self.unprocessable += 1;
                        return Ok(Admission::Mismatch { with: MismatchWith::Reservation, origin: held.origin });
                    }
                    if self.config.in_flight == InFlight::Reject409 {
                        self.conflicts += 1;
                        return Ok(Admission::Conflict { origin: held.origin });
                    }
                    self.count_hit(mismatched);
                    let commits_at = self.in_flight.iter().find(|o| o.id == held.origin.op).map(|o| o.commits_at);
                    self.joins.push(Join { op: held.origin.op, client, attempt });
                    return Ok(Admission::Joined { origin: held.origin, commits_at, mismatched });
                }
                // The lease has ended: the key is free to reserve afresh.
                lapsed = Some(index);
            }
            if self.reservations.len() >= STORE_CAPACITY {
                return Err(SimError::StoreFull { capacity: STORE_CAPACITY });
            }
        }
        let op = Operation {
            id: OpId(self.next_op),
            client,
            origin: attempt,
            key,
            payload,
            started_at: now,
            commits_at: now + self.config.exec,
        };
        self.next_op += 1;
        self.in_flight.push(op);
        debug_assert!(self.in_flight.windows(2).all(|w| w[0].id < w[1].id), "operations in flight, oldest first");
        let mut lease_ends = None;
        if self.config.dedup {
            let reservation = Reservation {
                key,
                origin: Origin { op: op.id, attempt, payload },
                reserved_at: now,
                lease_ends: now + self.config.lease,
            };
            match lapsed {
                Some(index) => self.reservations[index] = reservation,
                None => self.reservations.push(reservation),
            }
            lease_ends = Some(reservation.lease_ends);
            debug_assert!(self.holds_each_key_once(), "one reservation and one stored result per key at most");
        } else {
            debug_assert!(
                self.reservations.is_empty() && self.results.is_empty(),
                "without deduplication no key is kept"
            );
        }
        Ok(Admission::Started { op, reserved: self.config.dedup, took_over: lapsed.is_some(), lease_ends })
    }

    fn count_hit(&mut self, mismatched: bool) {
        self.dedup_hits += 1;
        if mismatched {
            self.mismatched_hits += 1;
        }
    }

    /// Operation `op` reaches its commit instant. `None` if it is no longer
    /// in flight (it died in a crash): a stale event. Otherwise the commit's
    /// steps run in order, unless the crash falls before one of them.
    pub fn on_commit(&mut self, now: Millis, op: OpId, ledger: &mut Ledger) -> Result<Option<Commit>, SimError> {
        let Some(index) = self.in_flight.iter().position(|o| o.id == op) else {
            return Ok(None);
        };
        // Not `swap_remove`: the rest stay oldest first.
        let operation = remove_in_order(&mut self.in_flight, index);
        debug_assert_eq!(operation.commits_at, now, "an operation commits at its commit instant");
        // A crash clears what is in flight, and nothing starts while the
        // server is down: whatever commits, commits on a running server.
        debug_assert_eq!(self.power, Power::Up, "no operation commits while the server is down");
        // The crash setting strikes the first operation started in the run,
        // once; an aimed crash strikes the operation its attempt started.
        let point = match self.config.crash {
            CrashPoint::None => None,
            _ if self.crashed || operation.id != OpId(0) => None,
            point => Some(point),
        };
        let point = point.or(self.config.aimed.crash_of(operation.origin)).unwrap_or(CrashPoint::None);
        let crash_before = match point {
            CrashPoint::None => None,
            CrashPoint::BeforeCommit => Some(Step::Effect),
            // An atomic store makes effect, record and release one
            // transaction: a crash cannot fall between them.
            CrashPoint::AfterEffect if self.store_kind == StoreKind::DurableAtomic => Some(Step::Respond),
            CrashPoint::AfterEffect => Some(Step::Record),
            CrashPoint::AfterRecord => Some(Step::Respond),
        };
        // Every step before the crash runs, in order (all of them without one).
        let runs = |step| crash_before.is_none_or(|crash| step < crash);
        let mut commit =
            Commit { op: operation, applied: None, stored_until: None, released: false, respond: false, crash: None };
        if runs(Step::Effect) {
            commit.applied = Some(ledger.append(now, &operation));
        }
        if runs(Step::Record) && self.config.dedup {
            commit.stored_until = Some(self.store_result(now, &operation, commit.applied)?);
        }
        if runs(Step::Release) && self.config.dedup {
            // Only if this operation still holds the key: a newer
            // reservation made after this one's lease ended stays.
            let held = self.reservations.iter().position(|r| r.key == operation.key && r.origin.op == operation.id);
            if let Some(index) = held {
                remove_in_order(&mut self.reservations, index);
                commit.released = true;
            }
        }
        commit.respond = runs(Step::Respond);
        if crash_before.is_some() {
            commit.crash = Some(self.crash(now, point));
        }
        Ok(Some(commit))
    }

    /// Whether no key has two reservations or two stored results (each is
    /// replaced in place, never added twice).
    fn holds_each_key_once(&self) -> bool {
        let reserved = |i: usize, key: OpKey| self.reservations[..i].iter().all(|r| r.key != key);
        let stored = |i: usize, key: OpKey| self.results[..i].iter().all(|r| r.key != key);
        self.reservations.iter().enumerate().all(|(i, r)| reserved(i, r.key))
            && self.results.iter().enumerate().all(|(i, r)| stored(i, r.key))
    }

    fn store_result(&mut self, now: Millis, op: &Operation, value: Option<u64>) -> Result<Millis, SimError> {
        let result = StoredResult {
            key: op.key,
            origin: Origin { op: op.id, attempt: op.origin, payload: op.payload },
            committed_at: now,
            expires_at: now + self.config.retention,
            value: value.unwrap_or(0),
        };
        match self.results.iter().position(|r| r.key == op.key) {
            Some(i) => {
                debug_assert!(self.results[i].committed_at <= now, "a newer result replaces an older one");
                self.results[i] = result;
            }
            None if self.results.len() >= STORE_CAPACITY => {
                return Err(SimError::StoreFull { capacity: STORE_CAPACITY });
            }
            None => self.results.push(result),
        }
        Ok(result.expires_at)
    }

    /// The server stops: every other operation is lost, joins to them will
    /// never be answered, and an in-memory store forgets everything.
    fn crash(&mut self, now: Millis, point: CrashPoint) -> Crash {
        debug_assert_eq!(self.power, Power::Up, "a server that is down cannot crash");
        self.crashed = true;
        let lost_operations = self.in_flight.len() as u32;
        self.in_flight.clear();
        let wiped = self.store_kind == StoreKind::InMemory;
        if wiped {
            self.reservations.clear();
            self.results.clear();
        }
        let restarts_at = now + self.config.restart;
        self.power = Power::Down { since: now, until: restarts_at };
        Crash { point, lost_operations, wiped, restarts_at }
    }

    /// How many attempts joined `op`.
    pub fn joins_to(&self, op: OpId) -> u32 {
        self.joins.iter().filter(|j| j.op == op).count() as u32
    }

    /// The attempts that joined `op`, in the order they joined, for its
    /// answers (the originating attempt is answered first, by the caller).
    /// The joins are taken off the list.
    pub fn take_joins(&mut self, op: OpId, mut answer: impl FnMut(Join)) {
        if self.joins.is_empty() {
            return;
        }
        self.joins.retain(|j| {
            if j.op == op {
                answer(*j);
                false
            } else {
                true
            }
        });
    }

    /// The server is back. `None` if it was not down until `now` (stale).
    pub fn on_restart(&mut self, now: Millis) -> Option<Millis> {
        match self.power {
            Power::Down { since, until } if until == now => {
                self.power = Power::Up;
                Some(since)
            }
            _ => None,
        }
    }

    /// The retention of the result `op` stored ends at `now`; returns it
    /// if it was still there (a crash may have wiped it, a later commit may
    /// have replaced it).
    pub fn on_expiry(&mut self, now: Millis, op: OpId) -> Option<StoredResult> {
        let index = self.results.iter().position(|r| r.origin.op == op && r.expires_at == now)?;
        Some(remove_in_order(&mut self.results, index))
    }

    /// The lease of the reservation `op` made ends at `now`; returns the
    /// reservation if it is still held (it stays in place until replaced or
    /// released, but no longer blocks the key) and whether it is orphaned.
    pub fn on_lease_end(&mut self, now: Millis, op: OpId) -> Option<(Reservation, bool)> {
        let held = self.reservations.iter().find(|r| r.origin.op == op && r.lease_ends == now)?;
        Some((*held, !self.is_alive(op)))
    }
}

/// Removes element `index` and keeps the rest in order; cheap when it is
/// the last one, as it usually is (one operation in flight, one key held).
fn remove_in_order<T>(list: &mut Vec<T>, index: usize) -> T {
    if index + 1 == list.len() { list.pop().expect("the last element exists") } else { list.remove(index) }
}
