//! The lost-acknowledgement lab in words and pictures: sentences, the text
//! mirror, the JSON report, the diagram, the crash matrix and the guided
//! experiments.

pub mod compare;
pub mod diagram;
pub mod experiments;
pub mod matrix;
pub mod mirror;
pub mod report;
pub mod sentences;

pub use diagram::diagram;
pub use mirror::text_mirror;
pub use report::run_to_json;
pub use sentences::{increments, sentence};
