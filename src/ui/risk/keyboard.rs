//! The first lab's keyboard shortcuts on the risk page: Space plays or
//! pauses, the arrows step between events, Home restarts, ? lists them.
//! The dialog that lists them is the first lab's.

use leptos::prelude::*;
use leptos::{ev, html};

use super::super::dom::{self, KeyOwner};
use super::super::keyboard::open;
use super::state::Risk;

/// Listens for shortcuts on the whole window for as long as the calling
/// component lives. Nothing fires while a field has the keys.
pub fn install(risk: Risk, dialog: NodeRef<html::Dialog>) {
    let handle = window_event_listener(ev::keydown, move |e: web_sys::KeyboardEvent| {
        if e.ctrl_key() || e.meta_key() || e.alt_key() || e.default_prevented() {
            return;
        }
        let owner = dom::key_owner(e.target());
        if owner == KeyOwner::Field {
            return;
        }
        let handled = match e.key().as_str() {
            " " | "Spacebar" if owner == KeyOwner::Nothing => {
                risk.toggle_play();
                true
            }
            "ArrowRight" => {
                risk.next_event();
                true
            }
            "ArrowLeft" => {
                risk.previous_event();
                true
            }
            "Home" => {
                risk.restart();
                true
            }
            "?" => {
                open(dialog);
                true
            }
            _ => false,
        };
        if handled {
            e.prevent_default();
        }
    });
    on_cleanup(move || handle.remove());
}
