//! The vocabulary of a risk-review run: who is who, keys and ids, row
//! statuses and the causes that move them, the SQL statement each database
//! step stands for, the events the queue holds and the records a run leaves
//! behind. Records are facts; `view` turns them into words.

use crate::sim::time::Millis;

/// A replica behind the load balancer, A first; a run has one to twenty.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ReplicaId(pub u8);

const REPLICA_NAMES: [&str; 20] =
    ["A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M", "N", "O", "P", "Q", "R", "S", "T"];

impl ReplicaId {
    pub const A: ReplicaId = ReplicaId(0);
    pub const B: ReplicaId = ReplicaId(1);

    /// The first `n` replicas.
    pub fn all(n: usize) -> impl Iterator<Item = ReplicaId> {
        (0..n.min(REPLICA_NAMES.len()) as u8).map(ReplicaId)
    }

    pub fn index(self) -> usize {
        self.0 as usize
    }

    pub fn name(self) -> &'static str {
        REPLICA_NAMES.get(self.index()).copied().unwrap_or("?")
    }

    /// The replica after this one among `n` (a duplicated delivery's
    /// second copy goes there; with one replica, to the same one).
    pub fn next(self, n: usize) -> ReplicaId {
        ReplicaId(((self.index() + 1) % n.max(1)) as u8)
    }
}

/// A reconciliation worker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum WorkerId {
    W1,
    W2,
}

impl WorkerId {
    pub const ALL: [WorkerId; 2] = [WorkerId::W1, WorkerId::W2];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn name(self) -> &'static str {
        match self {
            WorkerId::W1 => "W1",
            WorkerId::W2 => "W2",
        }
    }
}

/// Who a record is about, one lane each on the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Actor {
    Agent,
    LoadBalancer,
    Replica(ReplicaId),
    Database,
    RiskApi,
    Worker(WorkerId),
}

impl Actor {
    /// Every actor of a run with `replicas` replicas, in lane order.
    pub fn all(replicas: usize) -> Vec<Actor> {
        let mut actors = vec![Actor::Agent, Actor::LoadBalancer];
        actors.extend(ReplicaId::all(replicas).map(Actor::Replica));
        actors.extend([Actor::Database, Actor::RiskApi, Actor::Worker(WorkerId::W1), Actor::Worker(WorkerId::W2)]);
        actors
    }

    /// The stable machine name, as JSON uses it.
    pub fn name(self) -> &'static str {
        match self {
            Actor::Agent => "agent",
            Actor::LoadBalancer => "load_balancer",
            Actor::Replica(replica) => replica.name(),
            Actor::Database => "database",
            Actor::RiskApi => "risk_api",
            Actor::Worker(WorkerId::W1) => "W1",
            Actor::Worker(WorkerId::W2) => "W2",
        }
    }
}

/// A tool call, numbered from 1 in the order the agent makes them (a
/// duplicated delivery is a call of its own).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CallId(pub u32);

/// A user intent (one click or agent command), numbered from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct IntentId(pub u32);

/// The local row id, R10086 and on, as the incident report numbers them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RowId(pub u32);

/// The first row id of every run (the incident's R10086).
pub const FIRST_ROW: RowId = RowId(10086);

impl RowId {
    /// The row's place in the table.
    pub fn index(self) -> usize {
        self.0.saturating_sub(FIRST_ROW.0) as usize
    }
}

/// A review at the Risk API, numbered from 1 in the order it creates them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ReviewRef(pub u32);

/// A request_key: one per user click or agent command; a retry of the same
/// intent reuses it. Intent n's key is number n.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RequestKey(pub u32);

/// An order of the shop, by the last three digits of its number: 1 is
/// O20260728001.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct OrderId(pub u32);

/// The order that belongs to another user (the forged-order preset).
pub const FORGED_ORDER: OrderId = OrderId(999);

/// An end user: 1001 is u-1001.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct UserId(pub u32);

/// The end user the agent acts for.
pub const END_USER: UserId = UserId(1001);
/// The owner of [`FORGED_ORDER`].
pub const OTHER_USER: UserId = UserId(2002);

/// Who owns an order: every order belongs to u-1001 except O20260728999.
/// This is a fact of the shop's data, which the server may look up.
pub fn owner_of(order: OrderId) -> UserId {
    if order == FORGED_ORDER { OTHER_USER } else { END_USER }
}

/// The business key: order_id + review_type + active_generation. The lab
/// has one review type; a review of the order that ended FAILED closes its
/// generation, and the next request for the order opens the next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BusinessKey {
    pub order: OrderId,
    /// The order's active generation: 1, and one more after each review of
    /// the order that ended FAILED.
    pub generation: u32,
}

