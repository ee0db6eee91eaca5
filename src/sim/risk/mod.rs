//! The risk-review lab (RISK-MODEL.md): an AI agent calls a tool server's
//! `request_risk_review` through a load balancer and two replicas, which
//! write to a database and call a downstream Risk API; two reconciliation
//! workers probe and resend. A naive server turns one lost response into
//! two reviews; eight pattern switches, one by one, make it safe.
//!
//! Adding an actor or a fault: the actor gets its own module with `on_*`
//! handlers that take the current time and return decisions; a parameter
//! is one `ParamDef` in [`settings`]; a fault is a field of the
//! [`scenario::FaultPlan`] that names the exact call it hits; new
//! happenings are [`What`] variants (facts; `view` words them) and new
//! timers are [`Event`] variants with a tie-break class. The model's one
//! `match` wires them together.

pub mod agent;
pub mod balancer;
pub mod calls;
pub mod checks;
pub mod compare;
pub mod database;
pub mod explore;
pub mod facts;
pub mod model;
pub mod replica;
pub mod risk_api;
pub mod rules;
pub mod run;
pub mod scenario;
pub mod settings;
pub mod snapshot;
pub mod worker;

pub use checks::{Check, CheckName, Fig, Figure, Value};
pub use database::Row;
pub use facts::{
    Actor, AgentDecision, Answer, CallId, Cause, DsKind, ErrorCode, Event, Heard, IntentOutcome, OrderId, Record,
    ReplicaId, Reply, RequestKey, ReviewRef, RowId, Status, Stmt, Tool, UserId, What, WorkerId, is_legal,
};
pub use model::{EVENT_BUDGET, RiskModel};
pub use risk_api::Review;
pub use run::{Run, Summary, Workspace};
pub use settings::{Mode, Pattern, Preset, RawSettings, Settings, Switches};
pub use snapshot::Snapshot;
