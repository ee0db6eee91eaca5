//! The nine checks of RISK-MODEL.md ("Acceptance checks, live"), computed
//! from a run's records alone (never from the preset's name) as of any
//! moment `t`: the records up to `t` give the verdicts at `t`. The settings
//! supply only the limits a verdict compares against (the gates' sizes and
//! the client deadline).
//!
//! Each check holds (`Some(true)`), fails (`Some(false)`), or has nothing
//! to judge yet (`None`), and carries the figures behind its verdict.

use std::collections::{BTreeMap, BTreeSet};

use crate::sim::time::Millis;

use super::facts::{
    Actor, Answer, CallId, Claim, DownstreamId, DsKind, ErrorCode, Heard, OrderId, Record, ReplicaId, Reply,
    RequestKey, RowId, Status, Tool, UserId, What, owner_of,
};
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
}

impl CheckName {
    /// The six acceptance conditions first, then the three invariants.
    pub const ALL: [CheckName; 9] = [
        CheckName::SameRequestKeyOneRow,
        CheckName::SameBusinessKeyOneReview,
        CheckName::LostResponseConverges,
        CheckName::SingleClaimWinner,
        CheckName::ForgedNoDownstream,
        CheckName::OverloadFastBounded,
        CheckName::OneReviewPerBusinessKey,
        CheckName::LegalTransitions,
        CheckName::UnknownResolved,
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

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Figure {
    pub name: &'static str,
    pub value: Value,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Check {
    pub name: CheckName,
    pub holds: Option<bool>,
    pub figures: Vec<Figure>,
}

impl Check {
    /// The figure called `name`, if the check reports it.
    pub fn figure(&self, name: &str) -> Option<Value> {
        self.figures.iter().find(|f| f.name == name).map(|f| f.value)
    }
}

fn count(name: &'static str, n: impl TryInto<u64>) -> Figure {
    Figure { name, value: Value::Count(n.try_into().unwrap_or(u64::MAX)) }
}

fn ms(name: &'static str, t: Millis) -> Figure {
    Figure { name, value: Value::Ms(t.ms()) }
}

#[derive(Clone, Copy, Debug)]
struct CallFacts {
    tool: Tool,
    request_key: Option<RequestKey>,
    order: Option<OrderId>,
    subject: Option<UserId>,
    made_at: Millis,
    heard: Option<Heard>,
    overloaded_at: Option<Millis>,
    received_at: Option<Millis>,
}

#[derive(Clone, Copy, Debug)]
struct RowFacts {
    request_key: RequestKey,
    order: OrderId,
    requester: UserId,
    status: Status,
    next_retry_at: Option<Millis>,
    /// Whether the row ever needed resolving (it was UNKNOWN or RETRYABLE).
    unsettled: bool,
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
}

#[derive(Clone, Copy, Debug, Default)]
struct GateFacts {
    max_in_flight: u32,
    max_queued: u32,
    overloaded: u32,
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
    resends: u64,
    gates: [GateFacts; 2],
    slowest_overload: Millis,
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
            if let Some(m) = r.row_move() {
                t.moves += 1;
                if !m.legal {
                    t.illegal += 1;
                    t.first_illegal.get_or_insert(m.row);
                }
            }
            t.fold(r, cap);
        }
        t
    }

    fn call(&mut self, id: CallId) -> Option<&mut CallFacts> {
        self.calls.get_mut((id.0 as usize).checked_sub(1)?)
    }

    fn ds(&mut self, id: DownstreamId) -> Option<&mut DsFacts> {
        self.downstream.get_mut((id.0 as usize).checked_sub(1)?)
    }

    fn gate(&mut self, replica: ReplicaId, in_flight: u32, queued: u32, cap: u32) -> &mut GateFacts {
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
            What::ToolCall { .. } | What::ResultReceived { .. } => self.fold_agent(r),
            What::CallAdmitted { .. }
            | What::CallStarted { .. }
            | What::CallQueued { .. }
            | What::Overloaded { .. }
            | What::ToolResult { .. }
            | What::RpcError { .. } => self.fold_replica(r, cap),
            What::RowInserted { .. } | What::Transition { .. } | What::Claim { .. } => self.fold_database(r),
            What::CreateSent { .. }
            | What::DownstreamTimeout { .. }
            | What::LateReply { .. }
            | What::DownstreamReply { .. } => self.fold_caller(r),
            What::ProbeSent { .. } | What::WorkerCrashed { .. } => self.fold_worker(r),
            What::ReviewCreated { .. } | What::ReviewReplayed { .. } | What::ResponseLost { .. } => {
                self.fold_risk_api(r)
            }
            _ => {}
        }
    }

