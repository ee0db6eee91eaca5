//! The simulation core: a pure, deterministic discrete-event engine and the
//! labs that run on it.
//!
//! Sans-IO: no clock, no unseeded randomness, nothing from the web. The
//! browser and the command line feed it validated settings and render what
//! it reports.
//!
//! - [`driver`], [`queue`] and [`time`]: the one driver every lab runs on.
//! - [`json`]: the small JSON reader and writer of settings files and the
//!   first lab's reports.
//! - [`params`] and [`params_file`]: parameters defined once, and the one
//!   validation stage for flags, links, files and the form.
//! - [`rng`]: the one seeded, documented generator and its distributions.
//! - [`compare`]: where two runs part ways, and what one committed that the
//!   other did not.
//! - [`ack`]: the lost-acknowledgement lab (docs/model.md).
//! - [`risk`]: the risk-review lab (docs/risk-model.md).
//! - [`storm`]: many clients, retry storms (docs/storms.md).

pub mod ack;
pub mod compare;
pub mod driver;
pub mod explore;
pub mod json;
pub mod params;
pub mod params_file;
pub mod queue;
pub mod risk;
pub mod rng;
pub mod storm;
pub mod time;
pub mod trace;

use std::fmt;

pub use params::{FieldError, ParamDef, Raw, Schema};
pub use time::{Micros, Millis};

/// The value of a result that holds by construction (a preset's settings,
/// a prefix of a finished run); an error is a bug. Unlike `expect`, the
/// error is not formatted, so its `Debug` code, and the standard library's
/// string escaping with it, stay out of the browser's bundles.
pub trait Surely<T> {
    fn surely(self, why: &'static str) -> T;
}

impl<T, E> Surely<T> for Result<T, E> {
    fn surely(self, why: &'static str) -> T {
        match self {
            Ok(value) => value,
            Err(_) => panic!("{why}"),
        }
    }
}

/// Why a run stopped early. None of these is reachable with valid settings;
/// they are the bounds that keep a bug from looping or growing without
/// limit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SimError {
    EventBudgetExceeded {
        budget: usize,
    },
    StoreFull {
        capacity: usize,
    },
    /// The queue ran dry at this model time (in the lab's own unit) with
    /// work still pending.
    Stalled {
        at: u64,
    },
    /// The run reached its longest allowed model time (ms) unfinished.
    HorizonReached {
        horizon: u64,
    },
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
            SimError::Stalled { at } => write!(f, "the run stalled at model time {at} with work still pending"),
            SimError::HorizonReached { horizon } => {
                write!(f, "the run reached its longest allowed time, {horizon} ms, with intents still unfinished")
            }
        }
    }
}

impl std::error::Error for SimError {}
