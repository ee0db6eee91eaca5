//! The risk-review lab as a model for the shared driver: its actors, and
//! the one `match` that wires what they decide into events and records.

use crate::sim::SimError;
use crate::sim::driver::{Model, Out};
use crate::sim::time::Millis;

use super::agent::{Agent, CallPlan};
use super::balancer::Balancer;
use super::calls::{Call, Stage};
use super::database::{Database, DueRow, Executed};
use super::facts::{
    Actor, AgentDecision, AgentStep, Answer, BudgetStep, CallId, Cause, Claim, Credential, DownstreamId, DsKind,
    ErrorCode, Event, Heard, Insert, IntentId, Issuer, Lock, LockName, OrderId, Read, Record, ReplicaId, Reply,
    RequestKey, Route, RowId, StatementId, Stmt, UniqueKey, Wait, What, WorkerId,
};
use super::replica::{Checked, Gate, PolicyCheck, Replica};
use super::risk_api::{Dispatch, Downstream, Fate, OWN_LIMIT, RiskApi, Waiting};
use super::rules::{budget_covers, budget_lapses_at, budget_needed, create_outcome, on_the_wire, reply_for};
use super::scenario::{PAUSE_FOR, Scenario};
use super::settings::{AgentConfig, KeyGuard, Settings, WorkerOrder};
use super::worker::{Worker, WorkerStep};
use crate::sim::rng::Rng;

/// The most events one run may handle. The longest valid runs (the
/// longest horizon with the shortest scan interval, a full burst with every
/// retry and poll) need well under a million; hitting this means a bug.
pub const EVENT_BUDGET: usize = 5_000_000;
/// How long a replica waits before trying again for a lock another call
/// holds.
pub const LOCK_RETRY: Millis = Millis(100);
/// The most tool calls one run may make (intents, retries and polls are
/// all bounded well below this).
pub const MAX_CALLS: usize = 200_000;

/// A statement under way, with who issued it and, for an update, why.
#[derive(Clone, Copy, Debug)]
struct Pending {
    issuer: Issuer,
    stmt: Stmt,
    cause: Option<Cause>,
}

/// Every actor of one run, and the tables that let events find their data.
#[derive(Clone, Debug)]
pub struct RiskModel {
    pub(crate) scenario: Scenario,
    pub(crate) agent: Agent,
    agent_config: AgentConfig,
    pub(crate) balancer: Balancer,
    pub(crate) replicas: Vec<Replica>,
    pub(crate) database: Database,
    pub(crate) api: RiskApi,
    pub(crate) workers: [Worker; 2],
    pub(crate) calls: Vec<Call>,
    pub(crate) downstream: Vec<Downstream>,
    statements: Vec<Pending>,
    /// The workers' resends so far (the worker-crash-after-send fault hits
    /// one of them by number).
    resends: u32,
    pub(crate) claims_won: u32,
    pub(crate) claims_lost: u32,
    /// The rows of the latest scan, reused.
    due: Vec<DueRow>,
    /// The inserts the replicas reached so far (the replica-pause fault
    /// hits one by number).
    inserts: u32,
    /// Who goes first at a tie, and the draws for a seeded order.
    order: WorkerOrder,
    ties: Rng,
    /// Ties met so far in the run.
    ties_met: u32,
    /// Each worker's next wake, and the instant it last woke.
    next_wake: [Millis; 2],
    woke: [Option<Millis>; 2],
}

/// The draws for a seeded race order come from their own stream, apart
/// from the random-faults preset's.
const TIE_STREAM: u64 = 0x7469_6573;

impl RiskModel {
    pub fn new(settings: &Settings) -> RiskModel {
        let scenario = Scenario::of(settings);
        RiskModel {
            agent: Agent::new(settings.agent, &scenario.intents),
            agent_config: settings.agent,
            balancer: Balancer::over(settings.replicas),
            replicas: ReplicaId::all(settings.replicas).map(|id| Replica::new(id, settings.replica)).collect(),
            database: Database::new(settings.database),
            api: RiskApi::new(settings.risk_api, scenario.faults.clone()),
            workers: [Worker::new(WorkerId::W1, settings.worker), Worker::new(WorkerId::W2, settings.worker)],
            calls: Vec::new(),
            downstream: Vec::new(),
            statements: Vec::new(),
            resends: 0,
            claims_won: 0,
            claims_lost: 0,
            due: Vec::new(),
            inserts: 0,
            order: settings.worker_order,
            ties: Rng::new(settings.seed ^ TIE_STREAM),
            ties_met: 0,
            next_wake: [Millis::ZERO; 2],
            woke: [None; 2],
            scenario,
        }
    }

    /// A run of `settings` playing `scenario` instead of the preset's: for
    /// tests that script their own faults.
    #[cfg(test)]
    pub(crate) fn with_scenario(settings: &Settings, scenario: Scenario) -> RiskModel {
        let mut model = RiskModel::new(settings);
        model.agent.reset(settings.agent, &scenario.intents);
        model.api.reset(settings.risk_api, &scenario.faults);
        model.scenario = scenario;
        model
    }

    /// Makes this model a fresh run of `settings`, keeping the memory its
    /// actors and tables hold.
    pub fn reset(&mut self, settings: &Settings) {
        self.scenario = Scenario::of(settings);
        self.agent.reset(settings.agent, &self.scenario.intents);
        self.agent_config = settings.agent;
        self.balancer = Balancer::over(settings.replicas);
        self.replicas.truncate(settings.replicas);
        for replica in &mut self.replicas {
            replica.reset(settings.replica);
        }
        while self.replicas.len() < settings.replicas {
            self.replicas.push(Replica::new(ReplicaId(self.replicas.len() as u8), settings.replica));
        }
        self.database.reset(settings.database);
        self.api.reset(settings.risk_api, &self.scenario.faults);
        for worker in &mut self.workers {
            worker.reset(settings.worker);
        }
        self.calls.clear();
        self.downstream.clear();
        self.statements.clear();
        self.resends = 0;
        self.claims_won = 0;
        self.claims_lost = 0;
        self.inserts = 0;
        self.order = settings.worker_order;
        self.ties = Rng::new(settings.seed ^ TIE_STREAM);
        self.ties_met = 0;
        self.woke = [None; 2];
    }

    /// Whether the second of two tied parties goes first: the race order,
    /// unless an aimed fault flips this tie.
    fn second_first(&mut self) -> bool {
        self.ties_met += 1;
        let second = match self.order {
            WorkerOrder::W1First => false,
            WorkerOrder::W2First => true,
            WorkerOrder::Seeded => self.ties.below(2) == 1,
        };
        second != self.scenario.faults.flips_tie(self.ties_met)
    }

    fn call(&self, id: CallId) -> &Call {
        &self.calls[id.0 as usize - 1]
    }

