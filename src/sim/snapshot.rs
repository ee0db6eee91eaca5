//! The state of every actor at one moment: what the diagram draws and the
//! text mirror says.

use super::client::ClientState;
use super::ledger::LedgerEntry;
use super::network::Message;
use super::server::{Operation, StoredResult};
use super::time::Millis;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    pub t: Millis,
    pub client: ClientState,
    pub attempts_sent: u32,
    pub ack: Option<Millis>,
    /// Operations in flight on the server, oldest first.
    pub operations: Vec<Operation>,
    /// Stored results still valid at `t` (deduplication on).
    pub store: Vec<StoredResult>,
    /// Requests and responses on the wire.
    pub in_transit: Vec<Message>,
    /// Responses the fault dropped so far.
    pub lost: Vec<Message>,
    pub ledger: Vec<LedgerEntry>,
    pub dedup_hits: u32,
    pub late_responses: u32,
}

impl Snapshot {
    pub fn counter(&self) -> u64 {
        self.ledger.len() as u64
    }
}
