//! An overload run's totals as the page shows them: each figure, and for
//! each figure that retries make better or worse, how it compares with the
//! same run without retries (the same seed and arrivals, every client
//! giving up after its first attempt): a word, a class the page colours,
//! and a ratio. "4927 wasted operations" says little; "worse: 4.1× the run
//! without retries" says what the retries did.

use super::report::{LittlesLaw, OverloadReport};

/// How the totals are judged, above them.
pub const TOTALS_HINT: &str = "Each figure beside the same run without retries (every client gives up after its first \
     attempt): better, worse or the same, and by how much.";

/// How a figure compares with the run without retries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Judgement {
    Better,
    Worse,
    Same,
}

impl Judgement {
    /// The word the page shows, and the class it colours by.
    pub fn word(self) -> &'static str {
        match self {
            Judgement::Better => "better",
            Judgement::Worse => "worse",
            Judgement::Same => "the same",
        }
    }

    pub fn class(self) -> &'static str {
        match self {
            Judgement::Better => "good",
            Judgement::Worse => "bad",
            Judgement::Same => "same",
        }
    }
}

/// One figure of the totals.
#[derive(Clone, Debug, PartialEq)]
pub struct Total {
    pub name: &'static str,
    pub value: String,
    /// Against the run without retries, where retries can change it and
    /// that run is known: the judgement and the words beside the figure.
    pub against: Option<(Judgement, String)>,
}

/// Which way is better for a figure.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Better {
    Lower,
    Higher,
}

/// `value` against `base` (the run without retries), where `better` says
/// which way is good: the judgement and its words, with the ratio.
fn judge(value: f64, base: f64, better: Better) -> (Judgement, String) {
    const WITHOUT: &str = "the run without retries";
    if (value - base).abs() < 1e-9 {
        return (Judgement::Same, format!("the same as {WITHOUT}"));
    }
    let judgement = match (value > base, better) {
        (true, Better::Lower) | (false, Better::Higher) => Judgement::Worse,
        _ => Judgement::Better,
    };
    let words = if base.abs() < 1e-9 {
        format!("{}: none in {WITHOUT}", judgement.word())
    } else {
        format!("{}: {}× {WITHOUT}", judgement.word(), ratio(value / base))
    };
    (judgement, words)
}

/// A ratio with two significant figures below 10 ("0.45", "1.5", "4.1"),
/// whole above.
fn ratio(r: f64) -> String {
    if r >= 9.95 {
        format!("{r:.0}")
    } else if r >= 0.995 {
        let text = format!("{r:.1}");
        text.strip_suffix(".0").map_or(text.clone(), str::to_owned)
    } else {
        format!("{r:.2}")
    }
}

fn ms(v: Option<f64>) -> String {
    v.map_or("–".to_owned(), |v| format!("{v:.1} ms"))
}

/// The totals of `run`, judged against `base` (the same run without
/// retries) where it is known.
pub fn totals(run: &OverloadReport, base: Option<&OverloadReport>) -> Vec<Total> {
    let t = &run.totals;
    let count = |v: u64| v as f64;
    let judged = |name, value: String, pick: &dyn Fn(&OverloadReport) -> Option<f64>, better| Total {
        name,
        value,
        against: base.and_then(|b| Some(judge(pick(run)?, pick(b)?, better))),
    };
    vec![
        Total { name: "Intents", value: t.intents.to_string(), against: None },
        judged("Acknowledged", t.acknowledged.to_string(), &|r| Some(count(r.totals.acknowledged)), Better::Higher),
        judged("Exhausted", t.exhausted.to_string(), &|r| Some(count(r.totals.exhausted)), Better::Lower),
        judged("Operations executed", t.operations.to_string(), &|r| Some(count(r.totals.operations)), Better::Lower),
        judged(
            "Wasted operations",
            t.wasted_operations.to_string(),
            &|r| Some(count(r.totals.wasted_operations)),
            Better::Lower,
        ),
        judged(
            "Duplicate effects",
            t.duplicate_effects.to_string(),
            &|r| Some(count(r.totals.duplicate_effects)),
            Better::Lower,
        ),
        judged("Amplification", format!("{:.2}", run.amplification), &|r| Some(r.amplification), Better::Lower),
        // A run without retries has none: nothing to judge against.
        Total { name: "Retries", value: t.retries.to_string(), against: None },
        judged("429s", t.rejected_429.to_string(), &|r| Some(count(r.totals.rejected_429)), Better::Lower),
        judged("Timeouts", t.timeouts.to_string(), &|r| Some(count(r.totals.timeouts)), Better::Lower),
        judged("Latency p50", ms(run.latency_p50_ms), &|r| r.latency_p50_ms, Better::Lower),
        judged("Latency p99", ms(run.latency_p99_ms), &|r| r.latency_p99_ms, Better::Lower),
        judged(
            "Over capacity after the spike",
            format!("{:.2} s", run.saturated_after_spike_ms / 1000.0),
            &|r| Some(r.saturated_after_spike_ms),
            Better::Lower,
        ),
    ]
}