    fn call_mut(&mut self, id: CallId) -> &mut Call {
        &mut self.calls[id.0 as usize - 1]
    }

    fn record(out: &mut Out<'_, Self>, t: Millis, actor: Actor, what: What) {
        out.record(Record { t, actor, what });
    }

    /// Schedules what the agent decided.
    fn plan(out: &mut Out<'_, Self>, intent: IntentId, decision: AgentDecision, timer: u32) {
        match decision {
            AgentDecision::PollAt(at) => out.schedule(at, Event::AgentActs(AgentStep::Poll { intent, timer })),
            AgentDecision::RetryAt(at) | AgentDecision::FixAt(at) => {
                out.schedule(at, Event::AgentActs(AgentStep::Retry { intent, timer }));
            }
            AgentDecision::Done(_) | AgentDecision::Ignored => {}
        }
    }

    /// The agent makes a call: through the load balancer (to both replicas
    /// when the delivery is duplicated), with its deadline.
    fn make_calls(&mut self, now: Millis, plan: CallPlan, out: &mut Out<'_, Self>) -> Result<(), SimError> {
        let first = self.balancer.route();
        let mut deliveries = [
            Some((first, Route::RoundRobin)),
            plan.duplicate.then_some((first.next(self.replicas.len()), Route::Duplicate)),
        ];
        if plan.duplicate && self.second_first() {
            deliveries.reverse();
        }
        for (replica, route) in deliveries.into_iter().flatten() {
            if self.calls.len() >= MAX_CALLS {
                return Err(SimError::EventBudgetExceeded { budget: MAX_CALLS });
            }
            let id = CallId(self.calls.len() as u32 + 1);
            self.calls.push(Call {
                id,
                intent: plan.intent,
                tool: plan.tool,
                request_key: plan.request_key,
                order: plan.order,
                review: plan.review,
                subject: plan.subject,
                shape: plan.shape,
                replica,
                invocation: plan.invocation,
                made_at: now,
                stage: Stage::Travelling,
                row: None,
                answered: None,
                received_at: None,
                resent: false,
                in_slot: false,
                outstanding: 0,
            });
            let what = What::ToolCall {
                call: id,
                tool: plan.tool,
                intent: plan.intent,
                attempt: plan.attempt,
                request_key: plan.request_key,
                order: plan.order,
                review: plan.review,
                subject: plan.subject,
                shape: plan.shape,
                replica,
            };
            Self::record(out, now, Actor::Agent, what);
            Self::record(out, now, Actor::LoadBalancer, What::Routed { call: id, replica, route });
            let transit = self.agent_config.transit + self.scenario.faults.delay_of(id.0);
            out.schedule(now + transit, Event::CallArrives(id));
            out.schedule(now + self.agent_config.deadline, Event::CallDeadline(id));
        }
        Ok(())
    }

    fn start_checks(&mut self, now: Millis, id: CallId, out: &mut Out<'_, Self>) {
        let replica = self.call(id).replica;
        let call = self.call_mut(id);
        call.stage = Stage::Working;
        call.in_slot = true;
        out.schedule(now + self.replicas[replica.index()].config().auth_policy, Event::ChecksDone(id));
    }

    /// When the agent gives up on a call: its client deadline.
    fn deadline_at(&self, id: CallId) -> Millis {
        self.call(id).made_at + self.agent_config.deadline
    }

    /// With deadline propagation, whether `id`'s deadline has passed: its
    /// replica then writes nothing more and sends no create for it.
    fn past_deadline(&self, now: Millis, id: CallId) -> bool {
        let config = self.replicas[self.call(id).replica.index()].config();
        config.deadline_propagation && now >= self.deadline_at(id)
    }

    /// What a queued call must still have of its deadline to start.
    fn budget_needed(&self, replica: ReplicaId) -> Millis {
        let config = self.replicas[replica.index()].config();
        budget_needed(config.auth_policy, config.downstream_timeout)
    }

    /// Deadline propagation refuses a call at `step`: TEMPORARY_UNAVAILABLE,
    /// an error result the agent retries later, never a silent drop.
    fn out_of_budget(&mut self, now: Millis, id: CallId, step: BudgetStep, out: &mut Out<'_, Self>) {
        let call = self.call(id);
        let what = What::OutOfBudget { call: id, made_at: call.made_at, step };
        Self::record(out, now, Actor::Replica(call.replica), what);
        if step != BudgetStep::Create {
            let reply = Reply::Error { code: ErrorCode::TemporaryUnavailable, row: None };
            self.answer(now, id, Heard::Result(reply), out);
            self.release(now, id, out);
        }
    }

    /// The replica answers a call and lets go of its slot, unless a create
    /// it sent may still be under way at the Risk API: then the slot (and
    /// the fleet's place) stays held until it is done (the leaky gate lets
    /// go at once).
    fn answer_and_release(&mut self, now: Millis, id: CallId, heard: Heard, out: &mut Out<'_, Self>) {
        self.answer(now, id, heard, out);
        self.release(now, id, out);
    }

    /// Frees `id`'s slot if it holds one, is answered, and its replica
    /// waits for no create of it to end.
    fn release(&mut self, now: Millis, id: CallId, out: &mut Out<'_, Self>) {
        let call = *self.call(id);
        let held = self.replicas[call.replica.index()].config().held;
        if !call.in_slot || call.stage != Stage::Answered || (held && call.outstanding > 0) {
            return;
        }
        self.call_mut(id).in_slot = false;
        self.finish(now, call.replica, out);
    }

    /// The replica learns that the Risk API is done with its create `ds`
    /// (an answer, or the Risk API's own time limit): a slot held for it
    /// frees.
    fn create_done(&mut self, now: Millis, ds: DownstreamId, out: &mut Out<'_, Self>) {
        let d = self.downstream(ds);
        let Issuer::Replica(_, call) = d.caller else { return };
        if d.seen_done || d.kind != DsKind::Create {
            return;
        }
        self.downstream[ds.0 as usize - 1].seen_done = true;
        let c = self.call_mut(call);
        debug_assert!(c.outstanding > 0, "a create's end is seen once");
        c.outstanding = c.outstanding.saturating_sub(1);
        let c = *c;
        let holding = c.in_slot && c.stage == Stage::Answered && c.outstanding == 0;
        let held = self.replicas[c.replica.index()].config().held;
        if let (true, true, Some((answered_at, _))) = (holding, held, c.answered) {
            Self::record(out, now, Actor::Replica(c.replica), What::SlotReleased { call, ds, answered_at });
            self.release(now, call, out);
        }
    }

