//! On wasm32 this mounts the browser app; natively it is the command line.

#[cfg(target_arch = "wasm32")]
fn main() {
    idempotency_lab::ui::start();
}

/// Called by `idempotency-lab-element.js` for each `<idempotency-lab>`
/// element: mounts the lab in `mount`, inside `host`'s shadow root, with
/// `query` (the element's attributes as a link's query string); `base` is
/// the lab's own address.
#[cfg(all(target_arch = "wasm32", not(feature = "lite")))]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn mount_element(host: web_sys::HtmlElement, mount: web_sys::HtmlElement, query: String, base: String) {
    idempotency_lab::ui::element::mount(host, mount, &query, base);
}

/// Called by the page that hosts every lab once the whole first lab has
/// taken the opening page's place.
#[cfg(all(target_arch = "wasm32", feature = "lite"))]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn unmount() {
    idempotency_lab::ui::unmount();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    let args: Vec<String> = std::env::args_os().skip(1).map(|a| a.to_string_lossy().into_owned()).collect();
    let code = idempotency_lab::cli::main_with(&args, &mut std::io::stdout().lock(), &mut std::io::stderr().lock());
    std::process::exit(code);
}
