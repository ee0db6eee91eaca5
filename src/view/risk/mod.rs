//! The risk-review lab in words and geometry: the incident's wall clock
//! and the report's ids, the SQL each database step stands for, one
//! sentence per event, the text mirror and the JSON report; and for the
//! page, the timeline, the table, the state machine, the checks, the
//! incident's log, a call's reconstruction, alerts, load and questions.

pub mod alerts;
pub mod compare;
pub mod diagram;
pub mod html;
pub mod incident;
pub mod load;
pub mod machine;
pub mod mirror;
pub mod names;
pub mod patterns;
pub mod questions;
pub mod report;
pub mod sentences;
pub mod sql;
pub mod table;
pub mod trace;
pub mod verdicts;

pub use mirror::text_mirror;
pub use names::clock;
pub use report::run_to_json;
pub use sentences::{check_line, sentence};
