//! Little's law over time: every 100 ms of a run, the calls arriving per
//! second, the calls in flight at the replicas and at the Risk API, and how
//! long the calls answered in that window had stayed, all from the records.
//! At a steady arrival rate, in-flight work grows as residence time does.

use crate::sim::Millis;
use crate::sim::risk::Run;
use crate::sim::risk::facts::{Answer, What};

use crate::view::linechart::{Line, LineChart, Stroke};
use crate::view::plot::Plot;

use super::diagram::end_of;

/// The width of one window.
pub const WINDOW: Millis = Millis(100);

/// One window, `[t, t + 100 ms)`; the counts are as of its end.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    pub t: Millis,
    /// Calls that reached a replica in the window, per second.
    pub arrivals_per_s: u64,
    /// Calls at the replicas (in a slot or queued) at the window's end.
    pub at_replicas: u64,
    /// Calls the Risk API was working on at the window's end.
    pub at_risk_api: u64,
    /// How long the calls answered in the window had stayed at their
    /// replica, on average.
    pub mean_residence_ms: Option<f64>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    pub points: Vec<Point>,
}

/// The change to the counts a record makes.
fn steps(what: &What, arrived: &mut Vec<Option<Millis>>, held: &mut Vec<bool>, t: Millis) -> (i64, i64, Option<u64>) {
    let slot = |v: &mut Vec<Option<Millis>>, i: usize| {
        if v.len() <= i {
            v.resize(i + 1, None);
        }
    };
    match *what {
        What::CallAdmitted { call, .. } | What::CallQueued { call, .. } | What::Overloaded { call, .. } => {
            let i = (call.0 as usize).saturating_sub(1);
            slot(arrived, i);
            if arrived[i].is_some() {
                return (0, 0, None);
            }
            arrived[i] = Some(t);
            (1, 0, None)
        }
        What::ToolResult { call, .. } | What::RpcError { call, .. } => {
            let i = (call.0 as usize).saturating_sub(1);
            match arrived.get_mut(i).and_then(Option::take) {
                Some(at) => (-1, 0, Some(t.since(at).ms())),
                None => (0, 0, None),
            }
        }
        What::CreateSent { ds, .. } | What::ProbeSent { ds, .. } => {
            let i = ds.0 as usize;
            if held.len() <= i {
                held.resize(i + 1, false);
            }
            held[i] = true;
            (0, 1, None)
        }
        // Never worked on: a lost request, a hung query, a 503 at once.
        What::RequestLost { ds, .. } | What::FindHangs { ds, .. } => release(held, ds.0 as usize),
        What::DownstreamReply { ds, answer: Answer::Unavailable, .. } => release(held, ds.0 as usize),
        What::ReviewCreated { ds, .. }
        | What::ReviewReplayed { ds, .. }
        | What::ResponseLost { ds, .. }
        | What::DownstreamReply { ds, .. }
        | What::LateReply { ds, .. }
        | What::ReplyUnheard { ds, .. } => release(held, ds.0 as usize),
        _ => (0, 0, None),
    }
}

/// A Risk API call is done (the first record saying so counts).
fn release(held: &mut [bool], i: usize) -> (i64, i64, Option<u64>) {
    match held.get_mut(i) {
        Some(h) if *h => {
            *h = false;
            (0, -1, None)
        }
        _ => (0, 0, None),
    }
}

impl Series {
    /// The run's windows from 0 to its last event.
    pub fn of(run: &Run) -> Series {
        let records = run.records();
        let end = end_of(run);
        let windows = end.ms() / WINDOW.ms() + 1;
        let mut points = Vec::with_capacity(windows as usize);
        let (mut arrived, mut held) = (Vec::new(), Vec::new());
        let (mut at_replicas, mut at_api) = (0i64, 0i64);
        let mut next = 0;
        for k in 0..windows {
            let (start, stop) = (Millis(k * WINDOW.ms()), Millis((k + 1) * WINDOW.ms()));
            let (mut arrivals, mut answered, mut stayed) = (0u64, 0u64, 0u64);
            while let Some(r) = records.get(next).filter(|r| r.t < stop) {
                let (replicas, api, residence) = steps(&r.what, &mut arrived, &mut held, r.t);
                arrivals += u64::from(replicas > 0);
                at_replicas += replicas;
                at_api += api;
                if let Some(ms) = residence {
                    answered += 1;
                    stayed += ms;
                }
                next += 1;
            }
            points.push(Point {
                t: start,
                arrivals_per_s: arrivals * 1000 / WINDOW.ms(),
                at_replicas: at_replicas.max(0) as u64,
                at_risk_api: at_api.max(0) as u64,
                mean_residence_ms: (answered > 0).then(|| stayed as f64 / answered as f64),
            });
        }
        Series { points }
    }