/// A call to the Risk API (a create or a find), numbered from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DownstreamId(pub u32);

/// A database statement under way, numbered from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct StatementId(pub u32);

/// The two tools the server offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tool {
    RequestRiskReview,
    GetRiskReviewStatus,
}

impl Tool {
    pub fn name(self) -> &'static str {
        match self {
            Tool::RequestRiskReview => "request_risk_review",
            Tool::GetRiskReviewStatus => "get_risk_review_status",
        }
    }
}

/// What a tool call looks like on the wire. Presets send well-formed calls;
/// the random-faults preset sometimes sends the others, so every step of the
/// server's pipeline is reachable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CallShape {
    Valid,
    /// Not a JSON-RPC request at all.
    Malformed,
    /// Names a tool the server does not offer.
    UnknownTool,
    /// Fails schema or domain validation (an empty reason).
    InvalidArgument,
    /// The trusted context carries no subject.
    NoSubject,
    /// The bearer token was issued for another audience (another server).
    WrongAudience,
    /// The arguments name another user, u-2002, as `user_id`: the end user
    /// belongs in the verified token, and the report's schema has no such
    /// argument.
    ClaimedUser,
    /// The arguments carry one the schema does not have: `approved: true`.
    ExtraArgument,
    /// The reason is [`LONG_REASON_CHARS`] characters, past the schema's
    /// [`MAX_REASON_CHARS`].
    LongReason,
}

/// The longest reason the strict input schema allows (`maxLength`).
pub const MAX_REASON_CHARS: u32 = 500;
/// The long-reason input's reason.
pub const LONG_REASON_CHARS: u32 = 600;

impl CallShape {
    /// A JSON-RPC request for a tool the server offers: anything the server
    /// answers about it beyond the protocol is the tool's business.
    pub fn is_well_formed(self) -> bool {
        !matches!(self, CallShape::Malformed | CallShape::UnknownTool)
    }

    /// Whether its arguments break the report's input schema whatever the
    /// server's other designs: a property it does not declare, or a string
    /// past its length limit.
    pub fn breaks_schema(self) -> bool {
        matches!(self, CallShape::ExtraArgument | CallShape::LongReason)
    }

    /// The end user the arguments name, if any.
    pub fn claimed_user(self) -> Option<UserId> {
        (self == CallShape::ClaimedUser).then_some(OTHER_USER)
    }

    /// The shape's machine name, as JSON uses it.
    pub fn name(self) -> &'static str {
        match self {
            CallShape::Valid => "valid",
            CallShape::Malformed => "malformed",
            CallShape::UnknownTool => "unknown_tool",
            CallShape::InvalidArgument => "invalid_argument",
            CallShape::NoSubject => "no_subject",
            CallShape::WrongAudience => "wrong_audience",
            CallShape::ClaimedUser => "claimed_user",
            CallShape::ExtraArgument => "extra_argument",
            CallShape::LongReason => "long_reason",
        }
    }
}

/// The credential a Risk API call carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Credential {
    /// The server's own: the caller's token stays at the protocol boundary.
    Service,
    /// The caller's token, passed through (the naive server's way).
    Caller,
}

impl Credential {
    pub fn name(self) -> &'static str {
        match self {
            Credential::Service => "service",
            Credential::Caller => "caller_token",
        }
    }
}

/// A row's status.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Status {
    Pending,
    Succeeded,
    Failed,
    Unknown,
    Retryable,
}

impl Status {
    pub const ALL: [Status; 5] =
        [Status::Pending, Status::Succeeded, Status::Failed, Status::Unknown, Status::Retryable];

    /// The value stored in the `status` column.
    pub fn name(self) -> &'static str {
        match self {
            Status::Pending => "PENDING",
            Status::Succeeded => "SUCCEEDED",
            Status::Failed => "FAILED",
            Status::Unknown => "UNKNOWN",
            Status::Retryable => "RETRYABLE",
        }
    }

    /// SUCCEEDED and FAILED end a row's story.
    pub fn is_final(self) -> bool {
        matches!(self, Status::Succeeded | Status::Failed)
    }
}

/// Why a row moved (RISK-MODEL.md's fixed list).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Cause {
    Inserted,
    CreateSucceeded,
    BusinessRejection,
    Timeout,
    Reset,
    Downstream5xx,
    ClaimLeaseEnded,
    FindFound,
    FindNotFound,
    FindTimeout,
    ClaimWon,
    /// The Risk API says a create with the key is still under way.
    FindInProgress,
}

