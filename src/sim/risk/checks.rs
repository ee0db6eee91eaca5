//! The checks of RISK-MODEL.md ("Acceptance checks, live"), and four more
//! (nothing written or sent after the caller gave up; the caller's token
//! never forwarded; business errors sent as Tool Results; arguments outside
//! the input schema refused), computed
//! from a run's records alone (never from the preset's name) as of any
//! moment `t`: the records up to `t` give the verdicts at `t`. The settings
//! supply only the limits a verdict compares against (the gates' sizes, the
//! transit, the client deadline, the scan interval and backoff, the Risk
//! API's safe concurrency). No check reads a verdict a handler wrote: a
//! transition's legality, a claim's exclusivity and a call's latency are
//! all worked out here from what happened.
//!
//! Each check holds (`Some(true)`), fails (`Some(false)`), or has nothing
//! to judge yet (`None`), and carries the figures behind its verdict.

use std::collections::{BTreeMap, BTreeSet};

use crate::sim::time::Millis;

use super::facts::{
    Actor, Answer, CallId, CallShape, Cause, Claim, Credential, DownstreamId, DsKind, ErrorCode, Heard, Issuer,
    OrderId, Record, ReplicaId, Reply, RequestKey, RowId, RpcError, Status, Tool, UserId, Wait, What, is_legal,
    owner_of,
};
use super::rules::{backoff, budget_lapses_at, budget_needed};
use super::settings::Settings;

/// An OVERLOADED result must leave the replica this soon after the call
/// reached it.
pub const OVERLOADED_WITHIN: Millis = Millis(10);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CheckName {
    SameRequestKeyOneRow,
    SameBusinessKeyOneReview,
    LostResponseConverges,
    SingleClaimWinner,
    ForgedNoDownstream,
    OverloadFastBounded,
    OneReviewPerBusinessKey,
    LegalTransitions,
    UnknownResolved,
    DownstreamWithinCapacity,
    NoEffectAfterDeadline,
    CallerTokenNotForwarded,
    BusinessErrorsAreResults,
    OutsideSchemaRefused,
}

impl CheckName {
    /// The six acceptance conditions first, then the invariants.
    pub const ALL: [CheckName; 14] = [
        CheckName::SameRequestKeyOneRow,
        CheckName::SameBusinessKeyOneReview,
        CheckName::LostResponseConverges,
        CheckName::SingleClaimWinner,
        CheckName::ForgedNoDownstream,
        CheckName::OverloadFastBounded,
        CheckName::OneReviewPerBusinessKey,
        CheckName::LegalTransitions,
        CheckName::UnknownResolved,
        CheckName::DownstreamWithinCapacity,
        CheckName::NoEffectAfterDeadline,
        CheckName::CallerTokenNotForwarded,
        CheckName::BusinessErrorsAreResults,
        CheckName::OutsideSchemaRefused,
    ];

    pub fn name(self) -> &'static str {
        match self {
            CheckName::SameRequestKeyOneRow => "same_request_key_one_row",
            CheckName::SameBusinessKeyOneReview => "same_business_key_one_review",
            CheckName::LostResponseConverges => "lost_response_converges",
            CheckName::SingleClaimWinner => "single_claim_winner",
            CheckName::ForgedNoDownstream => "forged_no_downstream",
            CheckName::OverloadFastBounded => "overload_fast_bounded",
            CheckName::OneReviewPerBusinessKey => "one_review_per_business_key",
            CheckName::LegalTransitions => "legal_transitions",
            CheckName::UnknownResolved => "unknown_resolved",
            CheckName::DownstreamWithinCapacity => "downstream_within_capacity",
            CheckName::NoEffectAfterDeadline => "no_effect_after_deadline",
            CheckName::CallerTokenNotForwarded => "caller_token_not_forwarded",
            CheckName::BusinessErrorsAreResults => "business_errors_are_results",
            CheckName::OutsideSchemaRefused => "outside_schema_refused",
        }
    }
}

/// A figure's value; ids are rendered by the view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    Count(u64),
    Ms(u64),
    Row(RowId),
    Order(OrderId),
    Key(RequestKey),
    Replica(ReplicaId),
}

/// Declares the figures once: each variant with the name it has in the
/// exported JSON and the text mirror.
macro_rules! figures {
    ($($fig:ident => $name:literal,)*) => {
        /// A figure a check reports. A check reports its figures in its own
        /// order; several checks may report a figure of the same name (a
        /// check's "rows" are its own).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Fig {
            $($fig,)*
        }

        impl Fig {
            pub const ALL: &[Fig] = &[$(Fig::$fig,)*];

            /// Its name in the JSON and the text mirror.
            pub fn name(self) -> &'static str {
                match self {
                    $(Fig::$fig => $name,)*
                }
            }
        }
    };
}