    /// The replica answers a call, in the form its design gives a business
    /// error; the answer travels back to the agent.
    fn answer(&mut self, now: Millis, id: CallId, heard: Heard, out: &mut Out<'_, Self>) {
        if self.database.release(id) {
            Self::record(out, now, Actor::Database, What::LockReleased { holder: id });
        }
        let config = *self.replicas[self.call(id).replica.index()].config();
        let heard = on_the_wire(heard, config.error_results);
        let call = self.call_mut(id);
        call.stage = Stage::Answered;
        call.answered = Some((now, heard));
        let (tool, replica) = (call.tool, call.replica);
        let what = match heard {
            Heard::Result(reply) => What::ToolResult { call: id, tool, reply },
            Heard::Rpc(error) => What::RpcError { call: id, error },
        };
        Self::record(out, now, Actor::Replica(replica), what);
        out.schedule(now + self.agent_config.transit, Event::ResultArrives(id));
    }

    /// The global gate's quota, if it is on.
    pub(super) fn fleet_quota(&self) -> Option<u32> {
        self.replicas.first().and_then(|r| r.config().fleet_quota)
    }

    /// The calls in the slots of all replicas.
    fn fleet_working(&self) -> u32 {
        self.replicas.iter().map(|r| r.occupancy().in_flight).sum()
    }

    /// A call leaves its slot at `replica`. Without the global gate the slot
    /// goes to that replica's oldest queued call. With it, the slot and the
    /// fleet's place free together, and the place goes to the oldest call
    /// waiting anywhere in the fleet whose replica has a free slot (so the
    /// freed slot may stay idle while an older call elsewhere takes it).
    fn finish(&mut self, now: Millis, replica: ReplicaId, out: &mut Out<'_, Self>) {
        self.replicas[replica.index()].on_finish();
        while let Some((at, next)) = self.next_to_start(replica) {
            let propagates = self.replicas[at.index()].config().deadline_propagation;
            let lapsed = propagates && !budget_covers(now, self.budget_needed(at), self.deadline_at(next));
            let Some((next, queued_at, occupancy)) = self.replicas[at.index()].dequeue(!lapsed) else { break };
            if lapsed {
                // Too little of its deadline is left: the place goes to the next.
                self.out_of_budget(now, next, BudgetStep::Queue, out);
                continue;
            }
            debug_assert!(self.fleet_quota().is_none_or(|q| self.fleet_working() <= q), "the fleet within its quota");
            let (in_flight, queued) = (occupancy.in_flight, occupancy.queued);
            let what = What::CallStarted { call: next, queued_at, in_flight, queued, freed_by: replica };
            Self::record(out, now, Actor::Replica(at), what);
            self.start_checks(now, next, out);
            break;
        }
    }

    /// The queued call that takes the place a call at `freed` left, and its
    /// replica: `freed`'s oldest without the global gate; with it, while
    /// the fleet is under its quota, the oldest queued call of any replica
    /// with a free slot (at one instant, the lower call number: calls reach
    /// the replicas in the order they were made).
    fn next_to_start(&self, freed: ReplicaId) -> Option<(ReplicaId, CallId)> {
        let Some(quota) = self.fleet_quota() else {
            return self.replicas[freed.index()].next_waiting().map(|(call, _)| (freed, call));
        };
        if self.fleet_working() >= quota {
            return None;
        }
        self.replicas
            .iter()
            .filter_map(|r| r.next_waiting().map(|(call, since)| ((since, call), r.id())))
            .min_by_key(|&(oldest, _)| oldest)
            .map(|((_, call), at)| (at, call))
    }

    fn issue(&mut self, now: Millis, issuer: Issuer, stmt: Stmt, cause: Option<Cause>, out: &mut Out<'_, Self>) {
        let id = StatementId(self.statements.len() as u32);
        self.statements.push(Pending { issuer, stmt, cause });
        out.schedule(now + self.database.config().statement, Event::StatementDone(id));
    }

    /// A call reaches its replica's gates. With the global gate, a call
    /// whose replica has a free slot still waits in its queue while the
    /// fleet works on its quota.
    fn on_call_arrives(&mut self, now: Millis, id: CallId, out: &mut Out<'_, Self>) {
        let replica = self.call(id).replica;
        let quota = self.fleet_quota();
        let working = self.fleet_working();
        let fleet_room = quota.is_none_or(|q| working < q);
        let (gate, occupancy) = self.replicas[replica.index()].on_arrival(now, id, fleet_room);
        let (in_flight, queued) = (occupancy.in_flight, occupancy.queued);
        let actor = Actor::Replica(replica);
        match gate {
            Gate::Admitted => {
                debug_assert!(quota.is_none_or(|q| self.fleet_working() <= q), "the fleet within its quota");
                Self::record(out, now, actor, What::CallAdmitted { call: id, in_flight, queued });
                self.start_checks(now, id, out);
            }
            Gate::Queued { for_slot } => {
                let waits = match quota {
                    Some(quota) if !for_slot => Wait::Fleet { working, quota },
                    _ => Wait::Slot,
                };
                Self::record(out, now, actor, What::CallQueued { call: id, in_flight, queued, waits });
                self.call_mut(id).stage = Stage::Queued { since: now };
                if self.replicas[replica.index()].config().deadline_propagation {
                    let lapses = budget_lapses_at(self.budget_needed(replica), self.deadline_at(id));
                    out.schedule(lapses.max(now), Event::BudgetLapses(id));
                }
            }
            Gate::Overloaded => {
                Self::record(out, now, actor, What::Overloaded { call: id, in_flight, queued });
                let reply = Reply::Error { code: ErrorCode::Overloaded, row: None };
                self.answer(now, id, Heard::Result(reply), out);
            }
        }
    }

