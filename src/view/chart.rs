//! The chart: the committed counter and the success responses the client
//! received, over model time, with the playhead. One drawing function serves
//! every plotters backend: a canvas in the browser, an SVG string in tests.

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::sim::Millis;
use crate::sim::ack::{Run, Status, What};

/// Two step functions of model time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChartData {
    pub end: Millis,
    /// (time, counter after that time) at every commit.
    pub counter: Vec<(Millis, u64)>,
    /// (time, successes received so far) at every success that reached the
    /// client, accepted or late.
    pub received: Vec<(Millis, u64)>,
}

impl ChartData {
    pub fn of(run: &Run) -> ChartData {
        let mut counter = Vec::new();
        let mut received = Vec::new();
        for r in run.records() {
            match r.what {
                What::OperationCommitted { value, .. } => counter.push((r.t, value)),
                What::ResponseDelivered { status: Status::Success, .. }
                | What::ResponseLate { status: Status::Success, .. } => {
                    received.push((r.t, received.len() as u64 + 1));
                }
                _ => {}
            }
        }
        ChartData { end: run.end(), counter, received }
    }

    fn top(&self) -> u64 {
        last_value(&self.counter).max(last_value(&self.received))
    }

    /// The chart's accessible description.
    pub fn describe(&self) -> String {
        let when = |v: &[(Millis, u64)]| v.iter().map(|(t, n)| format!("{n} at {t}")).collect::<Vec<_>>().join(", ");
        let counter =
            if self.counter.is_empty() { "stays at 0".to_owned() } else { format!("rises to {}", when(&self.counter)) };
        let received = if self.received.is_empty() {
            "none".to_owned()
        } else {
            format!("{} ({})", last_value(&self.received), when(&self.received))
        };
        format!(
            "Chart over model time 0.00 s to {}: the committed counter {counter}; success responses the client received: {received}. Final counter {}.",
            self.end,
            last_value(&self.counter)
        )
    }
}

/// Where a step function ends up (0 if it never rose).
fn last_value(steps: &[(Millis, u64)]) -> u64 {
    steps.last().map_or(0, |p| p.1)
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Palette {
    pub background: RGBColor,
    pub text: RGBColor,
    pub grid: RGBColor,
    pub counter: RGBColor,
    pub received: RGBColor,
    pub playhead: RGBColor,
}

pub const LIGHT: Palette = Palette {
    background: RGBColor(255, 255, 255),
    text: RGBColor(34, 34, 34),
    grid: RGBColor(226, 230, 236),
    counter: RGBColor(47, 133, 90),
    received: RGBColor(43, 108, 176),
    playhead: RGBColor(213, 63, 140),
};

pub const DARK: Palette = Palette {
    background: RGBColor(26, 29, 35),
    text: RGBColor(230, 232, 236),
    grid: RGBColor(58, 63, 72),
    counter: RGBColor(104, 211, 145),
    received: RGBColor(99, 179, 237),
    playhead: RGBColor(246, 135, 179),
};

fn steps(points: &[(Millis, u64)], end: Millis) -> Vec<(f64, f64)> {
    let secs = |t: Millis| t.ms() as f64 / 1000.0;
    let mut out = vec![(0.0, 0.0)];
    let mut level = 0.0;
    for &(t, v) in points {
        out.push((secs(t), level));
        level = v as f64;
        out.push((secs(t), level));
    }
    out.push((secs(end), level));
    out
}

/// Draws the chart onto `area`; `scale` multiplies sizes for high-density
/// screens. The browser draws its legend in HTML beside the canvas, so
/// `legend` is only for standalone drawings.
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &ChartData,
    playhead: Millis,
    palette: &Palette,
    scale: f64,
    legend: bool,
) -> Result<(), String> {
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let px = |v: f64| (v * scale).round() as u32;
    area.fill(&palette.background).map_err(err)?;
    let x_max = (data.end.ms() as f64 / 1000.0).max(0.01);
    let y_max = data.top() as f64 + 1.0;
    let font = |size: f64| ("sans-serif", size * scale).into_font().color(&palette.text);
    let mut chart = ChartBuilder::on(area)
        .margin(px(10.0))
        .x_label_area_size(px(34.0))
        .y_label_area_size(px(36.0))
        .build_cartesian_2d(0.0..x_max, 0.0..y_max)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc("model time (s)")
        .y_labels(y_max as usize + 1)
        .y_label_formatter(&|v| crate::view::num::d0(*v).to_string())
        .x_label_formatter(&|v| crate::view::num::Fixed(*v, 2).to_string())
        .label_style(font(12.0))
        .axis_desc_style(font(12.0))
        .axis_style(palette.text)
        .bold_line_style(palette.grid)
        .light_line_style(palette.background)
        .draw()
        .map_err(err)?;
    let counter = palette.counter;
    chart
        .draw_series(LineSeries::new(steps(&data.counter, data.end), counter.stroke_width(px(3.0))))
        .map_err(err)?
        .label("Committed counter")
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], counter.stroke_width(3)));
    let received = palette.received;
    chart
        .draw_series(LineSeries::new(
            steps(&data.received, data.end).into_iter().map(|(x, y)| (x, y + 0.04 * y_max.min(1.0))),
            received.stroke_width(px(2.0)),
        ))
        .map_err(err)?
        .label("Successes the client received")
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], received.stroke_width(2)));
    let p = playhead.min(data.end).ms() as f64 / 1000.0;
    chart
        .draw_series(std::iter::once(PathElement::new(
            vec![(p, 0.0), (p, y_max)],
            palette.playhead.stroke_width(px(2.0)),
        )))
        .map_err(err)?;
    if legend {
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .label_font(font(12.0))
            .background_style(palette.background.mix(0.85))
            .border_style(palette.grid)
            .draw()
            .map_err(err)?;
    }
    area.present().map_err(err)
}

