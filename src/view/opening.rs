//! What every lab's opening run, written at build time (`idempotency-lab
//! opening`), is made of: the live page's masthead, pickers, playback and
//! words as markup, with every control disabled until the lab starts. The
//! first lab's is written into the page that hosts every lab
//! (`view::ack::opening`); another lab's is a file of its own that the page
//! puts in place for a link to that lab (`view::risk::opening`,
//! `view::storm::opening`, assets/first-paint.js).

use std::fmt::Write;

use crate::sim::Millis;
use crate::sim::params::{Opt, ParamDef};
use crate::view::fields::{self, Control};
use crate::view::glossary::Term;
use crate::view::labs::LABS;
use crate::view::page::Theme;
use crate::view::playback::{Pace, Speed, clock_readout, slider_text};
use crate::view::timeline::escape;

/// What a screen reader hears while the lab loads (the opening run's
/// first element).
pub const LOADING_STATUS: &str = "<p class=\"visually-hidden opening-status\" role=\"status\">The simulator is \
     loading: the opening run is shown, and its controls work in a moment.</p>";

/// `html` with every control disabled: none does anything until the lab
/// starts, and none seems to.
pub fn disabled(html: &str) -> String {
    html.replace("<button ", "<button disabled ")
        .replace("<select ", "<select disabled ")
        .replace("<input ", "<input disabled ")
}

/// `html` with every id it gives an element, and every reference to one
/// (`for`, `aria-controls`, `aria-labelledby`, `aria-describedby` and the
/// arrowheads' `marker-end`, the only ones this markup has; a test checks
/// that every reference finds its element), ending in `suffix`.
pub fn with_suffix(html: &str, suffix: &str) -> String {
    let mut out = String::with_capacity(html.len() + 1024);
    let mut rest = html;
    while let Some(i) = rest.find('"') {
        let (before, after) = rest.split_at(i + 1);
        out.push_str(before);
        let end = after.find('"').unwrap_or(after.len());
        let value = &after[..end];
        let attribute = before[..i].rsplit(' ').next().unwrap_or_default();
        match attribute {
            "id=" | "for=" | "aria-controls=" | "aria-labelledby=" | "aria-describedby=" => {
                let ids: Vec<String> = value.split(' ').map(|id| format!("{id}{suffix}")).collect();
                out.push_str(&ids.join(" "));
            }
            "marker-end=" => out.push_str(&value.replace(')', &format!("{suffix})"))),
            _ => out.push_str(value),
        }
        out.push_str(&after[end..(end + 1).min(after.len())]);
        rest = &after[(end + 1).min(after.len())..];
    }
    out.push_str(rest);
    out
}

/// The toolbar of a lab that shares and exports its runs (the first lab's
/// and the risk lab's).
pub const SHARE_TOOLBAR: &str = "<nav class=\"toolbar\" aria-label=\"Share and files\">\
     <button class=\"toolbar-toggle\" type=\"button\" aria-expanded=\"false\" aria-controls=\"toolbar-items\">\
     Share and files</button><div class=\"toolbar-items\" id=\"toolbar-items\">\
     <button type=\"button\">Copy link</button><button type=\"button\">Embed</button>\
     <button type=\"button\" aria-expanded=\"false\">Compare with…</button><button type=\"button\">Present</button>\
     <button type=\"button\">Export run (JSON)</button><button type=\"button\">Export diagram (SVG)</button>\
     <button type=\"button\">Export trace (OTLP)</button>\
     <span class=\"file-button\"><input type=\"file\" id=\"import-file\" \
     accept=\".json,.lesson,.txt,application/json,text/plain\">\
     <label for=\"import-file\">Import settings or a lesson</label></span>\
     <span class=\"file-button\"><input type=\"file\" id=\"trace-file\" accept=\".json,.jsonl,application/json\">\
     <label for=\"trace-file\">Open a trace</label></span>\
     <button type=\"button\" aria-keyshortcuts=\"?\">Keyboard shortcuts</button></div></nav>";

/// The full page's masthead as the live page writes it: the name, the
/// lab's tagline, the Lab switcher showing `lab`, the lab's `toolbar` and
/// the theme.
pub fn masthead(out: &mut String, tagline: &str, lab: &str, toolbar: &str) {
    let _ = write!(
        out,
        "<header class=\"masthead\"><div class=\"brand\"><h1>Idempotency Lab</h1><p class=\"tagline\">{}</p></div>\
         <form class=\"lab-switcher\"><label for=\"lab-switch\">Lab</label><select id=\"lab-switch\">",
        escape(tagline)
    );
    for entry in LABS.iter() {
        option(out, entry.id, entry.label, entry.id == lab);
    }
    out.push_str("</select></form>");
    out.push_str(toolbar);
    picker(out, "theme-picker", "theme", "Theme", Theme::OPTIONS, 0);
    out.push_str("</header>");
}