    fn on_checks_done(&mut self, now: Millis, id: CallId, out: &mut Out<'_, Self>) {
        let call = *self.call(id);
        let replica = call.replica;
        let issuer = Issuer::Replica(replica, id);
        let policy_record = |out: &mut Out<'_, Self>, p: PolicyCheck| {
            let what = What::Policy {
                call: id,
                subject: p.subject,
                claimed: p.claimed,
                order: p.order,
                owner: p.owner,
                decision: p.decision,
            };
            Self::record(out, now, Actor::Replica(replica), what);
        };
        match self.replicas[replica.index()].check(&call) {
            Checked::Rpc(error) => self.answer_and_release(now, id, Heard::Rpc(error), out),
            Checked::Refuse { code, policy } => {
                if let Some(p) = policy {
                    policy_record(out, p);
                }
                self.answer_and_release(now, id, Heard::Result(Reply::Error { code, row: None }), out);
            }
            Checked::Insert { policy, .. } => {
                policy_record(out, policy);
                self.begin_write(now, id, out);
            }
            Checked::Read(read) => self.issue(now, issuer, Stmt::Read(read), None, out),
        }
    }

    /// The insert a request_risk_review call makes (its id is filled in by
    /// the database).
    fn insert_of(&self, id: CallId) -> Option<Insert> {
        let call = self.call(id);
        let order = call.order?;
        let request_key = call.request_key?;
        let generation = self.database.generation_for(order, request_key);
        let requester = self.replicas[call.replica.index()].subject_of(call)?;
        Some(Insert { row: RowId(0), request_key, order, requester, generation })
    }

    /// A call's writes begin: under a lock if a key is kept by one, then
    /// with a check if a key is kept by checking, then the insert.
    fn begin_write(&mut self, now: Millis, id: CallId, out: &mut Out<'_, Self>) {
        let Some(insert) = self.insert_of(id) else { return };
        let call = self.call(id);
        if call.stage != Stage::Working {
            return;
        }
        let replica = call.replica;
        let config = *self.replicas[replica.index()].config();
        let name = match (config.business_key, config.request_key) {
            (KeyGuard::Lock, _) => Some(LockName::BusinessKey(insert.business_key())),
            (_, KeyGuard::Lock) => Some(LockName::RequestKey(insert.request_key)),
            _ => None,
        };
        match name {
            Some(name) => {
                let lock = Lock { name, holder: id, now, until: now + config.lock_lease };
                self.issue(now, Issuer::Replica(replica, id), Stmt::Lock(lock), None, out);
            }
            None => self.check_existing(now, id, insert, out),
        }
    }

    /// Check-then-insert's SELECT (also under a lock), or the insert.
    fn check_existing(&mut self, now: Millis, id: CallId, insert: Insert, out: &mut Out<'_, Self>) {
        let replica = self.call(id).replica;
        let config = *self.replicas[replica.index()].config();
        let checked = |guard| matches!(guard, KeyGuard::CheckThenInsert | KeyGuard::Lock);
        let read = Read::Existing {
            request_key: checked(config.request_key).then_some(insert.request_key),
            business_key: checked(config.business_key).then_some(insert.business_key()),
        };
        if checked(config.request_key) || checked(config.business_key) {
            self.issue(now, Issuer::Replica(replica, id), Stmt::Read(read), None, out);
        } else {
            self.before_insert(now, id, out);
        }
    }

    /// The replica-pause fault stops the replica here, before its insert.
    fn before_insert(&mut self, now: Millis, id: CallId, out: &mut Out<'_, Self>) {
        self.inserts += 1;
        if self.scenario.faults.pauses_before(self.inserts) {
            let until = now + PAUSE_FOR;
            let replica = self.call(id).replica;
            Self::record(out, now, Actor::Replica(replica), What::ReplicaPaused { call: id, until });
            out.schedule(until, Event::Resume(id));
        } else {
            self.issue_insert(now, id, out);
        }
    }

    /// The insert, unless the call's deadline has passed (a paused replica
    /// that resumes late, with deadline propagation, writes nothing).
    fn issue_insert(&mut self, now: Millis, id: CallId, out: &mut Out<'_, Self>) {
        if self.past_deadline(now, id) {
            self.out_of_budget(now, id, BudgetStep::Insert, out);
            return;
        }
        let Some(insert) = self.insert_of(id) else { return };
        let replica = self.call(id).replica;
        self.issue(now, Issuer::Replica(replica, id), Stmt::Insert(insert), None, out);
    }

    fn on_statement_done(&mut self, now: Millis, id: StatementId, out: &mut Out<'_, Self>) -> Result<(), SimError> {
        let Pending { issuer, stmt, cause } = self.statements[id.0 as usize];
        if let Issuer::Worker(w) = issuer
            && self.workers[w.index()].is_crashed()
        {
            return Ok(());
        }
        let executed = self.database.execute(stmt, &mut self.due)?;
        self.record_statement(now, issuer, stmt, cause, executed, out);
        match issuer {
            Issuer::Replica(replica, call) => self.replica_continues(now, replica, call, stmt, cause, executed, out),
            Issuer::Worker(w) => {
                let step = self.workers[w.index()].on_statement(now, executed, &self.due);
                self.run_worker(now, w, step, out);
            }
        }
        Ok(())
    }

    fn record_statement(
        &mut self,
        now: Millis,
        by: Issuer,
        stmt: Stmt,
        cause: Option<Cause>,
        executed: Executed,
        out: &mut Out<'_, Self>,
    ) {
        let cause = cause.unwrap_or(Cause::Inserted);
        let what = match (stmt, executed) {
            (_, Executed::Inserted(insert)) => What::RowInserted { by, insert },
            (_, Executed::Conflict { insert, on, existing }) => What::InsertConflict { by, insert, on, existing },
            (Stmt::Read(read), Executed::Read(found)) => What::RowRead { by, read, found },
            (Stmt::Due { .. } | Stmt::Unfinished { .. }, Executed::Due(0)) => return,
            (Stmt::Due { now: at }, Executed::Due(due)) => {
                let Issuer::Worker(w) = by else { return };
                What::Scanned { by: w, now: at, due, unfinished: false }
            }
            (Stmt::Unfinished { now: at }, Executed::Due(due)) => {
                let Issuer::Worker(w) = by else { return };
                What::Scanned { by: w, now: at, due, unfinished: true }
            }
            (Stmt::Lock(lock), executed) => What::LockTried { lock, taken: executed == Executed::Locked },
            (Stmt::Bump { row, retry_count }, Executed::Bumped) => {
                let Issuer::Worker(w) = by else { return };
                What::RetryCounted { by: w, row, retry_count }
            }
            (Stmt::Update(update), Executed::Updated) => What::Transition { by, update, cause },
            (Stmt::Update(update), _) => What::WriteSkipped { by, update, cause },
            (Stmt::Claim(claim), executed) => {
                let Issuer::Worker(w) = by else { return };
                let version = match claim {
                    Claim::Cas { version, .. } => version,
                    Claim::Blind { version, .. } => version.saturating_sub(1),
                };
                let from = match executed {
                    Executed::Claimed { from } => Some(from),
                    _ => None,
                };
                if from.is_some() {
                    self.claims_won += 1;
                } else {
                    self.claims_lost += 1;
                }
                What::Claim { by: w, claim, version, won: from.is_some(), from }
            }
            _ => return,
        };
        Self::record(out, now, Actor::Database, what);
    }

    #[allow(clippy::too_many_arguments)]
    fn replica_continues(
        &mut self,
        now: Millis,
        replica: ReplicaId,
        id: CallId,
        stmt: Stmt,
        cause: Option<Cause>,
        executed: Executed,
        out: &mut Out<'_, Self>,
    ) {
        let issuer = Issuer::Replica(replica, id);
        // A row the check found is answered as a conflict's read is and, as
        // after a conflict, the request_key stays in the generation it met.
        if let (Stmt::Read(Read::Existing { business_key: Some(key), .. }), Executed::Read(Some(_))) = (stmt, executed)
            && let Some(request_key) = self.call(id).request_key
        {
            self.database.remember(request_key, key.generation);
        }
        match (stmt, executed) {
            (Stmt::Lock(_), Executed::Locked) => {
                if let Some(insert) = self.insert_of(id) {
                    self.check_existing(now, id, insert, out);
                }
            }
            (Stmt::Lock(_), _) => out.schedule(now + LOCK_RETRY, Event::LockRetry(id)),
            (Stmt::Read(Read::Existing { .. }), Executed::Read(None)) => self.before_insert(now, id, out),
            // The guarded write found the row moved by someone else (a
            // retry-count worker): read what it holds now and say that.
            (Stmt::Update(update), Executed::Skipped) => {
                let read = Read::ById { row: update.row, requester: None };
                self.issue(now, issuer, Stmt::Read(read), None, out);
            }
            (_, Executed::Inserted(insert)) => {
                self.call_mut(id).row = Some(insert.row);
                if self.past_deadline(now, id) {
                    // No create for a caller that gave up: the row is left
                    // as a timeout leaves it, for the workers to settle.
                    self.out_of_budget(now, id, BudgetStep::Create, out);
                    self.write_outcome(now, issuer, insert.row, None, out);
                } else {
                    self.send_create(now, issuer, insert.row, insert.request_key, insert.order, out);
                }
            }
            (_, Executed::Conflict { insert, on, .. }) => {
                let read = match on {
                    UniqueKey::RequestKey => Read::ByRequestKey(insert.request_key),
                    UniqueKey::BusinessKey => Read::ByBusinessKey(insert.business_key()),
                };
                self.issue(now, issuer, Stmt::Read(read), None, out);
            }
            (_, Executed::Read(found)) => {
                let reply = match found {
                    Some((row, status)) => Reply::Review { row, status },
                    None => Reply::Error { code: ErrorCode::NotFound, row: None },
                };
                self.answer_and_release(now, id, Heard::Result(reply), out);
            }
            (Stmt::Update(update), _) => {
                let reply = reply_for(&update, cause.unwrap_or(Cause::Timeout));
                self.answer_and_release(now, id, Heard::Result(reply), out);
            }
            _ => {}
        }
    }

    fn send_create(
        &mut self,
        now: Millis,
        caller: Issuer,
        row: RowId,
        request_key: RequestKey,
        order: OrderId,
        out: &mut Out<'_, Self>,
    ) {
        let (fate, dispatch) = self.api.on_create_sent(now, request_key);
        let ds = self.push_downstream(now, DsKind::Create, caller, row, request_key, order, fate);
        if let Issuer::Replica(_, call) = caller {
            self.call_mut(call).outstanding += 1;
        }
        // Without its own credential the replica passes the caller's token on.
        let credential = match caller {
            Issuer::Replica(replica, _) if !self.replicas[replica.index()].config().own_credential => {
                Credential::Caller
            }
            _ => Credential::Service,
        };
        Self::record(
            out,
            now,
            caller.actor(),
            What::CreateSent { ds, by: caller, row, request_key, order, credential },
        );
        self.dispatch(now, ds, dispatch, out);
    }

    fn send_find(&mut self, now: Millis, worker: WorkerId, row: DueRow, out: &mut Out<'_, Self>) {
        let (fate, dispatch) = self.api.on_find_sent(now);
        let caller = Issuer::Worker(worker);
        let ds = self.push_downstream(now, DsKind::Find, caller, row.row, row.request_key, row.order, fate);
        let what = What::ProbeSent { ds, row: row.row, request_key: row.request_key };
        Self::record(out, now, Actor::Worker(worker), what);
        self.dispatch(now, ds, dispatch, out);
    }

    #[allow(clippy::too_many_arguments)]
    fn push_downstream(
        &mut self,
        now: Millis,
        kind: DsKind,
        caller: Issuer,
        row: RowId,
        request_key: RequestKey,
        order: OrderId,
        fate: Fate,
    ) -> DownstreamId {
        let id = DownstreamId(self.downstream.len() as u32 + 1);
        self.downstream.push(Downstream {
            id,
            kind,
            caller,
            row,
            request_key,
            order,
            generation: self.database.row(row).map_or(1, |r| r.generation),
            sent_at: now,
            fate,
            waiting: Waiting::Yes,
            seen_done: false,
        });
        id
    }

    /// How long the caller of `ds` waits for the Risk API: the same budget
    /// for replicas and workers, and with deadline propagation no longer
    /// than what is left of the call's deadline.
    fn downstream_timeout(&self, now: Millis, ds: DownstreamId) -> Millis {
        let timeout = self.replicas[0].config().downstream_timeout;
        match self.downstream(ds).caller {
            Issuer::Replica(replica, call) if self.replicas[replica.index()].config().deadline_propagation => {
                timeout.min(Millis(self.deadline_at(call).ms().saturating_sub(now.ms())))
            }
            _ => timeout,
        }
    }

    fn dispatch(&mut self, now: Millis, ds: DownstreamId, dispatch: Dispatch, out: &mut Out<'_, Self>) {
        out.schedule(now + self.downstream_timeout(now, ds), Event::DownstreamTimeout(ds));
        match dispatch {
            Dispatch::At(at) => out.schedule(at, Event::DownstreamDone(ds)),
            Dispatch::Lost | Dispatch::Hangs => {
                let d = self.downstream(ds);
                let (row, request_key) = (d.row, d.request_key);
                let what = if dispatch == Dispatch::Lost {
                    What::RequestLost { ds, row, request_key }
                } else {
                    What::FindHangs { ds, row, request_key }
                };
                Self::record(out, now, Actor::RiskApi, what);
            }
        }
    }

    fn downstream(&self, id: DownstreamId) -> Downstream {
        self.downstream[id.0 as usize - 1]
    }

    fn caller_is_gone(&self, caller: Issuer) -> bool {
        matches!(caller, Issuer::Worker(w) if self.workers[w.index()].is_crashed())
    }

    fn on_downstream_done(&mut self, now: Millis, id: DownstreamId, out: &mut Out<'_, Self>) {
        let ds = self.downstream(id);
        let (row, request_key) = (ds.row, ds.request_key);
        let done = self.api.on_done(now, &ds);
        if let Some(review) = done.created {
            let what = What::ReviewCreated { ds: id, review, request_key: ds.request_key, order: ds.order };
            Self::record(out, now, Actor::RiskApi, what);
        }
        if let Some(review) = done.replayed {
            Self::record(
                out,
                now,
                Actor::RiskApi,
                What::ReviewReplayed { ds: id, review, request_key: ds.request_key },
            );
        }
        if !done.delivered {
            let what = What::ResponseLost { ds: id, row, request_key, answer: done.answer };
            Self::record(out, now, Actor::RiskApi, what);
            return;
        }
        let (kind, answer, sent_at, caller) = (ds.kind, done.answer, ds.sent_at, ds.caller);
        if self.caller_is_gone(caller) {
            Self::record(out, now, caller.actor(), What::ReplyUnheard { ds: id, kind, row, request_key, answer });
            return;
        }
        match ds.waiting {
            Waiting::Yes => {
                self.downstream[id.0 as usize - 1].waiting = Waiting::Answered;
                let what = What::DownstreamReply { ds: id, kind, row, request_key, answer, sent_at };
                Self::record(out, now, caller.actor(), what);
                self.create_done(now, id, out);
                self.on_answer(now, ds, Some(answer), out);
            }
            Waiting::TimedOut => {
                let what = What::LateReply { ds: id, kind, row, request_key, answer, sent_at };
                Self::record(out, now, caller.actor(), what);
                self.create_done(now, id, out);
            }
            Waiting::Answered => {}
        }
    }

    fn on_downstream_timeout(&mut self, now: Millis, id: DownstreamId, out: &mut Out<'_, Self>) {
        let ds = self.downstream(id);
        if ds.waiting != Waiting::Yes || self.caller_is_gone(ds.caller) {
            return;
        }
        self.downstream[id.0 as usize - 1].waiting = Waiting::TimedOut;
        if ds.kind == DsKind::Create && matches!(ds.caller, Issuer::Replica(..)) {
            // The replica stops waiting; the Risk API may still work on it.
            out.schedule(ds.sent_at + OWN_LIMIT, Event::HoldEnds(id));
        }
        let what = What::DownstreamTimeout {
            ds: id,
            kind: ds.kind,
            row: ds.row,
            request_key: ds.request_key,
            sent_at: ds.sent_at,
        };
        Self::record(out, now, ds.caller.actor(), what);
        self.on_answer(now, ds, None, out);
    }

    /// A Risk API call is answered (`None`: its caller's timeout fired).
    fn on_answer(&mut self, now: Millis, ds: Downstream, answer: Option<Answer>, out: &mut Out<'_, Self>) {
        match ds.caller {
            Issuer::Replica(replica, call) => {
                let config = *self.replicas[replica.index()].config();
                if answer.is_none()
                    && config.resend_on_timeout
                    && !self.call(call).resent
                    && !self.past_deadline(now, call)
                {
                    // "Catch the timeout and call again": the same create,
                    // at once, once.
                    self.call_mut(call).resent = true;
                    self.send_create(now, ds.caller, ds.row, ds.request_key, ds.order, out);
                    return;
                }
                self.write_outcome(now, ds.caller, ds.row, answer, out);
            }
            Issuer::Worker(w) => {
                let worker = &mut self.workers[w.index()];
                let step = match ds.kind {
                    DsKind::Find => worker.on_probe_answer(now, answer),
                    DsKind::Create => worker.on_resend_answer(now, answer),
                };
                self.run_worker(now, w, step, out);
            }
        }
    }

    /// The replica writes what its create's answer (`None`: none in time)
    /// means for the row it inserted at version 1, of which it is the only
    /// writer until it answers.
    fn write_outcome(
        &mut self,
        now: Millis,
        caller: Issuer,
        row: RowId,
        answer: Option<Answer>,
        out: &mut Out<'_, Self>,
    ) {
        let Issuer::Replica(replica, _) = caller else { return };
        let config = *self.replicas[replica.index()].config();
        let (update, cause) = create_outcome(now, row, 1, answer, config.timeout_is_unknown, config.find_by_key);
        self.issue(now, caller, Stmt::Update(update), Some(cause), out);
    }

    /// Deadline propagation: a call still queued when what is left of its
    /// deadline no longer covers its work is answered now.
    fn on_budget_lapses(&mut self, now: Millis, id: CallId, out: &mut Out<'_, Self>) {
        let call = *self.call(id);
        if !matches!(call.stage, Stage::Queued { .. }) || !self.replicas[call.replica.index()].remove_queued(id) {
            return;
        }
        self.out_of_budget(now, id, BudgetStep::Queue, out);
    }

    fn run_worker(&mut self, now: Millis, w: WorkerId, step: WorkerStep, out: &mut Out<'_, Self>) {
        match step {
            WorkerStep::Statement(stmt, cause) => self.issue(now, Issuer::Worker(w), stmt, cause, out),
            WorkerStep::Probe(row) => self.send_find(now, w, row, out),
            WorkerStep::Resend(row) => {
                self.send_create(now, Issuer::Worker(w), row.row, row.request_key, row.order, out);
                self.resends += 1;
                if self.scenario.faults.crash_after_resend == Some(self.resends) {
                    self.workers[w.index()].crash(now);
                    Self::record(out, now, Actor::Worker(w), What::WorkerCrashed { worker: w });
                }
            }
            WorkerStep::Idle => {}
        }
    }

    fn on_result_arrives(&mut self, now: Millis, id: CallId, out: &mut Out<'_, Self>) {
        let call = self.call_mut(id);
        call.received_at = Some(now);
        let Some((_, heard)) = call.answered else { return };
        let (sent, made_at) = (call.sent(), call.made_at);
        let (decision, timer) = self.agent.on_heard(now, sent, heard);
        Self::record(out, now, Actor::Agent, What::ResultReceived { call: id, made_at, decision });
        Self::plan(out, sent.intent, decision, timer);
    }

    fn on_call_deadline(&mut self, now: Millis, id: CallId, out: &mut Out<'_, Self>) {
        let call = *self.call(id);
        if call.received_at.is_some() {
            return;
        }
        let (decision, timer) = self.agent.on_deadline(now, call.sent());
        Self::record(out, now, Actor::Agent, What::DeadlinePassed { call: id, made_at: call.made_at, decision });
        Self::plan(out, call.intent, decision, timer);
    }

    fn on_agent(&mut self, now: Millis, step: AgentStep, out: &mut Out<'_, Self>) -> Result<(), SimError> {
        let next = CallId(self.calls.len() as u32 + 1);
        let plan = match step {
            AgentStep::Invoke(n) => {
                let Some(invocation) = self.scenario.invocations.get(n as usize) else { return Ok(()) };
                let (plan, retry) = self.agent.on_invocation(invocation, next);
                if let Some(choice) = retry {
                    let what = What::ScriptedRetry { intent: invocation.intent, choice };
                    Self::record(out, now, Actor::Agent, what);
                }
                plan
            }
            AgentStep::Retry { intent, timer } => self.agent.on_retry(now, intent, timer),
            AgentStep::Poll { intent, timer } => self.agent.on_poll(now, intent, timer, next),
        };
        match plan {
            Some(plan) => self.make_calls(now, plan, out),
            None => Ok(()),
        }
    }

    /// A worker's wake; when both wake at this instant, both go now, in the
    /// race order.
    fn on_worker_wakes(&mut self, now: Millis, w: WorkerId, out: &mut Out<'_, Self>) {
        if self.woke[w.index()] == Some(now) {
            return;
        }
        let other = WorkerId::ALL[1 - w.index()];
        let tied = self.next_wake[other.index()] == now && self.woke[other.index()] != Some(now);
        if tied && !self.workers[other.index()].is_crashed() {
            let order = if self.second_first() { [WorkerId::W2, WorkerId::W1] } else { WorkerId::ALL };
            for x in order {
                self.wake_one(now, x, out);
            }
        } else {
            self.wake_one(now, w, out);
        }
    }

    fn wake_one(&mut self, now: Millis, w: WorkerId, out: &mut Out<'_, Self>) {
        self.woke[w.index()] = Some(now);
        let worker = &mut self.workers[w.index()];
        if worker.is_crashed() {
            return;
        }
        let next = now + worker.scan_interval();
        self.next_wake[w.index()] = next;
        out.schedule(next, Event::WorkerWakes(w));
        if let Some(step) = worker.on_wake(now) {
            self.run_worker(now, w, step, out);
        }
    }
}

