//! The lost-acknowledgement lab's bundle: the page that hosts every lab
//! mounts it, and the custom element (`mount_element`) runs it too.
idempotency_lab::lab_bundle!(idempotency_lab::view::ack::AckLab, idempotency_lab::ui::ack::AckApp);

/// Called by `idempotency-lab-element.js` for each `<idempotency-lab>`
/// element: mounts the lab in `mount`, inside `host`'s shadow root, with
/// `query` (the element's attributes as a link's query string); `base` is
/// the lab's own address.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn mount_element(host: web_sys::HtmlElement, mount: web_sys::HtmlElement, query: String, base: String) {
    idempotency_lab::ui::ack::element::mount(host, mount, &query, base);
}
