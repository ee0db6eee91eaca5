//! "What happened": the incident report's six log lines beside the run's
//! own events. Each report line is matched to the first record of the run
//! that does what the line says, found from the records' facts (never from
//! the preset), so the page can light each line up as the playhead passes
//! it and say what the run did instead where it differs.

use crate::sim::Millis;
use crate::sim::risk::Run;
use crate::sim::risk::facts::{CallId, DsKind, IntentId, Record, Tool, What};

use super::names::{self, CLOCK_ORIGIN_MS};
use super::sentences::sentence;

/// One line of the incident report, as the report writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReportLine {
    pub clock: &'static str,
    pub text: &'static str,
}

/// The report's log (RISK-MODEL.md, "The incident").
pub const REPORT: [ReportLine; 6] = [
    ReportLine { clock: "10:31:08.120", text: "the agent calls request_risk_review for order O20260728001" },
    ReportLine { clock: "10:31:08.241", text: "a replica creates local request R10086 and calls the Risk API" },
    ReportLine {
        clock: "10:31:10.742",
        text: "the Risk API call times out (the review was created; its response was lost)",
    },
    ReportLine { clock: "10:31:10.743", text: "the replica returns \"submission failed\" (an error result)" },
    ReportLine { clock: "10:31:12.000", text: "the agent retries the same intent" },
    ReportLine { clock: "10:31:12.531", text: "the Risk API creates a second review" },
];

/// A report line and the run's event that matches it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IncidentLine {
    pub report: ReportLine,
    /// The matching record's index and time.
    pub matched: Option<(usize, Millis)>,
    /// What the run did: the matching event's sentence, or what happened
    /// instead.
    pub run_text: String,
}

impl IncidentLine {
    /// The run's wall clock for this line, if the run has it.
    pub fn run_clock(&self) -> Option<String> {
        self.matched.map(|(_, t)| names::clock(t))
    }

    /// How far the run's time is from the report's, in milliseconds.
    pub fn drift_ms(&self) -> Option<i64> {
        let report = report_model_ms(self.report.clock)?;
        self.matched.map(|(_, t)| t.ms() as i64 - report)
    }
}

/// The model time of a report clock "HH:MM:SS.mmm" (model time 0 is the
/// first line), or `None` if it is not a clock.
pub fn report_model_ms(clock: &str) -> Option<i64> {
    let (hms, milli) = clock.split_once('.')?;
    let mut parts = hms.split(':').map(|p| p.parse::<i64>().ok());
    let (h, m, s) = (parts.next()??, parts.next()??, parts.next()??);
    let ms = ((h * 60 + m) * 60 + s) * 1000 + milli.parse::<i64>().ok()?;
    Some(ms - CLOCK_ORIGIN_MS as i64)
}

fn found(records: &[Record], i: usize) -> Option<(usize, Millis)> {
    records.get(i).map(|r| (i, r.t))
}

/// The first request_risk_review call and its intent.
fn first_request(records: &[Record]) -> Option<(usize, CallId, IntentId)> {
    records.iter().enumerate().find_map(|(i, r)| match r.what {
        What::ToolCall { call, tool: Tool::RequestRiskReview, intent, .. } => Some((i, call, intent)),
        _ => None,
    })
}

/// The six lines for `run`.
pub fn incident_lines(run: &Run) -> Vec<IncidentLine> {
    let records = run.records();
    let first = first_request(records);
    let position = |keep: &dyn Fn(&Record) -> bool, from: usize| {
        records.iter().enumerate().skip(from).find(|(_, r)| keep(r)).map(|(i, _)| i)
    };
    let after_first = first.map_or(0, |(i, _, _)| i + 1);
    let inserted = position(&|r| matches!(r.what, What::RowInserted { .. }), 0);
    let timeout = position(&|r| matches!(r.what, What::DownstreamTimeout { kind: DsKind::Create, .. }), 0);
    let answered = first.and_then(|(_, call, _)| {
        position(
            &|r| matches!(r.what, What::ToolResult { call: c, .. } | What::RpcError { call: c, .. } if c == call),
            0,
        )
    });
    // The script's retry of the intent, whatever the agent's retry policy
    // made of it, or else a call made again for it.
    let retried = first.and_then(|(_, first_call, intent)| {
        position(
            &|r| match r.what {
                What::ScriptedRetry { intent: i, .. } => i == intent,
                What::ToolCall { call, tool: Tool::RequestRiskReview, intent: i, .. } => {
                    i == intent && call != first_call
                }
                _ => false,
            },
            after_first,
        )
    });
    let second_review =
        records.iter().enumerate().filter(|(_, r)| matches!(r.what, What::ReviewCreated { .. })).nth(1).map(|(i, _)| i);

    let matches = [first.map(|(i, _, _)| i), inserted, timeout, answered, retried, second_review];
    let instead = [
        "The run makes no request_risk_review call.",
        "No row is inserted: the server wrote nothing.",
        "No Risk API create times out in this run.",
        "The first call gets no answer.",
        "The agent does not call again for the same intent.",
        "The Risk API creates no second review: it holds one at most.",
    ];
    REPORT
        .iter()
        .zip(matches)
        .zip(instead)
        .map(|((report, m), instead)| {
            let matched = m.and_then(|i| found(records, i));
            let run_text = match m.and_then(|i| records.get(i)) {
                Some(r) => sentence(r),
                None => instead.to_owned(),
            };
            IncidentLine { report: *report, matched, run_text }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::risk::{Mode, Preset, Settings};

    fn lines(mode: Mode) -> Vec<IncidentLine> {
        incident_lines(&Run::simulate(&Settings::preset(Preset::Incident, mode)).unwrap())
    }

    #[test]
    fn report_clocks_are_model_times_from_the_first_line() {
        assert_eq!(report_model_ms("10:31:08.120"), Some(0));
        assert_eq!(report_model_ms("10:31:12.531"), Some(4411));
        assert_eq!(report_model_ms("ten past"), None);
    }

    #[test]
    fn the_naive_run_reproduces_every_line_within_five_milliseconds() {
        for line in lines(Mode::Naive) {
            let drift = line.drift_ms().unwrap_or_else(|| panic!("no match for {:?}", line.report.text));
            assert!(drift.abs() <= 5, "{} drifts {drift} ms", line.report.clock);
        }
        let l = lines(Mode::Naive);
        assert!(l[3].run_text.contains("SUBMISSION_FAILED"), "{}", l[3].run_text);
        assert!(l[5].run_text.contains("RV-2"), "{}", l[5].run_text);
    }

    #[test]
    fn with_the_patterns_the_timeout_gives_unknown_and_no_second_review() {
        let l = lines(Mode::Patterns);
        assert!(l[3].run_text.contains("UNKNOWN for review R10086"), "{}", l[3].run_text);
        assert!(l[4].matched.is_some(), "the script still retries");
        // The agent's retry policy makes the retry a status poll of the
        // review the first answer named.
        assert!(l[4].run_text.contains("polls get_risk_review_status for R10086"), "{}", l[4].run_text);
        assert_eq!(l[5].matched, None);
        assert!(l[5].run_text.starts_with("The Risk API creates no second review"));
    }
}