impl Model for RiskModel {
    type Time = Millis;
    type Event = Event;
    type Record = Record;

    fn class(event: &Event) -> u8 {
        event.class()
    }

    fn start(&mut self, out: &mut Out<'_, Self>) {
        // Invocations at one instant go in the race order.
        let mut order: Vec<u32> = (0..self.scenario.invocations.len() as u32).collect();
        let at = |n: &u32, invocations: &[super::scenario::Invocation]| invocations[*n as usize].at;
        let mut i = 0;
        while i < order.len() {
            let t = at(&order[i], &self.scenario.invocations);
            let mut j = i;
            while j < order.len() && at(&order[j], &self.scenario.invocations) == t {
                j += 1;
            }
            if j - i > 1 && self.second_first() {
                order[i..j].reverse();
            }
            i = j;
        }
        for n in order {
            out.schedule(self.scenario.invocations[n as usize].at, Event::AgentActs(AgentStep::Invoke(n)));
        }
        for w in WorkerId::ALL {
            let first = self.workers[w.index()].first_wake();
            self.next_wake[w.index()] = first;
            out.schedule(first, Event::WorkerWakes(w));
        }
    }

    fn handle(&mut self, now: Millis, event: Event, out: &mut Out<'_, Self>) -> Result<(), SimError> {
        match event {
            Event::AgentActs(step) => self.on_agent(now, step, out)?,
            Event::CallArrives(id) => self.on_call_arrives(now, id, out),
            Event::ChecksDone(id) => self.on_checks_done(now, id, out),
            Event::LockRetry(id) => self.begin_write(now, id, out),
            Event::Resume(id) => self.issue_insert(now, id, out),
            Event::BudgetLapses(id) => self.on_budget_lapses(now, id, out),
            Event::HoldEnds(id) => self.create_done(now, id, out),
            Event::StatementDone(id) => self.on_statement_done(now, id, out)?,
            Event::DownstreamDone(id) => self.on_downstream_done(now, id, out),
            Event::DownstreamTimeout(id) => self.on_downstream_timeout(now, id, out),
            Event::ResultArrives(id) => self.on_result_arrives(now, id, out),
            Event::CallDeadline(id) => self.on_call_deadline(now, id, out),
            Event::WorkerWakes(w) => self.on_worker_wakes(now, w, out),
        }
        Ok(())
    }