impl Cause {
    /// Every cause, in the contract's order, and then the one this lab adds.
    pub const ALL: [Cause; 12] = [
        Cause::Inserted,
        Cause::CreateSucceeded,
        Cause::BusinessRejection,
        Cause::Timeout,
        Cause::Reset,
        Cause::Downstream5xx,
        Cause::ClaimLeaseEnded,
        Cause::FindFound,
        Cause::FindNotFound,
        Cause::FindTimeout,
        Cause::ClaimWon,
        Cause::FindInProgress,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Cause::Inserted => "inserted",
            Cause::CreateSucceeded => "create_succeeded",
            Cause::BusinessRejection => "business_rejection",
            Cause::Timeout => "timeout",
            Cause::Reset => "reset",
            Cause::Downstream5xx => "downstream_5xx",
            Cause::ClaimLeaseEnded => "claim_lease_ended",
            Cause::FindFound => "find_found",
            Cause::FindNotFound => "find_not_found",
            Cause::FindTimeout => "find_timeout",
            Cause::ClaimWon => "claim_won",
            Cause::FindInProgress => "find_in_progress",
        }
    }
}

/// The only legal transitions: a row is born PENDING, and then moves only
/// as RISK-MODEL.md's table says. Everything else is illegal (the naive
/// server's PENDING -> FAILED on a timeout is the incident's bug). A probe
/// that learns nothing keeps the row UNKNOWN, whether its query timed out,
/// was refused with a 503 or heard that a create with the key is still
/// under way.
pub fn is_legal(from: Option<Status>, to: Status, cause: Cause) -> bool {
    use Cause as C;
    use Status as S;
    matches!(
        (from, to, cause),
        (None, S::Pending, C::Inserted)
            | (Some(S::Pending), S::Succeeded, C::CreateSucceeded)
            | (Some(S::Pending), S::Failed, C::BusinessRejection)
            | (Some(S::Pending), S::Unknown, C::Timeout | C::Reset | C::Downstream5xx | C::ClaimLeaseEnded)
            | (Some(S::Unknown), S::Succeeded, C::FindFound)
            | (Some(S::Unknown), S::Retryable, C::FindNotFound)
            | (Some(S::Unknown), S::Unknown, C::FindTimeout | C::Downstream5xx | C::FindInProgress)
            | (Some(S::Retryable), S::Pending, C::ClaimWon)
    )
}

/// The error codes of error results (tool results with `isError`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    InvalidArgument,
    Unauthenticated,
    Forbidden,
    /// Both gates were full: retry later.
    Overloaded,
    /// The naive server's answer to a timeout, reset or 5xx.
    SubmissionFailed,
    /// No review with that id for this subject.
    NotFound,
    /// Deadline propagation: what is left of the call's deadline cannot
    /// cover the work; retry later.
    TemporaryUnavailable,
}

impl ErrorCode {
    pub fn name(self) -> &'static str {
        match self {
            ErrorCode::InvalidArgument => "INVALID_ARGUMENT",
            ErrorCode::Unauthenticated => "UNAUTHENTICATED",
            ErrorCode::Forbidden => "FORBIDDEN",
            ErrorCode::Overloaded => "OVERLOADED",
            ErrorCode::SubmissionFailed => "SUBMISSION_FAILED",
            ErrorCode::NotFound => "NOT_FOUND",
            ErrorCode::TemporaryUnavailable => "TEMPORARY_UNAVAILABLE",
        }
    }
}

/// Protocol errors: JSON-RPC errors, never tool results.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RpcError {
    InvalidRequest,
    MethodNotFound,
    /// The token names another audience: refused before any tool runs.
    WrongAudience,
    /// A business error thrown as a JSON-RPC error (the wrong design): an
    /// internal error whose data carries the code. The agent sees a failed
    /// request, not a result it can act on.
    Thrown(ErrorCode),
}

impl RpcError {
    pub fn code(self) -> i32 {
        match self {
            RpcError::InvalidRequest => -32600,
            RpcError::MethodNotFound => -32601,
            RpcError::WrongAudience => -32001,
            RpcError::Thrown(_) => -32603,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            RpcError::InvalidRequest => "Invalid Request",
            RpcError::MethodNotFound => "Method not found",
            RpcError::WrongAudience => "Token not issued for this server",
            RpcError::Thrown(_) => "Internal error",
        }
    }
}

/// A tool result: a review's status, or an error result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reply {
    Review { row: RowId, status: Status },
    Error { code: ErrorCode, row: Option<RowId> },
}

