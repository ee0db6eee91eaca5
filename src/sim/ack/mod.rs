//! The lost-acknowledgement lab (docs/model.md): one client retries one
//! increment against one server that may deduplicate, crash, lose its store
//! and answer 409 or 422.
//!
//! Adding an actor or a fault: the actor gets its own module with `on_*`
//! handlers that take the current time and return decisions; a parameter
//! is one `ParamDef` in [`settings`] read through its actor's configuration;
//! new happenings are [`What`] variants (facts; `view` words them), and new
//! timers are [`Event`] variants with a tie-break class. The model's one
//! `match` wires them together.

pub mod backoff;
pub mod checks;
pub mod client;
pub mod compare;
pub mod explore;
pub mod facts;
pub mod ledger;
pub mod model;
pub mod network;
pub mod run;
pub mod server;
pub mod settings;
pub mod snapshot;

pub use client::ClientState;
pub use facts::{
    Attempt, ClientId, Decision, Event, ExhaustedBy, KeyName, MismatchWith, OpId, OpKey, Outcome, Payload, Record,
    Status, What,
};
pub use model::{AckModel, EVENT_BUDGET};
pub use run::{Run, Summary, Workspace};
pub use settings::{CrashPoint, Fault, InFlight, Jitter, KeyMode, PayloadMode, RawSettings, Settings, StoreKind};
pub use snapshot::Snapshot;
