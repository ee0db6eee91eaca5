//! Where a lab lives: the whole page, or one `<idempotency-lab>` custom
//! element (see `ack::element`). Everything page-wide (the theme, the
//! accent, keyboard shortcuts, links back to the lab) goes to the
//! element, so several elements on one page never share state.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Where the app lives: the whole page, or one custom element.
#[derive(Clone, Copy)]
pub struct Host {
    element: Option<StoredValue<web_sys::HtmlElement, LocalStorage>>,
    /// The lab's own address (where its files are), for "Open in
    /// Idempotency Lab" links.
    base: Option<StoredValue<String>>,
    /// Shows a link's query in the element in place of what it shows (an
    /// element never navigates or rewrites the page it sits in).
    reopen: Option<fn(web_sys::HtmlElement, String)>,
}

impl Host {
    pub const PAGE: Host = Host { element: None, base: None, reopen: None };

    /// The custom element `element`, whose lab's page is at `base`, and
    /// which `reopen` shows a query in.
    pub fn element_at(element: web_sys::HtmlElement, base: String, reopen: fn(web_sys::HtmlElement, String)) -> Host {
        Host {
            element: Some(StoredValue::new_local(element)),
            base: Some(StoredValue::new(base)),
            reopen: Some(reopen),
        }
    }

    /// In an element, shows `query` (a link's, without `?`) in it, once the
    /// event being handled is over; true if it will. The page opens links
    /// its own way.
    pub fn open_here(&self, query: &str) -> bool {
        let (Some(element), Some(reopen)) = (self.element(), self.reopen) else { return false };
        let query = query.to_owned();
        // The app in the element is unmounted and mounted again: not from
        // inside one of its own event handlers.
        let later = wasm_bindgen::closure::Closure::once_into_js(move || reopen(element, query));
        super::dom::window().and_then(|w| w.set_timeout_with_callback(later.unchecked_ref()).ok()).is_some()
    }

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
