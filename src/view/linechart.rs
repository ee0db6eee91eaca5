//! Line charts over any x axis (time, clients): several named lines, drawn
//! with plotters on any backend (a canvas in the browser, SVG in tests). The
//! legend is HTML beside the canvas, so the chart draws none; colours come
//! from the page's stylesheet through [`ChartColours`].

use plotters::coord::Shift;
use plotters::prelude::*;

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

/// The colours a chart is drawn with: background, text, grid, and one per
/// line colour.
#[derive(Clone, Debug, PartialEq)]
pub struct ChartColours {
    pub background: RGBColor,
    pub text: RGBColor,
    pub grid: RGBColor,
    pub lines: Vec<RGBColor>,
}

/// Colours for drawings without a page around them (tests, exports).
pub fn default_colours() -> ChartColours {
    ChartColours {
        background: RGBColor(255, 255, 255),
        text: RGBColor(34, 34, 34),
        grid: RGBColor(226, 230, 236),
        lines: vec![
            RGBColor(31, 95, 168),
            RGBColor(176, 31, 31),
            RGBColor(34, 107, 66),
            RGBColor(138, 82, 0),
            RGBColor(106, 63, 184),
            RGBColor(194, 24, 91),
            RGBColor(84, 93, 105),
            RGBColor(0, 121, 138),
        ],
    }
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

/// Draws `chart` onto `area`; `scale` multiplies sizes for dense screens.
pub fn draw_lines<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &LineChart,
    colours: &ChartColours,
    scale: f64,
) -> Result<(), String> {
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let px = |v: f64| (v * scale).round() as u32;
    area.fill(&colours.background).map_err(err)?;
    let (x_max, y_max) = chart.bounds();
    let font = |size: f64| ("sans-serif", size * scale).into_font().color(&colours.text);
    let mut c = ChartBuilder::on(area)
        .margin(px(10.0))
        .x_label_area_size(px(34.0))
        .y_label_area_size(px(52.0))
        .build_cartesian_2d(0.0..x_max, 0.0..y_max)
        .map_err(err)?;
    c.configure_mesh()
        .x_desc(chart.x_desc.as_str())
        .y_desc(chart.y_desc.as_str())
        .x_label_formatter(&|v| round(*v))
        .y_label_formatter(&|v| round(*v))
        .label_style(font(12.0))
        .axis_desc_style(font(12.0))
        .axis_style(colours.text)
        .bold_line_style(colours.grid)
        .light_line_style(colours.background)
        .draw()
        .map_err(err)?;
    for line in &chart.lines {
        let colour = colours.lines.get(line.colour % colours.lines.len().max(1)).copied().unwrap_or(colours.text);
        match line.stroke {
            Stroke::Solid => {
                c.draw_series(LineSeries::new(line.points.iter().copied(), colour.stroke_width(px(2.0))))
                    .map_err(err)?;
            }
            Stroke::Dots => {
                c.draw_series(line.points.iter().map(|&p| Circle::new(p, px(3.0), colour.filled()))).map_err(err)?;
            }
        }
    }
    area.present().map_err(err)
}

/// The chart as an SVG document (for tests and export).
pub fn to_svg(chart: &LineChart, size: (u32, u32)) -> Result<String, String> {
    let mut out = String::new();
    {
        let area = SVGBackend::with_string(&mut out, size).into_drawing_area();
        draw_lines(&area, chart, &default_colours(), 1.0)?;
    }
    Ok(out)
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
        let svg = to_svg(&chart, (400, 240)).unwrap();
        assert!(svg.contains("<polyline"), "the solid line");
        assert!(svg.contains("<circle"), "the reference dots");
        assert_eq!(
            chart.describe(),
            "Work: calls against clients. full from 20 to 60 (peak 60); published from 21 to 21 (peak 21)."
        );
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