figures! {
    ReusedKeys => "reused_keys",
    MaxRows => "max_rows",
    MaxReviewIds => "max_review_ids",
    WorstKey => "worst_key",
    BusinessKeys => "business_keys",
    MaxReviews => "max_reviews",
    WorstOrder => "worst_order",
    LostResponses => "lost_responses",
    Converged => "converged",
    Failed => "failed",
    Unresolved => "unresolved",
    LaterCreates => "later_creates",
    ExtraReviews => "extra_reviews",
    Claims => "claims",
    Won => "won",
    Lost => "lost",
    Contested => "contested",
    Resends => "resends",
    MaxResendsPerVersion => "max_resends_per_version",
    WorstRow => "worst_row",
    ForgedCalls => "forged_calls",
    Refused => "refused",
    NotRefused => "not_refused",
    Rows => "rows",
    DownstreamCalls => "downstream_calls",
    Overloaded => "overloaded",
    SlowestOverloadedMs => "slowest_overloaded_ms",
    OverloadedWithinMs => "overloaded_within_ms",
    MaxInFlight => "max_in_flight",
    ConcurrencyCap => "concurrency_cap",
    MaxQueue => "max_queue",
    QueueCapacity => "queue_capacity",
    WaitedForFleet => "waited_for_fleet",
    LongestQueueWaitMs => "longest_queue_wait_ms",
    BudgetNeededMs => "budget_needed_ms",
    WaitedPastBudget => "waited_past_budget",
    Reviews => "reviews",
    Transitions => "transitions",
    Illegal => "illegal",
    FirstIllegalRow => "first_illegal_row",
    Settled => "settled",
    InProgress => "in_progress",
    Unknown => "unknown",
    Stalled => "stalled",
    LongestUnresolvedMs => "longest_unresolved_ms",
    Calls => "calls",
    PeakConcurrency => "peak_concurrency",
    SafeConcurrency => "safe_concurrency",
    CallsGivenUp => "calls_given_up",
    InsertsAfter => "inserts_after",
    CreatesAfter => "creates_after",
    Creates => "creates",
    CallerTokens => "caller_tokens",
    BusinessErrors => "business_errors",
    AsToolResults => "as_tool_results",
    AsJsonrpcErrors => "as_jsonrpc_errors",
    CallsOutsideSchema => "calls_outside_schema",
    ReachedHandler => "reached_handler",
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Figure {
    pub name: Fig,
    pub value: Value,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Check {
    pub name: CheckName,
    pub holds: Option<bool>,
    pub figures: Vec<Figure>,
}

impl Check {
    /// The figure `name`, if the check reports it.
    pub fn figure(&self, name: Fig) -> Option<Value> {
        self.figures.iter().find(|f| f.name == name).map(|f| f.value)
    }
}

fn count(name: Fig, n: impl TryInto<u64>) -> Figure {
    Figure { name, value: Value::Count(n.try_into().unwrap_or(u64::MAX)) }
}

fn ms(name: Fig, t: Millis) -> Figure {
    Figure { name, value: Value::Ms(t.ms()) }
}

#[derive(Clone, Copy, Debug)]
struct CallFacts {
    tool: Tool,
    request_key: Option<RequestKey>,
    order: Option<OrderId>,
    subject: Option<UserId>,
    shape: CallShape,
    made_at: Millis,
    heard: Option<Heard>,
    received_at: Option<Millis>,
    /// Rows it inserted and creates it sent.
    wrote: u64,
    /// Rows it inserted.
    inserts: u64,
    /// When it joined a replica's queue, and when it left it (started, or
    /// refused for its deadline).
    queued_at: Option<Millis>,
    left_queue_at: Option<Millis>,
    /// Whether it left its queue for a slot.
    started: bool,
    /// When the agent gave up on it: its deadline passed unanswered.
    gave_up_at: Option<Millis>,
    /// Rows it inserted and creates it sent after that.
    inserts_after: u64,
    creates_after: u64,
}

impl CallFacts {
    /// A call the server must refuse: another user's order, or a token
    /// issued for another audience.
    fn is_forged(&self) -> bool {
        self.shape == CallShape::WrongAudience
            || matches!((self.subject, self.order), (Some(s), Some(o)) if owner_of(o) != s)
    }
}

#[derive(Clone, Copy, Debug)]
struct RowFacts {
    request_key: RequestKey,
    order: OrderId,
    generation: u32,
    status: Status,
    /// The version the row's moves give it: 1 at birth, one more per change
    /// of status, or what a read-then-write claim wrote.
    version: u32,
    next_retry_at: Option<Millis>,
    /// Whether the row ever needed resolving (it was UNKNOWN or RETRYABLE).
    unsettled: bool,
    /// When it first became UNKNOWN.
    first_unknown: Option<Millis>,
    /// Creates sent for it by the workers.
    resends: u32,
    /// Creates sent for it whose caller still waits for the answer.
    awaited: u32,
}

#[derive(Clone, Copy, Debug)]
struct DsFacts {
    kind: DsKind,
    row: RowId,
    request_key: RequestKey,
    performed: bool,
    timed_out_at: Option<Millis>,
    /// When its caller lost the answer of a performed create.
    lost_at: Option<Millis>,
    sent_at: Millis,
    /// When the Risk API was done with it; `None` while it works on it.
    done_at: Option<Millis>,
    /// Whether the Risk API worked on it (a lost request, a hung query and
    /// a 503 at once take none of its capacity).
    held: bool,
}

impl DsFacts {
    fn new(kind: DsKind, row: RowId, request_key: RequestKey, sent_at: Millis) -> DsFacts {
        DsFacts {
            kind,
            row,
            request_key,
            performed: false,
            timed_out_at: None,
            lost_at: None,
            sent_at,
            done_at: None,
            held: true,
        }
    }
}

#[derive(Clone, Copy, Debug, Default)]
struct GateFacts {
    max_in_flight: u32,
    max_queued: u32,
    overloaded: u32,
    /// Calls that queued with a free slot, the fleet at its quota.
    waited_for_fleet: u32,
    exceeded: bool,
}

/// Everything the checks need, folded from the records.
#[derive(Default)]
struct Tally {
    calls: Vec<CallFacts>,
    rows: BTreeMap<RowId, RowFacts>,
    downstream: Vec<DsFacts>,
    creates_by_key: BTreeMap<RequestKey, Vec<Millis>>,
    /// When each review of each request_key was created.
    reviews_by_key: BTreeMap<RequestKey, Vec<Millis>>,
    creates_by_order: BTreeMap<OrderId, u64>,
    reviews_by_order: BTreeMap<OrderId, u64>,
    reviews: u64,
    /// (row, version read) -> (attempts, winners).
    claims: BTreeMap<(RowId, u32), (u64, u64)>,
    /// (row, version when sent) -> the workers' resends.
    resends_at_version: BTreeMap<(RowId, u32), u64>,
    resends: u64,
    /// Risk API calls that carried the caller's token.
    caller_tokens: u64,
    /// One per replica.
    gates: Vec<GateFacts>,
    moves: u64,
    illegal: u64,
    first_illegal: Option<RowId>,
    workers_alive: [bool; 2],
}

impl Tally {
    fn of(settings: &Settings, records: &[Record]) -> Tally {
        let mut t = Tally { workers_alive: [true; 2], ..Tally::default() };
        let cap = settings.replica.gates.cap;
        for r in records {
            t.fold(r, cap);
        }
        t
    }

    /// Counts a row's move from `from` (as the records left it) and judges
    /// it against the table.
    fn moved(&mut self, row: RowId, from: Option<Status>, to: Status, cause: Cause) {
        self.moves += 1;
        if !is_legal(from, to, cause) {
            self.illegal += 1;
            self.first_illegal.get_or_insert(row);
        }
    }

    fn call(&mut self, id: CallId) -> Option<&mut CallFacts> {
        self.calls.get_mut((id.0 as usize).checked_sub(1)?)
    }

    fn ds(&mut self, id: DownstreamId) -> Option<&mut DsFacts> {
        self.downstream.get_mut((id.0 as usize).checked_sub(1)?)
    }

    fn gate(&mut self, replica: ReplicaId, in_flight: u32, queued: u32, cap: u32) -> &mut GateFacts {
        if self.gates.len() <= replica.index() {
            self.gates.resize(replica.index() + 1, GateFacts::default());
        }
        let g = &mut self.gates[replica.index()];
        g.max_in_flight = g.max_in_flight.max(in_flight);
        g.max_queued = g.max_queued.max(queued);
        g.exceeded |= in_flight > cap;
        g
    }

    /// Folds one record into the tally, in the method of the actor that
    /// emits it.
    fn fold(&mut self, r: &Record, cap: u32) {
        match r.what {
            What::ToolCall { .. } | What::ResultReceived { .. } | What::DeadlinePassed { .. } => self.fold_agent(r),
            What::CallAdmitted { .. }
            | What::CallStarted { .. }
            | What::CallQueued { .. }
            | What::OutOfBudget { .. }
            | What::Overloaded { .. }
            | What::ToolResult { .. }
            | What::RpcError { .. } => self.fold_replica(r, cap),
            What::RowInserted { .. } | What::Transition { .. } | What::Claim { .. } => self.fold_database(r),
            What::CreateSent { .. }
            | What::DownstreamTimeout { .. }
            | What::LateReply { .. }
            | What::DownstreamReply { .. }
            | What::ReplyUnheard { .. } => self.fold_caller(r),
            What::ProbeSent { .. } | What::WorkerCrashed { .. } => self.fold_worker(r),
            What::ReviewCreated { .. }
            | What::ReviewReplayed { .. }
            | What::ResponseLost { .. }
            | What::RequestLost { .. }
            | What::FindHangs { .. } => self.fold_risk_api(r),
            _ => {}
        }
    }

    /// The agent's calls, and when it heard each answer.
    fn fold_agent(&mut self, r: &Record) {
        match r.what {
            What::ToolCall { tool, request_key, order, subject, shape, .. } => self.calls.push(CallFacts {
                tool,
                request_key,
                order,
                subject,
                shape,
                made_at: r.t,
                heard: None,
                received_at: None,
                wrote: 0,
                inserts: 0,
                queued_at: None,
                left_queue_at: None,
                started: false,
                gave_up_at: None,
                inserts_after: 0,
                creates_after: 0,
            }),
            What::ResultReceived { call, .. } => {
                if let Some(c) = self.call(call) {
                    c.received_at = Some(r.t);
                }
            }
            What::DeadlinePassed { call, .. } => {
                if let Some(c) = self.call(call)
                    && c.received_at.is_none()
                {
                    c.gave_up_at = Some(r.t);
                }
            }
            _ => {}
        }
    }

    /// A replica's gates, and the results it returned (with how long an
    /// OVERLOADED one took).
    fn fold_replica(&mut self, r: &Record, cap: u32) {
        let replica = match r.actor {
            Actor::Replica(replica) => replica,
            _ => ReplicaId::A,
        };
        match r.what {
            What::CallAdmitted { in_flight, queued, .. } => {
                self.gate(replica, in_flight, queued, cap);
            }
            What::CallStarted { call, in_flight, queued, .. } => {
                self.gate(replica, in_flight, queued, cap);
                if let Some(c) = self.call(call) {
                    c.left_queue_at.get_or_insert(r.t);
                    c.started = true;
                }
            }
            What::OutOfBudget { call, .. } => {
                if let Some(c) = self.call(call)
                    && c.queued_at.is_some()
                {
                    c.left_queue_at.get_or_insert(r.t);
                }
            }
            What::CallQueued { call, in_flight, queued, waits } => {
                let g = self.gate(replica, in_flight, queued, cap);
                g.exceeded = true;
                g.waited_for_fleet += u32::from(matches!(waits, Wait::Fleet { .. }));
                if let Some(c) = self.call(call) {
                    c.queued_at = Some(r.t);
                }
            }
            What::Overloaded { in_flight, queued, .. } => {
                let g = self.gate(replica, in_flight, queued, cap);
                g.exceeded = true;
                g.overloaded += 1;
            }
            What::ToolResult { call, reply, .. } => {
                if let Some(c) = self.call(call) {
                    c.heard = Some(Heard::Result(reply));
                }
            }
            What::RpcError { call, error } => {
                if let Some(c) = self.call(call) {
                    c.heard = Some(Heard::Rpc(error));
                }
            }
            _ => {}
        }
    }

    /// The rows the database holds and moves, and the claims on them.
    fn fold_database(&mut self, r: &Record) {
        match r.what {
            What::RowInserted { insert, by } => {
                self.moved(insert.row, None, Status::Pending, Cause::Inserted);
                if let Issuer::Replica(_, call) = by
                    && let Some(c) = self.call(call)
                {
                    c.wrote += 1;
                    c.inserts += 1;
                    c.inserts_after += u64::from(c.gave_up_at.is_some());
                }
                self.rows.insert(
                    insert.row,
                    RowFacts {
                        request_key: insert.request_key,
                        order: insert.order,
                        generation: insert.generation,
                        status: Status::Pending,
                        version: 1,
                        next_retry_at: None,
                        unsettled: false,
                        first_unknown: None,
                        resends: 0,
                        awaited: 0,
                    },
                );
            }
            What::Transition { update, cause, .. } => {
                let from = self.rows.get(&update.row).map(|row| row.status);
                self.moved(update.row, from, update.to, cause);
                if let Some(row) = self.rows.get_mut(&update.row) {
                    if Some(update.to) != from {
                        row.version += 1;
                    }
                    row.status = update.to;
                    row.next_retry_at = update.next_retry_at;
                    row.unsettled |= matches!(update.to, Status::Unknown | Status::Retryable);
                    if update.to == Status::Unknown {
                        row.first_unknown.get_or_insert(r.t);
                    }
                }
            }
            What::Claim { claim, version, won, .. } => {
                let entry = self.claims.entry((claim.row(), version)).or_default();
                entry.0 += 1;
                if won {
                    entry.1 += 1;
                    let from = self.rows.get(&claim.row()).map(|row| row.status);
                    self.moved(claim.row(), from, Status::Pending, Cause::ClaimWon);
                    let (lease_until, written) = match claim {
                        Claim::Cas { lease_until, .. } => (lease_until, None),
                        Claim::Blind { lease_until, version, .. } => (lease_until, Some(version)),
                    };
                    if let Some(row) = self.rows.get_mut(&claim.row()) {
                        row.version = written.unwrap_or(row.version + 1);
                        row.status = Status::Pending;
                        row.next_retry_at = Some(lease_until);
                    }
                }
            }
            _ => {}
        }
    }

    /// A Risk API call as its caller sees it: sent, timed out, or a performed
    /// create whose answer came too late or as a reset.
    fn fold_caller(&mut self, r: &Record) {
        match r.what {
            What::CreateSent { row, request_key, order, by, credential, .. } => {
                self.caller_tokens += u64::from(credential == Credential::Caller);
                if let Issuer::Replica(_, call) = by
                    && let Some(c) = self.call(call)
                {
                    c.wrote += 1;
                    c.creates_after += u64::from(c.gave_up_at.is_some());
                }
                self.downstream.push(DsFacts::new(DsKind::Create, row, request_key, r.t));
                self.creates_by_key.entry(request_key).or_default().push(r.t);
                *self.creates_by_order.entry(order).or_default() += 1;
                let by_worker = matches!(r.actor, Actor::Worker(_));
                self.resends += u64::from(by_worker);
                if let Some(facts) = self.rows.get_mut(&row) {
                    facts.resends += u32::from(by_worker);
                    facts.awaited += 1;
                    if by_worker {
                        *self.resends_at_version.entry((row, facts.version)).or_default() += 1;
                    }
                }
            }
            What::DownstreamTimeout { ds, kind, row, .. } => {
                self.answered(kind, row);
                if let Some(d) = self.ds(ds) {
                    d.timed_out_at = Some(r.t);
                }
            }
            What::LateReply { ds, answer, .. } => {
                let t = r.t;
                if let Some(d) = self.ds(ds) {
                    d.done_at.get_or_insert(t);
                    if d.kind == DsKind::Create
                        && matches!(answer, Answer::Created(_) | Answer::Existing(_) | Answer::Reset)
                    {
                        d.lost_at = Some(d.timed_out_at.unwrap_or(t));
                    }
                }
            }
            What::DownstreamReply { ds, kind, row, answer, .. } => {
                self.answered(kind, row);
                let t = r.t;
                if let Some(d) = self.ds(ds) {
                    d.done_at.get_or_insert(t);
                    d.held &= answer != Answer::Unavailable;
                    if answer == Answer::Reset && d.performed {
                        d.lost_at = Some(t);
                    }
                }
            }
            What::ReplyUnheard { ds, kind, row, .. } => {
                self.answered(kind, row);
                if let Some(d) = self.ds(ds) {
                    d.done_at.get_or_insert(r.t);
                }
            }
            _ => {}
        }
    }

    /// A create's caller stops waiting for its answer.
    fn answered(&mut self, kind: DsKind, row: RowId) {
        if kind == DsKind::Create
            && let Some(facts) = self.rows.get_mut(&row)
        {
            facts.awaited = facts.awaited.saturating_sub(1);
        }
    }

    /// A worker's probes, and its crash.
    fn fold_worker(&mut self, r: &Record) {
        match r.what {
            What::ProbeSent { row, request_key, .. } => {
                self.downstream.push(DsFacts::new(DsKind::Find, row, request_key, r.t));
            }
            What::WorkerCrashed { worker } => self.workers_alive[worker.index()] = false,
            _ => {}
        }
    }

    /// What the Risk API performed, a performed create's lost answer, and
    /// the calls it never worked on.
    fn fold_risk_api(&mut self, r: &Record) {
        let t = r.t;
        match r.what {
            What::ReviewCreated { ds, order, request_key, .. } => {
                self.reviews_by_key.entry(request_key).or_default().push(t);
                self.reviews += 1;
                *self.reviews_by_order.entry(order).or_default() += 1;
                if let Some(d) = self.ds(ds) {
                    d.performed = true;
                    d.done_at.get_or_insert(t);
                }
            }
            What::ReviewReplayed { ds, .. } => {
                if let Some(d) = self.ds(ds) {
                    d.performed = true;
                    d.done_at.get_or_insert(t);
                }
            }
            What::ResponseLost { ds, .. } => {
                if let Some(d) = self.ds(ds) {
                    d.done_at.get_or_insert(t);
                    if d.performed {
                        d.lost_at = Some(t);
                    }
                }
            }
            What::RequestLost { ds, .. } | What::FindHangs { ds, .. } => {
                if let Some(d) = self.ds(ds) {
                    d.held = false;
                }
            }
            _ => {}
        }
    }

    fn request_calls(&self) -> impl Iterator<Item = &CallFacts> {
        self.calls.iter().filter(|c| c.tool == Tool::RequestRiskReview)
    }

    fn rows_where(&self, keep: impl Fn(&RowFacts) -> bool) -> u64 {
        self.rows.values().filter(|r| keep(r)).count() as u64
    }
}

/// The checks as of `t`, from the records up to `t`.
pub fn checks(settings: &Settings, records: &[Record], t: Millis) -> Vec<Check> {
    let tally = Tally::of(settings, records);
    vec![
        same_request_key_one_row(&tally),
        same_business_key_one_review(&tally),
        lost_response_converges(&tally),
        single_claim_winner(&tally),
        forged_no_downstream(settings, &tally, t),
        overload_fast_bounded(settings, &tally, t),
        one_review_per_business_key(&tally),
        legal_transitions(&tally),
        unknown_resolved(settings, &tally, t),
        downstream_within_capacity(settings, &tally),
        no_effect_after_deadline(&tally),
        caller_token_not_forwarded(&tally),
        business_errors_are_results(&tally),
        outside_schema_refused(&tally),
    ]
}

/// Every request_key used by two or more calls has at most one row, and
/// every result for it names the same review_id.
fn same_request_key_one_row(tally: &Tally) -> Check {
    let mut uses: BTreeMap<RequestKey, (u64, BTreeSet<RowId>)> = BTreeMap::new();
    for c in tally.request_calls() {
        let Some(key) = c.request_key else { continue };
        let entry = uses.entry(key).or_default();
        entry.0 += 1;
        if let Some(Heard::Result(reply)) = c.heard
            && let Some(row) = reply.row()
        {
            entry.1.insert(row);
        }
    }
    let (mut reused, mut max_rows, mut max_ids, mut worst) = (0u64, 0u64, 0u64, None);
    for (key, (n, ids)) in &uses {
        if *n < 2 {
            continue;
        }
        reused += 1;
        let rows = tally.rows_where(|r| r.request_key == *key);
        if (rows > 1 || ids.len() > 1) && worst.is_none() {
            worst = Some(*key);
        }
        max_rows = max_rows.max(rows);
        max_ids = max_ids.max(ids.len() as u64);
    }
    let mut figures =
        vec![count(Fig::ReusedKeys, reused), count(Fig::MaxRows, max_rows), count(Fig::MaxReviewIds, max_ids)];
    figures.extend(worst.map(|k| Figure { name: Fig::WorstKey, value: Value::Key(k) }));
    Check {
        name: CheckName::SameRequestKeyOneRow,
        holds: (reused > 0).then_some(max_rows <= 1 && max_ids <= 1),
        figures,
    }
}

/// Every order requested under two or more request_keys has at most one
/// review at the Risk API and one row per business key (order and
/// generation).
fn same_business_key_one_review(tally: &Tally) -> Check {
    let mut keys: BTreeMap<OrderId, BTreeSet<RequestKey>> = BTreeMap::new();
    for c in tally.request_calls() {
        if let (Some(order), Some(key)) = (c.order, c.request_key) {
            keys.entry(order).or_default().insert(key);
        }
    }
    let (mut orders, mut max_reviews, mut max_rows, mut worst) = (0u64, 0u64, 0u64, None);
    for (order, set) in &keys {
        if set.len() < 2 {
            continue;
        }
        orders += 1;
        let reviews = tally.reviews_by_order.get(order).copied().unwrap_or(0);
        // One row per business key: a generation closed by a FAILED review
        // lets the order have the next one.
        let mut per_generation: BTreeMap<u32, u64> = BTreeMap::new();
        for row in tally.rows.values().filter(|r| r.order == *order) {
            *per_generation.entry(row.generation).or_default() += 1;
        }
        let rows = per_generation.values().copied().max().unwrap_or(0);
        if (reviews > 1 || rows > 1) && worst.is_none() {
            worst = Some(*order);
        }
        max_reviews = max_reviews.max(reviews);
        max_rows = max_rows.max(rows);
    }
    let mut figures =
        vec![count(Fig::BusinessKeys, orders), count(Fig::MaxReviews, max_reviews), count(Fig::MaxRows, max_rows)];
    figures.extend(worst.map(|o| Figure { name: Fig::WorstOrder, value: Value::Order(o) }));
    Check {
        name: CheckName::SameBusinessKeyOneReview,
        holds: (orders > 0).then_some(max_reviews <= 1 && max_rows <= 1),
        figures,
    }
}

/// Every row whose create was performed but whose answer its caller lost
/// ends SUCCEEDED, and no create is sent for its request_key after the loss
/// (a probe finds the review; nothing resends it, even to an idempotent
/// create that would return the first review).
fn lost_response_converges(tally: &Tally) -> Check {
    let mut lost: BTreeMap<RowId, (RequestKey, Millis)> = BTreeMap::new();
    for d in &tally.downstream {
        if let Some(at) = d.lost_at {
            lost.entry(d.row).or_insert((d.request_key, at));
        }
    }
    let (mut converged, mut failed, mut open, mut later, mut extra) = (0u64, 0u64, 0u64, 0u64, 0u64);
    let after = |times: Option<&Vec<Millis>>, at: Millis| times.map_or(0, |ts| ts.iter().filter(|&&t| t > at).count());
    for (row, (key, at)) in &lost {
        match tally.rows.get(row).map(|r| r.status) {
            Some(Status::Succeeded) => converged += 1,
            Some(Status::Failed) => failed += 1,
            _ => open += 1,
        }
        later += after(tally.creates_by_key.get(key), *at) as u64;
        extra += tally.reviews_by_key.get(key).map_or(0, |ts| ts.len().saturating_sub(1)) as u64;
    }
    let n = lost.len() as u64;
    Check {
        name: CheckName::LostResponseConverges,
        holds: (n > 0).then_some(converged == n && later == 0 && extra == 0),
        figures: vec![
            count(Fig::LostResponses, n),
            count(Fig::Converged, converged),
            count(Fig::Failed, failed),
            count(Fig::Unresolved, open),
            count(Fig::LaterCreates, later),
            count(Fig::ExtraReviews, extra),
        ],
    }
}

/// Among the workers' resends, at most one per (row, version): a row's
/// version changes with its status, so two resends at one version are two
/// workers that each believed their claim had won. Judged once a worker
/// claimed a row; with no claim there is nothing to judge.
fn single_claim_winner(tally: &Tally) -> Check {
    let attempts: u64 = tally.claims.values().map(|c| c.0).sum();
    let won: u64 = tally.claims.values().map(|c| c.1).sum();
    let contested = tally.claims.values().filter(|c| c.0 > 1).count() as u64;
    let max_resends = tally.resends_at_version.values().copied().max().unwrap_or(0);
    let mut figures = vec![
        count(Fig::Claims, attempts),
        count(Fig::Won, won),
        count(Fig::Lost, attempts - won),
        count(Fig::Contested, contested),
        count(Fig::Resends, tally.resends),
        count(Fig::MaxResendsPerVersion, max_resends),
    ];
    let worst = tally.resends_at_version.iter().find(|(_, n)| **n > 1).map(|((row, _), _)| *row);
    figures.extend(worst.map(|row| Figure { name: Fig::WorstRow, value: Value::Row(row) }));
    Check { name: CheckName::SingleClaimWinner, holds: (attempts > 0).then_some(max_resends <= 1), figures }
}

/// A forged call (for an order its subject does not own, or with a token
/// for another audience) is refused within the client deadline, FORBIDDEN
/// or with the protocol's audience error, unless something turned it away
/// earlier; it writes no row and sends no create; and a forged order has no
/// row at all. (Tokens are `caller_token_not_forwarded`'s.)
fn forged_no_downstream(settings: &Settings, tally: &Tally, t: Millis) -> Check {
    let forged: Vec<&CallFacts> = tally.request_calls().filter(|c| c.is_forged()).collect();
    let orders: BTreeSet<OrderId> = forged
        .iter()
        .filter(|c| c.shape != CallShape::WrongAudience)
        .filter_map(|c| c.order)
        .filter(|&o| forged.iter().any(|c| c.order == Some(o) && c.subject != Some(owner_of(o))))
        .collect();
    let refused = |c: &CallFacts| {
        c.received_at.is_some_and(|at| at.since(c.made_at) <= settings.agent.deadline)
            && match c.shape {
                CallShape::WrongAudience => c.heard == Some(Heard::Rpc(RpcError::WrongAudience)),
                // FORBIDDEN in either form: whether it is a Tool Result is
                // another check's business.
                _ => error_code(c.heard) == Some(ErrorCode::Forbidden),
            }
    };
    let count_refused = forged.iter().filter(|c| refused(c)).count() as u64;
    // A call still travelling within its deadline has not been judged yet,
    // and one turned away before authorization (another protocol error, an
    // invalid argument, OVERLOADED at the gates, TEMPORARY_UNAVAILABLE while
    // still queued) never reached it.
    let waiting = |c: &CallFacts| c.received_at.is_none() && t.since(c.made_at) <= settings.agent.deadline;
    let turned_away = |c: &CallFacts| {
        c.received_at.is_some()
            && (matches!(c.heard, Some(Heard::Rpc(RpcError::InvalidRequest | RpcError::MethodNotFound)))
                || matches!(error_code(c.heard), Some(ErrorCode::Overloaded | ErrorCode::InvalidArgument))
                || refused_from_the_queue(c))
    };
    let wrong = forged.iter().filter(|c| !refused(c) && !waiting(c) && !turned_away(c)).count() as u64;
    let wrote: u64 = forged.iter().map(|c| c.wrote).sum();
    // The rows of forged orders, and those a forged call for an order of its
    // own (a token for another audience) inserted.
    let audience = forged.iter().filter(|c| c.shape == CallShape::WrongAudience);
    let rows = tally.rows_where(|r| orders.contains(&r.order)) + audience.clone().map(|c| c.inserts).sum::<u64>();
    let downstream: u64 = orders.iter().map(|o| tally.creates_by_order.get(o).copied().unwrap_or(0)).sum::<u64>()
        + audience.map(|c| c.wrote - c.inserts).sum::<u64>();
    let holds = rows == 0 && downstream == 0 && wrong == 0 && wrote == 0;
    Check {
        name: CheckName::ForgedNoDownstream,
        holds: (!forged.is_empty()).then_some(holds),
        figures: vec![
            count(Fig::ForgedCalls, forged.len()),
            count(Fig::Refused, count_refused),
            count(Fig::NotRefused, wrong),
            count(Fig::Rows, rows),
            count(Fig::DownstreamCalls, downstream),
        ],
    }
}

/// When demand reaches a replica's cap (a call had to queue, was refused,
/// or, without gates, took a slot past the cap): every OVERLOADED reaches
/// the agent within 10 ms plus the two transits of its call; no replica
/// holds more calls in its slots or its queue than its configured sizes,
/// whether or not its gates enforce them; and no call waits in a queue past
/// the moment what is left of its deadline stops covering its work (auth,
/// the database's budget and the Risk API's timeout). Each call is judged on
/// its own wait, so a verdict never turns on unrelated calls.
fn overload_fast_bounded(settings: &Settings, tally: &Tally, t: Millis) -> Check {
    let gates = settings.replica.gates;
    let fast = OVERLOADED_WITHIN + settings.agent.transit + settings.agent.transit;
    let needed = budget_needed(settings.replica.auth_policy, settings.replica.downstream_timeout);
    let exceeded = tally.gates.iter().any(|g| g.exceeded);
    let max_in_flight = tally.gates.iter().map(|g| g.max_in_flight).max().unwrap_or(0);
    let max_queued = tally.gates.iter().map(|g| g.max_queued).max().unwrap_or(0);
    let overloaded: u32 = tally.gates.iter().map(|g| g.overloaded).sum();
    let waited_for_fleet: u32 = tally.gates.iter().map(|g| g.waited_for_fleet).sum();
    let mut slowest_overloaded = Millis::ZERO;
    let (mut longest_wait, mut waited_too_long) = (Millis::ZERO, 0u64);
    for c in &tally.calls {
        if error_code(c.heard) == Some(ErrorCode::Overloaded) {
            slowest_overloaded = slowest_overloaded.max(c.received_at.unwrap_or(t).since(c.made_at));
        }
        if let Some(queued_at) = c.queued_at {
            let left = c.left_queue_at.unwrap_or(t);
            longest_wait = longest_wait.max(left.since(queued_at));
            // Started when its budget no longer covered the work, or still
            // waiting after the instant it stopped covering it.
            let lapses = budget_lapses_at(needed, c.made_at + settings.agent.deadline);
            waited_too_long += u64::from(if c.started { left >= lapses } else { left > lapses });
        }
    }
    let within_sizes = max_queued <= gates.queue && max_in_flight <= gates.cap;
    let holds = slowest_overloaded <= fast && within_sizes && waited_too_long == 0;
    Check {
        name: CheckName::OverloadFastBounded,
        holds: exceeded.then_some(holds),
        figures: vec![
            count(Fig::Overloaded, overloaded),
            ms(Fig::SlowestOverloadedMs, slowest_overloaded),
            ms(Fig::OverloadedWithinMs, fast),
            count(Fig::MaxInFlight, max_in_flight),
            count(Fig::ConcurrencyCap, gates.cap),
            count(Fig::MaxQueue, max_queued),
            count(Fig::QueueCapacity, gates.queue),
            count(Fig::WaitedForFleet, waited_for_fleet),
            ms(Fig::LongestQueueWaitMs, longest_wait),
            ms(Fig::BudgetNeededMs, needed),
            count(Fig::WaitedPastBudget, waited_too_long),
        ],
    }
}

/// At most one review per business key in the Risk API's ledger.
fn one_review_per_business_key(tally: &Tally) -> Check {
    let (worst, max) = tally
        .reviews_by_order
        .iter()
        .map(|(o, n)| (*o, *n))
        .max_by_key(|&(o, n)| (n, std::cmp::Reverse(o)))
        .unwrap_or((OrderId(0), 0));
    let mut figures = vec![
        count(Fig::Reviews, tally.reviews),
        count(Fig::BusinessKeys, tally.reviews_by_order.len()),
        count(Fig::MaxReviews, max),
    ];
    if max > 1 {
        figures.push(Figure { name: Fig::WorstOrder, value: Value::Order(worst) });
    }
    Check { name: CheckName::OneReviewPerBusinessKey, holds: (tally.reviews > 0).then_some(max <= 1), figures }
}

/// Every move of every row is in the table of legal transitions.
fn legal_transitions(tally: &Tally) -> Check {
    let mut figures = vec![count(Fig::Transitions, tally.moves), count(Fig::Illegal, tally.illegal)];
    figures.extend(tally.first_illegal.map(|row| Figure { name: Fig::FirstIllegalRow, value: Value::Row(row) }));
    Check { name: CheckName::LegalTransitions, holds: (tally.moves > 0).then_some(tally.illegal == 0), figures }
}

/// Every row is SUCCEEDED or FAILED, or still within its time: a row never
/// UNKNOWN while a create for it is awaited; a row that became UNKNOWN
/// while no more than three scan intervals plus its backoff have passed
/// since it first did. A row cycling RETRYABLE -> PENDING -> UNKNOWN for
/// longer is not being resolved.
fn unknown_resolved(settings: &Settings, tally: &Tally, t: Millis) -> Check {
    let scan = settings.worker.scan_interval;
    let (mut done, mut working, mut stalled, mut unknown) = (0u64, 0u64, 0u64, 0u64);
    let mut longest = Millis::ZERO;
    for row in tally.rows.values() {
        unknown += u64::from(row.status == Status::Unknown);
        if row.status.is_final() {
            done += 1;
            continue;
        }
        let in_time = match row.first_unknown {
            Some(since) => {
                let open = t.since(since);
                longest = longest.max(open);
                open <= Millis(scan.ms() * 3) + backoff(settings.worker.backoff, row.resends)
            }
            None => row.awaited > 0 || row.status == Status::Pending && row.next_retry_at.is_none(),
        };
        if in_time {
            working += 1;
        } else {
            stalled += 1;
        }
    }
    let n = tally.rows.len() as u64;
    // Only a row that was ever UNKNOWN or RETRYABLE had anything to resolve.
    let judged = tally.rows.values().any(|row| row.unsettled);
    Check {
        name: CheckName::UnknownResolved,
        holds: judged.then_some(stalled == 0),
        figures: vec![
            count(Fig::Rows, n),
            count(Fig::Settled, done),
            count(Fig::InProgress, working),
            count(Fig::Unknown, unknown),
            count(Fig::Stalled, stalled),
            ms(Fig::LongestUnresolvedMs, longest),
        ],
    }
}

/// The Risk API never works on more calls at once than its safe
/// concurrency: each call counts from when it was sent until the Risk API
/// was done with it (an answer at an instant frees its place before a call
/// sent at that instant takes one).
fn downstream_within_capacity(settings: &Settings, tally: &Tally) -> Check {
    let safe = settings.risk_api.safe_concurrency;
    let peak = peak_concurrency(tally);
    Check {
        name: CheckName::DownstreamWithinCapacity,
        holds: tally.downstream.iter().any(|d| d.held).then_some(peak <= u64::from(safe)),
        figures: vec![
            count(Fig::Calls, tally.downstream.iter().filter(|d| d.held).count()),
            count(Fig::PeakConcurrency, peak),
            count(Fig::SafeConcurrency, safe),
        ],
    }
}

/// No insert and no create for a call begins after the agent gave up on it
/// (its deadline passed unanswered): whatever the replica does then is an
/// effect nobody waits for, which a retry of the same intent can double.
/// The workers' reconciliation of a row is not the call's doing and is left
/// out. Judged once the agent gave up on some call.
fn no_effect_after_deadline(tally: &Tally) -> Check {
    let gave_up = tally.calls.iter().filter(|c| c.gave_up_at.is_some()).count();
    let inserts: u64 = tally.calls.iter().map(|c| c.inserts_after).sum();
    let creates: u64 = tally.calls.iter().map(|c| c.creates_after).sum();
    Check {
        name: CheckName::NoEffectAfterDeadline,
        holds: (gave_up > 0).then_some(inserts == 0 && creates == 0),
        figures: vec![
            count(Fig::CallsGivenUp, gave_up),
            count(Fig::InsertsAfter, inserts),
            count(Fig::CreatesAfter, creates),
        ],
    }
}

/// No Risk API call carries the caller's token: it stays at the protocol
/// boundary, and the server calls downstream with its own credential.
/// Judged once any create was sent.
fn caller_token_not_forwarded(tally: &Tally) -> Check {
    let creates = tally.downstream.iter().filter(|d| d.kind == DsKind::Create).count();
    Check {
        name: CheckName::CallerTokenNotForwarded,
        holds: (creates > 0).then_some(tally.caller_tokens == 0),
        figures: vec![count(Fig::Creates, creates), count(Fig::CallerTokens, tally.caller_tokens)],
    }
}

/// The error code an answer carries, in either form: a Tool Result with
/// `isError`, or a business error thrown as a JSON-RPC error.
fn error_code(heard: Option<Heard>) -> Option<ErrorCode> {
    match heard? {
        Heard::Result(Reply::Error { code, .. }) | Heard::Rpc(RpcError::Thrown(code)) => Some(code),
        _ => None,
    }
}

/// Every error a well-formed call to a known tool got back is a Tool Result
/// with `isError`, which the agent reads and acts on ("fix your arguments",
/// "retry later"), never a JSON-RPC error, which says only that the request
/// failed. The protocol's own refusals (a malformed request, an unknown
/// tool) are not the tool's business and are not judged, nor is the refusal
/// of a token issued for another server, which comes before any tool runs.
/// Judged once such a call got an error.
fn business_errors_are_results(tally: &Tally) -> Check {
    let (mut results, mut thrown) = (0u64, 0u64);
    for c in tally.calls.iter().filter(|c| c.shape.is_well_formed()) {
        match c.heard {
            Some(Heard::Result(reply)) if reply.is_error() => results += 1,
            Some(Heard::Rpc(RpcError::WrongAudience)) if c.shape == CallShape::WrongAudience => {}
            Some(Heard::Rpc(_)) => thrown += 1,
            _ => {}
        }
    }
    Check {
        name: CheckName::BusinessErrorsAreResults,
        holds: (results + thrown > 0).then_some(thrown == 0),
        figures: vec![
            count(Fig::BusinessErrors, results + thrown),
            count(Fig::AsToolResults, results),
            count(Fig::AsJsonrpcErrors, thrown),
        ],
    }
}

/// Whether the call was answered TEMPORARY_UNAVAILABLE from its queue,
/// before any step of the pipeline (deadline propagation).
fn refused_from_the_queue(c: &CallFacts) -> bool {
    error_code(c.heard) == Some(ErrorCode::TemporaryUnavailable) && c.queued_at.is_some() && !c.started
}

/// A call whose arguments break the input schema (an argument it does not
/// declare, a reason past its length limit) is refused with
/// INVALID_ARGUMENT and writes nothing: no row, no create. One turned away
/// before validation (OVERLOADED at the gates, or TEMPORARY_UNAVAILABLE
/// while still queued) never reached it and is not held against it, but
/// must write nothing either. Judged once such a call was made.
fn outside_schema_refused(tally: &Tally) -> Check {
    let outside: Vec<&CallFacts> = tally.calls.iter().filter(|c| c.shape.breaks_schema()).collect();
    let refused = |c: &CallFacts| error_code(c.heard) == Some(ErrorCode::InvalidArgument);
    let turned_away = |c: &CallFacts| error_code(c.heard) == Some(ErrorCode::Overloaded) || refused_from_the_queue(c);
    let n_refused = outside.iter().filter(|c| refused(c)).count();
    let reached = outside.iter().filter(|c| c.wrote > 0 || c.heard.is_some() && !refused(c) && !turned_away(c)).count();
    let rows: u64 = outside.iter().map(|c| c.inserts).sum();
    let creates: u64 = outside.iter().map(|c| c.wrote - c.inserts).sum();
    Check {
        name: CheckName::OutsideSchemaRefused,
        holds: (!outside.is_empty()).then_some(reached == 0),
        figures: vec![
            count(Fig::CallsOutsideSchema, outside.len()),
            count(Fig::Refused, n_refused),
            count(Fig::ReachedHandler, reached),
            count(Fig::Rows, rows),
            count(Fig::Creates, creates),
        ],
    }
}

/// The most calls the Risk API worked on at once.
fn peak_concurrency(tally: &Tally) -> u64 {
    let mut steps: Vec<(Millis, i64)> = Vec::with_capacity(tally.downstream.len() * 2);
    for d in tally.downstream.iter().filter(|d| d.held) {
        steps.push((d.sent_at, 1));
        if let Some(done) = d.done_at {
            steps.push((done, -1));
        }
    }
    steps.sort_unstable();
    let (mut now, mut peak) = (0i64, 0i64);
    for (_, step) in steps {
        now += step;
        peak = peak.max(now);
    }
    peak as u64
}

#[cfg(test)]
mod tests {
    //! Each check against records written by hand, so a check is seen to
    //! judge what happened rather than anything a handler concluded.
    use super::*;
    use crate::sim::risk::facts::{IntentId, Issuer, Update, WorkerId};
    use crate::sim::risk::settings::{Mode, Preset};

    fn settings() -> Settings {
        Settings::preset(Preset::NotFoundResend, Mode::Patterns)
    }

    fn at(t: u64, actor: Actor, what: What) -> Record {
        Record { t: Millis(t), actor, what }
    }

    fn verdict(records: &[Record], t: u64, name: CheckName) -> Check {
        checks(&settings(), records, Millis(t)).into_iter().find(|c| c.name == name).unwrap()
    }

    const ROW: RowId = RowId(10086);
    const KEY: RequestKey = RequestKey(1);

    fn inserted() -> Record {
        let insert = super::super::facts::Insert {
            row: ROW,
            request_key: KEY,
            order: OrderId(1),
            requester: super::super::facts::END_USER,
            generation: 1,
        };
        at(121, Actor::Database, What::RowInserted { by: Issuer::Replica(ReplicaId::A, CallId(1)), insert })
    }

    fn moved(t: u64, from: Status, version: u32, to: Status, cause: Cause) -> Record {
        let update = Update { row: ROW, from, version, to, downstream_ref: None, next_retry_at: None };
        at(t, Actor::Database, What::Transition { by: Issuer::Worker(WorkerId::W1), update, cause })
    }

    fn create(t: u64, ds: u32, by: Actor) -> Record {
        let issuer = match by {
            Actor::Worker(w) => Issuer::Worker(w),
            _ => Issuer::Replica(ReplicaId::A, CallId(1)),
        };
        let credential = Credential::Service;
        at(
            t,
            by,
            What::CreateSent {
                ds: DownstreamId(ds),
                by: issuer,
                row: ROW,
                request_key: KEY,
                order: OrderId(1),
                credential,
            },
        )
    }

    fn blind_claim(t: u64, worker: WorkerId) -> Record {
        let claim = Claim::Blind { row: ROW, retry_count: 1, version: 4, lease_until: Millis(t + 5000) };
        at(t, Actor::Database, What::Claim { by: worker, claim, version: 3, won: true, from: Some(Status::Retryable) })
    }

    /// A row that became UNKNOWN at 2622 and RETRYABLE at 3102 (version 3).
    fn retryable() -> Vec<Record> {
        vec![
            inserted(),
            create(121, 1, Actor::Replica(ReplicaId::A)),
            moved(2622, Status::Pending, 1, Status::Unknown, Cause::Timeout),
            moved(3102, Status::Unknown, 2, Status::Retryable, Cause::FindNotFound),
        ]
    }

    #[test]
    fn a_transition_is_judged_by_the_status_the_records_left_the_row_in() {
        // The Transition says it moves from UNKNOWN, but the row the records
        // built is PENDING: PENDING -> SUCCEEDED by find_found is not legal.
        let mut records = vec![inserted()];
        records.push(moved(600, Status::Unknown, 1, Status::Succeeded, Cause::FindFound));
        let c = verdict(&records, 700, CheckName::LegalTransitions);
        assert_eq!((c.holds, c.figure(Fig::Illegal)), (Some(false), Some(Value::Count(1))));
        let mut records = vec![inserted()];
        records.push(moved(600, Status::Pending, 1, Status::Succeeded, Cause::CreateSucceeded));
        assert_eq!(verdict(&records, 700, CheckName::LegalTransitions).holds, Some(true));
    }

    #[test]
    fn two_creates_at_one_version_break_the_claim_however_the_claims_read() {
        // Both read-then-write claims "won" and wrote version 4; both resend.
        let mut records = retryable();
        records.push(blind_claim(5002, WorkerId::W1));
        records.push(blind_claim(5002, WorkerId::W2));
        records.push(create(5002, 2, Actor::Worker(WorkerId::W1)));
        let one = verdict(&records, 5002, CheckName::SingleClaimWinner);
        assert_eq!(one.holds, Some(true), "one resend so far: {one:?}");
        records.push(create(5002, 3, Actor::Worker(WorkerId::W2)));
        let c = verdict(&records, 5002, CheckName::SingleClaimWinner);
        assert_eq!((c.holds, c.figure(Fig::MaxResendsPerVersion)), (Some(false), Some(Value::Count(2))));
        // With no claim, there is nothing to judge.
        assert_eq!(verdict(&retryable(), 5002, CheckName::SingleClaimWinner).holds, None);
    }

    #[test]
    fn a_row_is_resolved_in_three_scans_and_its_backoff_or_not_at_all() {
        // UNKNOWN since 2622; 3 x 1000 + 1000 (no resend yet) = 4000 ms.
        let records = retryable();
        assert_eq!(verdict(&records, 6622, CheckName::UnknownResolved).holds, Some(true));
        let late = verdict(&records, 6623, CheckName::UnknownResolved);
        assert_eq!((late.holds, late.figure(Fig::Stalled)), (Some(false), Some(Value::Count(1))));
        // Settled rows have nothing outstanding, however long they took.
        let mut records = records;
        records.push(blind_claim(5002, WorkerId::W1));
        records.push(moved(5413, Status::Pending, 4, Status::Succeeded, Cause::CreateSucceeded));
        assert_eq!(verdict(&records, 60_000, CheckName::UnknownResolved).holds, Some(true));
    }

    #[test]
    fn an_overloaded_answer_counts_from_the_call_to_the_agent() {
        let call = |t| {
            at(
                t,
                Actor::Agent,
                What::ToolCall {
                    call: CallId(1),
                    tool: Tool::RequestRiskReview,
                    intent: IntentId(1),
                    attempt: 1,
                    request_key: Some(KEY),
                    order: Some(OrderId(1)),
                    review: None,
                    subject: Some(super::super::facts::END_USER),
                    shape: super::super::facts::CallShape::Valid,
                    replica: ReplicaId::A,
                },
            )
        };
        let overloaded = Reply::Error { code: ErrorCode::Overloaded, row: None };
        let heard = |t| {
            at(
                t,
                Actor::Agent,
                What::ResultReceived {
                    call: CallId(1),
                    made_at: Millis(0),
                    decision: super::super::facts::AgentDecision::Ignored,
                },
            )
        };
        // Refused at once at 20 but answered only at 60: 10 ms over 20+20+10.
        let records = [
            call(0),
            at(20, Actor::Replica(ReplicaId::A), What::Overloaded { call: CallId(1), in_flight: 8, queued: 16 }),
            at(
                40,
                Actor::Replica(ReplicaId::A),
                What::ToolResult { call: CallId(1), tool: Tool::RequestRiskReview, reply: overloaded },
            ),
            heard(61),
        ];
        assert_eq!(verdict(&records, 61, CheckName::OverloadFastBounded).holds, Some(false));
        let mut fast = records;
        fast[3] = heard(50);
        assert_eq!(verdict(&fast, 61, CheckName::OverloadFastBounded).holds, Some(true));
    }

    #[test]
    fn the_risk_api_counts_what_it_works_on_at_once() {
        // 33 creates sent at 121 against a safe 32; one answered 503 at once
        // was never worked on.
        let mut records = vec![inserted()];
        for ds in 1..=33 {
            records.push(create(121, ds, Actor::Replica(ReplicaId::A)));
        }
        let c = verdict(&records, 200, CheckName::DownstreamWithinCapacity);
        assert_eq!((c.holds, c.figure(Fig::PeakConcurrency)), (Some(false), Some(Value::Count(33))));
        records.push(at(
            121,
            Actor::Replica(ReplicaId::A),
            What::DownstreamReply {
                ds: DownstreamId(33),
                kind: DsKind::Create,
                row: ROW,
                request_key: KEY,
                answer: Answer::Unavailable,
                sent_at: Millis(121),
            },
        ));
        let c = verdict(&records, 200, CheckName::DownstreamWithinCapacity);
        assert_eq!((c.holds, c.figure(Fig::PeakConcurrency)), (Some(true), Some(Value::Count(32))));
    }
}
