//! The command line. (In the browser each lab is a bundle of its own,
//! built from src/bin/.)

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    let args: Vec<String> = std::env::args_os().skip(1).map(|a| a.to_string_lossy().into_owned()).collect();
    let code = idempotency_lab::cli::main_with(&args, &mut std::io::stdout().lock(), &mut std::io::stderr().lock());
    std::process::exit(code);
}

#[cfg(target_arch = "wasm32")]
fn main() {}
