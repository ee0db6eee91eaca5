//! Small, failure-tolerant wrappers over browser APIs. Every one of them
//! degrades to doing nothing (storage disabled, clipboard refused, no
//! window in a test) rather than panicking.

use wasm_bindgen::{JsCast, JsValue};

use crate::view::url::LabKind;

pub fn window() -> Option<web_sys::Window> {
    web_sys::window()
}

pub fn document() -> Option<web_sys::Document> {
    window()?.document()
}

/// Milliseconds from a monotonic clock, for playback pacing only.
pub fn now_ms() -> f64 {
    window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

pub fn storage_get(key: &str) -> Option<String> {
    window()?.local_storage().ok()??.get_item(key).ok()?
}

pub fn storage_set(key: &str, value: &str) {
    if let Some(Ok(Some(storage))) = window().map(|w| w.local_storage()) {
        let _ = storage.set_item(key, value);
    }
}

pub fn location_search() -> String {
    window().and_then(|w| w.location().search().ok()).unwrap_or_default()
}

/// The page's address without its query string.
pub fn location_base() -> String {
    window()
        .and_then(|w| {
            let l = w.location();
            Some(format!("{}{}", l.origin().ok()?, l.pathname().ok()?))
        })
        .unwrap_or_default()
}

/// The page that hosts every lab: the object its boot script keeps as
/// `window.idempotencyLab`.
fn lab_host() -> Option<JsValue> {
    let window: JsValue = window()?.into();
    let host = js_sys::Reflect::get(&window, &JsValue::from_str("idempotencyLab")).ok()?;
    host.is_object().then_some(host)
}

/// The element `lab` mounts into on the page that hosts every lab (its
/// boot script's `roots`; the lab may be set aside, hidden, or not yet in
/// the page while it mounts);
/// `None` on a lab's own page.
pub fn lab_root(lab: LabKind) -> Option<web_sys::HtmlElement> {
    let roots = js_sys::Reflect::get(&lab_host()?, &JsValue::from_str("roots")).ok()?;
    js_sys::Reflect::get(&roots, &JsValue::from_str(lab.name())).ok()?.dyn_into().ok()
}

/// Whether `lab` is the one the reader sees: always on a lab's own page;
/// on the page that hosts every lab, the one its root element names
/// (`data-lab`). A lab that is set aside neither writes the address nor
/// answers keys nor sets the page's theme.
pub fn is_showing(lab: LabKind) -> bool {
    document()
        .and_then(|d| d.document_element())
        .and_then(|root| root.get_attribute("data-lab"))
        .is_none_or(|shown| shown == lab.name())
}

/// The query `lab` starts from: the one the host page gave its root (a
/// lab made ready before it is shown, while the address still belongs to
/// another), or the address's.
pub fn lab_query(lab: LabKind) -> String {
    lab_root(lab).and_then(|root| root.get_attribute("data-query")).unwrap_or_else(location_search)
}

/// Where `lab`'s own files are, relative to the page (`data-base` on its
/// root; nothing on its own page).
pub fn lab_base(lab: LabKind) -> String {
    lab_root(lab).and_then(|root| root.get_attribute("data-base")).unwrap_or_default()
}

/// Asks the page that hosts every lab to show `lab`, starting from
/// `query` if it is not ready yet. False on a lab's own page, which has
/// no such host.
pub fn switch_lab(lab: LabKind, query: &str) -> bool {
    call_host("switchTo", &[lab.name(), query])
}

/// Calls the host page's function `name` with `strings`; false where
/// there is no such host or it failed.
fn call_host(name: &str, strings: &[&str]) -> bool {
    let Some(host) = lab_host() else { return false };
    let Some(function) =
        js_sys::Reflect::get(&host, &JsValue::from_str(name)).ok().and_then(|f| f.dyn_into::<js_sys::Function>().ok())
    else {
        return false;
    };
    let args = strings.iter().map(|s| JsValue::from_str(s)).collect::<js_sys::Array>();
    function.apply(&host, &args).is_ok()
}

/// Asks the page that hosts every lab to put the whole build of `lab` in
/// place of its opening build (which carries only what the page shows at
/// first), started from `query`, then to do `intent` and to show the
/// `notices` the reader had (see [`lab_handed`]). False where there is no
/// such host.
pub fn load_whole_lab(lab: LabKind, query: &str, intent: &str, notices: &str) -> bool {
    call_host("loadWhole", &[lab.name(), query, intent, notices])
}

/// What a lab's opening build handed its whole build beyond its link: `data-intent` (what the reader asked for, empty if nothing) and
/// `data-notices` (the notices on screen, as [`NOTICES_APART`] keeps them)
/// on its root.
pub fn lab_handed(lab: LabKind, what: &str) -> String {
    lab_root(lab).and_then(|root| root.get_attribute(what)).unwrap_or_default()
}

/// What separates the notices handed to a lab's whole build (the ASCII
/// record separator; a notice's own is sent as a space).
pub const NOTICES_APART: char = '\u{1e}';

/// Opens another address (another lab's page).
pub fn navigate(url: &str) {
    if let Some(w) = window() {
        let _ = w.location().assign(url);
    }
}

/// Rewrites the address bar for `lab`, without a navigation or a history
/// entry; a lab set aside leaves the address to the shown one.
pub fn replace_query(lab: LabKind, query: &str) {
    if !is_showing(lab) {
        return;
    }
    let Some(w) = window() else { return };
    let Ok(history) = w.history() else { return };
    let path = w.location().pathname().unwrap_or_else(|_| "/".to_owned());
    let url = if query.is_empty() { path } else { format!("{path}?{query}") };
    let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&url));
}

