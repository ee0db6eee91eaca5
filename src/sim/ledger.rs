//! The committed-effect ledger: every increment the server really performed.
//! It is the truth the client's status can disagree with.

use super::event::{Attempt, OpKey};
use super::time::Millis;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LedgerEntry {
    pub t: Millis,
    /// The attempt whose operation committed.
    pub attempt: Attempt,
    pub key: OpKey,
    /// The counter value after this increment (1 for the first entry).
    pub value: u64,
}

#[derive(Clone, Debug, Default)]
pub(crate) struct Ledger {
    entries: Vec<LedgerEntry>,
}

impl Ledger {
    /// Appends one increment and returns the new counter value.
    pub(crate) fn append(&mut self, t: Millis, attempt: Attempt, key: OpKey) -> u64 {
        let value = self.entries.len() as u64 + 1;
        self.entries.push(LedgerEntry { t, attempt, key, value });
        value
    }

    pub(crate) fn entries(&self) -> &[LedgerEntry] {
        &self.entries
    }

    pub(crate) fn counter(&self) -> u64 {
        self.entries.len() as u64
    }
}
