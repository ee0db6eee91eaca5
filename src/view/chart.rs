//! The chart: the committed counter and the success responses the client
//! received, over model time, with the playhead: two step functions and a
//! few labels, laid out as a [`Plot`] that the page draws as SVG.

use crate::sim::Millis;
use crate::sim::ack::{Run, Status, What};
use crate::view::num::d1;
use crate::view::plot::{Band, Drawn, Mark, Plot, Scale, tick_step, ticks};

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

    /// What the chart shows to a reader who must not see ahead: the steps
    /// up to `t`, on an axis that ends at `t` (the run's end and its final
    /// counter, which the whole axis would tell, stay unsaid).
    pub fn so_far(&self, t: Millis) -> ChartData {
        let until = |steps: &[(Millis, u64)]| steps.iter().copied().filter(|&(at, _)| at <= t).collect();
        ChartData {
            end: t.min(self.end).max(Millis(1)),
            counter: until(&self.counter),
            received: until(&self.received),
        }
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
        let last = last_value(&self.counter);
        let gap = match self.counter.get(1) {
            Some((t, _)) => format!(" From {t} the ledger holds {} more than the one intent.", last - 1),
            None => String::new(),
        };
        format!(
            "Chart over model time 0.00 s to {}: the committed counter {counter}; success responses the client received: {received}. Final counter {last}.{gap}",
            self.end,
        )
    }
}

/// Where a step function ends up (0 if it never rose).
fn last_value(steps: &[(Millis, u64)]) -> u64 {
    steps.last().map_or(0, |p| p.1)
}

/// The chart's height in CSS pixels; its width follows its container.
pub const HEIGHT: f64 = 240.0;
const LEFT: f64 = 44.0;
const RIGHT: f64 = 16.0;
const TOP: f64 = 12.0;
const BOTTOM: f64 = 44.0;
/// About one x label per this many pixels.
const PX_PER_X_LABEL: f64 = 90.0;

/// The chart as geometry: a [`Plot`] for an SVG of `width` × [`HEIGHT`],
/// with the time axis it was laid out on (for the playhead).
#[derive(Clone, Debug, PartialEq)]
pub struct ChartGeometry {
    /// The grid, the labels, the gap between the one intent and the ledger
    /// (a band from the second increment to the plot's right edge, from the
    /// line at 1 up to the final counter, and its words), and both series:
    /// the committed counter's steps, then the received successes' (drawn
    /// slightly above the counter so that equal lines stay distinct).
    pub plot: Plot,
    end: Millis,
    /// Where the time axis ends: a little after the run, so that the state
    /// it ends in shows as a stretch of its own rather than at the edge.
    axis_end: Millis,
}

/// How much longer the time axis is than the run: an eighth.
fn axis_end(end: Millis) -> Millis {
    Millis(end.ms() + (end.ms() / 8).max(1))
}

impl ChartGeometry {
    /// The grid, the labels and both series as SVG elements, coloured by
    /// the stylesheet's classes. The playhead is apart ([`Self::playhead`]):
    /// it moves on its own.
    pub fn markup(&self) -> String {
        self.plot.markup()
    }

    /// The band that shows more increments than intents, once there are.
    pub fn gap(&self) -> Option<&Band> {
        self.plot.bands.first()
    }

    /// Path data of the playhead's line at model time `t`.
    pub fn playhead(&self, t: Millis) -> String {
        self.plot.vline(self.x_at(t))
    }

    /// The x of model time `t` (clamped to the run).
    pub fn x_at(&self, t: Millis) -> f64 {
        let (left, _, right, _) = self.plot.area;
        Scale { domain: (0.0, self.axis_end.ms().max(1) as f64), from: (left, right) }.at(t.min(self.end).ms() as f64)
    }
}

