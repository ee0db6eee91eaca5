//! What the Embed dialog offers a docs author, for the run and moment on
//! screen in any lab: an iframe of the compact embed and the custom
//! element, both sized for the 800 x 500 box the compact layout fits (its
//! diagram, playback and results whole, and a link to the full lab).

use super::timeline::escape;
use super::url::{LinkState, percent_decode, to_query};

/// The box both snippets ask for, in CSS pixels.
pub const BOX: (u32, u32) = (800, 500);

/// The page parameters an element's attributes leave out: `embed` is the
/// element's `compact`, and checkpoints and lessons (which a link may
/// repeat or which are a page's own) stay with the page.
const NOT_ATTRIBUTES: &[&str] = &["embed", "pin", "lesson", "step"];

/// An iframe of the compact embed of `state`, whose page is at `page` (its
/// address without a query; the link gets `embed=1` here).
pub fn iframe_snippet(page: &str, state: &LinkState, title: &str) -> String {
    let mut embedded = state.clone();
    embedded.page.embed = true;
    let query = to_query(&embedded);
    let (w, h) = BOX;
    format!(
        "<iframe src=\"{}\" title=\"{}\" width=\"{w}\" height=\"{h}\" loading=\"lazy\"></iframe>",
        escape(&format!("{page}?{query}")),
        escape(title)
    )
}

/// The custom element showing `state`, compact, loaded from the lab's
/// files at `base` (the page's address, ending in `/`): its script, then
/// the element with the link's settings as attributes.
pub fn element_snippet(base: &str, state: &LinkState) -> String {
    let mut attributes = vec![format!("lab=\"{}\"", escape(state.lab.id))];
    for pair in to_query(state).split('&').filter(|p| !p.is_empty()) {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        let (name, value) = (percent_decode(name), percent_decode(value));
        if name == "lab" || NOT_ATTRIBUTES.contains(&name.as_str()) || name.starts_with("b.") {
            continue;
        }
        attributes.push(format!("{}=\"{}\"", escape(&name), escape(&value)));
    }
    let (w, h) = BOX;
    format!(
        "<script type=\"module\" src=\"{}idempotency-lab-element.js\"></script>\n\
         <idempotency-lab {} compact width=\"{w}\" height=\"{h}\"></idempotency-lab>",
        escape(base),
        attributes.join(" ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::Millis;
    use crate::sim::ack::Settings;
    use crate::sim::ack::settings::DEDUP;
    use crate::view::ack::ACK;
    use crate::view::page::Page;
    use crate::view::risk::RISK;

    #[test]
    fn both_snippets_show_the_run_and_moment_in_an_800_by_500_box() {
        let settings = Settings::from_pairs(&[(&DEDUP, "off")]).unwrap();
        let page = Page { at: Some(Millis(4_050)), ..Page::default() };
        let state = LinkState::of(ACK, &settings, None, page);
        assert_eq!(
            iframe_snippet("https://lab.example/", &state, "Idempotency Lab"),
            "<iframe src=\"https://lab.example/?dedup=off&amp;at=4.05&amp;embed=1\" title=\"Idempotency Lab\" \
             width=\"800\" height=\"500\" loading=\"lazy\"></iframe>"
        );
        assert_eq!(
            element_snippet("https://lab.example/", &state),
            "<script type=\"module\" src=\"https://lab.example/idempotency-lab-element.js\"></script>\n\
             <idempotency-lab lab=\"ack\" dedup=\"off\" at=\"4.05\" compact width=\"800\" height=\"500\"></idempotency-lab>"
        );
    }

    #[test]
    fn an_element_names_its_lab_and_leaves_the_pages_own_parameters_out() {
        let mut state = LinkState { lab: RISK, ..LinkState::default() };
        state.params = vec![("mode".to_owned(), "patterns".to_owned()), ("preset".to_owned(), "a\"b".to_owned())];
        state.b_params = vec![("idem".to_owned(), "off".to_owned())];
        state.page.pins = vec![crate::view::page::Pin { at: Millis(5), question: "why?".to_owned() }];
        let snippet = element_snippet("/lab/", &state);
        assert!(
            snippet.contains("<idempotency-lab lab=\"risk\" mode=\"patterns\" preset=\"a&quot;b\" compact"),
            "{snippet}"
        );
        assert!(!snippet.contains("pin") && !snippet.contains("b.idem") && !snippet.contains("embed"), "{snippet}");
    }
}
