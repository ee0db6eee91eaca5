//! The storm lab's bundle: the page that hosts every lab mounts it; its
//! engine runs in the storm worker (src/bin/storm-worker.rs).
idempotency_lab::lab_bundle!(idempotency_lab::view::storm::StormLab, idempotency_lab::ui::storm::StormsApp);

/// Called by `idempotency-lab-element.js` for an `<idempotency-lab lab="storms">`
/// element: mounts the lab in `mount`, inside `host`'s shadow root, with
/// `query` (the element's attributes as a link's query string); `base` is
/// the address of the lab's page.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn mount_element(host: web_sys::HtmlElement, mount: web_sys::HtmlElement, query: String, base: String) {
    use idempotency_lab::{ui, view::lab::LabModel, view::storm::StormLab};
    ui::element::mount_lab(StormLab::LAB, host, mount, query, base, ui::storm::StormsApp);
}
