//! A lab's opening build (built with the feature `lite`) carries what its
//! page shows at first. Its whole build is loaded when the reader first
//! reaches for the rest, and the page that hosts every lab puts it in this
//! one's place, started from this lab's link (so the settings, the
//! playhead and the theme carry over).
//!
//! The first lab's opening build carries the settings, the diagram,
//! playback, the results, the chart, the text panels, sharing and files;
//! run B and its differences, presenter mode, checkpoints on screen, the
//! guided experiments and the crash matrix are in its whole build. The
//! risk lab's opening build leaves out run B and its differences, and the
//! presets' questions (it lists the presets).
//!
//! These stand in for the parts a page takes from its whole build. Where
//! the reader turns something on that only the whole build shows (Compare
//! with…, Fork here, Present, a checkpoint), the state says so and this
//! hands the lab over; an experiment and the crash matrix hand it over
//! with an intent, which the whole lab carries out once it is in place.

use std::any::Any;
use std::cell::RefCell;

use leptos::prelude::*;

use crate::view::ack::experiments::NAMES;
use crate::view::url::{LabKind, to_query};

use super::app::Intent;
use super::dom;
use super::playback::Replay;
use super::risk::Risk;
use super::share::Share;
use super::state::Lab;

thread_local! {
    /// The mounted app, until the whole lab takes its place.
    static MOUNTED: RefCell<Option<Box<dyn Any>>> = const { RefCell::new(None) };
}

pub(super) fn keep(mounted: impl Any) {
    MOUNTED.with(|m| *m.borrow_mut() = Some(Box::new(mounted)));
}

/// Drops the mounted app: Leptos unmounts it and disposes of its effects
/// and listeners (the keyboard's among them).
pub(super) fn unmount() {
    let mounted = MOUNTED.with(|m| m.borrow_mut().take());
    drop(mounted);
}

/// Whether the first lab shows something only its whole build draws.
fn needs_whole(lab: Lab) -> bool {
    lab.compare.open.get() || lab.present.get() || lab.pins.with(|p| !p.is_empty())
}

/// Hands a link that opens what only the whole build shows (`needs`: a
/// comparison, presenter mode, checkpoints) to the whole build as it came,
/// before anything is drawn here (this build, which does not run run B,
/// would clamp a playhead past run A's end); the whole build gives its
/// notices itself. True if it did: the lab is not drawn here.
pub fn hand_link_over(kind: LabKind, query: &str, needs: bool) -> bool {
    needs && dom::load_whole_lab(kind, query, "", "")
}

/// The first lab's opening build: hands the lab over as soon as its state
/// needs the whole build (see [`hand_link_over`] for a link that does from
/// the start).
pub fn started(lab: Lab, query: &str) -> bool {
    if hand_link_over(LabKind::Ack, query, untrack(|| needs_whole(lab))) {
        return true;
    }
    Effect::new(move |_| {
        if needs_whole(lab) {
            hand_over(lab, None);
        }
    });
    false
}

/// The risk lab's opening build: `asks_b` says whether its link opens run
/// B. (Its actions hand run B and questions over themselves, with
/// [`hand_over_at`].)
pub fn risk_started(_: Risk, query: &str, asks_b: bool) -> bool {
    hand_link_over(LabKind::Risk, query, asks_b)
}

/// Asks the host to put the whole build in this one's place, started from
/// this lab's link, with the notices on screen, and to carry out
/// `intent`. Playback stops: the whole build starts paused at the playhead.
fn hand_over(lab: Lab, intent: Option<Intent>) {
    hand_over_at(lab, lab.link(), &intent.map(Intent::to_attribute).unwrap_or_default());
}

/// Hands the lab over as [`hand_over`] does, started from `link` (the
/// lab's link with what the reader just asked for; it names the lab).
pub fn hand_over_at<L: Share + Replay>(lab: L, link: crate::view::url::LinkState, intent: &str) {
    lab.player().playing.set(false);
    let query = to_query(&link);
    let apart = dom::NOTICES_APART.to_string();
    let notices = lab.notices().list.with_untracked(|list| {
        list.iter().map(|n| n.text.replace(dom::NOTICES_APART, " ")).collect::<Vec<_>>().join(&apart)
    });
    if !dom::load_whole_lab(link.lab, &query, intent, &notices) {
        lab.notices().notify("This part of the lab could not be loaded on this page.".to_owned());
    }
}

pub fn run_b(_: Lab) {}

pub fn risk_b(_: Risk) {}

pub fn risk_comparison(_: Risk) {}

pub fn differences(_: Lab) {}

pub fn comparison(_: Lab) {}

pub fn checkpoint_prompt(_: Lab) {}

/// The experiments' list, as the whole lab shows it; choosing one hands
/// the lab over to start it.
pub fn experiments(lab: Lab) -> impl IntoView {
    super::experiments::panel(view! {
        <ul
            class="experiment-list"
            inner_html=crate::view::markup::choice_items(NAMES)
            on:click=move |ev| {
                let id = super::markup::chosen(&ev, "data-choice");
                if let Some(&(id, _)) = NAMES.iter().find(|(i, _)| Some(*i) == id.as_deref()) {
                    hand_over(lab, Some(Intent::Experiment(id)));
                }
            }
        ></ul>
    })
}

/// The checkpoints' panel, with a button that goes to the whole lab's
/// question field.
pub fn checkpoints(lab: Lab) -> impl IntoView {
    super::present::checkpoints_panel(view! {
        <button type="button" on:click=move |_| hand_over(lab, Some(Intent::Pin))>
            "Pin a checkpoint…"
        </button>
    })
}

/// The crash matrix's panel, with a button that shows it.
pub fn crash_matrix(lab: Lab) -> impl IntoView {
    super::matrix::panel(view! {
        <button type="button" on:click=move |_| hand_over(lab, Some(Intent::Matrix))>
            "Show the crash matrix"
        </button>
    })
}
