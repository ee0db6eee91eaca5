//! The inspection clock: at 1x a whole replay, whatever its model length,
//! takes 60 inspection seconds. Events keep their model times; only the
//! pace of the playhead is stretched.

use crate::sim::Millis;

/// One replay at 1x, in inspection milliseconds.
pub const INSPECTION_MS: f64 = 60_000.0;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Speed {
    Quarter,
    Half,
    #[default]
    One,
    Two,
    Four,
}

impl Speed {
    pub const ALL: [Speed; 5] = [Speed::Quarter, Speed::Half, Speed::One, Speed::Two, Speed::Four];

    pub fn factor(self) -> f64 {
        match self {
            Speed::Quarter => 0.25,
            Speed::Half => 0.5,
            Speed::One => 1.0,
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
        }
    }

    pub fn from_label(label: &str) -> Option<Speed> {
        Speed::ALL.into_iter().find(|s| s.label() == label)
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

/// Advances a playing playhead by `wall_ms` of real time at `speed`. The
/// inspection position is carried as a float so slow speeds still move.
pub fn advance(inspection_ms: f64, wall_ms: f64, speed: Speed) -> f64 {
    let step = if wall_ms.is_finite() && wall_ms > 0.0 { wall_ms.min(1_000.0) } else { 0.0 };
    (inspection_ms + step * speed.factor()).min(INSPECTION_MS)
}

/// "Inspection 14.8 s of 60.0 s · Model 1.00 s of 4.05 s"
pub fn readout(t: Millis, end: Millis) -> String {
    format!(
        "Inspection {} s of {} s · Model {t} of {end}",
        crate::view::num::d1(inspection_at(t, end) / 1000.0),
        crate::view::num::d1(INSPECTION_MS / 1000.0)
    )
}

/// The readout under the Time slider: [`readout`], after the wall clock
/// for a lab that has one (`wall`, its time at the playhead).
pub fn clock_readout(t: Millis, end: Millis, wall: Option<&str>) -> String {
    match wall {
        None => readout(t, end),
        Some(wall) => format!("Wall clock {wall} · {}", readout(t, end)),
    }
}

/// The Time slider's value in words, with the wall clock first for a lab
/// that has one.
pub fn slider_text(t: Millis, end: Millis, wall: Option<&str>) -> String {
    match wall {
        None => format!("Model {t} of {end}"),
        Some(wall) => format!("{wall} on the wall clock, model {t} of {end}"),
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
        assert_eq!(readout(Millis(1000), end), "Inspection 14.8 s of 60.0 s · Model 1.00 s of 4.05 s");
    }

    #[test]
    fn speed_scales_the_pace() {
        assert_eq!(advance(0.0, 100.0, Speed::Four), 400.0);
        assert_eq!(advance(0.0, 100.0, Speed::Quarter), 25.0);
        assert_eq!(advance(59_990.0, 100.0, Speed::One), INSPECTION_MS);
        assert_eq!(advance(10.0, f64::NAN, Speed::One), 10.0);
    }

    #[test]
    fn a_lab_with_a_wall_clock_shows_it_first() {
        let end = Millis(4050);
        assert_eq!(slider_text(Millis(1000), end, None), "Model 1.00 s of 4.05 s");
        assert_eq!(
            slider_text(Millis(1000), end, Some("10:31:01.000")),
            "10:31:01.000 on the wall clock, model 1.00 s of 4.05 s"
        );
        assert_eq!(clock_readout(Millis(1000), end, None), readout(Millis(1000), end));
        assert_eq!(
            clock_readout(Millis(1000), end, Some("10:31:01.000")),
            "Wall clock 10:31:01.000 · Inspection 14.8 s of 60.0 s · Model 1.00 s of 4.05 s"
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
