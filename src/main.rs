//! On wasm32 this mounts the browser app; natively it is the command line.

#[cfg(target_arch = "wasm32")]
fn main() {
    idempotency_lab::ui::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    let args: Vec<String> = std::env::args_os().skip(1).map(|a| a.to_string_lossy().into_owned()).collect();
    let code = idempotency_lab::cli::main_with(&args, &mut std::io::stdout().lock(), &mut std::io::stderr().lock());
    std::process::exit(code);
}
