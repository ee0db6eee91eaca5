//! The agent: acts for end user u-1001, invokes intents when its script
//! says, and reacts to what it hears: an UNKNOWN, PENDING or RETRYABLE
//! result makes it poll the review's status every poll interval until
//! SUCCEEDED or FAILED; an OVERLOADED or TEMPORARY_UNAVAILABLE result is
//! retried with the same request_key after backoff; INVALID_ARGUMENT as a
//! Tool Result makes it drop what the server refused and call again, once;
//! any other error, and any JSON-RPC error, ends the intent. Retries of an
//! intent beyond that are scripted, not reactive, and its retry policy
//! decides what a scripted retry does: call again, call again only a tool
//! that declares itself idempotent, or poll the review it was given.

use crate::sim::time::Millis;

use super::facts::{
    AgentDecision, CallId, CallShape, END_USER, ErrorCode, Heard, IntentId, IntentOutcome, OrderId, Reply, RequestKey,
    RetryChoice, RowId, Status, Tool, UserId,
};
use super::scenario::{IntentSpec, Invocation};
use super::settings::{AgentConfig, AgentRetry};

/// The most calls one invocation of an intent makes for OVERLOADED results.
pub const MAX_ATTEMPTS: u32 = 8;
/// The most status polls for one invocation.
pub const MAX_POLLS: u32 = 20;

/// Named after what the intent waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntentState {
    NotInvoked,
    AwaitingResult,
    BackingOff {
        until: Millis,
    },
    /// Waiting to poll `review` at `at`.
    Polling {
        review: RowId,
        at: Millis,
    },
    AwaitingPoll {
        call: CallId,
        review: RowId,
    },
    Done {
        outcome: IntentOutcome,
        at: Millis,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Intent {
    pub id: IntentId,
    pub order: OrderId,
    pub request_key: RequestKey,
    pub state: IntentState,
    /// Scripted invocations so far; results of earlier ones are ignored.
    pub invocation: u32,
    /// Calls made in this invocation (1 is the first).
    pub attempts: u32,
    pub polls: u32,
    /// What the current invocation's arguments look like; a retry after
    /// OVERLOADED sends them again.
    pub shape: CallShape,
    /// Whether it already dropped what the server refused in this
    /// invocation.
    pub fixed: bool,
    /// The review_id the latest answer that named one gave.
    pub review: Option<RowId>,
    /// Voids planned retries and polls once the intent moves on.
    timer: u32,
}

/// A call the agent wants made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CallPlan {
    pub intent: IntentId,
    pub tool: Tool,
    pub request_key: Option<RequestKey>,
    pub order: Option<OrderId>,
    pub review: Option<RowId>,
    pub subject: Option<UserId>,
    pub shape: CallShape,
    pub duplicate: bool,
    pub attempt: u32,
    pub invocation: u32,
}

/// What the agent knows about a call it made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sent {
    pub id: CallId,
    pub intent: IntentId,
    pub tool: Tool,
    pub invocation: u32,
}

#[derive(Clone, Debug)]
pub struct Agent {
    config: AgentConfig,
    intents: Vec<Intent>,
}

impl Agent {
    pub fn new(config: AgentConfig, specs: &[IntentSpec]) -> Agent {
        let mut agent = Agent { config, intents: Vec::new() };
        agent.reset(config, specs);
        agent
    }

    /// A fresh agent for a new run, keeping this one's memory.
    pub fn reset(&mut self, config: AgentConfig, specs: &[IntentSpec]) {
        self.config = config;
        self.intents.clear();
        self.intents.extend(specs.iter().enumerate().map(|(i, spec)| Intent {
            id: IntentId(i as u32 + 1),
            order: spec.order,
            request_key: spec.request_key,
            state: IntentState::NotInvoked,
            invocation: 0,
            attempts: 0,
            polls: 0,
            shape: CallShape::Valid,
            fixed: false,
            review: None,
            timer: 0,
        }));
    }

    pub fn intents(&self) -> &[Intent] {
        &self.intents
    }

    fn intent_mut(&mut self, id: IntentId) -> Option<&mut Intent> {
        self.intents.get_mut((id.0 as usize).checked_sub(1)?)
    }

