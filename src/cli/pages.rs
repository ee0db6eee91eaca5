//! Each lab's page for Trunk, written from the registry at build time
//! (`idempotency-lab labs --pages DIR`): Trunk builds the lab's bundle (its
//! Cargo binary, named by its id), the workers it brings and its styles
//! from it into the lab's folder of the build. Opened in a browser, the
//! built page sends the reader to the page that hosts every lab.

use std::path::{Component, Path};

use super::{LabCommand, UsageError};

/// What `--pages` takes.
pub const DIR_ALLOWED: &str = "a folder inside the repository, given from its top, such as target/lab-pages";

/// The worker every lab that explores brings (src/bin/explore-worker.rs).
const EXPLORE_WORKER: &str = "explore-worker";

/// How Trunk builds a Cargo binary for the browser: optimised for size in
/// a release build.
const WASM: &str = "data-wasm-opt=\"z\" data-wasm-opt-params=\"--low-memory-unused --converge\" data-cargo-profile-release=\"wasm-release\"";

/// The page of `lab`, written `up` folders below the repository's top.
pub fn page(lab: &LabCommand, up: usize) -> String {
    let top = "../".repeat(up);
    let id = lab.lab.id;
    let mut workers: Vec<&str> = lab.explore.map(|_| EXPLORE_WORKER).into_iter().collect();
    workers.extend(lab.lab.workers);
    let workers: String = workers
        .iter()
        .map(|worker| {
            format!(
                "    <link data-trunk rel=\"rust\" href=\"{top}Cargo.toml\" data-bin=\"{worker}\" data-type=\"worker\" data-loader-shim {WASM} />\n"
            )
        })
        .collect();
    format!(
        "<!doctype html>\n\
         <html lang=\"en\" data-theme=\"auto\">\n  \
         <head>\n    \
         <meta charset=\"utf-8\" />\n    \
         {policy}\n    \
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\" />\n    \
         <title>{title}</title>\n    \
         <!-- Written by `idempotency-lab labs --pages` from the registry (src/view/labs.rs): the {id} lab's\n         \
         bundle (the Cargo binary \"{id}\"), its workers and its styles. The page that hosts every lab loads\n         \
         them from this folder; this page sends the reader there, with the same link. -->\n    \
         <link data-trunk rel=\"rust\" href=\"{top}Cargo.toml\" data-bin=\"{id}\" {WASM} />\n\
         {workers}    \
         <link data-trunk rel=\"css\" href=\"{top}styles/{id}.css\" />\n    \
         <link data-trunk rel=\"copy-file\" href=\"{top}assets/page-boot.js\" />\n    \
         <script type=\"module\" src=\"page-boot.js\"></script>\n  \
         </head>\n  \
         <body data-forward=\"../?lab={id}\">\n    \
         <noscript>Idempotency Lab runs in your browser and needs JavaScript and WebAssembly.</noscript>\n  \
         </body>\n\
         </html>\n",
        title = lab.lab.title,
        policy = policy(),
    )
}

/// The page that hosts every lab, whose policy each lab's page carries too.
const HOST_PAGE: &str = include_str!("../../index.html");

/// The host page's Content-Security-Policy `<meta>` line, as it is there:
/// one place for the policy a page carries for a host that sends none.
pub fn policy() -> &'static str {
    HOST_PAGE.lines().map(str::trim).find(|l| l.contains("http-equiv=\"Content-Security-Policy\"")).unwrap_or_default()
}

/// Writes every lab's page into `dir/<id>/index.html` and returns their
/// paths, a line each. `dir` is relative to the repository's top, where
/// the command runs, so the pages can name its files from there.
pub fn write(labs: &[LabCommand], dir: &str) -> Result<String, UsageError> {
    let path = Path::new(dir);
    let down = path.components().filter(|c| matches!(c, Component::Normal(_))).count();
    let inside = down > 0 && path.components().all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
    if !inside || !Path::new("Cargo.toml").is_file() {
        return Err(super::args::refuse("--pages", dir, DIR_ALLOWED));
    }
    let mut written = String::new();
    for lab in labs {
        let folder = path.join(lab.lab.id);
        let file = folder.join("index.html");
        std::fs::create_dir_all(&folder)
            .and_then(|()| std::fs::write(&file, page(lab, down + 1)))
            .map_err(|e| UsageError(format!("--pages: cannot write \"{}\": {e}", file.display())))?;
        written.push_str(&format!("{}\n", file.display()));
    }
    Ok(written)
}
