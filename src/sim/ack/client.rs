//! A client: one intent, attempts with per-attempt deadlines (capped by an
//! overall deadline), backoff between them, and an outcome once it is done.

use crate::sim::time::Millis;

use super::backoff;
use super::facts::{Attempt, ClientId, Decision, ExhaustedBy, KeyName, OpKey, Outcome, Payload, Status};
use super::settings::{ClientConfig, KeyMode, PayloadMode};

/// Named after what the client is waiting for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClientState {
    /// Waiting until `at` to send `attempt` (the first attempt waits until 0).
    WaitingToSend {
        attempt: Attempt,
        at: Millis,
    },
    /// Waiting for `attempt` to be answered, until `deadline`.
    AwaitingResponse {
        attempt: Attempt,
        key: OpKey,
        deadline: Millis,
    },
    Done {
        outcome: Outcome,
        at: Millis,
    },
}

/// What became of an answer that reached the client.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reception {
    Decided(Decision),
    /// For an attempt that is no longer current, or after the client is done.
    Late,
}

/// An attempt as it leaves the client.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sent {
    pub attempt: Attempt,
    pub key: OpKey,
    pub payload: Payload,
    pub deadline: Millis,
}

#[derive(Clone, Debug)]
pub struct Client {
    id: ClientId,
    config: ClientConfig,
    /// The logical intent whose key stable attempts reuse.
    intent: u32,
    state: ClientState,
    attempts_sent: u32,
    ack: Option<Millis>,
}

impl Client {
    pub fn new(id: ClientId, config: ClientConfig) -> Client {
        Client {
            id,
            config,
            intent: 1,
            state: ClientState::WaitingToSend { attempt: 1, at: Millis::ZERO },
            attempts_sent: 0,
            ack: None,
        }
    }

    pub fn id(&self) -> ClientId {
        self.id
    }

    pub fn state(&self) -> ClientState {
        self.state
    }

    pub fn attempts_sent(&self) -> u32 {
        self.attempts_sent
    }

    pub fn ack(&self) -> Option<Millis> {
        self.ack
    }

    pub fn is_done(&self) -> bool {
        matches!(self.state, ClientState::Done { .. })
    }

    fn key_for(&self, attempt: Attempt) -> OpKey {
        let name = match self.config.key {
            KeyMode::Stable => KeyName::Intent(self.intent),
            KeyMode::PerAttempt => KeyName::Attempt(attempt),
        };
        OpKey { client: self.id, name }
    }

    fn payload_for(&self, attempt: Attempt) -> Payload {
        match self.config.payload {
            PayloadMode::Changed if attempt > 1 => Payload::B,
            _ => Payload::A,
        }
    }

    /// Time to send the attempt the client is waiting to send, if it is
    /// waiting until `now`. `None` otherwise (a stale event).
    pub fn on_send(&mut self, now: Millis) -> Option<Sent> {
        let ClientState::WaitingToSend { attempt, at } = self.state else {
            return None;
        };
        if at != now {
            return None;
        }
        debug_assert_eq!(attempt, self.attempts_sent + 1, "attempts go out in order, one at a time");
        debug_assert!(attempt <= self.config.max_attempts, "never more attempts than allowed");
        let key = self.key_for(attempt);
        let mut deadline = now + self.config.timeout;
        if let Some(overall) = self.config.deadline {
            deadline = deadline.min(overall);
        }
        // A send is planned only before the overall deadline, and a timeout
        // is at least a millisecond: every attempt has time to be answered.
        debug_assert!(deadline > now, "an attempt's deadline is after it is sent");
        self.attempts_sent += 1;
        self.state = ClientState::AwaitingResponse { attempt, key, deadline };
        Some(Sent { attempt, key, payload: self.payload_for(attempt), deadline })
    }

    /// An answer for `attempt` reaches the client.
    pub fn on_response(&mut self, now: Millis, attempt: Attempt, status: Status) -> Reception {
        let ClientState::AwaitingResponse { attempt: current, deadline, .. } = self.state else {
            return Reception::Late;
        };
        // A deadline at this same instant has not fired yet: answers are
        // handled first, so one landing exactly at the deadline wins.
        if attempt != current || now > deadline {
            return Reception::Late;
        }
        let decision = match status {
            Status::Success => {
                debug_assert!(self.ack.is_none(), "a client is acknowledged once");
                self.ack = Some(now);
                self.finish(now, Outcome::Succeeded)
            }
            Status::Rejected | Status::Unprocessable => self.finish(now, Outcome::Rejected(status)),
            Status::Unavailable | Status::Conflict | Status::Refused => self.continue_after(now, attempt),
        };
        Reception::Decided(decision)
    }

    /// `attempt`'s deadline passes: returns the attempt's key and what the
    /// client does next. `None` if that attempt was already decided: such a
    /// deadline is not an event.
    pub fn on_deadline(&mut self, now: Millis, attempt: Attempt) -> Option<(OpKey, Decision)> {
        match self.state {
            ClientState::AwaitingResponse { attempt: current, key, deadline }
                if current == attempt && deadline == now =>
            {
                Some((key, self.continue_after(now, attempt)))
            }
            _ => None,
        }
    }

    /// After a failed attempt: retry after backoff if an attempt and the
    /// time for it are left, otherwise give up.
    fn continue_after(&mut self, now: Millis, attempt: Attempt) -> Decision {
        debug_assert!(
            matches!(self.state, ClientState::AwaitingResponse { attempt: current, .. } if current == attempt),
            "only the attempt the client awaits can fail"
        );
        if attempt >= self.config.max_attempts {
            return self.finish(now, Outcome::Exhausted(ExhaustedBy::Attempts));
        }
        let delay = backoff::delay(&self.config, attempt);
        let at = now + delay;
        if self.config.deadline.is_some_and(|overall| at >= overall) {
            return self.finish(now, Outcome::Exhausted(ExhaustedBy::Deadline));
        }
        let next = attempt + 1;
        self.state = ClientState::WaitingToSend { attempt: next, at };
        Decision::Retry { next, at, delay }
    }

    fn finish(&mut self, now: Millis, outcome: Outcome) -> Decision {
        debug_assert!(!self.is_done(), "a client ends once");
        debug_assert_eq!(self.ack.is_some(), outcome == Outcome::Succeeded, "acknowledged exactly when it succeeds");
        self.state = ClientState::Done { outcome, at: now };
        Decision::Done(outcome)
    }
}
