//! What the browser shows, computed without the browser: diagram geometry,
//! form fields, shared-link state, the playback clock, the chart and the
//! guided experiments. Everything here is a pure function of a run and
//! compiles and tests natively; `ui` only renders it.

pub mod chart;
pub mod experiments;
pub mod fields;
pub mod playback;
pub mod timeline;
pub mod url;
