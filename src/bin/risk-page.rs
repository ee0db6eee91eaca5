//! The risk-review lab's page (wasm only): its own bundle, so the opening
//! page does not download it.

#[cfg(target_arch = "wasm32")]
fn main() {
    idempotency_lab::ui::start_risk();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("risk-page is the risk-review lab's browser page; use `idempotency-lab risk` here");
    std::process::exit(2);
}
