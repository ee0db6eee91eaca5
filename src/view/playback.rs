//! The inspection clock: at 1x a whole replay, whatever its model length,
//! takes 60 inspection seconds. Events keep their model times; only the
//! pace of the playhead is stretched.

use crate::sim::Millis;

/// One replay at 1x, in inspection milliseconds.
pub const INSPECTION_MS: f64 = 60_000.0;

/// One event's share of a replay paced by events, in inspection
/// milliseconds: the playhead goes from one event to the next in this long.
pub const EVENT_MS: f64 = 1_500.0;

/// How fast a replay goes: a multiple of the 60 s replay, or one event
/// every 1.5 s whatever the time between them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Speed {
    Quarter,
    Half,
    #[default]
    One,
    Two,
    Four,
    ByEvent,
}

impl Speed {
    pub const ALL: [Speed; 6] = [Speed::Quarter, Speed::Half, Speed::One, Speed::Two, Speed::Four, Speed::ByEvent];

    pub fn factor(self) -> f64 {
        match self {
            Speed::Quarter => 0.25,
            Speed::Half => 0.5,
            Speed::One | Speed::ByEvent => 1.0,
            Speed::Two => 2.0,
            Speed::Four => 4.0,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Speed::Quarter => "0.25x",
            Speed::Half => "0.5x",
            Speed::One => "1x",
            Speed::Two => "2x",
            Speed::Four => "4x",
            Speed::ByEvent => "By event",
        }
    }

    pub fn from_label(label: &str) -> Option<Speed> {
        Speed::ALL.into_iter().find(|s| s.label() == label)
    }
}

/// A replay's pace: where it ends, the moments of its events (sorted, from
/// 0), and its speed.
#[derive(Clone, Copy, Debug)]
pub struct Pace<'a> {
    pub end: Millis,
    pub moments: &'a [Millis],
    pub speed: Speed,
}

impl Pace<'_> {
    /// The moments a replay paced by events goes through: 0, every event,
    /// the end.
    fn stops(&self) -> Vec<Millis> {
        let mut stops: Vec<Millis> = std::iter::once(Millis::ZERO)
            .chain(self.moments.iter().copied().filter(|&t| t <= self.end))
            .chain(std::iter::once(self.end))
            .collect();
        stops.dedup();
        stops
    }

    /// The whole replay in inspection milliseconds.
    pub fn total(&self) -> f64 {
        match self.speed {
            Speed::ByEvent => EVENT_MS * (self.stops().len().saturating_sub(1)).max(1) as f64,
            _ => INSPECTION_MS,
        }
    }

    /// Where inspection time `inspection_ms` puts the playhead (rounded
    /// down to a whole model millisecond, never past the end).
    pub fn model_at(&self, inspection_ms: f64) -> Millis {
        if self.speed != Speed::ByEvent {
            return model_at(inspection_ms, self.end);
        }
        if !inspection_ms.is_finite() || inspection_ms <= 0.0 {
            return Millis::ZERO;
        }
        let stops = self.stops();
        let k = (inspection_ms / EVENT_MS).floor() as usize;
        let (Some(&from), Some(&to)) = (stops.get(k), stops.get(k + 1)) else { return self.end };
        let frac = inspection_ms / EVENT_MS - k as f64;
        Millis(from.ms() + ((to.ms() - from.ms()) as f64 * frac).floor() as u64).min(self.end)
    }

    /// The inspection time at which the playhead reaches model time `t`.
    pub fn inspection_at(&self, t: Millis) -> f64 {
        if self.speed != Speed::ByEvent {
            return inspection_at(t, self.end);
        }
        let stops = self.stops();
        let k = stops.partition_point(|&s| s <= t).saturating_sub(1);
        match stops.get(k + 1) {
            None => self.total(),
            Some(&to) => {
                let from = stops[k];
                EVENT_MS * (k as f64 + (t.ms() - from.ms()) as f64 / (to.ms() - from.ms()).max(1) as f64)
            }
        }
    }
}

/// Where inspection time `inspection_ms` puts the playhead in a run ending
/// at `end` (rounded down to a whole model millisecond, never past the end).
pub fn model_at(inspection_ms: f64, end: Millis) -> Millis {
    if !inspection_ms.is_finite() || inspection_ms <= 0.0 {
        return Millis::ZERO;
    }
    let fraction = (inspection_ms / INSPECTION_MS).min(1.0);
    Millis(((end.ms() as f64) * fraction).floor() as u64).min(end)
}

