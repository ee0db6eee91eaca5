//! The risk-review lab's page (wasm only): its own bundle, so the opening
//! page does not download it. Built with the feature `lite`, it is the
//! lab's opening build, without run B; built without, its whole build.

#[cfg(target_arch = "wasm32")]
fn main() {
    idempotency_lab::ui::start_risk();
}

/// Called by the page that hosts every lab once the risk lab's whole build
/// has taken its opening build's place.
#[cfg(all(target_arch = "wasm32", feature = "lite"))]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn unmount() {
    idempotency_lab::ui::unmount();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("risk-page is the risk-review lab's browser page; use `idempotency-lab risk` here");
    std::process::exit(2);
}
