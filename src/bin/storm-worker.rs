//! The storm lab's Web Worker binary (wasm only; see `idempotency_lab::worker`).

#[cfg(target_arch = "wasm32")]
fn main() {
    use idempotency_lab::view::storm::protocol::{Answer, Reply, serve};
    idempotency_lab::worker::start(&Reply { id: 0, answer: Answer::Ready }, |text, post| serve(text, |r| post(&r)));
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("storm-worker runs in a browser, as the storm lab's Web Worker; use `idempotency-lab storm` here");
    std::process::exit(2);
}
