//! Keyboard shortcuts, the same on every lab's page that replays a run
//! (Space plays or pauses, the left and right arrows step between events,
//! PageDown and PageUp step through a lesson or between events, and so do
//! the down and up arrows through a lesson in presenter mode, Home
//! restarts, ? lists them, and Escape goes to the lab), and the dialog that
//! lists them.

use leptos::prelude::*;
use leptos::{ev, html};

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::Closure;

use super::dom::{self, KeyOwner};
use super::element::Host;
use super::playback::Replay;

pub const SHORTCUTS: [(&str, &str); 10] = [
    ("Space", "Play or pause"),
    ("Right arrow", "Next event"),
    ("Left arrow", "Previous event"),
    ("Page Down", "Next step of the lesson, or next event"),
    ("Page Up", "Previous step of the lesson, or previous event"),
    ("Down arrow", "Next step of the lesson, in presenter mode"),
    ("Up arrow", "Previous step of the lesson, in presenter mode"),
    ("Home", "Restart"),
    ("Escape", "Leave presenter mode"),
    ("?", "Show these shortcuts"),
];

/// Listens for shortcuts for as long as the calling component lives: on
/// the whole window for the page, on the element for a custom element (so
/// keys reach only the element that has the focus). Nothing fires while a
/// field has the keys.
pub fn install<R: Replay>(lab: R, dialog: NodeRef<html::Dialog>) {
    let handler = move |e: web_sys::KeyboardEvent| {
        if e.ctrl_key() || e.meta_key() || e.alt_key() || e.default_prevented() {
            return;
        }
        // Inside a shadow root the event's target is the host element; the
        // first entry of its composed path is what really has the focus.
        let target = e.composed_path().get(0).dyn_into::<web_sys::EventTarget>().ok().or_else(|| e.target());
        let owner = dom::key_owner(target);
        if owner == KeyOwner::Field {
            return;
        }
        let handled = match e.key().as_str() {
            " " | "Spacebar" if owner == KeyOwner::Nothing => {
                lab.toggle_play();
                true
            }
            "ArrowRight" => {
                lab.next_event();
                true
            }
            "ArrowLeft" => {
                lab.previous_event();
                true
            }
            "ArrowDown" => lab.arrow_step(true),
            "ArrowUp" => lab.arrow_step(false),
            "PageDown" => {
                lab.page_step(true);
                true
            }
            "PageUp" => {
                lab.page_step(false);
                true
            }
            "Home" => {
                lab.restart();
                true
            }
            "Escape" => lab.escape(),
            "?" => {
                open(dialog);
                true
            }
            _ => false,
        };
        if handled {
            e.prevent_default();
        }
    };
    match Host::current().element() {
        None => {
            let handle = window_event_listener(ev::keydown, handler);
            on_cleanup(move || handle.remove());
        }
        Some(element) => {
            let listener = Closure::<dyn Fn(web_sys::KeyboardEvent)>::new(handler);
            let _ = element.add_event_listener_with_callback("keydown", listener.as_ref().unchecked_ref());
            // The element keeps its app until it shows another link (a
            // lesson's next step): then this app's listener goes with it.
            let listener = send_wrapper::SendWrapper::new(listener);
            on_cleanup(move || {
                let _ = element.remove_event_listener_with_callback("keydown", listener.as_ref().unchecked_ref());
            });
        }
    }
}

pub fn open(dialog: NodeRef<html::Dialog>) {
    if let Some(d) = dialog.get_untracked()
        && !d.open()
    {
        let _ = d.show_modal();
    }
}

#[component]
pub fn ShortcutsDialog(dialog: NodeRef<html::Dialog>) -> impl IntoView {
    view! {
        <dialog node_ref=dialog class="shortcuts" aria-labelledby="shortcuts-h">
            <h2 id="shortcuts-h">"Keyboard shortcuts"</h2>
            <dl inner_html=crate::view::markup::shortcut_items(&SHORTCUTS)></dl>
            <p class="hint">"Shortcuts do nothing while you are typing in a field."</p>
            <form method="dialog">
                <button type="submit">"Close"</button>
            </form>
        </dialog>
    }
}
