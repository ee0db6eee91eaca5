//! The state of every actor at one moment: what the page draws and the
//! text mirror says.

use crate::sim::time::Millis;

use super::agent::Intent;
use super::calls::Call;
use super::database::Row;
use super::facts::{CallId, ReplicaId, WorkerId};
use super::model::RiskModel;
use super::risk_api::Review;
use super::worker::{LastClaim, WorkerState};

/// One replica's gates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GateView {
    pub replica: ReplicaId,
    pub on: bool,
    pub cap: u32,
    pub capacity: u32,
    pub in_flight: u32,
    pub queued: u32,
    pub max_in_flight: u32,
    pub max_queued: u32,
    pub overloaded: u32,
    /// The queued calls, oldest first.
    pub queue: Vec<CallId>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WorkerView {
    pub worker: WorkerId,
    pub state: WorkerState,
    pub last_claim: Option<LastClaim>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    pub t: Millis,
    /// Every call made so far, in order.
    pub calls: Vec<Call>,
    pub intents: Vec<Intent>,
    /// One per replica.
    pub gates: Vec<GateView>,
    /// The table, in id order.
    pub rows: Vec<Row>,
    /// The Risk API's ledger.
    pub reviews: Vec<Review>,
    pub workers: [WorkerView; 2],
    /// Risk API calls under way.
    pub api_in_progress: u32,
    /// The global gate's quota, if it is on.
    pub fleet_quota: Option<u32>,
}

impl Snapshot {
    /// The calls in the slots of all replicas, and those queued at them.
    pub fn fleet(&self) -> (u32, u32) {
        self.gates.iter().fold((0, 0), |(w, q), g| (w + g.in_flight, q + g.queued))
    }

    pub(crate) fn of(model: &RiskModel, t: Millis) -> Snapshot {
        let gate = |i: usize| {
            let r = &model.replicas[i];
            let config = r.config().gates;
            let occupancy = r.occupancy();
            GateView {
                replica: r.id(),
                on: config.on,
                cap: config.cap,
                capacity: config.queue,
                in_flight: occupancy.in_flight,
                queued: occupancy.queued,
                max_in_flight: r.max_in_flight(),
                max_queued: r.max_queued(),
                overloaded: r.overloaded(),
                queue: r.queue().map(|&(call, _)| call).collect(),
            }
        };
        let worker = |i: usize| {
            let w = &model.workers[i];
            WorkerView { worker: w.id(), state: w.state(), last_claim: w.last_claim() }
        };
        Snapshot {
            t,
            calls: model.calls.clone(),
            intents: model.agent.intents().to_vec(),
            gates: (0..model.replicas.len()).map(gate).collect(),
            rows: model.database.rows().to_vec(),
            reviews: model.api.reviews().to_vec(),
            workers: [worker(0), worker(1)],
            api_in_progress: model.api.in_progress(),
            fleet_quota: model.fleet_quota(),
        }
    }
}
