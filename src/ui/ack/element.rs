//! The `<idempotency-lab>` custom element: the first lab in a documentation
//! page. The element's script (`assets/idempotency-lab-element.js`) gives
//! each element an open shadow root and calls [`mount`] with the element's
//! attributes as a query string.
//!
//! Everything the element shows stays in it: a lesson's next step or a
//! link inside it is shown by mounting the lab again in the same element
//! with the link's query ([`reopen`]); the page it sits in is never
//! navigated and its address never rewritten.

use std::any::Any;
use std::cell::RefCell;

use leptos::prelude::*;

use crate::view::ack::ACK;
use crate::view::labs;
use crate::view::url::{parse_query, read_lab};

use super::super::element::Host;
use super::{Ack, Workbench};

/// An element's lab, mounted: what the element is, where in its shadow
/// root the lab lives, the lab's address, and the mounted app (dropping it
/// unmounts the app).
struct Mounted {
    host: web_sys::HtmlElement,
    mount: web_sys::HtmlElement,
    base: String,
    app: Box<dyn Any>,
}

thread_local! {
    /// Every element's lab on the page.
    static MOUNTED: RefCell<Vec<Mounted>> = const { RefCell::new(Vec::new()) };
}

/// Mounts the lab in `mount` (inside `host`'s shadow root), configured by
/// `query` (the element's attributes in the link's names); `base` is the
/// lab's address.
pub fn mount(host: web_sys::HtmlElement, mount: web_sys::HtmlElement, query: &str, base: String) {
    let mut link = parse_query(query, ACK);
    if link.state.lab != ACK {
        let other = link.state.lab.label;
        let notice = match &link.state.page.lesson {
            Some(at) => format!(
                "{} is in the {other} lab, which cannot be an element; this element shows the {} lab. Open the lesson on the lab's page to follow it there.",
                at.heading(),
                labs::opening().label
            ),
            None => format!(
                "lab: the {other} lab cannot be an element; this element shows the {} lab. Open the {other} lab with a link instead.",
                labs::opening().label
            ),
        };
        link.notices.push(notice);
        link.state.lab = ACK;
    }
    let (element, target, address) = (host.clone(), mount.clone(), base.clone());
    let app = leptos::mount::mount_to(mount, move || {
        provide_context(Host::element_at(element, address, reopen));
        // An element is configured by its attributes alone: it never reads
        // or writes the remembered settings of the page it sits in.
        let ack = Ack::new(read_lab(&link), link.state.page.clone());
        view! { <Workbench ack/> }
    });
    // The element keeps its app for as long as the page lives, or until it
    // shows another link.
    MOUNTED.with(|m| m.borrow_mut().push(Mounted { host, mount: target, base, app: Box::new(app) }));
}

/// Shows `query` in `host`'s element in place of what it shows: its app is
/// unmounted and the lab mounted again from the link, the focus kept in
/// the element.
pub fn reopen(host: web_sys::HtmlElement, query: String) {
    let Some(Mounted { host, mount, base, app }) = MOUNTED.with(|m| {
        let mut all = m.borrow_mut();
        let i = all.iter().position(|m| m.host == host)?;
        Some(all.swap_remove(i))
    }) else {
        return;
    };
    drop(app);
    mount.set_inner_html("");
    self::mount(host.clone(), mount, &query, base);
    // Keys go to the element with the focus: the lesson's heading takes it,
    // so PageDown moves on again.
    Host::element_at(host, String::new(), reopen).focus_by_id("lesson-h");
}