impl Reply {
    pub fn is_error(self) -> bool {
        matches!(self, Reply::Error { .. })
    }

    /// The review_id (local row id) the result names, if any.
    pub fn row(self) -> Option<RowId> {
        match self {
            Reply::Review { row, .. } => Some(row),
            Reply::Error { row, .. } => row,
        }
    }
}

/// What the agent hears back for a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Heard {
    Result(Reply),
    Rpc(RpcError),
}

/// How an intent ended, as the agent knows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntentOutcome {
    Succeeded(RowId),
    Failed(RowId),
    /// An error result that ends the intent.
    Refused(ErrorCode),
    Protocol(RpcError),
    /// Out of retries or polls.
    GaveUp,
    /// The call was not answered within the client deadline.
    NoAnswer,
}

/// What the agent does after hearing back (or not).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AgentDecision {
    Done(IntentOutcome),
    PollAt(Millis),
    RetryAt(Millis),
    /// INVALID_ARGUMENT as a Tool Result: it drops what the server refused
    /// and calls again at this time.
    FixAt(Millis),
    /// The answer belongs to a call the agent no longer waits for.
    Ignored,
}

/// What the agent does when its script retries an intent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RetryChoice {
    /// Calls request_risk_review again at once (the incident's agent).
    Again,
    /// Calls again: the tool declares `idempotentHint`.
    AgainDeclared,
    /// Calls again with the same request_key: no answer named a review_id
    /// it could poll.
    AgainNoHandle,
    /// Polls the review an earlier answer named, instead of calling again.
    Poll(RowId),
    /// Does not call again: the tool does not declare `idempotentHint`.
    Withheld,
}

/// What a queued call waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Wait {
    /// Its replica's slots are all taken.
    Slot,
    /// Its replica has a free slot, but the fleet works on its quota
    /// (`working` of `quota` calls in the slots of all replicas).
    Fleet { working: u32, quota: u32 },
}

/// How the load balancer picked a replica.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Route {
    RoundRobin,
    /// The duplicate-delivery fault: the same call, also to the other replica.
    Duplicate,
}

/// The server's authorization decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Policy {
    Allowed,
    Forbidden,
    /// Authorization is switched off: the arguments are trusted.
    NotChecked,
}

impl Policy {
    pub fn name(self) -> &'static str {
        match self {
            Policy::Allowed => "allowed",
            Policy::Forbidden => "forbidden",
            Policy::NotChecked => "not_checked",
        }
    }
}

/// Which unique constraint an insert ran into.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UniqueKey {
    RequestKey,
    BusinessKey,
}

/// A call to the Risk API.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DsKind {
    Create,
    Find,
}

impl DsKind {
    pub fn name(self) -> &'static str {
        match self {
            DsKind::Create => "create",
            DsKind::Find => "find",
        }
    }
}

/// What the Risk API answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Answer {
    /// A new review.
    Created(ReviewRef),
    /// Idempotent create: the request_key already had this review.
    Existing(ReviewRef),
    /// An explicit business rejection.
    Rejected,
    /// 503 at once: the global capacity is taken.
    Unavailable,
    /// 500: the create failed without effect.
    ServerError,
    /// The connection reset after the create was performed.
    Reset,
    Found(ReviewRef),
    NotFound,
    /// A probe's answer while a create with the key is still under way (the
    /// Risk API knows the key once an idempotent create has begun).
    InProgress,
}

/// Who issued a statement or a Risk API call.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Issuer {
    Replica(ReplicaId, CallId),
    Worker(WorkerId),
}

impl Issuer {
    pub fn actor(self) -> Actor {
        match self {
            Issuer::Replica(r, _) => Actor::Replica(r),
            Issuer::Worker(w) => Actor::Worker(w),
        }
    }
}

/// `INSERT ... ON CONFLICT DO NOTHING`: insert-if-absent under both unique
/// keys. The row is born PENDING at version 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Insert {
    /// The id the insert tries (the next one in the table).
    pub row: RowId,
    pub request_key: RequestKey,
    pub order: OrderId,
    pub requester: UserId,
    /// The order's active generation when the insert was issued.
    pub generation: u32,
}

impl Update {
    /// Whether the update moves the row to another status (and so bumps its
    /// version).
    pub fn changes_status(&self) -> bool {
        self.from != self.to
    }
}

impl Insert {
    pub fn business_key(&self) -> BusinessKey {
        BusinessKey { order: self.order, generation: self.generation }
    }
}