/// The chart as an SVG document (for tests and export).
pub fn to_svg(data: &ChartData, playhead: Millis, size: (u32, u32)) -> Result<String, String> {
    let mut out = String::new();
    {
        let area = SVGBackend::with_string(&mut out, size).into_drawing_area();
        draw(&area, data, playhead, &LIGHT, 1.0, true)?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::ParamDef;
    use crate::sim::ack::Settings;
    use crate::sim::ack::settings::{DEDUP, EXEC, FAULT, RESPONSE_TRANSIT, TIMEOUT};

    fn data(pairs: &[(&'static ParamDef, &str)]) -> ChartData {
        ChartData::of(&Run::simulate(&Settings::from_pairs(pairs).unwrap()).unwrap())
    }

    #[test]
    fn series_follow_commits_and_received_successes() {
        let d = data(&[(&DEDUP, "off")]);
        assert_eq!(d.counter, vec![(Millis(2000), 1), (Millis(6000), 2)]);
        assert_eq!(d.received, vec![(Millis(6050), 1)]);
        let joined = data(&[(&FAULT, "none"), (&TIMEOUT, "1000"), (&EXEC, "2500")]);
        assert_eq!(joined.received.len(), 2, "the late success counts as received");
        assert!(d.describe().contains("rises to 1 at 2.00 s, 2 at 6.00 s"), "{}", d.describe());
    }

    #[test]
    fn draws_an_svg_with_both_series_and_the_legend() {
        let svg = to_svg(&data(&[(&DEDUP, "off")]), Millis(3000), (640, 240)).unwrap();
        assert!(svg.contains("Committed counter"));
        assert!(svg.contains("Successes the client received"));
        assert!(svg.matches("<polyline").count() >= 3, "two series and the playhead");
    }

    #[test]
    fn a_zero_length_run_still_draws() {
        let d = data(&[(&FAULT, "none"), (&EXEC, "0"), (&RESPONSE_TRANSIT, "0")]);
        assert_eq!(d.end, Millis(0));
        assert!(to_svg(&d, Millis(0), (320, 200)).is_ok());
    }
}
