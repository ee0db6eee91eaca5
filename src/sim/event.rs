//! The vocabulary of a run: keys, responses, the events the queue holds, and
//! the records a run leaves behind.

use std::fmt;

use super::time::Millis;

/// Attempts are numbered from 1 in the order the client sends them.
pub type Attempt = u32;

/// An operation key as the server sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum OpKey {
    /// The key of logical intent `n`, reused by every attempt with stable keys.
    Intent(u32),
    /// The fresh key of one attempt, with per-attempt keys.
    Attempt(Attempt),
}

impl fmt::Display for OpKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpKey::Intent(n) => write!(f, "intent-{n}"),
            OpKey::Attempt(n) => write!(f, "attempt-{n}"),
        }
    }
}

/// What a server response says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    Success,
    /// 503: temporarily unavailable, worth retrying.
    Unavailable,
    /// 400: the input is bad; retrying cannot help.
    Rejected,
}

impl Status {
    /// The status in one word, as diagram labels use it.
    pub fn word(self) -> &'static str {
        match self {
            Status::Success => "success",
            Status::Unavailable => "503",
            Status::Rejected => "400",
        }
    }

    /// How a sentence names a response with this status.
    pub fn noun(self) -> &'static str {
        match self {
            Status::Success => "success response",
            Status::Unavailable => "503 response",
            Status::Rejected => "400 response",
        }
    }
}

/// How the client's intent ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Succeeded,
    Rejected,
    /// Out of attempts: the intent is kept for reconciliation, its real effect
    /// unknown to the client.
    Exhausted,
}

impl Outcome {
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Succeeded => "succeeded",
            Outcome::Rejected => "rejected",
            Outcome::Exhausted => "exhausted",
        }
    }
}

/// What the client does after an attempt is answered or times out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    Done(Outcome),
    Retry { next: Attempt, at: Millis, delay: Millis },
}

/// Identifies a message in the network.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MessageId(pub u32);

/// Identifies an operation on the server.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OpId(pub u32);

/// Something scheduled to happen. The actors own the data (messages,
/// operations); the queue holds only what is needed to find it again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Event {
    ResponseArrives(MessageId),
    ClientSends(Attempt),
    RequestArrives(MessageId),
    OperationCommits(OpId),
    DeadlinePasses(Attempt),
    StoredResultExpires(OpKey),
}

impl Event {
    /// Tie-break class at equal times, from MODEL.md's ordering section.
    /// Expiry markers come first: a stored result is valid only while
    /// `now < committed_at + retention`, so at that very instant it is gone.
    pub(crate) fn class(self) -> u8 {
        match self {
            Event::StoredResultExpires(_) => 0,
            Event::ResponseArrives(_) => 1,
            Event::ClientSends(_) => 2,
            Event::RequestArrives(_) => 3,
            Event::OperationCommits(_) => 4,
            Event::DeadlinePasses(_) => 5,
        }
    }
}

/// What happened, with the facts its sentence needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum What {
    AttemptSent {
        deadline: Millis,
        arrives_at: Millis,
    },
    /// Rule 1: fault reject-400.
    RequestRejected,
    /// Rule 2: fault first-503 on attempt 1.
    RequestUnavailable,
    /// Rules 5 and 6: an operation starts; `reserved` says whether its key was
    /// reserved (deduplication on).
    OperationStarted {
        reserved: bool,
        commits_at: Millis,
    },
    /// Rule 3: the attempt joins the operation already in flight for its key.
    DedupJoined {
        origin: Attempt,
        commits_at: Millis,
    },
    /// Rule 4: the stored result is replayed at once.
    DedupReplayed {
        origin: Attempt,
        committed_at: Millis,
        value: u64,
    },
    OperationCommitted {
        started_at: Millis,
        value: u64,
        stored_until: Option<Millis>,
        answered: u32,
    },
    ResponseDelivered {
        status: Status,
        sent_at: Millis,
        decision: Decision,
    },
    ResponseLate {
        status: Status,
        sent_at: Millis,
    },
    ResponseLost {
        status: Status,
        sent_at: Millis,
    },
    AttemptTimedOut {
        decision: Decision,
    },
    StoredResultExpired {
        committed_at: Millis,
    },
}