pub fn focus_by_id(id: &str) {
    if let Some(el) =
        document().and_then(|d| d.get_element_by_id(id)).and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
    {
        let _ = el.focus();
    }
}

pub fn set_root_attribute(name: &str, value: &str) {
    if let Some(root) = document().and_then(|d| d.document_element()) {
        let _ = root.set_attribute(name, value);
    }
}

/// Sets a CSS custom property on the root element through the CSSOM.
pub fn set_root_property(name: &str, value: &str) {
    if let Some(root) = document().and_then(|d| d.document_element())
        && let Ok(root) = root.dyn_into::<web_sys::HtmlElement>()
    {
        let _ = root.style().set_property(name, value);
    }
}

pub fn prefers_dark() -> bool {
    window().and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten()).is_some_and(|m| m.matches())
}

pub fn device_pixel_ratio() -> f64 {
    window().map_or(1.0, |w| w.device_pixel_ratio()).clamp(1.0, 3.0)
}

/// Offers `contents` as a file download named `name`.
pub fn download(name: &str, mime: &str, contents: &str) -> Result<(), String> {
    let document = document().ok_or("no document")?;
    let parts = js_sys::Array::of1(&JsValue::from_str(contents));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).map_err(|_| "cannot make a file")?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(|_| "cannot make a download link")?;
    let anchor: web_sys::HtmlAnchorElement =
        document.create_element("a").map_err(|_| "cannot make a link")?.unchecked_into();
    anchor.set_href(&url);
    anchor.set_download(name);
    anchor.click();
    let _ = web_sys::Url::revoke_object_url(&url);
    Ok(())
}

/// What the focused element does with keys, so shortcuts stay out of its way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyOwner {
    /// A text field, number field, slider, select or editable area: it uses
    /// every key, so no shortcut fires.
    Field,
    /// A button, link, checkbox or disclosure: Space and Enter activate it.
    Activatable,
    /// Anything else: shortcuts are free to fire.
    Nothing,
}

pub fn key_owner(target: Option<web_sys::EventTarget>) -> KeyOwner {
    let Some(element) = target.and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else {
        return KeyOwner::Nothing;
    };
    if element.closest("dialog[open]").ok().flatten().is_some() {
        return KeyOwner::Field;
    }
    match element.tag_name().to_ascii_lowercase().as_str() {
        "input" => {
            let kind = element.get_attribute("type").unwrap_or_default().to_ascii_lowercase();
            if matches!(kind.as_str(), "checkbox" | "radio" | "button" | "submit" | "reset" | "file") {
                KeyOwner::Activatable
            } else {
                KeyOwner::Field
            }
        }
        "select" | "textarea" => KeyOwner::Field,
        "button" | "a" | "summary" => KeyOwner::Activatable,
        _ if element.closest("[contenteditable]").ok().flatten().is_some() => KeyOwner::Field,
        _ => KeyOwner::Nothing,
    }
}
