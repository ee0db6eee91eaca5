//! The Web Worker that explores every schedule for the first lab and the
//! risk lab (wasm only; see `idempotency_lab::worker`).

#[cfg(target_arch = "wasm32")]
fn main() {
    use idempotency_lab::view::explore::{Answer, Reply, serve};
    let ready = Reply { id: 0, answer: Answer::Ready }.to_text();
    idempotency_lab::worker::start(ready, |request, post| serve(request, |r| post(r.to_text())).to_text());
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("explore-worker runs in a browser, as the labs' Web Worker; use `idempotency-lab explore` here");
    std::process::exit(2);
}
