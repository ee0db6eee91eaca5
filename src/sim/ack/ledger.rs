//! The committed-effect ledger: every increment the server really performed.
//! It is the truth the client's status can disagree with.

use crate::sim::time::Millis;

use super::facts::{Attempt, ClientId, OpKey, Payload};
use super::server::Operation;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LedgerEntry {
    pub t: Millis,
    pub client: ClientId,
    /// The attempt whose operation committed.
    pub attempt: Attempt,
    pub key: OpKey,
    /// The payload the increment applied.
    pub payload: Payload,
    /// The counter value after this increment (1 for the first entry).
    pub value: u64,
}

#[derive(Clone, Debug, Default)]
pub struct Ledger {
    entries: Vec<LedgerEntry>,
}

impl Ledger {
    /// Appends the increment of `op` and returns the new counter value.
    pub fn append(&mut self, t: Millis, op: &Operation) -> u64 {
        debug_assert!(self.entries.last().is_none_or(|last| last.t <= t), "the ledger is written in time order");
        debug_assert!(op.started_at <= t, "an increment comes after its operation started");
        let value = self.entries.len() as u64 + 1;
        self.entries.push(LedgerEntry {
            t,
            client: op.client,
            attempt: op.origin,
            key: op.key,
            payload: op.payload,
            value,
        });
        value
    }

    pub fn clear(&mut self) {
        self.entries.clear();
    }

    pub fn entries(&self) -> &[LedgerEntry] {
        &self.entries
    }

    pub fn counter(&self) -> u64 {
        self.entries.len() as u64
    }
}
