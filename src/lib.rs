//! Idempotency Lab: a simulator of retries, lost acknowledgements and
//! idempotency keys.
//!
//! `sim` is the pure core; `view` turns runs into things to show (diagram
//! geometry, URL state, playback clock) without touching the web; `ui` is the
//! Leptos front end (wasm only) and `cli` the command line (native only).

pub mod sim;
pub mod view;

#[cfg(target_arch = "wasm32")]
pub mod ui;

/// The storm lab's Web Worker (a second wasm binary, loaded on first use).
#[cfg(target_arch = "wasm32")]
pub mod worker;

#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
