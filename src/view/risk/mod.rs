//! The risk-review lab in words: the incident's wall clock and the report's
//! ids, the SQL each database step stands for, one sentence per event, the
//! text mirror and the JSON report.

pub mod mirror;
pub mod names;
pub mod report;
pub mod sentences;
pub mod sql;

pub use mirror::text_mirror;
pub use names::clock;
pub use report::run_to_json;
pub use sentences::{check_line, sentence};
