//! The sequence layout, as a phone at 360 x 740 shows it (a box of about
//! 344 px) and as a desktop does: every lab's runs fit across, time runs
//! down, and nothing the timeline says is cut.

use idempotency_lab::sim::Millis;
use idempotency_lab::sim::risk::{Mode, Preset};
use idempotency_lab::view::ack::experiments::EXPERIMENTS;
use idempotency_lab::view::timeline::{CHAR_W, Diagram, Frame, Orientation, Shape};
use idempotency_lab::view::{ack, risk};

/// A 360 px screen's diagram box, and a desktop's.
const WIDTHS: [f64; 2] = [344.0, 880.0];

fn ack_runs() -> Vec<(String, idempotency_lab::sim::ack::Run)> {
    EXPERIMENTS
        .iter()
        .map(|e| (e.id.to_owned(), idempotency_lab::sim::ack::Run::simulate(&e.settings()).expect("run finishes")))
        .collect()
}

fn risk_runs() -> Vec<(String, idempotency_lab::sim::risk::Run)> {
    let mut runs = Vec::new();
    for preset in Preset::ALL {
        for mode in [Mode::Naive, Mode::Patterns] {
            let flags = format!("--preset {} --mode {}", preset.value(), mode.value());
            runs.push((
                flags.clone(),
                idempotency_lab::sim::risk::Run::simulate(&super::risk::settings(&flags)).unwrap(),
            ));
        }
    }
    runs
}

/// Every character of every label but the axis's, spaces aside, sorted:
/// what wrapping may move between lines but must never drop.
fn characters(d: &Diagram) -> Vec<char> {
    let mut all: Vec<char> = d
        .items
        .iter()
        .filter(|i| !i.class.starts_with("axis"))
        .filter_map(|i| match &i.shape {
            Shape::Text { text, .. } => Some(text.clone()),
            _ => None,
        })
        .flat_map(|t| t.chars().filter(|c| !c.is_whitespace()).collect::<Vec<_>>())
        .collect();
    all.sort();
    all
}

/// What a sequence diagram promises, whatever the run.
fn holds_down(name: &str, across: &Diagram, down: &Diagram, width: f64, times: &[Millis]) {
    assert_eq!(down.orientation, Orientation::Down);
    // It fits its box, with no sideways scrolling, up to eight columns; a
    // fleet with more squeezes its columns to their narrowest and then
    // scrolls.
    let columns = down.lanes.len() - 1;
    let most = if columns <= 8 { width } else { width.max(24.0 * columns as f64 + 150.0) };
    assert!(down.width <= most + 0.01, "{name}: {} wide in {width} with {columns} columns", down.width);
    // No label overlaps another or leaves the picture.
    assert!(down.label_collisions().is_empty(), "{name}: {:?}", down.label_collisions());
    for (text, x, y) in down.texts() {
        let right = x + text.chars().count() as f64 * CHAR_W;
        assert!(x >= 0.0 && right <= down.width && y > 0.0 && y <= down.height, "{name}: {text:?} at ({x}, {y})");
    }
    // Time runs down: later stops lie lower.
    for pair in down.stops.windows(2) {
        assert!(pair[1].1 > pair[0].1, "{name}: {:?} is not below {:?}", pair[1], pair[0]);
    }
    // Messages never run up the page.
    for item in &down.items {
        let message = item.class.starts_with("request") || item.class.starts_with("response");
        if let Shape::Line { y1, y2, arrow: true, .. } = item.shape
            && message
        {
            assert!(y2 >= y1 - 0.01, "{name}: a {} arrow runs up from {y1} to {y2}", item.class);
        }
    }
    // Every mark of an event lies at its event's height, where the
    // playhead passes it (a mark may be shown later than its event, as
    // where a run broke is, but never drawn anywhere else).
    for item in &down.items {
        if let (Shape::Mark { y, .. }, Some(t)) = (&item.shape, item.record.map(|i| times[i]))
            && t < down.end
        {
            let at = down.along(t);
            assert!((y - at).abs() < 0.5, "{name}: a {} mark at {y} for {t} (the playhead is at {at})", item.class);
        }
    }
    // The labels say the same words as the timeline's: wrapped, never cut.
    let (a, d) = (characters(across), characters(down));
    assert_eq!(a, d, "{name}: the layouts' labels differ");
}