/// A `SELECT` of one row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Read {
    /// After a conflict on request_key.
    ByRequestKey(RequestKey),
    /// After a conflict on business_key.
    ByBusinessKey(BusinessKey),
    /// A status poll; with authorization on, only the subject's own rows.
    ById { row: RowId, requester: Option<UserId> },
    /// Check-then-insert (or the check under a lock): the first row with
    /// either key, for the keys not left to a unique constraint.
    Existing { request_key: Option<RequestKey>, business_key: Option<BusinessKey> },
}

/// What a replica's lock is named after: the business key when that key
/// is kept by a lock, else the request_key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LockName {
    BusinessKey(BusinessKey),
    RequestKey(RequestKey),
}

/// Taking a lock with a lease: `INSERT ... ON CONFLICT (name) DO UPDATE
/// ... WHERE expires_at <= :now`, so a lock whose lease ended is taken over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Lock {
    pub name: LockName,
    pub holder: CallId,
    pub now: Millis,
    pub until: Millis,
}

/// A guarded `UPDATE`: it changes the row only if it still has the status
/// and version its issuer last saw. Sets `downstream_ref` only when known,
/// always sets `next_retry_at` (NULL when `None`), and bumps the version
/// when the status changes. The version counts status changes only: a
/// failed probe keeps the row UNKNOWN and must not void another worker's
/// probe of the same version, or two workers sharing a busy Risk API could
/// cancel each other's answers forever.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Update {
    pub row: RowId,
    pub from: Status,
    pub version: u32,
    pub to: Status,
    pub downstream_ref: Option<ReviewRef>,
    pub next_retry_at: Option<Millis>,
}

/// A worker's claim of a RETRYABLE row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Claim {
    /// Compare-and-set: `UPDATE ... WHERE status = 'RETRYABLE' AND version =
    /// :version AND next_retry_at <= :now`.
    Cas { row: RowId, version: u32, now: Millis, lease_until: Millis },
    /// Read-then-write: the values the worker computed from its scan,
    /// written whatever the row holds now.
    Blind { row: RowId, retry_count: u32, version: u32, lease_until: Millis },
}

impl Claim {
    pub fn row(self) -> RowId {
        match self {
            Claim::Cas { row, .. } | Claim::Blind { row, .. } => row,
        }
    }
}

/// One database statement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stmt {
    Insert(Insert),
    Read(Read),
    /// The workers' scan: every row whose `next_retry_at` is due.
    Due {
        now: Millis,
    },
    Update(Update),
    Claim(Claim),
    Lock(Lock),
    /// The retry-count worker's `UPDATE ... SET retry_count = :n`.
    Bump {
        row: RowId,
        retry_count: u32,
    },
    /// The retry-count worker's scan: every row not SUCCEEDED whose
    /// retry_count is below three.
    Unfinished {
        now: Millis,
    },
    /// `DELETE FROM risk_locks WHERE holder = :call`, run with the answer.
    Unlock {
        holder: CallId,
    },
}

/// Something scheduled to happen. The actors and the model's tables hold
/// the data; the queue holds only what is needed to find it again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// The Risk API finishes a call (performs a create, evaluates a find, or
    /// refuses at once) and answers, unless the answer is lost.
    DownstreamDone(DownstreamId),
    /// A database statement completes; it takes effect atomically now.
    StatementDone(StatementId),
    /// A replica finishes the protocol, validation, subject and
    /// authorization steps of a call.
    ChecksDone(CallId),
    /// A call reaches its replica.
    CallArrives(CallId),
    /// A result reaches the agent.
    ResultArrives(CallId),
    /// The agent acts: a scripted invocation, or a retry or poll it planned.
    AgentActs(AgentStep),
    WorkerWakes(WorkerId),
    /// The caller's timeout on a Risk API call.
    DownstreamTimeout(DownstreamId),
    /// The agent's deadline for a call.
    CallDeadline(CallId),
    /// A replica tries again for a lock another call holds.
    LockRetry(CallId),
    /// A paused replica goes on with its insert.
    Resume(CallId),
    /// Deadline propagation: what is left of a queued call's deadline no
    /// longer covers its work.
    BudgetLapses(CallId),
    /// The Risk API's own time limit for a create passes: whatever became
    /// of it, the Risk API is done with it, so a place held for it frees.
    HoldEnds(DownstreamId),
}

/// Where deadline propagation found a call's deadline too close.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BudgetStep {
    /// Queued: what is left cannot cover auth, the database and the Risk API.
    Queue,
    /// Before the insert: the deadline has passed.
    Insert,
    /// Before the create: the deadline has passed.
    Create,
}

