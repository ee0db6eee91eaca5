//! The storm lab's page (wasm only): its own bundle, so the opening page
//! does not download it; its engine runs in the storm worker.

#[cfg(target_arch = "wasm32")]
fn main() {
    idempotency_lab::ui::start_storms();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("storms-page is the storm lab's browser page; use `idempotency-lab storm` here");
    std::process::exit(2);
}
