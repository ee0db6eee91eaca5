//! Each lab's opening run as the page's markup (`idempotency-lab opening
//! [--lab LAB]`): what a reader sees before the lab starts, under the
//! page's strict Content-Security-Policy. The browser tests compare it with
//! the live lab (e2e/tests/opening.spec.mjs); these check the markup itself.

use std::collections::BTreeSet;

use idempotency_lab::view::ack::opening::page;

/// Every lab's opening run that the build writes: the first lab's, in the
/// page, and the others', beside their bundles.
fn openings() -> [String; 3] {
    [page(), idempotency_lab::view::risk::opening::page(), idempotency_lab::view::storm::opening::page()]
}

/// Every value of attribute `name` in `html`.
fn attribute<'a>(html: &'a str, name: &str) -> Vec<&'a str> {
    let needle = format!(" {name}=\"");
    html.match_indices(&needle)
        .map(|(i, _)| {
            let rest = &html[i + needle.len()..];
            &rest[..rest.find('"').expect("a closed attribute")]
        })
        .collect()
}

#[test]
fn the_opening_page_needs_no_inline_script_or_style() {
    for html in openings() {
        assert!(!html.contains("<script"), "no script");
        assert!(!html.contains("<style"), "no style element");
        assert!(attribute(&html, "style").is_empty(), "no style attribute");
        for (i, _) in html.match_indices(" on") {
            let name: String = html[i + 1..].chars().take_while(char::is_ascii_lowercase).collect();
            assert!(!html[i + 1 + name.len()..].starts_with("=\""), "no inline handler ({name})");
        }
    }
}

#[test]
fn every_id_is_unique_and_every_reference_finds_its_element() {
    for html in openings() {
        let ids = attribute(&html, "id");
        let unique: BTreeSet<&str> = ids.iter().copied().collect();
        assert_eq!(unique.len(), ids.len(), "duplicate ids in {ids:?}");
        // Every attribute that names an element: by id, in a list of ids, or
        // as `#id` and `url(#id)`.
        let mut references: Vec<&str> = ["for", "aria-controls"].iter().flat_map(|a| attribute(&html, a)).collect();
        for list in ["aria-labelledby", "aria-describedby", "aria-owns", "aria-details"]
            .iter()
            .flat_map(|a| attribute(&html, a))
        {
            references.extend(list.split_whitespace());
        }
        for (i, _) in html.match_indices("=\"#").chain(html.match_indices("url(#")) {
            let rest = &html[i..];
            let start = rest.find('#').expect("a #") + 1;
            let end = rest[start..].find(['"', ')']).expect("a closed reference");
            references.push(&rest[start..start + end]);
        }
        assert!(references.len() > 40, "the page labels its controls and its diagram");
        for r in references {
            assert!(unique.contains(r), "{r} is referred to but no element has that id");
        }
    }
}

#[test]
fn every_control_waits_for_the_lab() {
    let html = page();
    // The full page, then the embed.
    let embed = html.find("<div class=\"lab-root prerendered embed-opening\">").expect("the embed");
    assert!(html.starts_with("<div class=\"lab-root prerendered page-opening\">"));
    for root in [&html[..embed], &html[embed..]] {
        for control in ["<button", "<select", "<input"] {
            let count = root.matches(control).count();
            assert!(count > 0, "the copy has {control} controls");
            assert_eq!(root.matches(&format!("{control} disabled ")).count(), count, "every {control} is disabled");
        }
    }
    assert!(!html[embed..].contains("Fork here"), "the embed is one run");
    assert!(!html[embed..].contains("class=\"masthead\""), "the embed has no page chrome");
    for other in [idempotency_lab::view::risk::opening::page(), idempotency_lab::view::storm::opening::page()] {
        assert!(other.starts_with("<div class=\"lab-root prerendered page-opening\">"));
        for control in ["<button", "<select", "<input"] {
            let count = other.matches(control).count();
            assert!(count > 0, "the copy has {control} controls");
            assert_eq!(other.matches(&format!("{control} disabled ")).count(), count, "every {control} is disabled");
        }
    }
}