    /// The window where the most calls were at the replicas.
    fn peak(&self) -> Option<&Point> {
        self.points.iter().max_by_key(|p| (p.at_replicas, std::cmp::Reverse(p.t)))
    }

    /// What the chart shows, in words: where in-flight work grew and why.
    pub fn describe(&self) -> String {
        let Some(peak) = self.peak().filter(|p| p.at_replicas > 0) else {
            return "No call was at a replica at the end of any 100 ms window.".to_owned();
        };
        let first = self.points.iter().find(|p| p.mean_residence_ms.is_some());
        let peak_residence = self.points.iter().filter(|p| p.t <= peak.t).rev().find_map(|p| p.mean_residence_ms);
        let mut said = format!(
            "Every 100 ms: calls arriving per second, and calls in flight at the replicas and at the Risk API. In-flight work at the replicas is highest, {}, at {}",
            peak.at_replicas, peak.t
        );
        if let (Some(first), Some(late)) = (first.and_then(|p| p.mean_residence_ms.map(|m| (p.t, m))), peak_residence) {
            said.push_str(&format!(
                "; the calls answered then had stayed {:.0} ms on average, against {:.0} ms at {}: at the same arrival rate, longer residence means more calls in flight (Little's law).",
                late, first.1, first.0
            ));
        } else {
            said.push('.');
        }
        said
    }

    /// The chart: calls in flight at the replicas and at the Risk API over
    /// time.
    pub fn chart(&self) -> LineChart {
        let line = |name: &str, colour: usize, value: fn(&Point) -> u64| Line {
            name: name.to_owned(),
            points: self.points.iter().map(|p| (p.t.ms() as f64 / 1000.0, value(p) as f64)).collect(),
            stroke: Stroke::Solid,
            colour,
        };
        LineChart {
            title: "Calls in flight".to_owned(),
            x_desc: "model time (s)".to_owned(),
            y_desc: "calls".to_owned(),
            lines: vec![line("At the replicas", 0, |p| p.at_replicas), line("At the Risk API", 1, |p| p.at_risk_api)],
            at_least: (0.0, 0.0),
        }
    }

    /// The chart laid out `width` by [`HEIGHT`] pixels.
    pub fn plot(&self, width: f64) -> Plot {
        self.chart().plot(width, HEIGHT)
    }
}

/// The chart's height (it is drawn 600 wide and scaled to its panel).
pub const HEIGHT: f64 = 160.0;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::risk::{Mode, Preset, Settings};

    fn series(preset: Preset) -> Series {
        Series::of(&Run::simulate(&Settings::preset(preset, Mode::Patterns)).unwrap())
    }

    #[test]
    fn a_steady_stream_against_a_slowing_risk_api_piles_up_in_flight() {
        // Call i (from 0) is made at 100 i, reaches its replica at 100 i + 20
        // and is answered at 100 i + 122 + c, where its create, sent at
        // 100 i + 121, takes c = 410 + 990 (100 i + 121) / 20000 ms (rounded
        // down). At the end of [1900, 2000): calls 14 (answered at
        // 1400 + 122 + 485 = 2007) to 19 are in flight, 6; call 13 left at
        // 1902. At the end of [18900, 19000): calls 176 (17600 + 122 + 1287 =
        // 19009) to 189, 14; call 175 left at 18904.
        let s = series(Preset::SlowingDownstream);
        let at = |ms: u64| s.points.iter().find(|p| p.t == Millis(ms)).unwrap();
        assert_eq!((at(1_900).at_replicas, at(18_900).at_replicas), (6, 14));
        // One arrival per 100 ms: 10 per second in every window of the stream.
        assert!(s.points.iter().filter(|p| p.t < Millis(20_000)).all(|p| p.arrivals_per_s == 10));
        // Call 18 sends its create at 1921, which takes 410 + 95 = 505 ms: it
        // is answered at 2427, 607 ms after it reached its replica at 1820,
        // alone in [2400, 2500) (call 17 left at 2322, call 19 at 2532).
        assert_eq!(at(2_400).mean_residence_ms, Some(607.0));
        assert!(s.describe().contains("Little's law"), "{}", s.describe());
        assert_eq!(s.plot(600.0).markup().matches("<polyline class=\"chart-line c").count(), 2);
    }

    #[test]
    fn the_incident_holds_one_call_at_a_time() {
        let s = series(Preset::Incident);
        assert!(s.points.iter().all(|p| p.at_replicas <= 1 && p.at_risk_api <= 2));
        assert_eq!(s.points.iter().find(|p| p.t == Millis(200)).map(|p| p.at_risk_api), Some(1));
    }
}
