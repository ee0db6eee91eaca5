//! The browser front end (wasm32 only): Leptos components that render what
//! `view` computes from the core's runs. Components take their lab's state
//! ([`state::Lab`], [`risk::Risk`], [`storm::Storm`]) as a prop, so tests
//! can mount any of them with a state of their own.
//!
//! What every lab's page has is written once and each lab plugs into it:
//! playback and its shortcuts ([`playback::Replay`]), sharing and files
//! ([`share::Share`]), the settings form, notices and the live region,
//! predict-then-see, the text panels and the masthead. The first lab's own
//! components are the other modules here; the other labs' are in `risk`
//! and `storm`.

pub mod app;
pub mod canvas;
mod chart;
pub mod chrome;
pub mod compare;
mod controls;
pub mod dom;
pub mod element;
mod experiments;
pub mod form;
mod keyboard;
#[cfg(feature = "lite")]
mod lite;
mod markup;
mod matrix;
pub mod notices;
mod panels;
pub mod playback;
pub mod predict;
// The opening page's build leaves presenter mode and checkpoints on screen
// to the whole lab.
#[cfg_attr(feature = "lite", allow(dead_code))]
mod present;
pub mod risk;
pub mod share;
pub mod state;
pub mod storm;
mod text_panels;
mod timeline;
mod toolbar;

pub use app::{App, Workbench};

use crate::view;
pub use chart::Chart;
pub use controls::Controls;
pub use experiments::Experiments;
pub use matrix::CrashMatrix;
pub use notices::{LiveRegion, NoticeList};
pub use panels::{Mirror, RecentEvents, ResultsStrip};
pub use playback::{Playback, Replay};
pub use timeline::{Side, Timeline};

/// The performance mark set once the first complete render has reached the
/// screen (read by `make bench`).
pub const RENDERED_MARK: &str = "idempotency-lab:rendered";

/// Mounts `app`, the page of `lab`: in its root element on the page that
/// hosts every lab, or on the body of its own page.
fn mount_lab<V: leptos::prelude::IntoView + 'static>(lab: view::url::LabKind, app: fn() -> V) {
    match dom::lab_root(lab) {
        Some(root) => {
            let mounted = leptos::mount::mount_to(root, app);
            #[cfg(feature = "lite")]
            lite::keep(mounted);
            #[cfg(not(feature = "lite"))]
            mounted.forget();
        }
        None => leptos::mount::mount_to_body(app),
    }
}

/// Unmounts the opening page's first lab once the whole lab has taken its
/// place (the host calls it): its effects and listeners end with it.
#[cfg(feature = "lite")]
pub fn unmount() {
    lite::unmount();
}

/// Mounts the risk-review lab.
pub fn start_risk() {
    mount_lab(view::url::LabKind::Risk, risk::RiskApp);
}

/// Mounts the storm lab.
pub fn start_storms() {
    mount_lab(view::url::LabKind::Storms, storm::StormsApp);
}

/// Mounts the first lab on the lab's page (its body is marked
/// `data-lab-page`). Loaded by the custom element's script into someone
/// else's page, it mounts nothing: each element mounts itself.
pub fn start() {
    let is_lab_page = dom::document().and_then(|d| d.body()).is_some_and(|b| b.has_attribute("data-lab-page"));
    if !is_lab_page {
        return;
    }
    mount_lab(view::url::LabKind::Ack, App);
    leptos::prelude::request_animation_frame(|| {
        if let Some(performance) = dom::window().and_then(|w| w.performance()) {
            let _ = performance.mark(RENDERED_MARK);
        }
    });
}
