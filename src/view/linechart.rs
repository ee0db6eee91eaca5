//! Line charts over any x axis (time, clients): several named lines, laid
//! out as a [`Plot`] (SVG geometry). The legend is HTML beside the chart,
//! so the chart draws none; a line's colour is its class `c0`, `c1`, ...,
//! which the page's stylesheet colours, as it does the legend's swatches.

use crate::view::plot::{Drawn, Mark, Plot, Scale, tick_label, tick_step, ticks};

/// How a line is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stroke {
    Solid,
    /// Points only: a reference to compare against.
    Dots,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    pub name: String,
    pub points: Vec<(f64, f64)>,
    pub stroke: Stroke,
    /// Which of the page's chart colours it takes.
    pub colour: usize,
}

#[derive(Clone, Debug, PartialEq)]
pub struct LineChart {
    pub title: String,
    pub x_desc: String,
    pub y_desc: String,
    pub lines: Vec<Line>,
    /// How far the axes reach at least (x, y), whatever the lines: charts
    /// drawn to be compared share their scales ([`share_axes`]).
    pub at_least: (f64, f64),
}

impl LineChart {
    fn bounds(&self) -> (f64, f64) {
        let points = self.lines.iter().flat_map(|l| l.points.iter());
        let (mut x_max, mut y_max) = (0.0f64, 0.0f64);
        for &(x, y) in points {
            if x.is_finite() {
                x_max = x_max.max(x);
            }
            if y.is_finite() {
                y_max = y_max.max(y);
            }
        }
        (x_max.max(self.at_least.0).max(1e-9), (y_max * 1.08).max(self.at_least.1).max(1.0))
    }

    /// The chart in words, for its accessible name: each line's range.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        for line in &self.lines {
            let Some(&(_, first)) = line.points.first() else {
                continue;
            };
            let peak = line.points.iter().map(|p| p.1).fold(first, f64::max);
            let last = line.points.last().map_or(first, |p| p.1);
            parts.push(format!("{} from {} to {} (peak {})", line.name, round(first), round(last), round(peak)));
        }
        format!("{}: {} against {}. {}.", self.title, self.y_desc, self.x_desc, parts.join("; "))
    }
}

/// Gives every chart in `charts` the axes of the largest, so charts of two
/// runs read on one scale.
pub fn share_axes(charts: &mut [&mut LineChart]) {
    let reach = charts.iter().map(|c| c.bounds()).fold((0.0f64, 0.0f64), |m, b| (m.0.max(b.0), m.1.max(b.1)));
    for chart in charts.iter_mut() {
        chart.at_least = reach;
    }
}

/// A figure for reading aloud: whole numbers, or one decimal below ten.
pub fn round(v: f64) -> String {
    if v.abs() >= 10.0 { crate::view::num::d0(v).to_string() } else { crate::view::num::d1(v).to_string() }
}

/// Margins around the plot area, in pixels: above (the y axis' words), to
/// the right, and below (the x ticks' labels and the x axis' words).
const TOP: f64 = 24.0;
const RIGHT: f64 = 16.0;
const BOTTOM: f64 = 40.0;
/// About one x label per this many pixels, one y label per this many.
const PX_PER_X_LABEL: f64 = 64.0;
const PX_PER_Y_LABEL: f64 = 30.0;

impl LineChart {
    /// The chart laid out for an SVG of `width` × `height` pixels: the
    /// axes from 0 to the lines' reach (with a little headroom), ticks at
    /// round values, and each line in its colour's class.
    pub fn plot(&self, width: f64, height: f64) -> Plot {
        let (width, height) = (width.max(200.0), height.max(100.0));
        let (x_max, y_max) = self.bounds();
        // Counts tick at whole numbers.
        let whole = self.lines.iter().flat_map(|l| l.points.iter()).all(|p| p.1.fract() == 0.0);
        let y_step =
            tick_step(y_max, ((height - TOP - BOTTOM) / PX_PER_Y_LABEL).floor() as u64, if whole { 1.0 } else { 0.0 });
        let y_labels: Vec<(f64, String)> = ticks(y_max, y_step).map(|v| (v, tick_label(v, y_step))).collect();
        // Room for the widest y label.
        let widest = y_labels.iter().map(|(_, l)| l.len()).max().unwrap_or(1) as f64;
        let left = (16.0 + 7.0 * widest).max(36.0);
        let area = (left, TOP, width - RIGHT, height - BOTTOM);
        let x = Scale { domain: (0.0, x_max), from: (area.0, area.2) };
        let y = Scale { domain: (0.0, y_max), from: (area.3, area.1) };
        let x_step = tick_step(x_max, ((area.2 - area.0) / PX_PER_X_LABEL).floor() as u64, 0.0);
        let series = self
            .lines
            .iter()
            .map(|line| {
                let points: Vec<(f64, f64)> = line
                    .points
                    .iter()
                    .filter(|p| p.0.is_finite() && p.1.is_finite())
                    .map(|&(px, py)| (x.at(px), y.at(py)))
                    .collect();
                let class = format!("c{}", line.colour);
                let mark = match line.stroke {
                    Stroke::Solid => Mark::Line(points),
                    Stroke::Dots => Mark::Dots(points),
                };
                Drawn { class, mark }
            })
            .collect();
        Plot {
            width,
            height,
            area,
            x_ticks: ticks(x_max, x_step).map(|v| (x.at(v), tick_label(v, x_step))).collect(),
            y_ticks: y_labels.into_iter().map(|(v, l)| (y.at(v), l)).collect(),
            x_desc: self.x_desc.clone(),
            y_desc: self.y_desc.clone(),
            axes: true,
            bands: Vec::new(),
            series,
        }
    }
}