impl What {
    /// The stable machine name of the event kind, as JSON and CSS use it.
    pub fn kind(&self) -> &'static str {
        match self {
            What::AttemptSent { .. } => "attempt-sent",
            What::RequestRejected => "request-rejected",
            What::RequestUnavailable => "request-unavailable",
            What::OperationStarted { .. } => "operation-started",
            What::DedupJoined { .. } => "dedup-joined",
            What::DedupReplayed { .. } => "dedup-replayed",
            What::OperationCommitted { .. } => "operation-committed",
            What::ResponseDelivered { .. } => "response-delivered",
            What::ResponseLate { .. } => "response-late",
            What::ResponseLost { .. } => "response-lost",
            What::AttemptTimedOut { .. } => "attempt-timed-out",
            What::StoredResultExpired { .. } => "stored-result-expired",
        }
    }
}

/// One line of a run's event list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    pub t: Millis,
    /// The attempt the event is about (for commits and expiries: the attempt
    /// whose operation produced the result).
    pub attempt: Attempt,
    pub key: OpKey,
    pub what: What,
}

impl Record {
    pub fn kind(&self) -> &'static str {
        self.what.kind()
    }

    /// One plain sentence saying what happened.
    pub fn sentence(&self) -> String {
        let (n, key) = (self.attempt, self.key);
        match self.what {
            What::AttemptSent { deadline, .. } => {
                format!("Client sends attempt {n} with key {key}; it times out at {deadline} unless answered.")
            }
            What::RequestRejected => {
                format!("Server rejects attempt {n} with 400 (bad input); nothing is reserved or executed.")
            }
            What::RequestUnavailable => {
                format!("Server answers attempt {n} with 503 (unavailable); nothing is reserved or executed.")
            }
            What::OperationStarted { reserved: true, commits_at } => {
                format!("Server reserves key {key} and starts attempt {n}'s operation; it commits at {commits_at}.")
            }
            What::OperationStarted { reserved: false, commits_at } => format!(
                "Server starts an operation for attempt {n} without looking at its key; it commits at {commits_at}."
            ),
            What::DedupJoined { origin, commits_at } => format!(
                "Key {key} is already in flight: attempt {n} joins attempt {origin}'s operation and will be \
                 answered when it commits at {commits_at} (deduplication hit)."
            ),
            What::DedupReplayed { origin, committed_at, value } => format!(
                "Key {key} has a stored result (attempt {origin}'s commit at {committed_at}, counter {value}): \
                 the server answers attempt {n} with it at once and does not execute again (deduplication hit)."
            ),
            What::OperationCommitted { value, stored_until, answered, .. } => {
                let stored = match stored_until {
                    Some(until) => format!("; the result is stored for key {key} until {until}"),
                    None => String::new(),
                };
                let answered = if answered == 1 {
                    format!("a success response goes to attempt {n}")
                } else {
                    format!("success responses go to attempt {n} and {} joined attempt(s)", answered - 1)
                };
                format!("Attempt {n}'s operation commits: the counter becomes {value}{stored}; {answered}.")
            }
            What::ResponseDelivered { status, decision, .. } => {
                let noun = status.noun();
                match decision {
                    Decision::Done(Outcome::Succeeded) => {
                        format!("Attempt {n}'s {noun} reaches the client: the client reports success.")
                    }
                    Decision::Done(Outcome::Rejected) => {
                        format!("Attempt {n}'s {noun} reaches the client: outcome rejected, never retried.")
                    }
                    Decision::Done(Outcome::Exhausted) => {
                        format!("Attempt {n}'s {noun} reaches the client and no attempts are left: outcome exhausted.")
                    }
                    Decision::Retry { next, at, delay } => format!(
                        "Attempt {n}'s {noun} reaches the client: it will send attempt {next} at {at} \
                         (backoff {delay})."
                    ),
                }
            }
            What::ResponseLate { status, .. } => format!(
                "Attempt {n}'s {} arrives late: the client is no longer waiting for it and ignores it.",
                status.noun()
            ),
            What::ResponseLost { status, .. } => {
                format!("Attempt {n}'s {} is lost in the network; the client never sees it.", status.noun())
            }
            What::AttemptTimedOut { decision } => match decision {
                Decision::Retry { next, at, delay } => format!(
                    "Attempt {n} times out unanswered: the client will send attempt {next} at {at} (backoff {delay})."
                ),
                Decision::Done(_) => format!(
                    "Attempt {n} times out unanswered and no attempts are left: outcome exhausted; \
                     the real effect is unknown to the client."
                ),
            },
            What::StoredResultExpired { .. } => {
                format!("The stored result for key {key} expires: a request with this key would now execute again.")
            }
        }
    }
}