#[test]
fn every_first_lab_experiment_reads_down_a_phone_without_a_cut_label() {
    for (name, run) in ack_runs() {
        let across = ack::diagram::diagram(&run);
        for width in WIDTHS {
            let down = ack::diagram::diagram_in(&run, Frame::Down(width));
            let times: Vec<Millis> = run.records().iter().map(|r| r.t).collect();
            holds_down(&format!("{name} at {width}"), &across, &down, width, &times);
        }
    }
}

#[test]
fn every_risk_preset_reads_down_a_phone_without_a_cut_label() {
    for (name, run) in risk_runs() {
        let across = risk::diagram::diagram(&run);
        for width in WIDTHS {
            let down = risk::diagram::diagram_in(&run, Frame::Down(width));
            let times: Vec<Millis> = run.records().iter().map(|r| r.t).collect();
            holds_down(&format!("{name} at {width}"), &across, &down, width, &times);
        }
    }
}

#[test]
fn a_lane_idle_in_the_run_takes_no_column_and_every_column_is_named_in_full() {
    // The incident's opening run never wakes a worker's scan into a claim
    // that reaches the page: the workers' lanes are folded. A run whose
    // lost response the workers repair has them.
    let quiet =
        idempotency_lab::sim::risk::Run::simulate(&super::risk::settings("--preset incident --mode naive")).unwrap();
    let d = risk::diagram::diagram_in(&quiet, Frame::Down(344.0));
    let titles: Vec<&str> = d.lanes.iter().skip(1).map(|b| b.title.as_str()).collect();
    let across = risk::diagram::diagram(&quiet);
    let drawn_on = |lane: usize| {
        across.items.iter().any(|i| match i.shape {
            Shape::Mark { y, .. } | Shape::Text { y, .. } => {
                let band = &across.lanes[lane];
                y > band.top && y < band.top + band.height
            }
            _ => false,
        })
    };
    for (i, band) in across.lanes.iter().enumerate().skip(1) {
        let shown = titles.contains(&band.title.as_str());
        if !drawn_on(i) {
            assert!(!shown, "{} has nothing drawn on it but has a column", band.title);
        }
    }
    assert!(titles.len() < across.lanes.len() - 1, "some lane is folded: {titles:?}");
    // A narrow column shows a short title; the description names each.
    for band in d.lanes.iter().skip(1) {
        assert!(band.short.chars().count() <= 3 || band.short == band.title, "{:?}", band.short);
        assert!(d.summary.contains(&band.title), "{} is not in {:?}", band.title, d.summary);
    }
    assert!(d.summary.contains("Time runs downward"));
}

#[test]
fn the_exported_sequence_diagram_has_its_columns_and_a_level_playhead() {
    let run = &ack_runs()[0].1;
    let svg = ack::diagram::diagram_in(run, Frame::export(true)).to_svg(Some(Millis(2050)));
    let d = ack::diagram::diagram_in(run, Frame::export(true));
    assert_eq!(d.lanes.len(), 6, "the time and the five actors");
    for band in d.lanes.iter().skip(1) {
        assert!(svg.contains(&format!(">{}</text>", band.short)), "{} is missing", band.title);
    }
    let y = idempotency_lab::view::num::d1(d.along(Millis(2050)));
    let level = format!(
        "class=\"playhead\" x1=\"{}\" y1=\"{y}\" x2=\"{}\" y2=\"{y}\"",
        idempotency_lab::view::num::d1(0.0),
        idempotency_lab::view::num::d1(d.width)
    );
    assert!(svg.contains(&level), "the playhead is not level at {y}: {level}");
    assert!(svg.contains("Time runs downward"));
    // The timeline's export stays as it was.
    let across = ack::diagram::diagram_in(run, Frame::export(false)).to_svg(Some(Millis(2050)));
    assert!(across.contains("class=\"lane-title\" x=\"8\""));
}