/// A step function's path: flat from 0 at time 0, up at each point, on to
/// the end; `lift` raises it a little (in pixels).
fn step_path(points: &[(Millis, u64)], g: &ChartGeometry, y_of: impl Fn(f64) -> f64, lift: f64) -> String {
    let mut d = format!("M{} {}", d1(g.x_at(Millis::ZERO)), d1(y_of(0.0) - lift));
    for &(t, v) in points {
        let x = d1(g.x_at(t));
        d.push_str(&format!("H{x}V{}", d1(y_of(v as f64) - lift)));
    }
    d.push_str(&format!("H{}", d1(g.plot.area.2)));
    d
}

impl ChartData {
    /// The chart laid out for a `width` pixels wide SVG.
    pub fn geometry(&self, width: f64) -> ChartGeometry {
        let width = width.max(240.0);
        let area = (LEFT, TOP, width - RIGHT, HEIGHT - BOTTOM);
        let y_max = self.top() + 1;
        let y_of = move |v: f64| area.3 - (area.3 - area.1) * v / y_max as f64;
        let mut g = ChartGeometry {
            plot: Plot {
                width,
                height: HEIGHT,
                area,
                x_ticks: Vec::new(),
                y_ticks: (0..=y_max).map(|v| (y_of(v as f64), v.to_string())).collect(),
                x_desc: "model time (s)".to_owned(),
                y_desc: String::new(),
                axes: false,
                bands: Vec::new(),
                series: Vec::new(),
            },
            end: self.end,
            axis_end: axis_end(self.end),
        };
        let span = self.end.ms().max(1) as f64;
        let step = tick_step(span, ((area.2 - area.0) / PX_PER_X_LABEL).floor() as u64, 1.0);
        g.plot.x_ticks = ticks(self.end.ms() as f64, step)
            .map(|ms| (g.x_at(Millis(ms as u64)), crate::view::num::Fixed(ms / 1000.0, 2).to_string()))
            .collect();
        g.plot.bands = self
            .counter
            .get(1)
            .map(|&(t2, _)| {
                let (x, top) = (g.x_at(t2), y_of(last_value(&self.counter) as f64));
                let extra = last_value(&self.counter) - 1;
                Band { x, y: top, w: area.2 - x, h: y_of(1.0) - top, text: format!("{extra} more than the one intent") }
            })
            .into_iter()
            .collect();
        let counter = step_path(&self.counter, &g, y_of, 0.0);
        let received = step_path(&self.received, &g, y_of, 3.0);
        g.plot.series = vec![
            Drawn { class: "counter".to_owned(), mark: Mark::Path(counter) },
            Drawn { class: "received".to_owned(), mark: Mark::Path(received) },
        ];
        g
    }
}

/// The fixed colours of a standalone chart, for the classes the page's
/// stylesheet colours by theme.
const FIXED_STYLE: &str = ".chart-grid{stroke:#e2e6ec}.chart-line{fill:none}.counter{stroke:#2f855a;stroke-width:3}\
                           .received{stroke:#2b6cb0;stroke-width:2}.chart-playhead{stroke:#d53f8c;stroke-width:2}";

