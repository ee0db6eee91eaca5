//! Idempotency Lab: a simulator of retries, lost acknowledgements and
//! idempotency keys.
//!
//! `sim` is the pure core; `view` turns runs into things to show (diagram
//! geometry, URL state, playback clock) without touching the web; `ui` is the
//! Leptos front end (wasm only) and `cli` the command line (native only).

pub mod sim;
pub mod view;

#[cfg(target_arch = "wasm32")]
pub mod ui;

/// The storm lab's Web Worker (a second wasm binary, loaded on first use).
#[cfg(target_arch = "wasm32")]
pub mod worker;

#[cfg(not(target_arch = "wasm32"))]
pub mod cli;

/// Exports a lab's `mount` and `unmount` from its bundle (a binary in
/// src/bin/, named by the lab's id): `lab_bundle!(RiskLab, RiskApp)`.
#[macro_export]
macro_rules! lab_bundle {
    ($lab:ty, $app:path) => {
        #[cfg(target_arch = "wasm32")]
        mod exports {
            use wasm_bindgen::prelude::wasm_bindgen;

            /// Mounts the lab in `root`, started from `query`; `base` is
            /// where its files are.
            #[wasm_bindgen]
            pub fn mount(root: web_sys::HtmlElement, query: String, base: String) {
                let lab = <$lab as idempotency_lab::view::lab::LabModel>::LAB;
                idempotency_lab::ui::mount::mount(lab, root, query, base, $app);
            }

            /// The reader chose another lab: what moves stops.
            #[wasm_bindgen]
            pub fn pause() {
                idempotency_lab::ui::mount::chosen_away();
            }

            /// Unmounts the lab.
            #[wasm_bindgen]
            pub fn unmount() {
                idempotency_lab::ui::mount::unmount();
            }
        }

        fn main() {
            #[cfg(not(target_arch = "wasm32"))]
            {
                let lab = <$lab as idempotency_lab::view::lab::LabModel>::LAB;
                eprintln!("this is the {} lab's browser bundle; use `idempotency-lab {}` here", lab.label, lab.id);
                std::process::exit(2);
            }
        }
    };
}
