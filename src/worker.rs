//! The storm lab's Web Worker: it answers the page's requests with
//! `view::storm::protocol::serve`, so long runs and sweeps never block the
//! page. It is its own wasm binary, so the storm engine is downloaded only
//! when the Storms view first needs it.

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::Closure;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

use crate::view::storm::protocol::{Reply, serve};

fn post(scope: &DedicatedWorkerGlobalScope, reply: &Reply) {
    if let Ok(text) = serde_json::to_string(reply) {
        // A page that went away cannot be told; nothing to do then.
        let _ = scope.post_message(&text.into());
    }
}

/// Installs the message handler.
pub fn start() {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let handler_scope = scope.clone();
    let onmessage = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
        let Some(text) = event.data().as_string() else {
            return;
        };
        let reply = serve(&text, |progress| post(&handler_scope, &progress));
        post(&handler_scope, &reply);
    });
    scope.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
    // The handler lives as long as the worker.
    onmessage.forget();
    post(&scope, &Reply { id: 0, answer: crate::view::storm::protocol::Answer::Ready });
}
