//! Mounting a lab. Each lab is a bundle of its own; the page that hosts
//! every lab (assets/boot.js) loads the bundle of the lab a link names and
//! calls its `mount` with a root element, the link's query and where the
//! lab's files are, and its `unmount` when the reader switches to another
//! lab: the lab's effects, listeners, timers and workers end with it.
//! Its `pause` comes first, as soon as the reader chooses another lab.
//! Every lab's bundle exports the three through `lab_bundle!`.

use std::any::Any;
use std::cell::RefCell;

use leptos::prelude::*;

use crate::view::labs::Lab;

use super::dom;

/// What the host gave the lab it mounted.
#[derive(Clone, Debug, Default)]
pub struct Boot {
    /// The link's query (with or without its `?`).
    pub query: String,
    /// Where the lab's own files are, relative to the page (its worker).
    pub base: String,
}

impl Boot {
    /// The mounted lab's boot, or the page's own address where a
    /// component is mounted alone (in a test).
    pub fn current() -> Boot {
        use_context::<Boot>().unwrap_or_else(|| Boot { query: dom::location_search(), base: String::new() })
    }
}

thread_local! {
    /// The mounted lab, until it is unmounted.
    static MOUNTED: RefCell<Option<Box<dyn Any>>> = const { RefCell::new(None) };
    /// The element the mounted lab lives in.
    static ROOT: RefCell<Option<web_sys::HtmlElement>> = const { RefCell::new(None) };
    /// What the mounted lab does as it is unmounted, before any of it is gone.
    static LEAVING: RefCell<Vec<Box<dyn Fn()>>> = const { RefCell::new(Vec::new()) };
    /// What the mounted lab does when the reader chooses another lab.
    static CHOSEN_AWAY: RefCell<Vec<Box<dyn Fn()>>> = const { RefCell::new(Vec::new()) };
}

/// Calls `f` when the reader chooses another lab, before its bundle has
/// arrived: what moves stops there, so a lab left while playing is left at
/// the moment the reader chose to leave it, however long the other lab
/// takes to load (and, should it fail to load, is still there, paused).
pub fn on_chosen_away(f: impl Fn() + 'static) {
    CHOSEN_AWAY.with(|l| l.borrow_mut().push(Box::new(f)));
}

/// The reader chose another lab (the host calls the bundle's `pause`).
pub fn chosen_away() {
    let handlers = CHOSEN_AWAY.with(|l| std::mem::take(&mut *l.borrow_mut()));
    for f in &handlers {
        f();
    }
    CHOSEN_AWAY.with(|l| {
        let mut l = l.borrow_mut();
        let added = std::mem::take(&mut *l);
        *l = handlers;
        l.extend(added);
    });
}

/// Calls `f` when the mounted lab is unmounted, while all of its state is
/// still there: a lab writes its last moment into the address then (while
/// it plays, the address does not follow every frame), so coming back to
/// it, or going Back, finds it where the reader left it.
pub fn on_leave(f: impl Fn() + 'static) {
    LEAVING.with(|l| l.borrow_mut().push(Box::new(f)));
}

/// Mounts `lab`'s `app` in `root`, started from `query`, with its files at
/// `base`; a lab mounted before is unmounted first. The page's title
/// becomes the lab's, and once the first complete render reaches the
/// screen the performance mark [`super::RENDERED_MARK`] is set.
pub fn mount<V: IntoView + 'static>(lab: Lab, root: web_sys::HtmlElement, query: String, base: String, app: fn() -> V) {
    unmount();
    dom::set_title(lab.title);
    let boot = Boot { query, base };
    ROOT.with(|r| *r.borrow_mut() = Some(root.clone()));
    let mounted = leptos::mount::mount_to(root, move || {
        provide_context(boot);
        app()
    });
    MOUNTED.with(|m| *m.borrow_mut() = Some(Box::new(mounted)));
    request_animation_frame(|| {
        if let Some(performance) = dom::window().and_then(|w| w.performance()) {
            let _ = performance.mark(super::RENDERED_MARK);
        }
    });
}

/// The mounted lab says it answers its reader: from the next frame, once
/// what it has just changed is drawn, its root element has `data-ready`
/// (what `make bench` waits for). A lab that replays a run is ready once it
/// is first drawn; one whose results come later, once they are in.
pub fn ready() {
    let Some(root) = ROOT.with(|r| r.borrow().clone()) else { return };
    request_animation_frame(move || {
        let _ = root.set_attribute("data-ready", "");
    });
}

/// Unmounts the mounted lab, if there is one: Leptos disposes of its
/// reactive graph, and with it every effect, listener and timer it owns.
pub fn unmount() {
    ROOT.with(|r| r.borrow_mut().take());
    CHOSEN_AWAY.with(|l| l.borrow_mut().clear());
    let leaving = LEAVING.with(|l| std::mem::take(&mut *l.borrow_mut()));
    for f in leaving {
        f();
    }
    let mounted = MOUNTED.with(|m| m.borrow_mut().take());
    drop(mounted);
}
