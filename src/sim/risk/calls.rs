//! A tool call's journey: made by the agent, routed, gated and handled by a
//! replica, answered, and heard (or not) by the agent.

use crate::sim::time::Millis;

use super::agent::Sent;
use super::facts::{CallId, CallShape, Heard, IntentId, OrderId, ReplicaId, RequestKey, RowId, Tool, UserId};

/// Where a call is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// On its way to the replica.
    Travelling,
    /// Waiting for a slot since `since`.
    Queued {
        since: Millis,
    },
    /// In a slot: checks, database steps and the Risk API.
    Working,
    Answered,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Call {
    pub id: CallId,
    pub intent: IntentId,
    pub tool: Tool,
    pub request_key: Option<RequestKey>,
    pub order: Option<OrderId>,
    pub review: Option<RowId>,
    pub subject: Option<UserId>,
    pub shape: CallShape,
    pub replica: ReplicaId,
    pub invocation: u32,
    pub made_at: Millis,
    pub stage: Stage,
    /// The row this call inserted.
    pub row: Option<RowId>,
    /// When the replica answered, and what.
    pub answered: Option<(Millis, Heard)>,
    /// When the answer reached the agent.
    pub received_at: Option<Millis>,
    /// Whether its replica already called the Risk API again after a
    /// timeout (the resend design).
    pub resent: bool,
    /// Whether it holds a slot of its replica (and so a place of the fleet).
    pub in_slot: bool,
    /// Creates it sent whose end its replica has not seen: while any is
    /// out, the slot stays held, even after the call is answered.
    pub outstanding: u8,
}

impl Call {
    /// What the agent remembers of it.
    pub fn sent(&self) -> Sent {
        Sent { id: self.id, intent: self.intent, tool: self.tool, invocation: self.invocation }
    }
}