    fn request(intent: &Intent, duplicate: bool) -> CallPlan {
        let shape = intent.shape;
        CallPlan {
            intent: intent.id,
            tool: Tool::RequestRiskReview,
            request_key: Some(intent.request_key),
            order: Some(intent.order),
            review: None,
            subject: (shape != CallShape::NoSubject).then_some(END_USER),
            shape,
            duplicate,
            attempt: intent.attempts,
            invocation: intent.invocation,
        }
    }

    /// The script invokes an intent; `next` is the id the call will get.
    /// Invoked again, it is a scripted retry, and the retry policy says
    /// what it does (returned with the call it makes, if any).
    pub fn on_invocation(&mut self, invocation: &Invocation, next: CallId) -> (Option<CallPlan>, Option<RetryChoice>) {
        let config = self.config;
        let Some(intent) = self.intent_mut(invocation.intent) else { return (None, None) };
        let retry = (intent.invocation > 0).then(|| Self::retry_choice(config, intent));
        match retry {
            Some(RetryChoice::Withheld) => return (None, retry),
            Some(RetryChoice::Poll(review)) => {
                intent.invocation += 1;
                intent.polls = 0;
                intent.timer += 1;
                return (Self::poll_now(intent, review, next), retry);
            }
            _ => {}
        }
        intent.invocation += 1;
        intent.attempts = 1;
        intent.polls = 0;
        intent.timer += 1;
        intent.shape = invocation.shape;
        intent.fixed = false;
        intent.state = IntentState::AwaitingResult;
        (Some(Self::request(intent, invocation.duplicate)), retry)
    }

    /// What a scripted retry of `intent` does under the agent's policy.
    fn retry_choice(config: AgentConfig, intent: &Intent) -> RetryChoice {
        match config.retry {
            AgentRetry::AtOnce => RetryChoice::Again,
            AgentRetry::IfIdempotent if config.idempotent_hint => RetryChoice::AgainDeclared,
            AgentRetry::IfIdempotent => RetryChoice::Withheld,
            AgentRetry::PollReview => intent.review.map_or(RetryChoice::AgainNoHandle, RetryChoice::Poll),
        }
    }

    /// A planned retry comes due. `None` if the intent moved on.
    pub fn on_retry(&mut self, now: Millis, id: IntentId, timer: u32) -> Option<CallPlan> {
        let intent = self.intent_mut(id)?;
        if intent.timer != timer || intent.state != (IntentState::BackingOff { until: now }) {
            return None;
        }
        intent.attempts += 1;
        intent.state = IntentState::AwaitingResult;
        Some(Self::request(intent, false))
    }

    /// A planned poll comes due; `call` is the id the poll will get.
    pub fn on_poll(&mut self, now: Millis, id: IntentId, timer: u32, call: CallId) -> Option<CallPlan> {
        let intent = self.intent_mut(id)?;
        let IntentState::Polling { review, at } = intent.state else { return None };
        if intent.timer != timer || at != now {
            return None;
        }
        Self::poll_now(intent, review, call)
    }

    /// A status poll of `review`, made now as call `call`.
    fn poll_now(intent: &mut Intent, review: RowId, call: CallId) -> Option<CallPlan> {
        intent.polls += 1;
        intent.state = IntentState::AwaitingPoll { call, review };
        Some(CallPlan {
            intent: intent.id,
            tool: Tool::GetRiskReviewStatus,
            request_key: None,
            order: None,
            review: Some(review),
            subject: Some(END_USER),
            shape: CallShape::Valid,
            duplicate: false,
            attempt: intent.polls,
            invocation: intent.invocation,
        })
    }

    /// What the agent does on hearing `heard` for `call`; the returned
    /// timer goes with a planned poll or retry.
    pub fn on_heard(&mut self, now: Millis, call: Sent, heard: Heard) -> (AgentDecision, u32) {
        let config = self.config;
        let Some(intent) = self.intent_mut(call.intent) else { return (AgentDecision::Ignored, 0) };
        if let Heard::Result(reply) = heard
            && let Some(row) = reply.row()
        {
            intent.review = Some(row);
        }
        let decision = match call.tool {
            Tool::RequestRiskReview => Self::on_request_result(config, intent, now, call, heard),
            Tool::GetRiskReviewStatus => Self::on_poll_result(config, intent, now, call, heard),
        };
        (decision, intent.timer)
    }

