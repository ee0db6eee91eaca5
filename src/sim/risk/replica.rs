//! A replica (stateless): gates at the door, then, for each call, the
//! pipeline of RISK-MODEL.md: protocol, validation, subject from the
//! trusted context, authorization, and then the database and the Risk API.

use std::collections::VecDeque;

use crate::sim::time::Millis;

use super::calls::Call;
use super::facts::{
    CallId, CallShape, ErrorCode, Insert, OrderId, Policy, Read, ReplicaId, RowId, RpcError, Tool, UserId, owner_of,
};
use super::settings::ReplicaConfig;

/// What the gates do with an arriving call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gate {
    Admitted,
    /// It waits in the queue: for a slot of this replica, or (its slot
    /// free) for the fleet to have a place.
    Queued {
        for_slot: bool,
    },
    /// The queue is full: OVERLOADED at once.
    Overloaded,
}

/// The authorization step's facts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PolicyCheck {
    pub subject: UserId,
    /// Whether the subject is the user_id the arguments named.
    pub claimed: bool,
    pub order: OrderId,
    pub owner: UserId,
    pub decision: Policy,
}

/// What the checks decide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Checked {
    /// A JSON-RPC error, never a tool result.
    Rpc(RpcError),
    /// An error result; no database write, no downstream call.
    Refuse { code: ErrorCode, policy: Option<PolicyCheck> },
    /// Go on with the insert-if-absent.
    Insert { insert: Insert, policy: PolicyCheck },
    /// A status poll: read the row.
    Read(Read),
}

/// Occupancy, as records report it after each gate decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Occupancy {
    pub in_flight: u32,
    pub queued: u32,
}

#[derive(Clone, Debug)]
pub struct Replica {
    id: ReplicaId,
    config: ReplicaConfig,
    in_flight: u32,
    queue: VecDeque<(CallId, Millis)>,
    max_in_flight: u32,
    max_queued: u32,
    overloaded: u32,
}

impl Replica {
    pub fn new(id: ReplicaId, config: ReplicaConfig) -> Replica {
        Replica { id, config, in_flight: 0, queue: VecDeque::new(), max_in_flight: 0, max_queued: 0, overloaded: 0 }
    }

    /// A fresh replica for a new run, keeping this one's memory.
    pub fn reset(&mut self, config: ReplicaConfig) {
        self.config = config;
        self.in_flight = 0;
        self.queue.clear();
        self.max_in_flight = 0;
        self.max_queued = 0;
        self.overloaded = 0;
    }

    pub fn id(&self) -> ReplicaId {
        self.id
    }

    pub fn config(&self) -> &ReplicaConfig {
        &self.config
    }

    pub fn occupancy(&self) -> Occupancy {
        Occupancy { in_flight: self.in_flight, queued: self.queue.len() as u32 }
    }

    pub fn max_in_flight(&self) -> u32 {
        self.max_in_flight
    }

    pub fn max_queued(&self) -> u32 {
        self.max_queued
    }

    pub fn overloaded(&self) -> u32 {
        self.overloaded
    }

    /// The calls waiting for a slot, oldest first, with when they queued.
    pub fn queue(&self) -> impl Iterator<Item = &(CallId, Millis)> {
        self.queue.iter()
    }

    /// Whether a call could take a slot here now: always with the gates off.
    pub fn has_free_slot(&self) -> bool {
        !self.config.gates.on || self.in_flight < self.config.gates.cap
    }

    /// A call reaches the door. It takes a slot if one is free and the
    /// fleet has room (`fleet_room`, always true without the global gate);
    /// otherwise it waits in the queue, which only the gates bound: a call
    /// that finds it full gets OVERLOADED at once.
    pub fn on_arrival(&mut self, now: Millis, call: CallId, fleet_room: bool) -> (Gate, Occupancy) {
        let gates = self.config.gates;
        let slot = self.has_free_slot();
        let gate = if slot && fleet_room {
            self.take_slot();
            Gate::Admitted
        } else if !gates.on || (self.queue.len() as u32) < gates.queue {
            self.queue.push_back((call, now));
            self.max_queued = self.max_queued.max(self.queue.len() as u32);
            Gate::Queued { for_slot: !slot }
        } else {
            self.overloaded += 1;
            Gate::Overloaded
        };
        (gate, self.occupancy())
    }

    fn take_slot(&mut self) {
        debug_assert!(self.has_free_slot(), "a slot is taken only when one is free");
        self.in_flight += 1;
        self.max_in_flight = self.max_in_flight.max(self.in_flight);
    }

