//! Load on the replicas: how many calls are in flight and queued at a
//! moment, and Little's law over the run (calls in the system on average
//! = arrival rate × mean residence time), all from the records.

use crate::sim::Millis;
use crate::sim::risk::Run;
use crate::sim::risk::facts::What;

use crate::view::num::{Fixed, d1};

/// Little's law over the run: from the first call reaching a replica to
/// the last result leaving one.
#[derive(Clone, Debug, PartialEq)]
pub struct Little {
    /// Calls that reached a replica and were answered.
    pub calls: u64,
    pub window: Millis,
    pub arrival_rate_per_s: f64,
    pub mean_residence_ms: f64,
    /// Arrival rate × mean residence: the law's prediction.
    pub predicted: f64,
    /// The time-average number of calls at the replicas, measured by
    /// following every arrival and departure.
    pub measured: f64,
    /// The most calls at the replicas at once.
    pub peak: u32,
}

impl Little {
    /// The law in words with the run's figures.
    pub fn sentence(&self) -> String {
        format!(
            "Over {} from the first arrival to the last answer, {} calls arrived: {} per second, each at a replica for {} ms on average. Arrival rate × residence time = {} calls in flight or queued; measured on average: {} (peak {}).",
            self.window,
            self.calls,
            d1(self.arrival_rate_per_s),
            d1(self.mean_residence_ms),
            Fixed(self.predicted, 2),
            Fixed(self.measured, 2),
            self.peak
        )
    }
}

/// Little's law for the run, if any call was answered at a replica.
pub fn littles_law(run: &Run) -> Option<Little> {
    let records = run.records();
    // When each call reached a replica (by call number) and, once it was
    // answered, how long it stayed.
    let mut arrived: Vec<Option<Millis>> = Vec::new();
    let (mut first, mut last) = (None::<Millis>, Millis::ZERO);
    let (mut n, mut total_ms) = (0u64, 0u64);
    // Records come in time order, so following them follows every arrival
    // and departure in order: the count at the replicas, its peak and its
    // time-average come from one pass.
    let (mut present, mut peak, mut area, mut since) = (0i64, 0i64, 0u64, Millis::ZERO);
    for r in records {
        let step = match r.what {
            What::CallAdmitted { call, .. } | What::CallQueued { call, .. } | What::Overloaded { call, .. } => {
                let i = (call.0 as usize).saturating_sub(1);
                if arrived.len() <= i {
                    arrived.resize(i + 1, None);
                }
                if arrived[i].is_some() {
                    continue;
                }
                arrived[i] = Some(r.t);
                first.get_or_insert(r.t);
                1
            }
            What::ToolResult { call, .. } | What::RpcError { call, .. } => {
                let Some(at) = arrived.get_mut((call.0 as usize).saturating_sub(1)).and_then(Option::take) else {
                    continue;
                };
                n += 1;
                total_ms += r.t.since(at).ms();
                last = last.max(r.t);
                -1
            }
            _ => continue,
        };
        // The count between instants is what the replicas held: a call
        // refused at the instant it arrived was never held.
        if r.t > since {
            peak = peak.max(present);
            area += present.max(0) as u64 * r.t.since(since).ms();
            since = r.t;
        }
        present += step;
    }
    peak = peak.max(present);
    let start = first?;
    if n == 0 {
        return None;
    }
    let window = last.since(start);
    let seconds = window.ms() as f64 / 1000.0;
    let (rate, measured) =
        if window.ms() == 0 { (0.0, 0.0) } else { (n as f64 / seconds, area as f64 / window.ms() as f64) };
    let mean = total_ms as f64 / n as f64;
    Some(Little {
        calls: n,
        window,
        arrival_rate_per_s: rate,
        mean_residence_ms: mean,
        predicted: rate * mean / 1000.0,
        measured,
        peak: peak.max(0) as u32,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::risk::{Mode, Preset, Settings};

    #[test]
    fn the_law_holds_over_the_burst() {
        let run = Run::simulate(&Settings::preset(Preset::Overload, Mode::Patterns)).unwrap();
        let l = littles_law(&run).unwrap();
        // Every call of the burst, its retries included, reached a replica.
        assert_eq!(l.calls, u64::from(run.summary().tool_calls));
        assert!((l.predicted - l.measured).abs() < 1e-6, "{l:?}");
        // Two replicas, each with 8 slots and 16 places in its queue.
        assert!(l.peak <= 2 * (8 + 16) && l.peak >= 16, "{l:?}");
        assert!(l.sentence().contains("calls arrived"));
    }

    #[test]
    fn one_call_at_a_time_is_one_call_in_flight() {
        // The naive incident's two calls never overlap.
        let run = Run::simulate(&Settings::preset(Preset::Incident, Mode::Naive)).unwrap();
        let l = littles_law(&run).unwrap();
        assert_eq!((l.calls, l.peak), (2, 1));
        assert!(l.measured < 1.0);
    }
}