    /// The workers wake forever, so a run ends only at its horizon.
    fn is_finished(&self) -> bool {
        false
    }

    fn stamp(record: &Record) -> (Millis, bool) {
        (record.t, true)
    }
}

#[cfg(test)]
mod tests {
    //! Faults that only the random preset draws, scripted one at a time and
    //! worked out by hand with the default timings (transit 20, checks 100,
    //! statements 1, create 410, find 100, timeout 2500, workers at every
    //! whole second, backoff 1000).

    use super::*;
    use crate::sim::driver::Driver;
    use crate::sim::risk::facts::Status;
    use crate::sim::risk::scenario::{CreateFault, FaultPlan, IntentSpec, Invocation};
    use crate::sim::risk::settings::{Mode, Preset};

    fn moves(mode: Mode, creates: Vec<CreateFault>, hanging: u32) -> (Vec<String>, RiskModel) {
        moves_with(&Settings::preset(Preset::LostCreateResponse, mode), creates, hanging)
    }

    fn moves_with(settings: &Settings, creates: Vec<CreateFault>, hanging: u32) -> (Vec<String>, RiskModel) {
        let scenario = Scenario {
            intents: vec![IntentSpec { order: OrderId(1), request_key: RequestKey(1) }],
            invocations: vec![Invocation {
                at: Millis::ZERO,
                intent: IntentId(1),
                duplicate: false,
                shape: crate::sim::risk::facts::CallShape::Valid,
            }],
            faults: FaultPlan { creates, hanging_probes: (1..=hanging).collect(), ..FaultPlan::default() },
        };
        let mut driver =
            Driver::new(RiskModel::with_scenario(settings, scenario), EVENT_BUDGET, Some(settings.horizon));
        driver.run_to_end().unwrap();
        let moves = driver
            .records()
            .iter()
            .filter_map(|r| r.row_move().map(|m| (r.t, m)))
            .map(|(t, m)| format!("{} {}->{} {}", t.ms(), m.from.map_or("", |f| f.name()), m.to.name(), m.cause.name()))
            .collect();
        (moves, driver.into_parts().0)
    }

