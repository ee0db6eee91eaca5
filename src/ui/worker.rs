//! The page's side of a Web Worker: started on first use; the request sent
//! before it listens waits for its "ready"; a newer request makes answers
//! to older ones stale; stopping ends the worker (a fresh one starts on the
//! next request), which is how Cancel stops work a worker cannot be asked
//! to interrupt.

use std::rc::Rc;

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::Closure;

struct Inner {
    url: String,
    /// The worker's first message, as text.
    ready_text: String,
    worker: Option<web_sys::Worker>,
    /// Which worker is the current one: messages from one stopped since
    /// (already on their way) are ignored.
    generation: u32,
    ready: bool,
    waiting: Option<String>,
    on_text: Rc<dyn Fn(&str)>,
    on_error: Rc<dyn Fn()>,
}

#[derive(Clone, Copy)]
pub struct Channel {
    inner: StoredValue<Inner, LocalStorage>,
    current: StoredValue<u32>,
}

impl Channel {
    /// A channel to the worker whose loader is at `url`, whose first
    /// message is `ready_text`.
    pub fn new(url: String, ready_text: String) -> Channel {
        let inner = Inner {
            url,
            ready_text,
            worker: None,
            generation: 0,
            ready: false,
            waiting: None,
            on_text: Rc::new(|_| {}),
            on_error: Rc::new(|| {}),
        };
        Channel { inner: StoredValue::new_local(inner), current: StoredValue::new(0) }
    }

    /// `on_text` hears every message after "ready", `on_error` a worker
    /// that failed.
    pub fn listen(&self, on_text: impl Fn(&str) + 'static, on_error: impl Fn() + 'static) {
        self.inner.update_value(|i| {
            i.on_text = Rc::new(on_text);
            i.on_error = Rc::new(on_error);
        });
    }

    /// Whether answers to request `id` still count.
    pub fn is_current(&self, id: u32) -> bool {
        self.current.try_get_value() == Some(id)
    }

    /// Sends the request `make` writes for a fresh id; returns the id, or
    /// `None` when the browser could not start the worker.
    pub fn send(&self, make: impl FnOnce(u32) -> String) -> Option<u32> {
        let id = self.current.get_value() + 1;
        self.current.set_value(id);
        let worker = self.worker()?;
        let text = make(id);
        if self.inner.with_value(|i| i.ready) {
            worker.post_message(&text.into()).ok()?;
        } else {
            self.inner.update_value(|i| i.waiting = Some(text));
        }
        Some(id)
    }

    /// Ends the worker and whatever it was doing.
    pub fn stop(&self) {
        let _ = self.current.try_update_value(|c| *c += 1);
        let worker = self.inner.try_update_value(|i| {
            i.generation += 1;
            i.ready = false;
            i.waiting = None;
            i.worker.take()
        });
        if let Some(worker) = worker.flatten() {
            worker.terminate();
        }
    }

    fn worker(&self) -> Option<web_sys::Worker> {
        if let Some(w) = self.inner.with_value(|i| i.worker.clone()) {
            return Some(w);
        }
        let worker = web_sys::Worker::new(&self.inner.with_value(|i| i.url.clone())).ok()?;
        let inner = self.inner;
        let generation = inner.with_value(|i| i.generation);
        let onmessage = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
            let Some(text) = e.data().as_string() else { return };
            // After the lab was unmounted, or from a worker since stopped,
            // there is nothing to take.
            let Some((current, is_ready)) =
                inner.try_with_value(|i| (i.generation == generation, i.ready_text == text))
            else {
                return;
            };
            if !current {
                return;
            }
            if is_ready {
                let pending = inner.try_update_value(|i| {
                    i.ready = true;
                    i.waiting.take().zip(i.worker.clone())
                });
                if let Some((text, worker)) = pending.flatten() {
                    let _ = worker.post_message(&text.into());
                }
            } else if let Some(on_text) = inner.try_with_value(|i| i.on_text.clone()) {
                on_text(&text);
            }
        });
        worker.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
        // The handlers live as long as the worker; a terminated worker
        // sends nothing more.
        onmessage.forget();
        let onerror = Closure::<dyn FnMut(web_sys::Event)>::new(move |_| {
            if let Some(on_error) = inner
                .try_with_value(|i| i.on_error.clone())
                .filter(|_| inner.try_with_value(|i| i.generation == generation).unwrap_or(false))
            {
                on_error();
            }
        });
        worker.set_onerror(Some(onerror.as_ref().unchecked_ref()));
        onerror.forget();
        self.inner.update_value(|i| i.worker = Some(worker.clone()));
        Some(worker)
    }
}

/// What a page shows while its worker works: a progress bar named `name`
/// (indeterminate until the worker has said how much there is) and `text`.
pub fn progress_row(name: &'static str, done: u64, total: u64, text: String) -> impl IntoView {
    let max = total.max(1).to_string();
    let value = (total > 0).then(|| done.to_string());
    view! {
        <div class="progress-row" role="status">
            <progress aria-label=name max=max value=value></progress>
            <span>{text}</span>
        </div>
    }
}