impl BudgetStep {
    pub fn name(self) -> &'static str {
        match self {
            BudgetStep::Queue => "queue",
            BudgetStep::Insert => "insert",
            BudgetStep::Create => "create",
        }
    }
}

/// What the agent does when its event fires.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AgentStep {
    /// The scenario's invocation number n (from 0).
    Invoke(u32),
    /// A retry planned after an OVERLOADED result; `timer` voids it if the
    /// intent moved on.
    Retry {
        intent: IntentId,
        timer: u32,
    },
    Poll {
        intent: IntentId,
        timer: u32,
    },
}

impl Event {
    /// Tie-break class at equal times (lower first). Completions come
    /// before arrivals, so a slot freed at an instant goes to the queue
    /// first and an arrival then sees the real occupancy; answers come
    /// before timeouts and deadlines, so one landing exactly at its
    /// deadline wins.
    pub fn class(&self) -> u8 {
        match self {
            Event::DownstreamDone(_) => 0,
            Event::StatementDone(_) => 1,
            Event::ChecksDone(_) | Event::LockRetry(_) | Event::Resume(_) | Event::HoldEnds(_) => 2,
            Event::CallArrives(_) => 3,
            Event::ResultArrives(_) => 4,
            Event::AgentActs(_) => 5,
            Event::WorkerWakes(_) => 6,
            Event::DownstreamTimeout(_) => 7,
            Event::BudgetLapses(_) | Event::CallDeadline(_) => 8,
        }
    }
}

