//! The vocabulary of a run: who is who, keys, responses, the events the
//! queue holds, and the records a run leaves behind. Records are facts;
//! `view` turns them into sentences and geometry.

use std::fmt;

use crate::sim::time::Millis;

use super::settings::CrashPoint;

/// Attempts are numbered from 1 in the order a client sends them.
pub type Attempt = u32;

/// Identifies a client. The first lab has one, `ClientId(0)`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ClientId(pub u32);

/// Identifies a message in the network.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MessageId(pub u32);

/// Identifies an operation on the server, numbered in the order they start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct OpId(pub u32);

/// The name a client gives an operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum KeyName {
    /// The key of logical intent `n`, reused by every attempt with stable keys.
    Intent(u32),
    /// The fresh key of one attempt, with per-attempt keys.
    Attempt(Attempt),
}

/// An operation key as the server sees it: scoped by the client that sent
/// it, so two clients' `intent-1` never collide.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct OpKey {
    pub client: ClientId,
    pub name: KeyName,
}

/// The key as its client wrote it (`intent-1`, `attempt-2`); the scope is
/// the client's identity, not part of the text.
impl fmt::Display for OpKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.name {
            KeyName::Intent(n) => write!(f, "intent-{n}"),
            KeyName::Attempt(n) => write!(f, "attempt-{n}"),
        }
    }
}

/// What a request carries: the first attempt's body A, or a rebuilt body B.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Payload {
    A,
    B,
}

impl Payload {
    pub fn name(self) -> &'static str {
        match self {
            Payload::A => "A",
            Payload::B => "B",
        }
    }
}

/// What reaches the client in answer to a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    Success,
    /// 503: temporarily unavailable, worth retrying.
    Unavailable,
    /// 400: the input is bad; retrying cannot help.
    Rejected,
    /// 409: a duplicate of an operation still in flight.
    Conflict,
    /// 422: the key came back with a different payload.
    Unprocessable,
    /// The server was down: connection refused.
    Refused,
}

impl Status {
    /// The HTTP status code, if the answer has one.
    pub fn code(self) -> Option<u16> {
        match self {
            Status::Success => Some(200),
            Status::Unavailable => Some(503),
            Status::Rejected => Some(400),
            Status::Conflict => Some(409),
            Status::Unprocessable => Some(422),
            Status::Refused => None,
        }
    }

    /// Whether the client may try again after it.
    pub fn is_retryable(self) -> bool {
        matches!(self, Status::Unavailable | Status::Conflict | Status::Refused)
    }
}

/// Which limit ended a client that gave up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ExhaustedBy {
    Attempts,
    Deadline,
}

impl ExhaustedBy {
    pub fn name(self) -> &'static str {
        match self {
            ExhaustedBy::Attempts => "attempts",
            ExhaustedBy::Deadline => "deadline",
        }
    }
}

/// How the client's intent ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Succeeded,
    /// A final refusal: 400 or 422.
    Rejected(Status),
    /// Out of attempts or out of time: the intent is kept for
    /// reconciliation, its real effect unknown to the client.
    Exhausted(ExhaustedBy),
}

impl Outcome {
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Succeeded => "succeeded",
            Outcome::Rejected(_) => "rejected",
            Outcome::Exhausted(_) => "exhausted",
        }
    }

    /// The final status code of a rejection (400 or 422).
    pub fn final_status(self) -> Option<u16> {
        match self {
            Outcome::Rejected(status) => status.code(),
            _ => None,
        }
    }

    pub fn exhausted_by(self) -> Option<ExhaustedBy> {
        match self {
            Outcome::Exhausted(by) => Some(by),
            _ => None,
        }
    }
}

/// What the client does after an attempt is answered or times out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Decision {
    Done(Outcome),
    Retry { next: Attempt, at: Millis, delay: Millis },
}

/// Where a stored result or reservation came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Origin {
    pub op: OpId,
    pub attempt: Attempt,
    pub payload: Payload,
}

/// Why the server answered 422.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MismatchWith {
    StoredResult,
    Reservation,
}

/// Something scheduled to happen. The actors own the data (messages,
/// operations); the queue holds only what is needed to find it again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// The retention of the result `op` stored ends (a marker).
    ResultExpires(OpId),
    /// The lease of the reservation `op` made ends (a marker).
    LeaseEnds(OpId),
    /// A response, a loss or a refusal reaches the client.
    Delivery(MessageId),
    /// The client sends the attempt it is waiting to send (a client that
    /// waits has exactly one of these pending, for the time it waits until).
    ClientSends(ClientId),
    ServerRestarts,
    RequestArrives(MessageId),
    /// An operation commits (the crash happens here).
    Commit(OpId),
    /// The deadline passes of the attempt that request `id` carries.
    DeadlinePasses(MessageId),
}