    fn done(intent: &mut Intent, now: Millis, outcome: IntentOutcome) -> AgentDecision {
        intent.timer += 1;
        intent.state = IntentState::Done { outcome, at: now };
        AgentDecision::Done(outcome)
    }

    fn poll_later(config: AgentConfig, intent: &mut Intent, now: Millis, review: RowId) -> AgentDecision {
        let at = now + config.poll_interval;
        intent.timer += 1;
        intent.state = IntentState::Polling { review, at };
        AgentDecision::PollAt(at)
    }

    fn on_request_result(
        config: AgentConfig,
        intent: &mut Intent,
        now: Millis,
        call: Sent,
        heard: Heard,
    ) -> AgentDecision {
        if call.invocation != intent.invocation || matches!(intent.state, IntentState::Done { .. }) {
            return AgentDecision::Ignored;
        }
        let awaiting = intent.state == IntentState::AwaitingResult;
        match heard {
            Heard::Result(Reply::Review { row, status: Status::Succeeded }) => {
                Self::done(intent, now, IntentOutcome::Succeeded(row))
            }
            Heard::Result(Reply::Review { row, status: Status::Failed }) => {
                Self::done(intent, now, IntentOutcome::Failed(row))
            }
            Heard::Result(Reply::Review { row, .. }) if awaiting => Self::poll_later(config, intent, now, row),
            Heard::Result(Reply::Error { code: ErrorCode::Overloaded | ErrorCode::TemporaryUnavailable, .. })
                if awaiting =>
            {
                if intent.attempts >= MAX_ATTEMPTS {
                    return Self::done(intent, now, IntentOutcome::GaveUp);
                }
                let until = now + config.backoff;
                intent.timer += 1;
                intent.state = IntentState::BackingOff { until };
                AgentDecision::RetryAt(until)
            }
            // A Tool Result says what was wrong with the arguments: drop it
            // and call again, once.
            Heard::Result(Reply::Error { code: ErrorCode::InvalidArgument, .. })
                if awaiting && !intent.fixed && intent.attempts < MAX_ATTEMPTS =>
            {
                intent.fixed = true;
                intent.shape = CallShape::Valid;
                intent.timer += 1;
                intent.state = IntentState::BackingOff { until: now };
                AgentDecision::FixAt(now)
            }
            Heard::Result(Reply::Error { code, .. }) if awaiting => {
                Self::done(intent, now, IntentOutcome::Refused(code))
            }
            // A JSON-RPC error says only that the request failed.
            Heard::Rpc(error) if awaiting => Self::done(intent, now, IntentOutcome::Protocol(error)),
            _ => AgentDecision::Ignored,
        }
    }

    fn on_poll_result(
        config: AgentConfig,
        intent: &mut Intent,
        now: Millis,
        call: Sent,
        heard: Heard,
    ) -> AgentDecision {
        let IntentState::AwaitingPoll { call: current, review } = intent.state else { return AgentDecision::Ignored };
        if current != call.id {
            return AgentDecision::Ignored;
        }
        match heard {
            Heard::Result(Reply::Review { row, status: Status::Succeeded }) => {
                Self::done(intent, now, IntentOutcome::Succeeded(row))
            }
            Heard::Result(Reply::Review { row, status: Status::Failed }) => {
                Self::done(intent, now, IntentOutcome::Failed(row))
            }
            Heard::Result(
                Reply::Review { .. }
                | Reply::Error { code: ErrorCode::Overloaded | ErrorCode::TemporaryUnavailable, .. },
            ) => {
                if intent.polls >= MAX_POLLS {
                    Self::done(intent, now, IntentOutcome::GaveUp)
                } else {
                    Self::poll_later(config, intent, now, review)
                }
            }
            Heard::Result(Reply::Error { code, .. }) => Self::done(intent, now, IntentOutcome::Refused(code)),
            Heard::Rpc(error) => Self::done(intent, now, IntentOutcome::Protocol(error)),
        }
    }

