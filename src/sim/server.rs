//! The server: fault injection at the door, atomic key reservation, stored
//! results with retention, and operations that commit whatever the client
//! has done meanwhile.

use std::collections::BTreeMap;

use super::SimError;
use super::event::{Attempt, OpId, OpKey};
use super::ledger::Ledger;
use super::settings::{Fault, Settings};
use super::time::Millis;

/// The most stored results and reservations the server keeps at once. One
/// client with at most ten attempts needs ten; the bound is a guard.
pub const STORE_CAPACITY: usize = 1024;

/// An operation in flight.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Operation {
    pub id: OpId,
    pub origin: Attempt,
    pub key: OpKey,
    pub started_at: Millis,
    pub commits_at: Millis,
    /// Attempts that joined it, in the order they joined.
    pub joined: Vec<Attempt>,
}

/// A retained result, valid while `now < expires_at`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoredResult {
    pub key: OpKey,
    pub origin: Attempt,
    pub committed_at: Millis,
    pub expires_at: Millis,
    /// The counter value the operation produced.
    pub value: u64,
}

/// How the server answers an arriving attempt (MODEL.md's server rules).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Admission {
    Reject,
    Unavailable,
    Joined { origin: Attempt, commits_at: Millis },
    Replayed { result: StoredResult },
    Started { op: OpId, commits_at: Millis, reserved: bool },
}

/// What a commit produced: the new counter value and who gets a success.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Commit {
    pub origin: Attempt,
    pub key: OpKey,
    pub started_at: Millis,
    pub value: u64,
    pub stored_until: Option<Millis>,
    /// The originating attempt first, then every joined attempt in order.
    pub answer: Vec<Attempt>,
}

#[derive(Clone, Debug)]
pub(crate) struct Server {
    settings: Settings,
    in_flight: Vec<Operation>,
    /// Key → the operation holding its reservation.
    reservations: BTreeMap<OpKey, OpId>,
    store: BTreeMap<OpKey, StoredResult>,
    next_op: u32,
    dedup_hits: u32,
}

impl Server {
    pub(crate) fn new(settings: &Settings) -> Server {
        Server {
            settings: settings.clone(),
            in_flight: Vec::new(),
            reservations: BTreeMap::new(),
            store: BTreeMap::new(),
            next_op: 0,
            dedup_hits: 0,
        }
    }

    pub(crate) fn is_idle(&self) -> bool {
        self.in_flight.is_empty()
    }

    pub(crate) fn dedup_hits(&self) -> u32 {
        self.dedup_hits
    }

    pub(crate) fn operations(&self) -> &[Operation] {
        &self.in_flight
    }

    /// Stored results still valid at `now`.
    pub(crate) fn valid_results(&self, now: Millis) -> impl Iterator<Item = &StoredResult> {
        self.store.values().filter(move |r| now < r.expires_at)
    }

    /// Attempt `attempt` with `key` arrives at `now`: the first rule that
    /// applies decides.
    pub(crate) fn on_arrival(&mut self, now: Millis, attempt: Attempt, key: OpKey) -> Result<Admission, SimError> {
        let fault = self.settings.fault();
        if fault == Fault::Reject400 {
            return Ok(Admission::Reject);
        }
        if fault == Fault::First503 && attempt == 1 {
            return Ok(Admission::Unavailable);
        }
        if self.settings.dedup() {
            if let Some(&op) = self.reservations.get(&key) {
                let operation = self.in_flight.iter_mut().find(|o| o.id == op).expect("reserved op is in flight");
                operation.joined.push(attempt);
                self.dedup_hits += 1;
                return Ok(Admission::Joined { origin: operation.origin, commits_at: operation.commits_at });
            }
            if let Some(&result) = self.store.get(&key)
                && now < result.expires_at
            {
                self.dedup_hits += 1;
                return Ok(Admission::Replayed { result });
            }
            if self.reservations.len() >= STORE_CAPACITY {
                return Err(SimError::StoreFull { capacity: STORE_CAPACITY });
            }
        }
        let id = OpId(self.next_op);
        self.next_op += 1;
        let commits_at = now + self.settings.exec();
        let reserved = self.settings.dedup();
        if reserved {
            self.reservations.insert(key, id);
        }
        self.in_flight.push(Operation { id, origin: attempt, key, started_at: now, commits_at, joined: Vec::new() });
        Ok(Admission::Started { op: id, commits_at, reserved })
    }

    /// Operation `op` commits at `now`: one increment in the ledger, the
    /// result stored and the reservation released (deduplication on).
    pub(crate) fn on_commit(&mut self, now: Millis, op: OpId, ledger: &mut Ledger) -> Result<Commit, SimError> {
        let index = self.in_flight.iter().position(|o| o.id == op).expect("committing op is in flight");
        let operation = self.in_flight.swap_remove(index);
        let value = ledger.append(now, operation.origin, operation.key);
        let mut stored_until = None;
        if self.settings.dedup() {
            self.reservations.remove(&operation.key);
            if self.store.len() >= STORE_CAPACITY && !self.store.contains_key(&operation.key) {
                return Err(SimError::StoreFull { capacity: STORE_CAPACITY });
            }
            let expires_at = now + self.settings.retention();
            self.store.insert(
                operation.key,
                StoredResult { key: operation.key, origin: operation.origin, committed_at: now, expires_at, value },
            );
            stored_until = Some(expires_at);
        }
        let mut answer = Vec::with_capacity(1 + operation.joined.len());
        answer.push(operation.origin);
        answer.extend_from_slice(&operation.joined);
        Ok(Commit {
            origin: operation.origin,
            key: operation.key,
            started_at: operation.started_at,
            value,
            stored_until,
            answer,
        })
    }

    /// The retention of `key`'s stored result ends at `now`; returns it if it
    /// was still there (a later commit under the same key may have replaced
    /// it, in which case its own expiry marker is still to come).
    pub(crate) fn on_expiry(&mut self, now: Millis, key: OpKey) -> Option<StoredResult> {
        match self.store.get(&key) {
            Some(r) if r.expires_at == now => self.store.remove(&key),
            _ => None,
        }
    }
}