    /// A call in a slot is answered: its slot frees. Who takes it (or the
    /// fleet's place it held) the model decides.
    pub fn on_finish(&mut self) {
        debug_assert!(self.in_flight > 0, "only a call in a slot finishes");
        self.in_flight = self.in_flight.saturating_sub(1);
    }

    /// The oldest queued call, with when it queued, if a slot is free for it.
    pub fn next_waiting(&self) -> Option<(CallId, Millis)> {
        if self.has_free_slot() { self.queue.front().copied() } else { None }
    }

    /// A queued call leaves the queue without starting (its budget lapsed);
    /// whether it was there.
    pub fn remove_queued(&mut self, call: CallId) -> bool {
        let Some(at) = self.queue.iter().position(|&(c, _)| c == call) else { return false };
        self.queue.remove(at);
        true
    }

    /// The oldest queued call leaves the queue: into a slot (`start`), or
    /// dropped, never started.
    pub fn dequeue(&mut self, start: bool) -> Option<(CallId, Millis, Occupancy)> {
        let (call, since) = self.queue.pop_front()?;
        if start {
            self.take_slot();
        }
        Some((call, since, self.occupancy()))
    }

    /// The user_id the arguments name, if this replica takes the end user
    /// from them (the wrong design).
    fn claimed_subject(&self, call: &Call) -> Option<UserId> {
        call.shape.claimed_user().filter(|_| !self.config.subject_from_token)
    }

    /// The end user the replica acts for: the trusted context's subject,
    /// or, in the wrong design, the user_id the arguments name when they
    /// name one.
    pub fn subject_of(&self, call: &Call) -> Option<UserId> {
        self.claimed_subject(call).or(call.subject)
    }

