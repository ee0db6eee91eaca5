//! The simulation core: a pure, deterministic discrete-event model of one
//! client retrying one increment against one server (MODEL.md).
//!
//! Sans-IO: no clock, no randomness, no floating point, nothing from the web.
//! The browser and the command line feed it [`Settings`], and render the
//! [`Run`] it returns.
//!
//! Adding an actor or a fault: the actor gets its own module with `on_*`
//! handlers that take the current time and return decisions; the fault is a
//! [`Fault`] variant read where it applies; new happenings are [`What`]
//! variants with a sentence, and new timers are [`event`] variants with a
//! tie-break class. The engine's one `match` wires them together.

pub mod backoff;
pub mod client;
pub mod engine;
pub mod event;
pub mod ledger;
pub mod mirror;
pub mod network;
mod queue;
pub mod report;
pub mod run;
pub mod server;
pub mod settings;
pub mod settings_file;
pub mod snapshot;
pub mod time;

use std::fmt;

pub use client::ClientState;
pub use engine::{EVENT_BUDGET, Simulation};
pub use event::{Attempt, Decision, OpKey, Outcome, Record, Status, What};
pub use mirror::text_mirror;
pub use report::run_to_json;
pub use run::{Run, Summary};
pub use settings::{Fault, FieldError, Jitter, KeyMode, Param, RawSettings, Settings};
pub use snapshot::Snapshot;
pub use time::Millis;

/// Why a run stopped early. None of these is reachable with valid v1
/// settings; they are the bounds that keep a bug from looping or growing
/// without limit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SimError {
    EventBudgetExceeded { budget: usize },
    StoreFull { capacity: usize },
    Stalled { at: Millis },
}

impl fmt::Display for SimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SimError::EventBudgetExceeded { budget } => {
                write!(f, "the run exceeded its budget of {budget} events and was stopped")
            }
            SimError::StoreFull { capacity } => {
                write!(f, "the server's key store exceeded its capacity of {capacity} entries and the run was stopped")
            }
            SimError::Stalled { at } => {
                write!(f, "the run stalled at {at} with work still pending")
            }
        }
    }
}

impl std::error::Error for SimError {}
