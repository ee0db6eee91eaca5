//! Keyboard shortcuts and the dialog that lists them.

use leptos::prelude::*;
use leptos::{ev, html};

use super::dom::{self, KeyOwner};
use super::state::Lab;

pub const SHORTCUTS: [(&str, &str); 5] = [
    ("Space", "Play or pause"),
    ("Right arrow", "Next event"),
    ("Left arrow", "Previous event"),
    ("Home", "Restart"),
    ("?", "Show these shortcuts"),
];

/// Listens for shortcuts on the whole window for as long as the calling
/// component lives. Nothing fires while a field has the keys.
pub fn install(lab: Lab, dialog: NodeRef<html::Dialog>) {
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
            "Home" => {
                lab.restart();
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
            <dl>
                {SHORTCUTS
                    .iter()
                    .map(|(key, what)| {
                        view! {
                            <div class="shortcut">
                                <dt>
                                    <kbd>{*key}</kbd>
                                </dt>
                                <dd>{*what}</dd>
                            </div>
                        }
                    })
                    .collect_view()}
            </dl>
            <p class="hint">"Shortcuts do nothing while you are typing in a field."</p>
            <form method="dialog">
                <button type="submit">"Close"</button>
            </form>
        </dialog>
    }
}
