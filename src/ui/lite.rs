//! The opening page's bundle (built with the feature `lite`) carries what
//! that page shows at first: the settings, the diagram, playback, the
//! results, the chart, the text panels, sharing and files. Run B and its
//! differences, presenter mode, checkpoints on screen, the guided
//! experiments and the crash matrix are in the whole lab, which the page
//! that hosts every lab loads when the reader first reaches for one of
//! them and puts in this one's place, started from this lab's link (so
//! the settings, the playhead and the theme carry over).
//!
//! These stand in for the parts `app` takes from the whole lab. Where the
//! reader turns something on that only the whole lab shows (Compare with…,
//! Fork here, Present, a checkpoint), the state says so and this hands the
//! lab over; an experiment and the crash matrix hand it over with an
//! intent, which the whole lab carries out once it is in place.

use std::any::Any;
use std::cell::RefCell;

use leptos::prelude::*;

use crate::view::ack::experiments::NAMES;
use crate::view::url::to_query;

use super::app::Intent;
use super::dom;
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

/// Whether the lab shows something only the whole lab draws.
fn needs_whole(lab: Lab) -> bool {
    lab.compare.open.get() || lab.present.get() || lab.pins.with(|p| !p.is_empty())
}

/// Hands the lab over as soon as its state needs the whole lab. A link
/// that opens a comparison, presenter mode or checkpoints needs it from
/// the start: then it goes to the whole lab as it came (this build, which
/// does not run run B, would clamp a playhead past run A's end), the whole
/// lab gives its notices itself, and this returns true: the lab is not
/// drawn here.
pub fn started(lab: Lab, query: &str) -> bool {
    if untrack(|| needs_whole(lab)) && dom::load_whole_lab(query, "", "") {
        return true;
    }
    Effect::new(move |_| {
        if needs_whole(lab) {
            hand_over(lab, None);
        }
    });
    false
}

/// Asks the host to put the whole lab in this one's place, started from
/// this lab's link, with the notices on screen, and to carry out
/// `intent`. Playback stops: the whole lab starts paused at the playhead.
fn hand_over(lab: Lab, intent: Option<Intent>) {
    lab.player.playing.set(false);
    let query = to_query(&lab.link_state());
    let intent = intent.map(Intent::to_attribute).unwrap_or_default();
    let apart = dom::NOTICES_APART.to_string();
    let notices = lab.notices.list.with_untracked(|list| {
        list.iter().map(|n| n.text.replace(dom::NOTICES_APART, " ")).collect::<Vec<_>>().join(&apart)
    });
    if !dom::load_whole_lab(&query, &intent, &notices) {
        lab.notices.notify("This part of the lab could not be loaded on this page.".to_owned());
    }
}

pub fn run_b(_: Lab) {}

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