/// What happened, with the facts a sentence, a table or a check needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum What {
    /// The agent makes a tool call (a duplicated delivery is a call too).
    ToolCall {
        call: CallId,
        tool: Tool,
        intent: IntentId,
        /// The call's number within its intent's invocation (1 first).
        attempt: u32,
        request_key: Option<RequestKey>,
        order: Option<OrderId>,
        review: Option<RowId>,
        /// The end user in the trusted context, if any.
        subject: Option<UserId>,
        shape: CallShape,
        replica: ReplicaId,
    },
    Routed {
        call: CallId,
        replica: ReplicaId,
        route: Route,
    },
    /// A call takes a slot at once.
    CallAdmitted {
        call: CallId,
        in_flight: u32,
        queued: u32,
    },
    /// A call waits in its replica's queue, for what `waits` says.
    CallQueued {
        call: CallId,
        in_flight: u32,
        queued: u32,
        waits: Wait,
    },
    /// Its replica's queue was full: OVERLOADED at once.
    Overloaded {
        call: CallId,
        in_flight: u32,
        queued: u32,
    },
    /// A queued call starts: it takes a slot of its replica and, with the
    /// global gate, the fleet's place the call answered by `freed_by` left.
    CallStarted {
        call: CallId,
        queued_at: Millis,
        in_flight: u32,
        queued: u32,
        freed_by: ReplicaId,
    },
    Policy {
        call: CallId,
        /// The end user the server took: from the trusted context, or (the
        /// wrong design) the user_id the arguments named (`claimed`).
        subject: UserId,
        claimed: bool,
        order: OrderId,
        owner: UserId,
        decision: Policy,
    },
    ToolResult {
        call: CallId,
        tool: Tool,
        reply: Reply,
    },
    RpcError {
        call: CallId,
        error: RpcError,
    },
    ResultReceived {
        call: CallId,
        made_at: Millis,
        decision: AgentDecision,
    },
    DeadlinePassed {
        call: CallId,
        made_at: Millis,
        decision: AgentDecision,
    },
    RowInserted {
        by: Issuer,
        insert: Insert,
    },
    InsertConflict {
        by: Issuer,
        insert: Insert,
        on: UniqueKey,
        existing: RowId,
    },
    RowRead {
        by: Issuer,
        read: Read,
        found: Option<(RowId, Status)>,
    },
    /// A worker's scan that found due rows (empty scans are not recorded).
    Scanned {
        by: WorkerId,
        now: Millis,
        due: u32,
        /// The retry-count worker's scan of every unfinished row.
        unfinished: bool,
    },
    Transition {
        by: Issuer,
        update: Update,
        cause: Cause,
    },
    /// A guarded update that found the row changed: zero rows.
    WriteSkipped {
        by: Issuer,
        update: Update,
        cause: Cause,
    },
    Claim {
        by: WorkerId,
        claim: Claim,
        /// The version the worker read in its scan.
        version: u32,
        won: bool,
        /// The row's status just before a winning write.
        from: Option<Status>,
    },
    /// A create goes out; `by` names the call it serves (or the worker).
    CreateSent {
        ds: DownstreamId,
        by: Issuer,
        row: RowId,
        request_key: RequestKey,
        order: OrderId,
        credential: Credential,
    },
    ProbeSent {
        ds: DownstreamId,
        row: RowId,
        request_key: RequestKey,
    },
    /// The create-request-lost fault: it never reaches the Risk API.
    RequestLost {
        ds: DownstreamId,
        row: RowId,
        request_key: RequestKey,
    },
    /// The find-timeout fault: the query hangs.
    FindHangs {
        ds: DownstreamId,
        row: RowId,
        request_key: RequestKey,
    },
    ReviewCreated {
        ds: DownstreamId,
        review: ReviewRef,
        request_key: RequestKey,
        order: OrderId,
    },
    /// Idempotent create: the key's existing review is returned.
    ReviewReplayed {
        ds: DownstreamId,
        review: ReviewRef,
        request_key: RequestKey,
    },
    /// The create-response-lost fault: performed, the answer dropped.
    ResponseLost {
        ds: DownstreamId,
        row: RowId,
        request_key: RequestKey,
        answer: Answer,
    },
    DownstreamReply {
        ds: DownstreamId,
        kind: DsKind,
        row: RowId,
        request_key: RequestKey,
        answer: Answer,
        sent_at: Millis,
    },
    DownstreamTimeout {
        ds: DownstreamId,
        kind: DsKind,
        row: RowId,
        request_key: RequestKey,
        sent_at: Millis,
    },
    /// An answer after the caller's timeout.
    LateReply {
        ds: DownstreamId,
        kind: DsKind,
        row: RowId,
        request_key: RequestKey,
        answer: Answer,
        sent_at: Millis,
    },
    /// An answer to a worker that crashed.
    ReplyUnheard {
        ds: DownstreamId,
        kind: DsKind,
        row: RowId,
        request_key: RequestKey,
        answer: Answer,
    },
    WorkerCrashed {
        worker: WorkerId,
    },
    /// A replica's try for a lock: taken, or held by another call.
    LockTried {
        lock: Lock,
        taken: bool,
    },
    /// Deadline propagation: what is left of the call's deadline (made at
    /// `made_at`) cannot cover the work at `step`; the call is answered
    /// TEMPORARY_UNAVAILABLE (before the create, its row is UNKNOWN).
    OutOfBudget {
        call: CallId,
        made_at: Millis,
        step: BudgetStep,
    },
    /// A slot (and with the global gate, the fleet's place) that stayed held
    /// after the call was answered frees: the Risk API is done with the
    /// call's create `ds` (it answered late, or its own time limit passed).
    SlotReleased {
        call: CallId,
        ds: DownstreamId,
        answered_at: Millis,
    },
    /// The replica answered its call and let go of its lock.
    LockReleased {
        holder: CallId,
    },
    /// The replica-pause fault: it stops before its insert until `until`.
    ReplicaPaused {
        call: CallId,
        until: Millis,
    },
    /// The script retries an intent; the agent's retry policy decides how.
    ScriptedRetry {
        intent: IntentId,
        choice: RetryChoice,
    },
    /// The retry-count worker counts a resend.
    RetryCounted {
        by: WorkerId,
        row: RowId,
        retry_count: u32,
    },
}

impl What {
    /// The stable machine name of the event kind, as JSON and CSS use it.
    pub fn kind(&self) -> &'static str {
        match self {
            What::ToolCall { .. } => "tool_call",
            What::Routed { .. } => "routed",
            What::CallAdmitted { .. } => "call_admitted",
            What::CallQueued { .. } => "call_queued",
            What::Overloaded { .. } => "overloaded",
            What::CallStarted { .. } => "call_started",
            What::Policy { .. } => "policy",
            What::ToolResult { .. } => "tool_result",
            What::RpcError { .. } => "jsonrpc_error",
            What::ResultReceived { .. } => "result_received",
            What::DeadlinePassed { .. } => "deadline_passed",
            What::RowInserted { .. } => "row_inserted",
            What::InsertConflict { .. } => "insert_conflict",
            What::RowRead { .. } => "row_read",
            What::Scanned { .. } => "scan",
            What::Transition { .. } => "transition",
            What::WriteSkipped { .. } => "write_skipped",
            What::Claim { .. } => "claim",
            What::CreateSent { .. } => "downstream_create",
            What::ProbeSent { .. } => "probe",
            What::RequestLost { .. } => "request_lost",
            What::FindHangs { .. } => "find_hangs",
            What::ReviewCreated { .. } => "review_created",
            What::ReviewReplayed { .. } => "review_replayed",
            What::ResponseLost { .. } => "response_lost",
            What::DownstreamReply { .. } => "downstream_reply",
            What::DownstreamTimeout { .. } => "downstream_timeout",
            What::LateReply { .. } => "late_reply",
            What::ReplyUnheard { .. } => "reply_unheard",
            What::WorkerCrashed { .. } => "worker_crashed",
            What::LockTried { .. } => "lock",
            What::LockReleased { .. } => "unlock",
            What::OutOfBudget { .. } => "out_of_budget",
            What::SlotReleased { .. } => "slot_released",
            What::ReplicaPaused { .. } => "replica_paused",
            What::RetryCounted { .. } => "retry_counted",
            What::ScriptedRetry { .. } => "scripted_retry",
        }
    }
}