/// The chart as a standalone SVG document at `playhead` (for tests and
/// files): the markup the page draws, with fixed colours.
pub fn to_svg(data: &ChartData, playhead: Millis, width: f64) -> String {
    let g = data.geometry(width);
    g.plot.document(FIXED_STYLE, &format!("<path class=\"chart-playhead\" d=\"{}\"/>\n", g.playhead(playhead)))
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
        assert!(d.describe().ends_with("Final counter 2. From 6.00 s the ledger holds 1 more than the one intent."));
    }

    #[test]
    fn so_far_the_chart_holds_nothing_after_the_playhead() {
        // Dedup off at 4.00 s: the first commit (2.00 s) is in, the second
        // (6.00 s) and the success received at 6.05 s are not; the axis
        // ends at 4.00 s, so the 6.05 s end is unsaid.
        let d = data(&[(&DEDUP, "off")]).so_far(Millis(4000));
        assert_eq!((d.end, d.counter.clone(), d.received.clone()), (Millis(4000), vec![(Millis(2000), 1)], vec![]));
        assert!(!d.describe().contains("6.0"), "{}", d.describe());
        assert!(d.geometry(640.0).gap().is_none(), "no band before the second increment");
    }

    #[test]
    fn the_geometry_puts_times_and_values_where_they_belong() {
        // Dedup off: the counter steps to 1 at 2.00 s and to 2 at 6.00 s;
        // the run ends at 6.05 s and the axis an eighth later, at
        // 6 050 + 756 = 6 806 ms. Plot area: x from 44 to 640 - 16 = 624,
        // y from 240 - 44 = 196 (value 0) up to 12 (value 3 = top + 1).
        let g = data(&[(&DEDUP, "off")]).geometry(640.0);
        assert_eq!(g.plot.area, (44.0, 12.0, 624.0, 196.0));
        assert_eq!(g.x_at(Millis(0)), 44.0);
        let x_end = 44.0 + 580.0 * 6050.0 / 6806.0;
        assert!((g.x_at(Millis(6050)) - x_end).abs() < 1e-9);
        assert_eq!(g.x_at(Millis(9000)), g.x_at(Millis(6050)), "clamped to the run");
        let x2 = 44.0 + 580.0 * 2000.0 / 6806.0;
        assert!((g.x_at(Millis(2000)) - x2).abs() < 1e-9);
        // y: 196 - 184 * v / 3.
        assert_eq!(
            g.plot.y_ticks.iter().map(|(y, l)| (d1(*y).to_string(), l.as_str())).collect::<Vec<_>>(),
            [("196.0".to_owned(), "0"), ("134.7".to_owned(), "1"), ("73.3".to_owned(), "2"), ("12.0".to_owned(), "3")]
        );
        assert_eq!(
            g.plot.series[0].mark,
            Mark::Path(format!("M44.0 196.0H{}V134.7H{}V73.3H624.0", d1(x2), d1(44.0 + 580.0 * 6000.0 / 6806.0)))
        );
        // The gap: from the second increment (6.00 s) to the right edge,
        // between 1 (y 134.7) and the final 2 (y 73.3).
        let gap = g.gap().cloned().unwrap();
        let x6 = 44.0 + 580.0 * 6000.0 / 6806.0;
        assert!((gap.x - x6).abs() < 1e-9 && (gap.x + gap.w - 624.0).abs() < 1e-9);
        assert_eq!((d1(gap.y).to_string(), d1(gap.y + gap.h).to_string()), ("73.3".to_owned(), "134.7".to_owned()));
        assert_eq!(gap.text, "1 more than the one intent");
        assert!(gap.w > 60.0, "the band is wide enough to see: {}", gap.w);
        assert_eq!(data(&[]).geometry(640.0).gap(), None, "one increment, no gap");
        // 580 px give at most 6 labels: 6050 ms in steps of 2000 ms.
        assert_eq!(
            g.plot.x_ticks.iter().map(|(_, l)| l.as_str()).collect::<Vec<_>>(),
            ["0.00", "2.00", "4.00", "6.00"]
        );
    }

    #[test]
    fn a_standalone_svg_has_both_series_and_the_playhead() {
        let svg = to_svg(&data(&[(&DEDUP, "off")]), Millis(3000), 640.0);
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"640.0\""));
        assert_eq!(svg.matches("<path class=\"chart-line ").count(), 2, "two series");
        assert_eq!(svg.matches("<path class=\"chart-playhead\" d=\"M").count(), 1, "the playhead");
        assert_eq!(svg.matches("stroke-width").count(), 3, "the series and the playhead drawn thick");
        assert!(svg.contains("model time (s)"));
    }

    #[test]
    fn a_zero_length_run_still_draws() {
        let d = data(&[(&FAULT, "none"), (&EXEC, "0"), (&RESPONSE_TRANSIT, "0")]);
        assert_eq!(d.end, Millis(0));
        let g = d.geometry(320.0);
        assert_eq!(g.plot.x_ticks.len(), 1);
        assert!(to_svg(&d, Millis(0), 320.0).ends_with("</svg>\n"));
    }
}
