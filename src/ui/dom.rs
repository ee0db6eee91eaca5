//! Small, failure-tolerant wrappers over browser APIs. Every one of them
//! degrades to doing nothing (storage disabled, clipboard refused, no
//! window in a test) rather than panicking.

use wasm_bindgen::{JsCast, JsValue};

use crate::view::labs::Lab;

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

pub fn storage_remove(key: &str) {
    if let Some(Ok(Some(storage))) = window().map(|w| w.local_storage()) {
        let _ = storage.remove_item(key);
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

/// Asks the page that hosts every lab to show `lab` in place of the one on
/// screen, where the reader left it. False where there is no such host (a
/// custom element's page).
pub fn switch_lab(lab: Lab) -> bool {
    switch_lab_to(lab, None)
}

/// Asks the page that hosts every lab to show `lab` as `query` (with its
/// `?`) says, the lab on screen too (it is mounted again); where the reader
/// left it with no query. False where there is no such host.
pub fn switch_lab_to(lab: Lab, query: Option<&str>) -> bool {
    let Some(host) = lab_host() else { return false };
    let Some(function) = js_sys::Reflect::get(&host, &JsValue::from_str("switchTo"))
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
    else {
        return false;
    };
    match query {
        None => function.call1(&host, &JsValue::from_str(lab.id)).is_ok(),
        Some(q) => function.call2(&host, &JsValue::from_str(lab.id), &JsValue::from_str(q)).is_ok(),
    }
}

/// Sets the page's title.
pub fn set_title(title: &str) {
    if let Some(d) = document() {
        d.set_title(title);
    }
}

/// Opens another address (another lab's page).
pub fn navigate(url: &str) {
    if let Some(w) = window() {
        let _ = w.location().assign(url);
    }
}

/// Rewrites the address bar's query, without a navigation or a history
/// entry.
pub fn replace_query(query: &str) {
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

/// The window's width in CSS pixels (a desktop's, where it cannot be read).
pub fn viewport_width() -> f64 {
    window().and_then(|w| w.inner_width().ok()).and_then(|w| w.as_f64()).unwrap_or(1280.0)
}

pub fn viewport_height() -> f64 {
    window().and_then(|w| w.inner_height().ok()).and_then(|h| h.as_f64()).unwrap_or(800.0)
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

/// Whether a clicker's keys (PageDown, PageUp) may step the lesson or the
/// run with the focus on `target`: on any control but a text area or an
/// open dialog, where they scroll what the reader is in. (A select or a
/// text field would otherwise take them, and a clicker has no other keys.)
pub fn clicker_may_step(target: Option<web_sys::EventTarget>) -> bool {
    let Some(element) = target.and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else {
        return true;
    };
    let inside = |selector: &str| element.closest(selector).ok().flatten().is_some();
    !(inside("dialog[open]") || inside("textarea") || inside("[contenteditable]"))
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
            // A radio group moves its choice with the arrow keys: those keys
            // are its own, as a field's are.
            if kind == "radio" {
                KeyOwner::Field
            } else if matches!(kind.as_str(), "checkbox" | "button" | "submit" | "reset" | "file") {
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
