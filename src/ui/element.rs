//! The `<idempotency-lab>` custom element's Rust side. The element's script
//! (`assets/idempotency-lab-element.js`) gives each element an open shadow
//! root and calls [`mount`] with the element's attributes as a query
//! string; everything page-wide (the theme, the accent, keyboard shortcuts,
//! links back to the lab) then goes to that element, so several elements
//! on one page never share state.

use leptos::prelude::*;

use crate::view::url::{LabKind, parse_query};

use super::app::Workbench;
use super::state::Lab;

/// Where the app lives: the whole page, or one custom element.
#[derive(Clone, Copy)]
pub struct Host {
    element: Option<StoredValue<web_sys::HtmlElement, LocalStorage>>,
    /// The lab's own address (where its files are), for "Open in
    /// Idempotency Lab" links.
    base: Option<StoredValue<String>>,
}

impl Host {
    pub const PAGE: Host = Host { element: None, base: None };

    /// The host of the component being built (the page unless an element
    /// provided itself).
    pub fn current() -> Host {
        use_context::<Host>().unwrap_or(Host::PAGE)
    }

    /// The custom element, when the app is one.
    pub fn element(&self) -> Option<web_sys::HtmlElement> {
        self.element.map(|e| e.get_value())
    }

    pub fn is_element(&self) -> bool {
        self.element.is_some()
    }

    /// The address of the lab's page, without a query.
    pub fn base(&self) -> String {
        self.base.map_or_else(super::dom::location_base, |b| b.get_value())
    }

    /// Focuses the element with `id` in the element's shadow root, or in
    /// the page.
    pub fn focus_by_id(&self, id: &str) {
        use wasm_bindgen::JsCast;
        match self.element() {
            Some(el) => {
                if let Some(target) = el
                    .shadow_root()
                    .and_then(|root| root.get_element_by_id(id))
                    .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
                {
                    let _ = target.focus();
                }
            }
            None => super::dom::focus_by_id(id),
        }
    }

    /// Sets an attribute on the element, or on the page's root element.
    pub fn set_attribute(&self, name: &str, value: &str) {
        match self.element() {
            Some(el) => {
                let _ = el.set_attribute(name, value);
            }
            None => super::dom::set_root_attribute(name, value),
        }
    }

    /// Sets a CSS custom property on the element, or on the page's root.
    pub fn set_property(&self, name: &str, value: &str) {
        match self.element() {
            Some(el) => {
                let _ = el.style().set_property(name, value);
            }
            None => super::dom::set_root_property(name, value),
        }
    }
}

/// Mounts the lab in `mount` (inside `host`'s shadow root), configured by
/// `query` (the element's attributes in the link's names); `base` is the
/// lab's address.
pub fn mount(host: web_sys::HtmlElement, mount: web_sys::HtmlElement, query: &str, base: String) {
    let link = parse_query(query);
    let mut notices = link.notices;
    let mut state = link.state;
    if state.lab != LabKind::Ack {
        notices.push(format!(
            "lab: the {} lab is a page of its own and cannot be an element; this element shows the lost-acknowledgement lab. Open the {} page with a link instead.",
            state.lab.label(),
            state.lab.label()
        ));
        state.lab = LabKind::Ack;
    }
    let handle = leptos::mount::mount_to(mount, move || {
        provide_context(Host { element: Some(StoredValue::new_local(host)), base: Some(StoredValue::new(base)) });
        // An element is configured by its attributes alone: it never reads
        // or writes the remembered settings of the page it sits in.
        let lab = Lab::new(state, true, notices);
        view! { <Workbench lab/> }
    });
    // The element keeps its app for as long as the page lives.
    handle.forget();
}
