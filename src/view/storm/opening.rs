//! The storm lab's opening run as markup, written at build time
//! (`idempotency-lab opening --lab storms`) into a file beside the lab's
//! bundle (`storms/opening.html`), which the page puts in place for a link
//! to the lab before any WebAssembly arrives (assets/first-paint.js), until
//! the live lab takes its place: the presets, the totals judged against the
//! run without retries and the two charts of the opening run, from the same
//! words and the same plots as the live page, every control disabled.
//!
//! The live page puts the totals before the charts on a wide screen and
//! after them on a narrow one (a phone sees the picture first); this markup
//! holds both places, and the page's styles show the one the window would
//! (styles/opening.css). Each chart is drawn for the box a 1280-pixel
//! window gives it, and for a 360-pixel phone's.

use std::fmt::Write;

use crate::sim::Schema;
use crate::sim::params::Group;
use crate::sim::storm::settings::{PARAMS, SEED, WORKLOAD};
use crate::sim::storm::{OverloadRun, StormSettings};
use crate::view::fields;
use crate::view::lab::LabModel;
use crate::view::linechart::{LineChart, Stroke};
use crate::view::num::d1;
use crate::view::opening::{LOADING_STATUS, disabled, field, masthead, with_suffix};
use crate::view::timeline::escape;

use super::StormLab;
use super::charts::{load_chart, work_chart};
use super::presets::{PRESETS, PRESETS_HINT, relevant};
use super::protocol::without_retries;
use super::report::OverloadReport;
use super::totals::{TOTALS_HINT, littles_law_words, totals};

/// The line under the name.
pub const TAGLINE: &str = "Thousands of clients retrying at once: see how backoff, jitter, retry budgets and \
     deduplication change the load, the latency and the ledger.";

/// The size of a chart's box (width, height): in a 1280-pixel window, and
/// on a 360-pixel phone.
pub const WIDE_CHART: (f64, f64) = (880.0, 238.0);
pub const NARROW_CHART: (f64, f64) = (316.0, 238.0);

/// The opening run as the page puts it in place: one root element that
/// the host replaces with the live lab.
pub fn page() -> String {
    let settings = StormSettings::opening();
    let Ok(run) = OverloadRun::simulate(&settings) else { panic!("the opening settings simulate") };
    let report = OverloadReport::of(&run);
    let base = without_retries(&settings);
    let mut out = String::with_capacity(96 * 1024);
    let _ = write!(out, "<div class=\"lab-root prerendered page-opening\">{LOADING_STATUS}<div class=\"app storms\">");
    masthead(
        &mut out,
        TAGLINE,
        StormLab::LAB.id,
        "<div class=\"storm-toolbar\"><button type=\"button\">Embed</button><button type=\"button\">Present</button></div>",
    );
    out.push_str("<div class=\"notices\" role=\"status\"></div><div class=\"workspace\"><main class=\"stage\">");
    presets(&mut out);
    let judged = totals_panel(&report, base.as_ref());
    out.push_str(&judged.replacen("class=\"panel totals\"", "class=\"panel totals wide-only\"", 1));
    let _ = write!(
        out,
        "<section class=\"panel storm-charts\" aria-labelledby=\"storm-charts-h\"><h2 id=\"storm-charts-h\">Charts</h2>\
         <div class=\"wide-timeline\">{}{}</div><div class=\"narrow-timeline\">{}</div></section>",
        chart(&load_chart(&report), "chart-load", WIDE_CHART),
        chart(&work_chart(&report), "chart-work", WIDE_CHART),
        with_suffix(
            &(chart(&load_chart(&report), "chart-load", NARROW_CHART)
                + &chart(&work_chart(&report), "chart-work", NARROW_CHART)),
            "-narrow"
        ),
    );
    out.push_str(&with_suffix(
        &judged.replacen("class=\"panel totals\"", "class=\"panel totals narrow-only\"", 1),
        "-narrow",
    ));
    out.push_str("</main>");
    controls(&mut out, &settings);
    out.push_str("</div></div></div>");
    disabled(&out)
}