    #[test]
    fn a_slow_create_races_the_probe_and_only_idempotent_create_keeps_one_review() {
        use crate::sim::risk::settings::{IDEMPOTENT_CREATE, MODE};
        // Sent at 121, the slow create lands 0.5 s after its 2.5 s timeout:
        // at 121+2500+500 = 3121. The timeout at 2621 makes the row UNKNOWN
        // at 2622; the probes sent at 3001 are evaluated at 3101, before the
        // create lands. The idempotent create knows the key is under way:
        // both probes hear "in progress" and both writes keep the row UNKNOWN
        // at 3102 (the version does not move), due at 3101+1000 = 4101. The
        // scan at 4000 finds nothing due; the probes of 5001 find RV-1 at
        // 5101: SUCCEEDED at 5102, nothing resent.
        let (m, model) = moves(Mode::Patterns, vec![CreateFault::Slow], 0);
        assert_eq!(
            m,
            [
                "121 ->PENDING inserted",
                "2622 PENDING->UNKNOWN timeout",
                "3102 UNKNOWN->UNKNOWN find_in_progress",
                "3102 UNKNOWN->UNKNOWN find_in_progress",
                "5102 UNKNOWN->SUCCEEDED find_found",
            ]
        );
        assert_eq!(model.api.reviews().len(), 1);
        assert_eq!(model.api.reviews()[0].at, Millis(3121));
        assert_eq!(model.api.creates(), 1);
        // Without idempotent create the probe hears "not found": RETRYABLE
        // at 3102 (W1's write; W2's, guarded by the old version, misses)
        // until 4101. At 5000 W1's claim wins at 5002 and it resends: a
        // second review, RV-2, at 5002+410 = 5412.
        let settings = Settings::from_pairs(&[(&MODE, "patterns"), (&IDEMPOTENT_CREATE, "off")]).unwrap();
        let (m, model) = moves_with(&settings, vec![CreateFault::Slow], 0);
        assert_eq!(
            m,
            [
                "121 ->PENDING inserted",
                "2622 PENDING->UNKNOWN timeout",
                "3102 UNKNOWN->RETRYABLE find_not_found",
                "5002 RETRYABLE->PENDING claim_won",
                "5413 PENDING->SUCCEEDED create_succeeded",
            ]
        );
        let at: Vec<u64> = model.api.reviews().iter().map(|r| r.at.ms()).collect();
        assert_eq!(at, [3121, 5412]);
        // The naive server says FAILED while the review exists.
        let (m, model) = moves(Mode::Naive, vec![CreateFault::Slow], 0);
        assert_eq!(m, ["121 ->PENDING inserted", "2622 PENDING->FAILED timeout"]);
        assert_eq!(model.api.reviews().len(), 1);
    }

