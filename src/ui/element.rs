//! Where a lab lives: the whole page, or one `<idempotency-lab>` custom
//! element (see `ack::element`). Everything page-wide (the theme, the
//! accent, keyboard shortcuts, links back to the lab) goes to the
//! element, so several elements on one page never share state.

use leptos::prelude::*;

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

    /// The custom element `element`, whose lab's page is at `base`.
    pub fn element_at(element: web_sys::HtmlElement, base: String) -> Host {
        Host { element: Some(StoredValue::new_local(element)), base: Some(StoredValue::new(base)) }
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