/// The inspection time at which the playhead reaches model time `t`.
pub fn inspection_at(t: Millis, end: Millis) -> f64 {
    if end.ms() == 0 {
        return if t.ms() == 0 { 0.0 } else { INSPECTION_MS };
    }
    INSPECTION_MS * (t.min(end).ms() as f64) / (end.ms() as f64)
}

/// Advances a playing playhead by `wall_ms` of real time at `speed`, up to
/// `total` (the whole replay). The inspection position is carried as a
/// float so slow speeds still move.
pub fn advance(inspection_ms: f64, wall_ms: f64, speed: Speed, total: f64) -> f64 {
    let step = if wall_ms.is_finite() && wall_ms > 0.0 { wall_ms.min(1_000.0) } else { 0.0 };
    (inspection_ms + step * speed.factor()).min(total)
}

/// "Model 1.00 s of 4.05 s · replay 14.8 s of 60.0 s": model time first,
/// the replay's own clock after it.
pub fn readout(t: Millis, pace: &Pace) -> String {
    format!(
        "Model {t} of {} · replay {} s of {} s",
        pace.end,
        crate::view::num::d1(pace.inspection_at(t) / 1000.0),
        crate::view::num::d1(pace.total() / 1000.0)
    )
}

/// The readout under the Time slider: [`readout`], after the wall clock
/// for a lab that has one (`wall`, its time at the playhead).
pub fn clock_readout(t: Millis, pace: &Pace, wall: Option<&str>) -> String {
    match wall {
        None => readout(t, pace),
        Some(wall) => format!("Wall clock {wall} · {}", readout(t, pace)),
    }
}

/// The readout while what is still to come is hidden: where the playhead
/// is, and nothing of where the run ends (nor of the replay's length,
/// which would tell it).
pub fn so_far_readout(t: Millis, wall: Option<&str>) -> String {
    match wall {
        None => format!("Model {t}; what comes next is hidden"),
        Some(wall) => format!("Wall clock {wall} · Model {t}; what comes next is hidden"),
    }
}

/// The Time slider's value in words, with the wall clock first for a lab
/// that has one; the run's end where it is not hidden.
pub fn slider_text(t: Millis, end: Option<Millis>, wall: Option<&str>) -> String {
    let of = end.map(|end| format!(" of {end}")).unwrap_or_default();
    match wall {
        None => format!("Model {t}{of}"),
        Some(wall) => format!("{wall} on the wall clock, model {t}{of}"),
    }
}

/// Where a link's `at` puts the playhead of a run ending at `end`: past the
/// end, at the end, with a notice saying so.
pub fn playhead_within(at: Millis, end: Millis) -> (Millis, Option<String>) {
    if at <= end {
        return (at, None);
    }
    let notice = format!(
        "at: {} s is past the end of this run; the playhead is at the end ({end}) instead.",
        crate::sim::params::ms_to_seconds_text(at.ms()),
    );
    (end, Some(notice))
}

