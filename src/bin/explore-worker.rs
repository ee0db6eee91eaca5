//! The Web Worker that explores every schedule for the first lab and the
//! risk lab (wasm only; see `idempotency_lab::worker`).

#[cfg(target_arch = "wasm32")]
fn main() {
    use idempotency_lab::view::explore::{Answer, Reply, serve};
    idempotency_lab::worker::start(&Reply { id: 0, answer: Answer::Ready }, |text, post| serve(text, post));
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("explore-worker runs in a browser, as the labs' Web Worker; use `idempotency-lab explore` here");
    std::process::exit(2);
}
