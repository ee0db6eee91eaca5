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

    /// The element with `id` in the element's shadow root, or in the page.
    fn by_id(&self, id: &str) -> Option<web_sys::HtmlElement> {
        use wasm_bindgen::JsCast;
        let found = match self.element() {
            Some(el) => el.shadow_root().and_then(|root| root.get_element_by_id(id)),
            None => super::dom::document().and_then(|d| d.get_element_by_id(id)),
        };
        found.and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
    }

    /// Focuses the element with `id` in the element's shadow root, or in
    /// the page.
    pub fn focus_by_id(&self, id: &str) {
        if let Some(target) = self.by_id(id) {
            let _ = target.focus();
        }
    }

    /// Brings what `id` heads to where the reader is, once it is laid out
    /// (in the next frame): scrolled to the top of the window, and
    /// focused, so the keyboard and a screen reader are there too.
    pub fn bring_into_view(&self, id: &'static str) {
        let host = *self;
        request_animation_frame(move || {
            let Some(target) = host.by_id(id) else { return };
            let place = web_sys::ScrollIntoViewOptions::new();
            place.set_block(web_sys::ScrollLogicalPosition::Start);
            target.scroll_into_view_with_scroll_into_view_options(&place);
            let _ = target.focus();
        });
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

/// A lab mounted in an element by [`mount_lab`]: the element, where in
/// its shadow root the lab lives, the address of the lab's page, and the
/// mounted app (dropping it unmounts the app).
struct Mounted {
    host: web_sys::HtmlElement,
    mount: web_sys::HtmlElement,
    base: String,
    app: Box<dyn std::any::Any>,
}

/// Mounts a lab's app again: host, mount, query, base.
type Remount = std::rc::Rc<dyn Fn(web_sys::HtmlElement, web_sys::HtmlElement, String, String)>;

thread_local! {
    /// Every element of this bundle's lab on the page.
    static MOUNTED: std::cell::RefCell<Vec<Mounted>> = const { std::cell::RefCell::new(Vec::new()) };
    /// How this bundle mounts its lab.
    static REMOUNT: std::cell::RefCell<Option<Remount>> = const { std::cell::RefCell::new(None) };
}

/// Mounts `lab`'s `app` in `mount`, inside the custom element `host`'s
/// shadow root, started from `query` (the element's attributes as a
/// link's query string); `base` is the address of the lab's page, and the
/// lab's own files (a worker) are in its folder there. The lab keeps the
/// address bar and the remembered settings of the page it sits in alone,
/// and a link inside it (a lesson's next step) is shown in the element.
pub fn mount_lab<V: IntoView + 'static>(
    lab: crate::view::labs::Lab,
    host: web_sys::HtmlElement,
    mount: web_sys::HtmlElement,
    query: String,
    base: String,
    app: fn() -> V,
) {
    REMOUNT.with(|r| {
        r.borrow_mut().get_or_insert_with(|| {
            std::rc::Rc::new(move |host, mount, query, base| mount_lab(lab, host, mount, query, base, app))
        });
    });
    let boot = super::mount::Boot { query, base: format!("{base}{}/", lab.id) };
    let (element, target, address) = (host.clone(), mount.clone(), base.clone());
    let app = leptos::mount::mount_to(mount, move || {
        provide_context(Host::element_at(element, address, reopen_lab));
        provide_context(boot);
        app()
    });
    // The element keeps its app for as long as the page lives, or until it
    // shows another link.
    MOUNTED.with(|m| m.borrow_mut().push(Mounted { host, mount: target, base, app: Box::new(app) }));
}

/// Shows `query` in `host`'s element (mounted by [`mount_lab`]) in place of
/// what it shows: its app is unmounted and the lab mounted again from the
/// link, the focus kept in the element.
fn reopen_lab(host: web_sys::HtmlElement, query: String) {
    let found = MOUNTED.with(|m| {
        let mut all = m.borrow_mut();
        let i = all.iter().position(|m| m.host == host)?;
        Some(all.swap_remove(i))
    });
    let (Some(Mounted { host, mount, base, app }), Some(remount)) = (found, REMOUNT.with(|r| r.borrow().clone()))
    else {
        return;
    };
    drop(app);
    mount.set_inner_html("");
    remount(host.clone(), mount, query, base);
    Host::element_at(host, String::new(), reopen_lab).focus_by_id("lesson-h");
}
