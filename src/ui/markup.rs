//! Regions whose content is markup written in `view` (`view::markup` for
//! every page, `view::risk::html` for the risk page's panels) listen once
//! for clicks; these read what a click chose.

use wasm_bindgen::JsCast;

use crate::sim::Millis;

/// The attribute `name` of the nearest element at or around the click's
/// target that carries it.
pub fn chosen(ev: &web_sys::Event, name: &str) -> Option<String> {
    let target = ev.target()?.dyn_into::<web_sys::Element>().ok()?;
    let element = target.closest(&format!("[{name}]")).ok()??;
    element.get_attribute(name)
}

/// The moment (`data-t`, model milliseconds) a click chose, if any.
pub fn chosen_moment(ev: &web_sys::Event) -> Option<Millis> {
    chosen(ev, "data-t")?.parse().ok().map(Millis)
}
