//! The `<idempotency-lab>` custom element: the first lab in a documentation
//! page. The element's script (`assets/idempotency-lab-element.js`) gives
//! each element an open shadow root and calls [`mount`] with the element's
//! attributes as a query string.

use leptos::prelude::*;

use crate::view::ack::ACK;
use crate::view::labs;
use crate::view::url::{parse_query, read_lab};

use super::super::element::Host;
use super::{Ack, Workbench};

/// Mounts the lab in `mount` (inside `host`'s shadow root), configured by
/// `query` (the element's attributes in the link's names); `base` is the
/// lab's address.
pub fn mount(host: web_sys::HtmlElement, mount: web_sys::HtmlElement, query: &str, base: String) {
    let mut link = parse_query(query, ACK);
    if link.state.lab != ACK {
        let other = link.state.lab.label;
        link.notices.push(format!(
            "lab: the {other} lab cannot be an element; this element shows the {} lab. Open the {other} lab with a link instead.",
            labs::opening().label
        ));
        link.state.lab = ACK;
    }
    let handle = leptos::mount::mount_to(mount, move || {
        provide_context(Host::element_at(host, base));
        // An element is configured by its attributes alone: it never reads
        // or writes the remembered settings of the page it sits in.
        let ack = Ack::new(read_lab(&link), link.state.page.clone());
        view! { <Workbench ack/> }
    });
    // The element keeps its app for as long as the page lives.
    handle.forget();
}
