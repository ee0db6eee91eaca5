//! The storm lab's Web Worker binary (wasm only; see `idempotency_lab::worker`).

#[cfg(target_arch = "wasm32")]
fn main() {
    use idempotency_lab::view::storm::protocol::{Answer, Reply, serve};
    let text = |reply: &Reply| serde_json::to_string(reply).unwrap_or_default();
    let ready = text(&Reply { id: 0, answer: Answer::Ready });
    idempotency_lab::worker::start(ready, move |request, post| text(&serve(request, |r| post(text(&r)))));
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("storm-worker runs in a browser, as the storm lab's Web Worker; use `idempotency-lab storm` here");
    std::process::exit(2);
}
