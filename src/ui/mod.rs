//! The browser front end (wasm32 only): Leptos components that render what
//! `view` computes from the core's runs. Components take their lab's state
//! ([`ack::Ack`], [`risk::Risk`], [`storm::Storm`]) as a prop, so tests
//! can mount any of them with a state of their own.
//!
//! What every lab's page has is written once and each lab plugs into it:
//! mounting ([`mount`]), playback and its shortcuts ([`playback::Replay`]),
//! sharing and files ([`share::Share`]), both made for a page that replays
//! its run from [`replayed::LabPage`], run B ([`compare`]), the settings
//! form, notices and the live region, predict-then-see, the text panels
//! and the masthead. Each lab's own components are in its module: `ack`,
//! `risk` and `storm`.

pub mod ack;
pub mod chrome;
pub mod compare;
pub mod dom;
pub mod element;
mod explore;
pub mod form;
mod glossary;
mod keyboard;
mod lesson;
mod markup;
pub mod mount;
pub mod notices;
pub mod playback;
pub mod plot;
pub mod predict;
pub mod present;
pub mod replayed;
pub mod risk;
pub mod share;
pub mod storm;
mod text_panels;
pub mod trace;
mod worker;

pub use compare::Side;
pub use notices::{LiveRegion, NoticeList};
pub use playback::{Playback, Replay};

/// The performance mark set once a lab's first complete render has reached
/// the screen (read by `make bench`).
pub const RENDERED_MARK: &str = "idempotency-lab:rendered";
