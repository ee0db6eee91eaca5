//! Real traces in and out: OpenTelemetry traces in the protocol's JSON
//! encoding (OTLP/JSON), read with limits and clear refusals, written the
//! same way, and judged for idempotency.
//!
//! Pure, like the rest of `sim`: no clock, no web, no files. Text comes in
//! and goes out; `view` turns the findings into words and geometry.
//!
//! - [`span`]: spans as the reader gives them (ids, kinds, typed attribute
//!   values, the service each belongs to).
//! - [`read`]: the OTLP/JSON reader (one document, or the Collector's file
//!   exporter's one document per line), with its limits.
//! - [`write`]: the OTLP/JSON writer the labs' exports go through.
//! - [`rules`]: which attributes name a key, a request_key argument, a
//!   business key and an effect (each can be overridden).
//! - [`findings`]: intents, attempts, server operations, effects and the
//!   client's final status, reconstructed from the spans by the rules.
//! - [`checks`]: the verdicts over the whole trace and per intent, and
//!   where it broke.

pub mod checks;
pub mod findings;
pub mod read;
pub mod rules;
pub mod span;
pub mod write;

pub use checks::{Break, CheckName, Verdict};
pub use findings::{ClientStatus, Findings};
pub use read::{Limits, ReadError, read};
pub use rules::Rules;
pub use span::{Kind, SpanId, StatusCode, Trace, TraceId, Value};