    #[test]
    fn a_row_the_check_finds_keeps_the_second_clicks_key_in_its_generation() {
        use crate::sim::risk::settings::{MODE, UNIQUE_BUSINESS_KEY};
        // Check-then-insert on the business key, request_key unique. rk-0001
        // (made at 0, to A) checks at 120-121, inserts R10086 at 122 and its
        // create is rejected at 532: FAILED at 533, which closes generation 1.
        // rk-0002 (made at 300, to B) checks at 420-421 and finds R10086, as a
        // conflict would have: PENDING. Its scripted retry (made at 3000, to
        // A; the poll at 1441 took B) checks at 3120-3121 in the generation
        // rk-0002 met, 1, and reads R10086 FAILED: no second row, as with the
        // unique business key.
        let settings =
            Settings::from_pairs(&[(&MODE, "patterns"), (&UNIQUE_BUSINESS_KEY, "check-then-insert")]).expect("valid");
        let click = |at: u64, n: u32| Invocation {
            at: Millis(at),
            intent: IntentId(n),
            duplicate: false,
            shape: crate::sim::risk::facts::CallShape::Valid,
        };
        let scenario = Scenario {
            intents: vec![
                IntentSpec { order: OrderId(1), request_key: RequestKey(1) },
                IntentSpec { order: OrderId(1), request_key: RequestKey(2) },
            ],
            invocations: vec![click(0, 1), click(300, 2), click(3000, 2)],
            faults: FaultPlan { creates: vec![CreateFault::Rejected], ..FaultPlan::default() },
        };
        let mut driver =
            Driver::new(RiskModel::with_scenario(&settings, scenario), EVENT_BUDGET, Some(settings.horizon));
        driver.run_to_end().unwrap();
        let answers: Vec<String> = driver
            .records()
            .iter()
            .filter_map(|r| match r.what {
                What::ToolResult { call, reply: Reply::Review { row, status }, .. } => {
                    Some(format!("{} call{} R{} {}", r.t.ms(), call.0, row.0, status.name()))
                }
                _ => None,
            })
            .collect();
        assert_eq!(
            answers,
            [
                "421 call2 R10086 PENDING",
                "533 call1 R10086 FAILED",
                "1562 call3 R10086 FAILED",
                "3121 call4 R10086 FAILED"
            ]
        );
        let model = driver.into_parts().0;
        assert_eq!(model.database.rows().len(), 1);
        assert!(model.api.reviews().is_empty());
    }

    #[test]
    fn a_500_is_probed_found_missing_claimed_and_resent() {
        // 500 at 531: UNKNOWN at 532, due at 531. The scan at 1000 probes:
        // not found at 1101, RETRYABLE at 1102 until 2101. At 3000 W1 claims
        // (3002) and resends: RV-1 at 3412, SUCCEEDED at 3413.
        let (m, model) = moves(Mode::Patterns, vec![CreateFault::ServerError], 0);
        assert_eq!(
            m,
            [
                "121 ->PENDING inserted",
                "532 PENDING->UNKNOWN downstream_5xx",
                "1102 UNKNOWN->RETRYABLE find_not_found",
                "3002 RETRYABLE->PENDING claim_won",
                "3413 PENDING->SUCCEEDED create_succeeded",
            ]
        );
        assert_eq!(model.api.reviews().len(), 1);
    }

    #[test]
    fn a_reset_after_the_create_is_found_by_the_first_probe() {
        let (m, _) = moves(Mode::Patterns, vec![CreateFault::Reset], 0);
        assert_eq!(m, ["121 ->PENDING inserted", "532 PENDING->UNKNOWN reset", "1102 UNKNOWN->SUCCEEDED find_found"]);
    }

    #[test]
    fn a_business_rejection_is_a_legal_failed() {
        let (m, model) = moves(Mode::Patterns, vec![CreateFault::Rejected], 0);
        assert_eq!(m, ["121 ->PENDING inserted", "532 PENDING->FAILED business_rejection"]);
        assert!(matches!(
            model.calls[0].answered,
            Some((_, Heard::Result(Reply::Review { status: Status::Failed, .. })))
        ));
    }

    #[test]
    fn hanging_probes_keep_the_row_unknown_until_one_answers() {
        // The response is lost; UNKNOWN at 2622. Both probes of 3001 hang and
        // time out at 5501: both writes keep UNKNOWN (the version does not
        // move) and set the next probe to 5501+1000 = 6501. The workers were
        // busy through 4000 and 5000; at 6000 nothing is due; at 7000 the
        // probes find RV-1 at 7101.
        let (m, model) = moves(Mode::Patterns, vec![CreateFault::ResponseLost], 2);
        assert_eq!(
            m,
            [
                "121 ->PENDING inserted",
                "2622 PENDING->UNKNOWN timeout",
                "5502 UNKNOWN->UNKNOWN find_timeout",
                "5502 UNKNOWN->UNKNOWN find_timeout",
                "7102 UNKNOWN->SUCCEEDED find_found",
            ]
        );
        assert_eq!(model.api.finds(), 4);
    }
}
