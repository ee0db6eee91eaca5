//! Retry storms: many clients on one server (docs/storms.md). Two workloads run
//! on the shared driver with a microsecond clock:
//! - [`occ`]: the optimistic-concurrency contention experiment behind the
//!   AWS Architecture Blog's "Exponential Backoff And Jitter";
//! - [`overload`]: a server with a concurrency cap, a bounded queue and
//!   429s, clients with timeouts, backoff and retry budgets, and
//!   deduplication.
//!
//! Every random draw comes from one seeded [`crate::sim::rng::Rng`].

pub mod backoff;
pub mod budget;
pub mod compare;
pub mod occ;
pub mod overload;
pub mod series;
pub mod settings;
pub mod sweep;

pub use occ::{OccRun, OccRunner};
pub use overload::{OverloadRun, Totals};
pub use settings::{Algorithm, StormSettings};