    /// `call`'s deadline passes unanswered. A request the agent still waits
    /// for ends its intent with no answer; a poll is tried again.
    pub fn on_deadline(&mut self, now: Millis, call: Sent) -> (AgentDecision, u32) {
        let config = self.config;
        let Some(intent) = self.intent_mut(call.intent) else { return (AgentDecision::Ignored, 0) };
        let decision = match (call.tool, intent.state) {
            (Tool::RequestRiskReview, IntentState::AwaitingResult) if call.invocation == intent.invocation => {
                Self::done(intent, now, IntentOutcome::NoAnswer)
            }
            (Tool::GetRiskReviewStatus, IntentState::AwaitingPoll { call: current, review }) if current == call.id => {
                if intent.polls >= MAX_POLLS {
                    Self::done(intent, now, IntentOutcome::GaveUp)
                } else {
                    Self::poll_later(config, intent, now, review)
                }
            }
            _ => AgentDecision::Ignored,
        };
        (decision, intent.timer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn agent() -> Agent {
        let config = AgentConfig {
            transit: Millis(20),
            deadline: Millis(5000),
            poll_interval: Millis(1000),
            backoff: Millis(1000),
            retry: AgentRetry::AtOnce,
            idempotent_hint: false,
        };
        Agent::new(config, &[IntentSpec { order: OrderId(1), request_key: RequestKey(1) }])
    }

    fn invocation() -> Invocation {
        Invocation { at: Millis::ZERO, intent: IntentId(1), duplicate: false, shape: CallShape::Valid }
    }

    fn sent(id: u32, tool: Tool) -> Sent {
        Sent { id: CallId(id), intent: IntentId(1), tool, invocation: 1 }
    }

    #[test]
    fn unknown_makes_it_poll_until_succeeded() {
        let mut a = agent();
        a.on_invocation(&invocation(), CallId(1)).0.unwrap();
        let heard = Heard::Result(Reply::Review { row: RowId(10086), status: Status::Unknown });
        let (decision, timer) = a.on_heard(Millis(2642), sent(1, Tool::RequestRiskReview), heard);
        assert_eq!(decision, AgentDecision::PollAt(Millis(3642)));
        assert!(a.on_poll(Millis(3642), IntentId(1), timer - 1, CallId(2)).is_none(), "a stale timer");
        let poll = a.on_poll(Millis(3642), IntentId(1), timer, CallId(2)).unwrap();
        assert_eq!((poll.tool, poll.review), (Tool::GetRiskReviewStatus, Some(RowId(10086))));
        let heard = Heard::Result(Reply::Review { row: RowId(10086), status: Status::Succeeded });
        let (decision, _) = a.on_heard(Millis(3783), sent(2, Tool::GetRiskReviewStatus), heard);
        assert_eq!(decision, AgentDecision::Done(IntentOutcome::Succeeded(RowId(10086))));
    }

    #[test]
    fn overloaded_is_retried_a_bounded_number_of_times() {
        let mut a = agent();
        a.on_invocation(&invocation(), CallId(1)).0.unwrap();
        let overloaded = Heard::Result(Reply::Error { code: ErrorCode::Overloaded, row: None });
        let mut now = Millis(40);
        for attempt in 1..MAX_ATTEMPTS {
            let (decision, timer) = a.on_heard(now, sent(attempt, Tool::RequestRiskReview), overloaded);
            assert_eq!(decision, AgentDecision::RetryAt(now + Millis(1000)));
            now = now + Millis(1000);
            let retry = a.on_retry(now, IntentId(1), timer).unwrap();
            assert_eq!((retry.attempt, retry.request_key), (attempt + 1, Some(RequestKey(1))));
        }
        let (decision, _) = a.on_heard(now, sent(MAX_ATTEMPTS, Tool::RequestRiskReview), overloaded);
        assert_eq!(decision, AgentDecision::Done(IntentOutcome::GaveUp));
    }

    #[test]
    fn a_late_duplicate_is_ignored_once_done() {
        let mut a = agent();
        a.on_invocation(&invocation(), CallId(1)).0.unwrap();
        let ok = Heard::Result(Reply::Review { row: RowId(10086), status: Status::Succeeded });
        a.on_heard(Millis(552), sent(1, Tool::RequestRiskReview), ok);
        let pending = Heard::Result(Reply::Review { row: RowId(10086), status: Status::Pending });
        assert_eq!(a.on_heard(Millis(600), sent(2, Tool::RequestRiskReview), pending).0, AgentDecision::Ignored);
    }
}