/// Little's law over the run, as the totals say it: the mean measured
/// against the arrival rate times the mean residence.
pub fn littles_law_words(law: &LittlesLaw) -> String {
    format!(
        "Mean intents in the system, measured: {:.2}. Arrival rate × mean residence: {:.1}/s × {:.1} ms = {:.2}.",
        law.mean_in_system, law.arrival_rate_per_s, law.mean_residence_ms, law.rate_times_residence,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::Schema;
    use crate::sim::storm::OverloadRun;
    use crate::sim::storm::settings::{MAX_ATTEMPTS, StormSettings};

    #[test]
    fn a_figure_is_judged_by_its_ratio_to_the_run_without_retries() {
        // 4927 wasted against 1200 without retries: 4927 / 1200 = 4.1, worse.
        assert_eq!(
            judge(4927.0, 1200.0, Better::Lower),
            (Judgement::Worse, "worse: 4.1× the run without retries".into())
        );
        // 3000 acknowledged against 2000: 1.5, better (more is better).
        assert_eq!(judge(3000.0, 2000.0, Better::Higher).0, Judgement::Better);
        assert_eq!(judge(3000.0, 2000.0, Better::Higher).1, "better: 1.5× the run without retries");
        // 45 against 100: 0.45, better; 2691 duplicates against none.
        assert_eq!(judge(45.0, 100.0, Better::Lower).1, "better: 0.45× the run without retries");
        assert_eq!(judge(2691.0, 0.0, Better::Lower).1, "worse: none in the run without retries");
        assert_eq!(judge(7.0, 7.0, Better::Lower), (Judgement::Same, "the same as the run without retries".into()));
        assert_eq!(ratio(12.4), "12");
        assert_eq!(ratio(2.0), "2");
    }

    #[test]
    fn the_default_storm_is_worse_than_without_retries_where_retries_cost() {
        // The opening overload: retries without backoff into a spike. Its
        // run without retries (one attempt each) executes fewer operations,
        // and with no retry nothing is executed twice.
        let settings = StormSettings::opening();
        let once = settings.with(MAX_ATTEMPTS.def(), 1).unwrap();
        let report = |s: &StormSettings| OverloadReport::of(&OverloadRun::simulate(s).unwrap());
        let (run, base) = (report(&settings), report(&once));
        assert_eq!(base.totals.duplicate_effects, 0);
        let shown = totals(&run, Some(&base));
        let get = |name: &str| shown.iter().find(|t| t.name == name).unwrap().clone();
        assert_eq!(get("Operations executed").against.unwrap().0, Judgement::Worse);
        assert_eq!(get("Duplicate effects").against.unwrap().1, "worse: none in the run without retries");
        assert_eq!(get("Intents").against, None);
        assert!(totals(&run, None).iter().all(|t| t.against.is_none()));
    }
}