    /// Steps 1 to 4 of the pipeline for `call`.
    pub fn check(&self, call: &Call) -> Checked {
        let invalid = Checked::Refuse { code: ErrorCode::InvalidArgument, policy: None };
        let config = &self.config;
        match call.shape {
            CallShape::Malformed => return Checked::Rpc(RpcError::InvalidRequest),
            CallShape::UnknownTool => return Checked::Rpc(RpcError::MethodNotFound),
            CallShape::InvalidArgument => return invalid,
            // The strict schema has `additionalProperties: false` and length
            // limits; taking the end user from the token, it declares no
            // user_id either.
            CallShape::ExtraArgument | CallShape::LongReason if config.strict_schema => return invalid,
            CallShape::ClaimedUser if config.strict_schema && config.subject_from_token => return invalid,
            // Audience is checked with authorization; without it the
            // token is trusted whoever it was issued for.
            CallShape::WrongAudience if config.authorize => return Checked::Rpc(RpcError::WrongAudience),
            _ => {}
        }
        let claimed = self.claimed_subject(call);
        let Some(subject) = self.subject_of(call) else {
            return Checked::Refuse { code: ErrorCode::Unauthenticated, policy: None };
        };
        match (call.tool, call.order, call.request_key, call.review) {
            (Tool::RequestRiskReview, Some(order), Some(request_key), _) => {
                let owner = owner_of(order);
                let decision = match (self.config.authorize, owner == subject) {
                    (false, _) => Policy::NotChecked,
                    (true, true) => Policy::Allowed,
                    (true, false) => Policy::Forbidden,
                };
                let policy = PolicyCheck { subject, claimed: claimed.is_some(), order, owner, decision };
                if decision == Policy::Forbidden {
                    return Checked::Refuse { code: ErrorCode::Forbidden, policy: Some(policy) };
                }
                // The database gives the row its id when the insert runs.
                let insert = Insert { row: RowId(0), request_key, order, requester: subject, generation: 1 };
                Checked::Insert { insert, policy }
            }
            (Tool::GetRiskReviewStatus, _, _, Some(row)) => {
                Checked::Read(Read::ById { row, requester: self.config.authorize.then_some(subject) })
            }
            _ => Checked::Refuse { code: ErrorCode::InvalidArgument, policy: None },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::risk::calls::Stage;
    use crate::sim::risk::facts::{END_USER, FORGED_ORDER, IntentId, OTHER_USER, RequestKey};
    use crate::sim::risk::settings::{Gates, KeyGuard};

    fn config(authorize: bool, gates: bool) -> ReplicaConfig {
        ReplicaConfig {
            auth_policy: Millis(100),
            downstream_timeout: Millis(2500),
            gates: Gates { on: gates, cap: 2, queue: 1 },
            authorize,
            timeout_is_unknown: true,
            find_by_key: true,
            request_key: KeyGuard::Unique,
            business_key: KeyGuard::Unique,
            resend_on_timeout: false,
            lock_lease: Millis(5000),
            deadline_propagation: false,
            fleet_quota: None,
            held: true,
            error_results: true,
            subject_from_token: true,
            strict_schema: true,
            own_credential: true,
        }
    }

    fn call(shape: CallShape, order: u32) -> Call {
        Call {
            id: CallId(1),
            intent: IntentId(1),
            tool: Tool::RequestRiskReview,
            request_key: Some(RequestKey(1)),
            order: Some(OrderId(order)),
            review: None,
            subject: (shape != CallShape::NoSubject).then_some(END_USER),
            shape,
            replica: ReplicaId::A,
            invocation: 1,
            made_at: Millis::ZERO,
            stage: Stage::Working,
            row: None,
            answered: None,
            received_at: None,
            resent: false,
            in_slot: true,
            outstanding: 0,
        }
    }

    #[test]
    fn every_step_of_the_pipeline_refuses_in_order() {
        let r = Replica::new(ReplicaId::A, config(true, true));
        assert_eq!(r.check(&call(CallShape::Malformed, 1)), Checked::Rpc(RpcError::InvalidRequest));
        assert_eq!(r.check(&call(CallShape::UnknownTool, 1)), Checked::Rpc(RpcError::MethodNotFound));
        let refused = |c: Checked| match c {
            Checked::Refuse { code, .. } => Some(code),
            _ => None,
        };
        assert_eq!(refused(r.check(&call(CallShape::InvalidArgument, 1))), Some(ErrorCode::InvalidArgument));
        assert_eq!(refused(r.check(&call(CallShape::NoSubject, 1))), Some(ErrorCode::Unauthenticated));
        let Checked::Refuse { code: ErrorCode::Forbidden, policy: Some(p) } = r.check(&call(CallShape::Valid, 999))
        else {
            panic!("forged order must be forbidden")
        };
        assert_eq!((p.subject, p.order, p.owner), (END_USER, FORGED_ORDER, OTHER_USER));
        assert!(matches!(r.check(&call(CallShape::Valid, 1)), Checked::Insert { .. }));
        let open = Replica::new(ReplicaId::A, config(false, true));
        let Checked::Insert { policy, .. } = open.check(&call(CallShape::Valid, 999)) else { panic!("trusted") };
        assert_eq!(policy.decision, Policy::NotChecked);
    }

    #[test]
    fn gates_admit_queue_then_refuse_and_a_freed_slot_goes_to_the_queue() {
        let mut r = Replica::new(ReplicaId::A, config(true, true));
        let gate = |r: &mut Replica, n| r.on_arrival(Millis(20), CallId(n), true).0;
        assert_eq!(
            [gate(&mut r, 1), gate(&mut r, 2), gate(&mut r, 3), gate(&mut r, 4)],
            [Gate::Admitted, Gate::Admitted, Gate::Queued { for_slot: true }, Gate::Overloaded]
        );
        assert_eq!(r.next_waiting(), None, "both slots are taken");
        r.on_finish();
        assert_eq!(r.next_waiting(), Some((CallId(3), Millis(20))));
        let (next, since, occupancy) = r.dequeue(true).unwrap();
        assert_eq!((next, since, occupancy), (CallId(3), Millis(20), Occupancy { in_flight: 2, queued: 0 }));
        r.on_finish();
        assert!(r.next_waiting().is_none());
        assert_eq!(r.occupancy(), Occupancy { in_flight: 1, queued: 0 });
        assert_eq!((r.max_in_flight(), r.max_queued(), r.overloaded()), (2, 1, 1));
        let mut open = Replica::new(ReplicaId::B, config(true, false));
        assert!((1..=50).all(|n| open.on_arrival(Millis(0), CallId(n), true).0 == Gate::Admitted));
    }

    #[test]
    fn a_full_fleet_queues_a_call_whose_slot_is_free_and_only_the_gates_bound_the_queue() {
        let mut r = Replica::new(ReplicaId::A, config(true, true));
        assert_eq!(r.on_arrival(Millis(20), CallId(1), false).0, Gate::Queued { for_slot: false });
        assert_eq!(r.on_arrival(Millis(20), CallId(2), false).0, Gate::Overloaded);
        assert_eq!(r.next_waiting(), Some((CallId(1), Millis(20))), "its slot is free: it waits for the fleet");
        let mut open = Replica::new(ReplicaId::B, config(true, false));
        assert!((1..=50).all(|n| open.on_arrival(Millis(0), CallId(n), false).0 == Gate::Queued { for_slot: false }));
        assert_eq!(open.occupancy(), Occupancy { in_flight: 0, queued: 50 });
    }
}
