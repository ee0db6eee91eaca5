//! What a page tells the reader, the same on every lab's page: notices,
//! which stay on screen until dismissed (a refused link value, a file that
//! could not be read, settings that could not be run), and the polite live
//! region, which says what happened at the moment a step moved to.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::view::markup::notice_items;

use super::markup::chosen;

/// The newest notices kept on screen; an endless pile helps nobody.
const KEPT: usize = 6;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    pub id: u32,
    pub text: String,
}

/// The notices on screen, oldest first.
#[derive(Clone, Copy)]
pub struct Notices {
    pub list: RwSignal<Vec<Notice>>,
    next: StoredValue<u32>,
}

impl Notices {
    pub fn new() -> Notices {
        Notices { list: RwSignal::new(Vec::new()), next: StoredValue::new(0) }
    }

    pub fn notify(&self, text: String) {
        let id = self.next.get_value();
        self.next.set_value(id + 1);
        self.list.update(|n| {
            n.push(Notice { id, text });
            let len = n.len();
            if len > KEPT {
                n.drain(..len - KEPT);
            }
        });
    }

    pub fn dismiss(&self, id: u32) {
        self.list.update(|n| n.retain(|x| x.id != id));
    }
}

impl Default for Notices {
    fn default() -> Notices {
        Notices::new()
    }
}

/// The notices, each with its Dismiss button (one listener for them all).
/// A notice stays the same element while it is on screen, as in a keyed
/// list: a new one is added at the end and one that goes is removed, so
/// the status region reads out only what changed and focus stays put.
#[component]
pub fn NoticeList(notices: Notices) -> impl IntoView {
    let region = NodeRef::<leptos::html::Div>::new();
    Effect::new(move |_| {
        if let Some(region) = region.get() {
            notices.list.with(|list| show(&region, list));
        }
    });
    let on_click = move |ev: leptos::ev::MouseEvent| {
        if let Some(id) = chosen(&ev, "data-dismiss").and_then(|id| id.parse().ok()) {
            notices.dismiss(id);
        }
    };
    view! { <div class="notices" role="status" node_ref=region on:click=on_click></div> }
}

/// Brings the notices in `region` in step with `list`. Ids only grow and
/// the list is oldest first, so what is new comes after what is shown.
fn show(region: &web_sys::Element, list: &[Notice]) {
    let Ok(buttons) = region.query_selector_all("[data-dismiss]") else { return };
    let mut last = None;
    for i in 0..buttons.length() {
        let Some(button) = buttons.item(i).and_then(|b| b.dyn_into::<web_sys::Element>().ok()) else { continue };
        let id = button.get_attribute("data-dismiss").and_then(|id| id.parse::<u32>().ok());
        match id.filter(|id| list.iter().any(|n| n.id == *id)) {
            Some(id) => last = Some(id),
            None => {
                if let Some(notice) = button.parent_element() {
                    notice.remove();
                }
            }
        }
    }
    let new = list.iter().filter(|n| last.is_none_or(|last| n.id > last));
    let _ = region.insert_adjacent_html("beforeend", &notice_items(new.map(|n| (n.id, n.text.as_str()))));
}

/// The polite live region's text.
#[derive(Clone, Copy)]
pub struct Announcer(RwSignal<String>);

impl Announcer {
    pub fn new() -> Announcer {
        Announcer(RwSignal::new(String::new()))
    }

    /// Puts `text` in the live region.
    pub fn say(&self, text: String) {
        // A repeated identical text would not be read again; a trailing
        // zero-width space makes it new.
        let previous = self.0.get_untracked();
        let text = if previous == text { format!("{text}\u{200b}") } else { text };
        self.0.set(text);
    }
}

impl Default for Announcer {
    fn default() -> Announcer {
        Announcer::new()
    }
}

/// The polite live region, read by assistive technology and hidden from
/// view.
#[component]
pub fn LiveRegion(announcer: Announcer) -> impl IntoView {
    view! { <div class="visually-hidden" aria-live="polite" aria-atomic="true">{move || announcer.0.get()}</div> }
}