pub fn option(out: &mut String, value: &str, label: &str, selected: bool) {
    let _ = write!(
        out,
        "<option value=\"{}\"{}>{}</option>",
        escape(value),
        if selected { " selected" } else { "" },
        escape(label)
    );
}

pub fn picker(out: &mut String, class: &str, id: &str, label: &str, options: &[Opt], chosen: usize) {
    let _ = write!(out, "<div class=\"{class}\"><label for=\"{id}\">{label}</label><select id=\"{id}\">");
    for (i, o) in options.iter().enumerate() {
        option(out, o.value, o.label, i == chosen);
    }
    out.push_str("</select></div>");
}

/// The words a lab uses, closed, as the live page's settings column
/// begins.
pub fn words(out: &mut String, terms: &[Term]) {
    let names: Vec<&str> = terms.iter().map(|t| t.term).collect();
    let _ = write!(
        out,
        "<details class=\"panel words\"><summary>Words used here: {}</summary><dl>",
        escape(&names.join(", "))
    );
    for t in terms {
        let _ = write!(out, "<dt>{}</dt><dd>{}</dd>", escape(t.term), escape(t.means));
    }
    out.push_str("</dl></details>");
}

/// The playback panel at `at` of a run that plays to `end`, its wall
/// clock there (`wall`) for a lab that has one; `fork` for the full page
/// (the embed is one run: it forks nowhere).
pub fn playback(out: &mut String, end: Millis, at: Millis, wall: Option<&str>, fork: bool) {
    out.push_str(
        "<section class=\"panel playback\" aria-labelledby=\"playback-h\">\
         <h2 id=\"playback-h\" class=\"visually-hidden\">Playback</h2><div class=\"playback-buttons\">\
         <button class=\"primary play\" type=\"button\" aria-keyshortcuts=\"Space\">Play</button>\
         <button type=\"button\" aria-keyshortcuts=\"ArrowLeft\">Previous event</button>\
         <button type=\"button\" aria-keyshortcuts=\"ArrowRight\">Next event</button>\
         <button type=\"button\" aria-keyshortcuts=\"Home\">Restart</button>",
    );
    if fork {
        out.push_str(
            "<button type=\"button\" title=\"Compare with a run B that changes one setting, checked from the playhead \
             back\">Fork here</button>",
        );
    }
    out.push_str("<span class=\"speed\"><label for=\"speed\">Speed</label><select id=\"speed\">");
    for speed in Speed::ALL {
        option(out, speed.label(), speed.label(), speed == Speed::One);
    }
    let pace = Pace { end, moments: &[], speed: Speed::One };
    let _ = write!(
        out,
        "</select></span></div><div class=\"scrub\"><label for=\"time\">Time</label>\
         <input id=\"time\" type=\"range\" min=\"0\" step=\"1\" max=\"{}\" value=\"{}\" aria-valuetext=\"{}\"></div>\
         <p class=\"readout\"><output for=\"time\">{}</output></p></section>",
        end.ms(),
        at.ms(),
        escape(&slider_text(at, Some(end), wall)),
        escape(&clock_readout(at, &pace, wall))
    );
}

/// One parameter's control showing `value`, as the live form writes it.
pub fn field(out: &mut String, param: &ParamDef, value: &str) {
    let id = fields::element_id(param);
    let label = escape(param.label);
    match fields::control(param) {
        Control::Select(options) => {
            let _ = write!(out, "<div class=\"field\"><label for=\"{id}\">{label}</label><select id=\"{id}\">");
            for o in options {
                option(out, o.value, o.label, o.value == value);
            }
            out.push_str("</select></div>");
        }
        Control::Checkbox { on, .. } => {
            let checked = if value == on { " checked" } else { "" };
            let _ = write!(
                out,
                "<div class=\"field check\"><input type=\"checkbox\" id=\"{id}\"{checked}><label for=\"{id}\">{label}</label></div>"
            );
        }
        Control::Seconds | Control::Count | Control::Text => {
            let _ = write!(
                out,
                "<div class=\"field\"><label for=\"{id}\">{label}</label><input type=\"text\" id=\"{id}\" \
                 inputmode=\"{}\" autocomplete=\"off\" spellcheck=\"false\" aria-describedby=\"{id}-hint\" value=\"{}\">\
                 <span class=\"hint\" id=\"{id}-hint\">{}</span></div>",
                fields::input_mode(param),
                escape(value),
                escape(&fields::hint(param))
            );
        }
    }
}