/// A row's move, from the record that made it (an insert, an update, or a
/// winning claim).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    pub row: RowId,
    pub from: Option<Status>,
    pub to: Status,
    pub cause: Cause,
    pub by: Issuer,
}

impl Move {
    /// Whether the table of legal transitions has this move.
    pub fn is_legal(&self) -> bool {
        is_legal(self.from, self.to, self.cause)
    }
}

/// One line of a run's event list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Record {
    pub t: Millis,
    pub actor: Actor,
    pub what: What,
}

impl Record {
    pub fn kind(&self) -> &'static str {
        self.what.kind()
    }

    /// The database statement this record stands for, with the number of
    /// rows it touched (for a `SELECT`, the rows it returned).
    pub fn statement(&self) -> Option<(Stmt, u32)> {
        match self.what {
            What::RowInserted { insert, .. } => Some((Stmt::Insert(insert), 1)),
            What::InsertConflict { insert, .. } => Some((Stmt::Insert(insert), 0)),
            What::RowRead { read, found, .. } => Some((Stmt::Read(read), u32::from(found.is_some()))),
            What::Scanned { now, due, unfinished: false, .. } => Some((Stmt::Due { now }, due)),
            What::Scanned { now, due, unfinished: true, .. } => Some((Stmt::Unfinished { now }, due)),
            What::LockTried { lock, taken } => Some((Stmt::Lock(lock), u32::from(taken))),
            What::LockReleased { holder } => Some((Stmt::Unlock { holder }, 1)),
            What::RetryCounted { row, retry_count, .. } => Some((Stmt::Bump { row, retry_count }, 1)),
            What::Transition { update, .. } => Some((Stmt::Update(update), 1)),
            What::WriteSkipped { update, .. } => Some((Stmt::Update(update), 0)),
            What::Claim { claim, won, .. } => Some((Stmt::Claim(claim), u32::from(won))),
            _ => None,
        }
    }

    /// The row move this record made, if any.
    pub fn row_move(&self) -> Option<Move> {
        match self.what {
            What::RowInserted { by, insert } => {
                Some(Move { row: insert.row, from: None, to: Status::Pending, cause: Cause::Inserted, by })
            }
            What::Transition { by, update, cause } => {
                Some(Move { row: update.row, from: Some(update.from), to: update.to, cause, by })
            }
            What::Claim { by, claim, won: true, from, .. } => Some(Move {
                row: claim.row(),
                from,
                to: Status::Pending,
                cause: Cause::ClaimWon,
                by: Issuer::Worker(by),
            }),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_legal_table_has_its_rows_and_nothing_else() {
        let mut legal = 0;
        let froms = [None].into_iter().chain(Status::ALL.map(Some));
        for from in froms {
            for to in Status::ALL {
                for cause in Cause::ALL {
                    legal += usize::from(is_legal(from, to, cause));
                }
            }
        }
        // The contract's seven rows, one of which lists four causes, plus
        // birth; the row of a probe that learns nothing takes two more
        // causes (a 503, a create still under way).
        assert_eq!(legal, 1 + 1 + 1 + 4 + 1 + 1 + (1 + 2) + 1);
        assert!(is_legal(Some(Status::Unknown), Status::Unknown, Cause::Downstream5xx), "a probe's 503");
        assert!(!is_legal(Some(Status::Pending), Status::Failed, Cause::Timeout), "the incident's bug");
        assert!(!is_legal(Some(Status::Pending), Status::Pending, Cause::ClaimWon), "a lost update");
    }

    #[test]
    fn records_stay_small() {
        // Runs keep thousands of records; keep them within two cache lines.
        assert!(std::mem::size_of::<Record>() <= 96, "{}", std::mem::size_of::<Record>());
    }
}
