//! What the browser and the command line show, computed without the
//! browser: sentences, the text mirror, diagram geometry, form fields,
//! shared-link state, the playback clock, the chart, the guided
//! experiments and the markup every page shares. Everything here is a pure function of a run (the core
//! reports facts; this layer turns them into words and geometry) and
//! compiles and tests natively; `ui` only renders it.

pub mod ack;
pub mod chart;
pub mod compare;
pub mod embed;
pub mod explore;
pub mod fields;
pub mod glossary;
pub mod lab;
pub mod labs;
pub mod lesson;
pub mod linechart;
pub mod markup;
pub mod num;
pub mod opening;
pub mod otlp;
pub mod page;
pub mod playback;
pub mod plot;
pub mod risk;
pub mod storm;
pub mod timeline;
pub mod traces;
pub mod url;