/// Colours for drawings without a page around them (tests, files).
const FIXED_STYLE: &str = ".chart-grid{stroke:#e2e6ec}.chart-axis{stroke:#222222;fill:none}.chart-label{fill:#222222}.chart-line{fill:none;stroke-width:2}\
                           .chart-line.c0{stroke:#1f5fa8}.chart-line.c1{stroke:#b01f1f}.chart-line.c2{stroke:#226b42}\
                           .chart-line.c3{stroke:#8a5200}.chart-line.c4{stroke:#6a3fb8}.chart-line.c5{stroke:#c2185b}\
                           .chart-line.c6{stroke:#545d69}.chart-line.c7{stroke:#00798a}.chart-dots.c0{fill:#1f5fa8}\
                           .chart-dots.c1{fill:#b01f1f}.chart-dots.c2{fill:#226b42}.chart-dots.c3{fill:#8a5200}\
                           .chart-dots.c4{fill:#6a3fb8}.chart-dots.c5{fill:#c2185b}.chart-dots.c6{fill:#545d69}\
                           .chart-dots.c7{fill:#00798a}";

/// The chart as a standalone SVG document (for tests and files).
pub fn to_svg(chart: &LineChart, size: (u32, u32)) -> String {
    chart.plot(f64::from(size.0), f64::from(size.1)).document(FIXED_STYLE, "")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_every_line_and_says_what_it_shows() {
        let chart = LineChart {
            title: "Work".to_owned(),
            x_desc: "clients".to_owned(),
            y_desc: "calls".to_owned(),
            lines: vec![
                Line {
                    name: "full".to_owned(),
                    points: vec![(10.0, 20.0), (20.0, 60.0)],
                    stroke: Stroke::Solid,
                    colour: 0,
                },
                Line { name: "published".to_owned(), points: vec![(10.0, 21.0)], stroke: Stroke::Dots, colour: 1 },
            ],
            at_least: (0.0, 0.0),
        };
        let svg = to_svg(&chart, (400, 240));
        assert!(svg.contains("<polyline"), "the solid line");
        assert!(svg.contains("<circle"), "the reference dots");
        assert_eq!(
            chart.describe(),
            "Work: calls against clients. full from 20 to 60 (peak 60); published from 21 to 21 (peak 21)."
        );
    }

    #[test]
    fn the_plot_puts_ticks_at_round_values_and_lines_in_their_classes() {
        let chart = LineChart {
            title: "Load".to_owned(),
            x_desc: "model time (s)".to_owned(),
            y_desc: "per second".to_owned(),
            lines: vec![Line {
                name: "n".to_owned(),
                points: vec![(0.0, 0.0), (12.5, 4600.0)],
                stroke: Stroke::Solid,
                colour: 3,
            }],
            at_least: (0.0, 0.0),
        };
        // Up to 4600 × 1.08 = 4968; 176 px of height give at most 5
        // intervals (0 to 4000 by 1000); the widest label, "4000", leaves
        // 16 + 28 = 44 px on the left. 640 - 16 - 44 = 580 px give at most 9
        // intervals along x: by 2 s.
        let p = chart.plot(640.0, 240.0);
        assert_eq!(p.area, (44.0, 24.0, 624.0, 200.0));
        let labels = |t: &[(f64, String)]| t.iter().map(|(_, l)| l.clone()).collect::<Vec<_>>();
        assert_eq!(labels(&p.y_ticks), ["0", "1000", "2000", "3000", "4000"]);
        assert_eq!(labels(&p.x_ticks), ["0", "2", "4", "6", "8", "10", "12"]);
        assert!((p.x_ticks[5].0 - (44.0 + 580.0 * 10.0 / 12.5)).abs() < 1e-9);
        assert_eq!(p.series[0].class, "c3");
        // y: 200 - 176 × 4600 / 4968 = 37.0.
        assert!(p.markup().contains("<polyline class=\"chart-line c3\" points=\"44.0,200.0 624.0,37.0\"/>"));
        assert!(p.markup().contains(">per second</text>"));
    }

    #[test]
    fn shared_axes_reach_the_larger_chart() {
        let chart = |x: f64, y: f64| LineChart {
            title: "Load".to_owned(),
            x_desc: "s".to_owned(),
            y_desc: "per second".to_owned(),
            lines: vec![Line {
                name: "n".to_owned(),
                points: vec![(0.0, 1.0), (x, y)],
                stroke: Stroke::Solid,
                colour: 0,
            }],
            at_least: (0.0, 0.0),
        };
        let (mut a, mut b) = (chart(10.0, 50.0), chart(20.0, 25.0));
        assert_eq!((a.bounds(), b.bounds()), ((10.0, 54.0), (20.0, 27.0)));
        share_axes(&mut [&mut a, &mut b]);
        // Both run 20 s along and up to 50 with the usual 8 % headroom.
        assert_eq!(a.bounds(), (20.0, 54.0));
        assert_eq!(b.bounds(), (20.0, 54.0));
    }
}