    /// The agent's calls, and when it heard each answer.
    fn fold_agent(&mut self, r: &Record) {
        match r.what {
            What::ToolCall { tool, request_key, order, subject, .. } => self.calls.push(CallFacts {
                tool,
                request_key,
                order,
                subject,
                made_at: r.t,
                heard: None,
                overloaded_at: None,
                received_at: None,
            }),
            What::ResultReceived { call, .. } => {
                if let Some(c) = self.call(call) {
                    c.received_at = Some(r.t);
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
            What::CallAdmitted { in_flight, queued, .. } | What::CallStarted { in_flight, queued, .. } => {
                self.gate(replica, in_flight, queued, cap);
            }
            What::CallQueued { in_flight, queued, .. } => self.gate(replica, in_flight, queued, cap).exceeded = true,
            What::Overloaded { call, in_flight, queued } => {
                let g = self.gate(replica, in_flight, queued, cap);
                g.exceeded = true;
                g.overloaded += 1;
                if let Some(c) = self.call(call) {
                    c.overloaded_at = Some(r.t);
                }
            }
            What::ToolResult { call, reply, .. } => {
                let t = r.t;
                let mut slow = None;
                if let Some(c) = self.call(call) {
                    c.heard = Some(Heard::Result(reply));
                    slow = c.overloaded_at.map(|at| t.since(at));
                }
                if let Some(slow) = slow {
                    self.slowest_overload = self.slowest_overload.max(slow);
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
            What::RowInserted { insert, .. } => {
                self.rows.insert(
                    insert.row,
                    RowFacts {
                        request_key: insert.request_key,
                        order: insert.order,
                        requester: insert.requester,
                        status: Status::Pending,
                        next_retry_at: None,
                        unsettled: false,
                    },
                );
            }
            What::Transition { update, .. } => {
                if let Some(row) = self.rows.get_mut(&update.row) {
                    row.status = update.to;
                    row.next_retry_at = update.next_retry_at;
                    row.unsettled |= matches!(update.to, Status::Unknown | Status::Retryable);
                }
            }
            What::Claim { claim, version, won, .. } => {
                let entry = self.claims.entry((claim.row(), version)).or_default();
                entry.0 += 1;
                if won {
                    entry.1 += 1;
                    let lease_until = match claim {
                        Claim::Cas { lease_until, .. } | Claim::Blind { lease_until, .. } => lease_until,
                    };
                    if let Some(row) = self.rows.get_mut(&claim.row()) {
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
            What::CreateSent { row, request_key, order, .. } => {
                self.downstream.push(DsFacts {
                    kind: DsKind::Create,
                    row,
                    request_key,
                    performed: false,
                    timed_out_at: None,
                    lost_at: None,
                });
                self.creates_by_key.entry(request_key).or_default().push(r.t);
                *self.creates_by_order.entry(order).or_default() += 1;
                if matches!(r.actor, Actor::Worker(_)) {
                    self.resends += 1;
                }
            }
            What::DownstreamTimeout { ds, .. } => {
                if let Some(d) = self.ds(ds) {
                    d.timed_out_at = Some(r.t);
                }
            }
            What::LateReply { ds, answer: Answer::Created(_) | Answer::Existing(_) | Answer::Reset, .. } => {
                let t = r.t;
                if let Some(d) = self.ds(ds)
                    && d.kind == DsKind::Create
                {
                    d.lost_at = Some(d.timed_out_at.unwrap_or(t));
                }
            }
            What::DownstreamReply { ds, answer: Answer::Reset, .. } => {
                if let Some(d) = self.ds(ds)
                    && d.performed
                {
                    d.lost_at = Some(r.t);
                }
            }
            _ => {}
        }
    }

    /// A worker's probes, and its crash.
    fn fold_worker(&mut self, r: &Record) {
        match r.what {
            What::ProbeSent { row, request_key, .. } => self.downstream.push(DsFacts {
                kind: DsKind::Find,
                row,
                request_key,
                performed: false,
                timed_out_at: None,
                lost_at: None,
            }),
            What::WorkerCrashed { worker } => self.workers_alive[worker.index()] = false,
            _ => {}
        }
    }

    /// What the Risk API performed, and a performed create's lost answer.
    fn fold_risk_api(&mut self, r: &Record) {
        match r.what {
            What::ReviewCreated { ds, order, request_key, .. } => {
                self.reviews_by_key.entry(request_key).or_default().push(r.t);
                self.reviews += 1;
                *self.reviews_by_order.entry(order).or_default() += 1;
                if let Some(d) = self.ds(ds) {
                    d.performed = true;
                }
            }
            What::ReviewReplayed { ds, .. } => {
                if let Some(d) = self.ds(ds) {
                    d.performed = true;
                }
            }
            What::ResponseLost { ds, .. } => {
                if let Some(d) = self.ds(ds)
                    && d.performed
                {
                    d.lost_at = Some(r.t);
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

/// The nine checks as of `t`, from the records up to `t`.
pub fn checks(settings: &Settings, records: &[Record], t: Millis) -> Vec<Check> {
    let tally = Tally::of(settings, records);
    vec![
        same_request_key_one_row(&tally),
        same_business_key_one_review(&tally),
        lost_response_converges(&tally),
        single_claim_winner(&tally),
        forged_no_downstream(&tally),
        overload_fast_bounded(settings, &tally, t),
        one_review_per_business_key(&tally),
        legal_transitions(&tally),
        unknown_resolved(&tally),
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
    let mut figures = vec![count("reused_keys", reused), count("max_rows", max_rows), count("max_review_ids", max_ids)];
    figures.extend(worst.map(|k| Figure { name: "worst_key", value: Value::Key(k) }));
    Check {
        name: CheckName::SameRequestKeyOneRow,
        holds: (reused > 0).then_some(max_rows <= 1 && max_ids <= 1),
        figures,
    }
}

/// Every order requested under two or more request_keys has at most one
/// review at the Risk API and one row.
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
        let rows = tally.rows_where(|r| r.order == *order);
        if (reviews > 1 || rows > 1) && worst.is_none() {
            worst = Some(*order);
        }
        max_reviews = max_reviews.max(reviews);
        max_rows = max_rows.max(rows);
    }
    let mut figures =
        vec![count("business_keys", orders), count("max_reviews", max_reviews), count("max_rows", max_rows)];
    figures.extend(worst.map(|o| Figure { name: "worst_order", value: Value::Order(o) }));
    Check {
        name: CheckName::SameBusinessKeyOneReview,
        holds: (orders > 0).then_some(max_reviews <= 1 && max_rows <= 1),
        figures,
    }
}

/// Every row whose create was performed but whose answer its caller lost
/// ends SUCCEEDED, with no create sent for its request_key after the loss.
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
        // A second review for the key is a second effect; a create sent
        // again and answered with the first review is not.
        extra += tally.reviews_by_key.get(key).map_or(0, |ts| ts.len().saturating_sub(1)) as u64;
    }
    let n = lost.len() as u64;
    Check {
        name: CheckName::LostResponseConverges,
        holds: (n > 0).then_some(converged == n && extra == 0),
        figures: vec![
            count("lost_responses", n),
            count("converged", converged),
            count("failed", failed),
            count("unresolved", open),
            count("later_creates", later),
            count("extra_reviews", extra),
        ],
    }
}

fn single_claim_winner(tally: &Tally) -> Check {
    let attempts: u64 = tally.claims.values().map(|c| c.0).sum();
    let won: u64 = tally.claims.values().map(|c| c.1).sum();
    let contested = tally.claims.values().filter(|c| c.0 > 1).count() as u64;
    let max_winners = tally.claims.values().map(|c| c.1).max().unwrap_or(0);
    Check {
        name: CheckName::SingleClaimWinner,
        holds: (attempts > 0).then_some(max_winners <= 1),
        figures: vec![
            count("claims", attempts),
            count("won", won),
            count("lost", attempts - won),
            count("contested", contested),
            count("max_winners", max_winners),
            count("resends", tally.resends),
        ],
    }
}

/// A call for an order its subject does not own gets FORBIDDEN: no row and
/// no Risk API call for that order, and never a review result.
fn forged_no_downstream(tally: &Tally) -> Check {
    let forged: Vec<&CallFacts> = tally
        .request_calls()
        .filter(|c| matches!((c.subject, c.order), (Some(s), Some(o)) if owner_of(o) != s))
        .collect();
    let orders: BTreeSet<OrderId> = forged.iter().filter_map(|c| c.order).collect();
    let forbidden = forged
        .iter()
        .filter(|c| matches!(c.heard, Some(Heard::Result(Reply::Error { code: ErrorCode::Forbidden, .. }))))
        .count() as u64;
    let reviewed = forged.iter().filter(|c| matches!(c.heard, Some(Heard::Result(Reply::Review { .. })))).count();
    let rows = tally.rows_where(|r| orders.contains(&r.order) && owner_of(r.order) != r.requester);
    let downstream: u64 = orders.iter().map(|o| tally.creates_by_order.get(o).copied().unwrap_or(0)).sum();
    Check {
        name: CheckName::ForgedNoDownstream,
        holds: (!forged.is_empty()).then_some(rows == 0 && downstream == 0 && reviewed == 0),
        figures: vec![
            count("forged_calls", forged.len()),
            count("forbidden", forbidden),
            count("rows", rows),
            count("downstream_calls", downstream),
        ],
    }
}

/// When demand exceeds a replica's cap: OVERLOADED within 10 ms, queues and
/// slots never above their sizes, every call answered within the client
/// deadline.
fn overload_fast_bounded(settings: &Settings, tally: &Tally, t: Millis) -> Check {
    let gates = settings.replica.gates;
    let deadline = settings.agent.deadline;
    let exceeded = tally.gates.iter().any(|g| g.exceeded);
    let max_in_flight = tally.gates.iter().map(|g| g.max_in_flight).max().unwrap_or(0);
    let max_queued = tally.gates.iter().map(|g| g.max_queued).max().unwrap_or(0);
    let overloaded: u32 = tally.gates.iter().map(|g| g.overloaded).sum();
    let mut slowest = Millis::ZERO;
    let mut late = 0u64;
    for c in &tally.calls {
        match c.received_at {
            Some(at) => {
                let took = at.since(c.made_at);
                slowest = slowest.max(took);
                late += u64::from(took > deadline);
            }
            None => late += u64::from(t.since(c.made_at) > deadline),
        }
    }
    let holds = tally.slowest_overload <= OVERLOADED_WITHIN
        && max_queued <= gates.queue
        && max_in_flight <= gates.cap
        && late == 0;
    Check {
        name: CheckName::OverloadFastBounded,
        holds: exceeded.then_some(holds),
        figures: vec![
            count("overloaded", overloaded),
            ms("slowest_overloaded_ms", tally.slowest_overload),
            count("max_in_flight", max_in_flight),
            count("concurrency_cap", gates.cap),
            count("max_queue", max_queued),
            count("queue_capacity", gates.queue),
            ms("slowest_answer_ms", slowest),
            ms("client_deadline_ms", deadline),
            count("late_answers", late),
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
        count("reviews", tally.reviews),
        count("business_keys", tally.reviews_by_order.len()),
        count("max_reviews", max),
    ];
    if max > 1 {
        figures.push(Figure { name: "worst_order", value: Value::Order(worst) });
    }
    Check { name: CheckName::OneReviewPerBusinessKey, holds: (tally.reviews > 0).then_some(max <= 1), figures }
}

/// Every move of every row is in the table of legal transitions.
fn legal_transitions(tally: &Tally) -> Check {
    let mut figures = vec![count("transitions", tally.moves), count("illegal", tally.illegal)];
    figures.extend(tally.first_illegal.map(|row| Figure { name: "first_illegal_row", value: Value::Row(row) }));
    Check { name: CheckName::LegalTransitions, holds: (tally.moves > 0).then_some(tally.illegal == 0), figures }
}

/// Every row is SUCCEEDED or FAILED, or still being worked on: PENDING at
/// its replica, or due again (UNKNOWN with its next probe scheduled,
/// RETRYABLE, or a claim whose lease will end) with a worker alive to do it.
fn unknown_resolved(tally: &Tally) -> Check {
    let worker_alive = tally.workers_alive.iter().any(|&alive| alive);
    let (mut done, mut working, mut stalled, mut unknown) = (0u64, 0u64, 0u64, 0u64);
    for row in tally.rows.values() {
        unknown += u64::from(row.status == Status::Unknown);
        let in_hand = match (row.status, row.next_retry_at) {
            (s, _) if s.is_final() => {
                done += 1;
                continue;
            }
            (Status::Pending, None) => true,
            (_, Some(_)) => worker_alive,
            (_, None) => false,
        };
        if in_hand {
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
            count("rows", n),
            count("settled", done),
            count("in_progress", working),
            count("unknown", unknown),
            count("stalled", stalled),
        ],
    }
}
