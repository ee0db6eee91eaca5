//! What the views say about each kind of fact, said once: the words for a
//! Risk API answer and for a Risk API call, read by the timeline, the
//! sentences, the report, the trace, the alerts and the OTLP export alike.

use crate::sim::risk::facts::{Answer, DsKind, ReviewRef};

use super::names;

/// Everything the views say about one Risk API answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnswerWords {
    /// The timeline's label: "created RV-1", "503".
    pub short: String,
    /// Without the review it names, for a group of answers: "created".
    pub word: &'static str,
    /// The class of the answer's arrow on the timeline.
    pub class: &'static str,
    /// The report's outcome: "created", "unavailable_503".
    pub report: &'static str,
    /// In a sentence: "review RV-1 created", "503, over capacity".
    pub phrase: String,
    /// The HTTP status the Risk API answers with, and the error its caller
    /// sees (OTLP).
    pub http: (Option<i64>, Option<&'static str>),
    /// A number that tells the answers apart (a timeline group's detail).
    pub code: u32,
}

/// One row per answer.
pub fn answer(answer: Answer) -> AnswerWords {
    let with = |short: &str, review: ReviewRef| format!("{short} {}", names::review(review));
    let (short, word, class, report, phrase, http, code) = match answer {
        Answer::Created(r) => (
            with("created", r),
            "created",
            "response success",
            "created",
            format!("review {} created", names::review(r)),
            (Some(201), None),
            0,
        ),
        Answer::Existing(r) => (
            with("existing", r),
            "existing review",
            "response success",
            "existing",
            format!("the existing review {} (idempotent create)", names::review(r)),
            (Some(200), None),
            1,
        ),
        Answer::Rejected => (
            "rejected".to_owned(),
            "rejected",
            "response failed",
            "rejected",
            "an explicit business rejection".to_owned(),
            (Some(422), Some("422")),
            2,
        ),
        Answer::Unavailable => (
            "503".to_owned(),
            "503",
            "response error",
            "unavailable_503",
            "503, over capacity".to_owned(),
            (Some(503), Some("503")),
            3,
        ),
        Answer::ServerError => (
            "500".to_owned(),
            "500",
            "response error",
            "server_error_500",
            "500, nothing created".to_owned(),
            (Some(500), Some("500")),
            4,
        ),
        Answer::Reset => (
            "reset".to_owned(),
            "reset",
            "response lost",
            "reset",
            "a connection reset".to_owned(),
            (None, Some("connection_reset")),
            5,
        ),
        Answer::Found(r) => (
            with("found", r),
            "found",
            "response success",
            "found",
            format!("found, review {}", names::review(r)),
            (Some(200), None),
            6,
        ),
        Answer::NotFound => (
            "not found".to_owned(),
            "not found",
            "response pending",
            "not_found",
            "not found".to_owned(),
            (Some(404), Some("404")),
            7,
        ),
        // A find that meets a create still under way: accepted, not done.
        Answer::InProgress => (
            "in progress".to_owned(),
            "in progress",
            "response pending",
            "in_progress",
            "a create with this key is still under way".to_owned(),
            (Some(202), None),
            8,
        ),
    };
    AnswerWords { short, word, class, report, phrase, http, code }
}

/// The HTTP status and error of a Risk API call's end: its answer's, or a
/// timeout's when none came.
pub fn http(answer: Option<Answer>) -> (Option<i64>, Option<&'static str>) {
    answer.map_or((None, Some("timeout")), |a| self::answer(a).http)
}

/// Everything the views say about one kind of Risk API call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CallWords {
    /// On the timeline: "Create".
    pub short: &'static str,
    /// The operation, in sentences and alerts: "CreateReview".
    pub operation: &'static str,
    /// The HTTP method and the span's name (OTLP).
    pub method: &'static str,
    pub route: &'static str,
}

/// One row per kind of Risk API call.
pub fn call(kind: DsKind) -> CallWords {
    match kind {
        DsKind::Create => {
            CallWords { short: "Create", operation: "CreateReview", method: "POST", route: "POST /reviews" }
        }
        DsKind::Find => {
            CallWords { short: "Find", operation: "FindByRequestKey", method: "GET", route: "GET /reviews" }
        }
    }
}
