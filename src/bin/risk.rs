//! The risk-review lab's bundle: the page that hosts every lab mounts it.
idempotency_lab::lab_bundle!(idempotency_lab::view::risk::RiskLab, idempotency_lab::ui::risk::RiskApp);

/// Called by `idempotency-lab-element.js` for an `<idempotency-lab lab="risk">`
/// element: mounts the lab in `mount`, inside `host`'s shadow root, with
/// `query` (the element's attributes as a link's query string); `base` is
/// the address of the lab's page.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn mount_element(host: web_sys::HtmlElement, mount: web_sys::HtmlElement, query: String, base: String) {
    use idempotency_lab::{ui, view::lab::LabModel, view::risk::RiskLab};
    ui::element::mount_lab(RiskLab::LAB, host, mount, query, base, ui::risk::RiskApp);
}