/// The presets, as buttons that wait for the lab. (A phone scrolls their
/// list sideways: until the buttons work, the list itself takes the focus,
/// so the keyboard can scroll it.)
fn presets(out: &mut String) {
    out.push_str(
        "<section class=\"panel presets\" aria-labelledby=\"presets-h\"><h2 id=\"presets-h\">Presets</h2>\
         <p class=\"hint\">",
    );
    out.push_str(PRESETS_HINT);
    out.push_str("</p><ul class=\"preset-list\" tabindex=\"0\">");
    for p in PRESETS {
        let _ = write!(out, "<li><button type=\"button\" aria-pressed=\"false\">{}</button></li>", escape(p.title));
    }
    out.push_str("</ul></section>");
}

/// The totals, each judged against the run without retries, and Little's
/// law, as the live page words them.
fn totals_panel(report: &OverloadReport, base: Option<&OverloadReport>) -> String {
    let mut out = String::from(
        "<section class=\"panel totals\" aria-labelledby=\"totals-h\"><h2 id=\"totals-h\">Totals</h2>\
         <div class=\"totals-grid\"><p class=\"hint\">",
    );
    out.push_str(TOTALS_HINT);
    out.push_str("</p><dl class=\"figures\">");
    for t in totals(report, base) {
        let judged = t.against.as_ref().map_or("", |(j, _)| j.class());
        let _ = write!(out, "<div class=\"figure {judged}\"><dt>{}</dt><dd>{}</dd>", escape(t.name), escape(&t.value));
        if let Some((_, words)) = &t.against {
            let _ = write!(out, "<dd class=\"against\">{}</dd>", escape(words));
        }
        out.push_str("</div>");
    }
    let _ = write!(
        out,
        "</dl><div class=\"littles-law\"><h3>Little's law</h3><p>{}</p></div></div></section>",
        escape(&littles_law_words(&report.littles_law))
    );
    out
}

/// A chart as the live page shows it: its title, its legend and its plot
/// for a box of `size`.
fn chart(chart: &LineChart, id: &str, (width, height): (f64, f64)) -> String {
    let mut out = format!(
        "<figure class=\"line-chart\" aria-labelledby=\"{id}\"><figcaption id=\"{id}\">{}</figcaption>\
         <ul class=\"chart-legend\">",
        escape(&chart.title)
    );
    for line in &chart.lines {
        let dots = if line.stroke == Stroke::Dots { " dots" } else { "" };
        let _ = write!(out, "<li><span class=\"swatch c{}{dots}\"></span>{}</li>", line.colour, escape(&line.name));
    }
    let plot = chart.plot(width, height);
    let (w, h) = (d1(plot.width), d1(plot.height));
    let _ = write!(
        out,
        "</ul><div class=\"chart-plot\"><svg class=\"chart-svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" \
         role=\"img\" aria-label=\"{}\"><g>{}</g></svg></div></figure>",
        escape(&chart.describe()),
        plot.markup()
    );
    out
}

/// The settings column as it begins: the workload, the seed and the basic
/// settings of the opening workload.
fn controls(out: &mut String, settings: &StormSettings) {
    out.push_str(
        "<div class=\"area-controls\"><section class=\"panel controls\" aria-labelledby=\"storm-controls-h\">\
         <h2 id=\"storm-controls-h\">Settings</h2><div class=\"fields\">",
    );
    field(out, &WORKLOAD, &fields::value(&WORKLOAD, settings));
    field(out, &SEED, &fields::value(&SEED, settings));
    for param in PARAMS.iter().filter(|p| {
        p.group == Group::Basics && p.name != WORKLOAD.name && p.name != SEED.name && relevant(p, settings.workload)
    }) {
        field(out, param, &fields::value(param, settings));
    }
    out.push_str("</div></section></div>");
}
