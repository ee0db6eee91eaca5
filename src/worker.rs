//! A lab's Web Worker: it answers the page's requests (JSON text) with a
//! pure `serve` function, so long runs, sweeps and explorations never block
//! the page. Each worker is its own wasm binary, so its engine is downloaded
//! only when the page first needs it: `storm-worker` for the storm lab,
//! `explore-worker` for exploring every schedule.

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::Closure;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

fn post(scope: &DedicatedWorkerGlobalScope, text: String) {
    // A page that went away cannot be told; nothing to do then.
    let _ = scope.post_message(&text.into());
}

/// Installs the message handler: each request is served by `serve`, which
/// may post progress as it goes; its return is posted last. `ready` is
/// posted once the handler listens. Messages are JSON text both ways.
pub fn start(ready: String, serve: impl Fn(&str, &mut dyn FnMut(String)) -> String + 'static) {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let handler_scope = scope.clone();
    let onmessage = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
        let Some(text) = event.data().as_string() else {
            return;
        };
        let reply = serve(&text, &mut |progress| post(&handler_scope, progress));
        post(&handler_scope, reply);
    });
    scope.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
    // The handler lives as long as the worker.
    onmessage.forget();
    post(&scope, ready);
}