/// What happens at one moment, for the live region: the moment as the lab
/// names it (`clock`), then run A's events, and run B's too while comparing
/// (each run named then, and left out where it has none); `quiet` when
/// nothing happens there.
pub fn moment_words(clock: &str, a: String, b: Option<String>, quiet: String) -> String {
    let text = match b {
        None => a,
        Some(b) => [("A", a), ("B", b)]
            .into_iter()
            .filter(|(_, text)| !text.is_empty())
            .map(|(run, text)| format!("Run {run}: {text}"))
            .collect::<Vec<_>>()
            .join(" "),
    };
    if text.is_empty() { quiet } else { format!("{clock}: {text}") }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_opening_replay_takes_sixty_seconds() {
        let end = Millis(4050);
        assert_eq!(model_at(0.0, end), Millis(0));
        assert_eq!(model_at(30_000.0, end), Millis(2025));
        assert_eq!(model_at(60_000.0, end), end);
        assert_eq!(model_at(1e12, end), end);
        let pace = Pace { end, moments: &[], speed: Speed::One };
        // 60 000 × 1 000 / 4 050 = 14 814.8 inspection ms.
        assert_eq!(readout(Millis(1000), &pace), "Model 1.00 s of 4.05 s · replay 14.8 s of 60.0 s");
        assert_eq!(pace.model_at(30_000.0), Millis(2025));
    }

    #[test]
    fn a_replay_paced_by_events_gives_each_gap_one_and_a_half_seconds() {
        // Stops 0, 1.00, 2.00, 4.05 s: three gaps of 1 500 ms each.
        let moments = [Millis(1000), Millis(2000), Millis(4050)];
        let pace = Pace { end: Millis(4050), moments: &moments, speed: Speed::ByEvent };
        assert_eq!(pace.total(), 4_500.0);
        assert_eq!(pace.model_at(750.0), Millis(500));
        assert_eq!(pace.model_at(2_250.0), Millis(1500));
        // 2 000 + 2 050 × (2/3) = 3 366.7, rounded down.
        assert_eq!(pace.model_at(4_000.0), Millis(3366));
        assert_eq!(pace.model_at(9_000.0), Millis(4050));
        assert_eq!(pace.inspection_at(Millis(1500)), 2_250.0);
        assert_eq!(pace.inspection_at(Millis(4050)), 4_500.0);
        assert_eq!(readout(Millis(2000), &pace), "Model 2.00 s of 4.05 s · replay 3.0 s of 4.5 s");
        // A run with no events still takes one step.
        let empty = Pace { end: Millis(0), moments: &[], speed: Speed::ByEvent };
        assert_eq!(empty.total(), 1_500.0);
    }

    #[test]
    fn speed_scales_the_pace() {
        assert_eq!(advance(0.0, 100.0, Speed::Four, INSPECTION_MS), 400.0);
        assert_eq!(advance(0.0, 100.0, Speed::Quarter, INSPECTION_MS), 25.0);
        assert_eq!(advance(59_990.0, 100.0, Speed::One, INSPECTION_MS), INSPECTION_MS);
        assert_eq!(advance(10.0, f64::NAN, Speed::One, INSPECTION_MS), 10.0);
        assert_eq!(advance(4_400.0, 200.0, Speed::ByEvent, 4_500.0), 4_500.0);
    }

    #[test]
    fn a_lab_with_a_wall_clock_shows_it_first() {
        let end = Millis(4050);
        assert_eq!(slider_text(Millis(1000), Some(end), None), "Model 1.00 s of 4.05 s");
        // With the future hidden, the end is unsaid.
        assert_eq!(slider_text(Millis(1000), None, None), "Model 1.00 s");
        assert_eq!(so_far_readout(Millis(1000), None), "Model 1.00 s; what comes next is hidden");
        assert_eq!(
            slider_text(Millis(1000), Some(end), Some("10:31:01.000")),
            "10:31:01.000 on the wall clock, model 1.00 s of 4.05 s"
        );
        let pace = Pace { end, moments: &[], speed: Speed::One };
        assert_eq!(clock_readout(Millis(1000), &pace, None), readout(Millis(1000), &pace));
        assert_eq!(
            clock_readout(Millis(1000), &pace, Some("10:31:01.000")),
            "Wall clock 10:31:01.000 · Model 1.00 s of 4.05 s · replay 14.8 s of 60.0 s"
        );
    }

    #[test]
    fn a_playhead_past_the_end_stops_at_it_with_a_notice() {
        assert_eq!(playhead_within(Millis(100), Millis(4050)), (Millis(100), None));
        let (at, notice) = playhead_within(Millis(999_000), Millis(4050));
        assert_eq!(at, Millis(4050));
        assert_eq!(
            notice.as_deref(),
            Some("at: 999 s is past the end of this run; the playhead is at the end (4.05 s) instead.")
        );
    }

    #[test]
    fn a_run_of_zero_length_does_not_divide_by_zero() {
        assert_eq!(model_at(100.0, Millis(0)), Millis(0));
        assert_eq!(inspection_at(Millis(0), Millis(0)), 0.0);
    }

    #[test]
    fn a_moment_in_words_names_each_run_only_while_comparing() {
        let quiet = || "Model time 2.05 s.".to_owned();
        assert_eq!(moment_words("2.05 s", "x.".into(), None, quiet()), "2.05 s: x.");
        assert_eq!(moment_words("2.05 s", String::new(), None, quiet()), "Model time 2.05 s.");
        assert_eq!(moment_words("2.05 s", "x.".into(), Some("y.".into()), quiet()), "2.05 s: Run A: x. Run B: y.");
        assert_eq!(moment_words("2.05 s", String::new(), Some("y.".into()), quiet()), "2.05 s: Run B: y.");
        assert_eq!(moment_words("2.05 s", String::new(), Some(String::new()), quiet()), "Model time 2.05 s.");
    }
}
