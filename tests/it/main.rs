//! Native integration tests: the core's scenarios and invariants, and the
//! command line as a user runs it. (One binary keeps link times down.)
#![cfg(not(target_arch = "wasm32"))]

mod against_reference;
mod cli;
mod docs;
mod explore;
mod fourth_lab;
mod hostile;
mod labs;
mod lessons;
mod opening;
mod properties;
mod reference;
mod risk;
mod scenarios;
mod sequence;
mod storm;
mod traces;
