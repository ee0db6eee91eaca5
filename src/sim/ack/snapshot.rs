//! The state of every actor at one moment: what the diagram draws and the
//! text mirror says.

use crate::sim::time::Millis;

use super::client::ClientState;
use super::ledger::LedgerEntry;
use super::model::AckModel;
use super::network::Message;
use super::server::{Join, Operation, Power, Reservation, StoredResult};

/// A reservation as of the snapshot's moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeldKey {
    pub reservation: Reservation,
    /// Its lease still runs: it blocks duplicates.
    pub blocking: bool,
    /// Its operation died in a crash.
    pub orphaned: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    pub t: Millis,
    pub client: ClientState,
    pub attempts_sent: u32,
    pub ack: Option<Millis>,
    pub power: Power,
    /// Operations in flight on the server, oldest first.
    pub operations: Vec<Operation>,
    /// Attempts waiting on an operation, in the order they joined
    /// (including those waiting on an operation that died).
    pub joins: Vec<Join>,
    /// Reservations still held (deduplication on).
    pub reservations: Vec<HeldKey>,
    /// Stored results still valid at `t` (deduplication on).
    pub store: Vec<StoredResult>,
    /// Requests, answers and refusals on the wire.
    pub in_transit: Vec<Message>,
    /// Responses the fault dropped so far.
    pub lost: Vec<Message>,
    pub ledger: Vec<LedgerEntry>,
    pub dedup_hits: u32,
    pub mismatched_hits: u32,
    pub conflicts: u32,
    pub unprocessable: u32,
    pub refused: u32,
    pub late_responses: u32,
}

impl Snapshot {
    /// The state of `model`, described as of `t` (at or after its last
    /// handled event): results and leases that end by `t` are left out.
    pub(crate) fn of(model: &AckModel, t: Millis) -> Snapshot {
        let server = &model.server;
        let client = model.client();
        Snapshot {
            t,
            client: client.state(),
            attempts_sent: client.attempts_sent(),
            ack: client.ack(),
            power: server.power(),
            operations: server.operations().to_vec(),
            joins: server.joins().to_vec(),
            reservations: server
                .reservations()
                .iter()
                .map(|&r| HeldKey {
                    reservation: r,
                    blocking: t < r.lease_ends,
                    orphaned: !server.is_alive(r.origin.op),
                })
                .collect(),
            store: server.valid_results(t).copied().collect(),
            in_transit: model.network.in_transit().copied().collect(),
            lost: model.network.lost().copied().collect(),
            ledger: model.ledger.entries().to_vec(),
            dedup_hits: server.dedup_hits(),
            mismatched_hits: server.mismatched_hits(),
            conflicts: server.conflicts(),
            unprocessable: server.unprocessable(),
            refused: server.refused(),
            late_responses: model.late_responses,
        }
    }

    pub fn counter(&self) -> u64 {
        self.ledger.len() as u64
    }
}
