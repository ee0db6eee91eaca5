//! Retry storms in words and numbers: the text and JSON reports of runs and
//! sweeps (the command line's output and the browser's export).

pub mod charts;
pub mod compare;
pub mod presets;
pub mod protocol;
pub mod report;

pub use report::{occ_json, occ_text, overload_json, overload_text, sweep_json, sweep_text};