#[test]
fn the_opening_page_shows_the_opening_run_at_its_start() {
    let html = page();
    // MODEL.md's opening run: one attempt sent at 0 with at most 3, the
    // commit at 2.00 s, the retry answered from the store, the client's
    // success at 4.05 s.
    assert!(html.contains("<dd class=\"counter\">0</dd>"), "nothing committed at 0");
    assert!(html.contains("<dd class=\"attempts\">1 of 3</dd>"));
    assert!(html.contains("max=\"4050\" value=\"0\""), "the Time slider runs to 4.05 s and starts at 0");
    assert!(html.contains("Model time: 0.00 s (the run ends at 4.05 s)"));
    assert!(html.contains("1 increment; the client succeeded at 4.05 s."));
    // Both drawings (the timeline and the sequence diagram), in the page
    // and in the embed, the playhead at 0.
    assert_eq!(html.matches("<svg class=\"diagram\"").count(), 4);
    // The playhead on the 0.00 s gridline in each drawing: across, both at
    // one x; down, both at one y.
    for svg in html.split("<svg class=\"diagram\"").skip(1) {
        let grid = svg.find("<path class=\"gridline").map(|i| &svg[i..]).expect("a gridline");
        let d = attribute(grid, "d")[0];
        let (from, to) = d.trim_start_matches('M').split_once('L').expect("a line");
        let (from, to) = (from.split_once(' ').expect("x y"), to.split_once(' ').expect("x y"));
        let line = &svg[svg.find("<line class=\"playhead\"").expect("the playhead")..];
        let at = |name| attribute(line, name)[0];
        if from.0 == to.0 {
            assert_eq!((at("x1"), at("x2")), (from.0, from.0), "across: the playhead on the gridline {d}");
        } else {
            assert_eq!(from.1, to.1, "a gridline runs across or down: {d}");
            assert_eq!((at("y1"), at("y2")), (from.1, from.1), "down: the playhead on the gridline {d}");
        }
    }
    // The opening run loses the first success response.
    assert!(html.contains("<option value=\"lose-first\" selected>Lose first success response</option>"));
    // The retry is answered from the store: the server deduplicates keys.
    assert!(html.contains("id=\"f-dedup\" checked"), "deduplication starts on");
}

#[test]
fn the_first_paint_script_reads_the_key_the_page_saves_settings_under() {
    let script =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/first-paint.js")).expect("the script");
    let key = idempotency_lab::view::ack::opening::SAVED_SETTINGS_KEY;
    assert!(script.contains(&format!("localStorage.getItem(\"{key}\")")), "first-paint.js reads {key}");
}

#[test]
fn each_mark_carries_its_moment_and_what_is_after_the_playhead_is_marked_future() {
    let html = page();
    let (mut future, mut past) = (0, 0);
    // The diagrams' marks (the recent events' buttons carry moments too).
    let marks =
        html.split('<').filter(|t| (t.starts_with("path ") || t.starts_with("text ")) && t.contains(" data-t=\""));
    for tag in marks {
        let class = attribute(tag, "class")[0];
        let t: u64 = attribute(tag, "data-t")[0].parse().expect("data-t in milliseconds");
        // The playhead is at 0: everything later is still to come.
        assert_eq!(class.split(' ').any(|c| c == "future"), t > 0, "{tag}");
        if t > 0 {
            future += 1
        } else {
            past += 1
        }
        // A mark that shows a record can be chosen, and says which.
        assert_eq!(class.split(' ').any(|c| c == "clickable"), tag.contains(" data-record=\""), "{tag}");
    }
    // At 0 the client has sent attempt 1 and the server started it; the
    // rest of the run (commit, the lost response, the retry) is to come.
    assert!(past > 0 && future > past, "{past} marks at 0, {future} later");
}