impl Event {
    /// Tie-break class at equal times, from docs/model.md's ordering. Markers
    /// come first: validity ends at `now < end`, so at that very instant the
    /// thing is gone.
    pub fn class(&self) -> u8 {
        match self {
            Event::ResultExpires(_) | Event::LeaseEnds(_) => 0,
            Event::Delivery(_) => 1,
            Event::ClientSends(_) => 2,
            Event::ServerRestarts => 3,
            Event::RequestArrives(_) => 4,
            Event::Commit(_) => 5,
            Event::DeadlinePasses(_) => 6,
        }
    }
}

/// What happened, with the facts a sentence or a drawing needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum What {
    AttemptSent {
        deadline: Millis,
        arrives_at: Millis,
        payload: Payload,
    },
    /// Rule 0: the server is down; the refusal reaches the client later.
    RequestRefused {
        delivers_at: Millis,
    },
    /// An aimed `request-lost`: the request vanishes where it would have
    /// reached the server.
    RequestLost {
        sent_at: Millis,
    },
    /// Rule 1: fault reject-400.
    RequestRejected,
    /// Rule 2: fault first-503 on attempt 1, or an aimed `503`.
    RequestUnavailable,
    /// Rules 3a and 4a: the key came back with a different payload.
    PayloadMismatch {
        with: MismatchWith,
        origin: Attempt,
        expected: Payload,
    },
    /// Rule 4c: the key's operation is still in flight.
    InFlightConflict {
        origin: Attempt,
    },
    /// Rules 5 and 6: an operation starts; `reserved` says whether its key
    /// was reserved (deduplication on), `took_over` whether that replaced a
    /// reservation whose lease had ended.
    OperationStarted {
        op: OpId,
        reserved: bool,
        took_over: bool,
        commits_at: Millis,
        lease_ends: Option<Millis>,
        payload: Payload,
    },
    /// Rule 4b: the attempt joins the operation that holds the key.
    /// `commits_at` is `None` when that operation died in a crash.
    DedupJoined {
        origin: Attempt,
        commits_at: Option<Millis>,
        mismatched: bool,
    },
    /// Rule 3b: the stored result is replayed at once.
    DedupReplayed {
        origin: Attempt,
        committed_at: Millis,
        value: u64,
        mismatched: bool,
    },
    OperationCommitted {
        op: OpId,
        started_at: Millis,
        value: u64,
        payload: Payload,
        stored_until: Option<Millis>,
        /// Whether the reservation was still this operation's to release.
        released: bool,
        answered: u32,
    },
    /// The server crashes during the commit of `op` (the attempt of the
    /// record), at `point`.
    ServerCrashed {
        op: OpId,
        point: CrashPoint,
        /// The counter after the effect, if it was applied.
        applied: Option<u64>,
        stored_until: Option<Millis>,
        released: bool,
        /// Other operations lost without effect.
        lost_operations: u32,
        /// Reservations and stored results wiped (in-memory store).
        wiped: bool,
        restarts_at: Millis,
    },
    ServerRestarted {
        crashed_at: Millis,
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
    /// A reservation still held when its lease ends; `orphaned` when its
    /// operation died in a crash.
    LeaseEnded {
        reserved_at: Millis,
        orphaned: bool,
    },
}

impl What {
    /// The stable machine name of the event kind, as JSON and CSS use it.
    pub fn kind(&self) -> &'static str {
        match self {
            What::AttemptSent { .. } => "attempt-sent",
            What::RequestRefused { .. } => "request-refused",
            What::RequestLost { .. } => "request-lost",
            What::RequestRejected => "request-rejected",
            What::RequestUnavailable => "request-unavailable",
            What::PayloadMismatch { .. } => "payload-mismatch",
            What::InFlightConflict { .. } => "in-flight-conflict",
            What::OperationStarted { .. } => "operation-started",
            What::DedupJoined { .. } => "dedup-joined",
            What::DedupReplayed { .. } => "dedup-replayed",
            What::OperationCommitted { .. } => "operation-committed",
            What::ServerCrashed { .. } => "server-crashed",
            What::ServerRestarted { .. } => "server-restarted",
            What::ResponseDelivered { .. } => "response-delivered",
            What::ResponseLate { .. } => "response-late",
            What::ResponseLost { .. } => "response-lost",
            What::AttemptTimedOut { .. } => "attempt-timed-out",
            What::StoredResultExpired { .. } => "stored-result-expired",
            What::LeaseEnded { .. } => "lease-ended",
        }
    }

    /// Markers say when something stops being valid; they never set the
    /// end of a run.
    pub fn is_marker(&self) -> bool {
        matches!(self, What::StoredResultExpired { .. } | What::LeaseEnded { .. })
    }
}

/// One line of a run's event list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Record {
    pub t: Millis,
    pub client: ClientId,
    /// The attempt the event is about (for commits, crashes and markers:
    /// the attempt whose operation it concerns; 0 for the server's restart,
    /// which concerns no attempt).
    pub attempt: Attempt,
    /// The key involved; `None` only for the server's restart.
    pub key: Option<OpKey>,
    pub what: What,
}

impl Record {
    pub fn kind(&self) -> &'static str {
        self.what.kind()
    }
}
