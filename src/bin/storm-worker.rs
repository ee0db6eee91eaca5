//! The storm lab's Web Worker binary (wasm only; see `idempotency_lab::worker`).

#[cfg(target_arch = "wasm32")]
fn main() {
    idempotency_lab::worker::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("storm-worker runs in a browser, as the storm lab's Web Worker; use `idempotency-lab storm` here");
    std::process::exit(2);
}
