//! The client: one intent, attempts with per-attempt deadlines, backoff
//! between them, and an outcome once it is done.

use super::backoff;
use super::event::{Attempt, Decision, OpKey, Outcome, Status};
use super::settings::{KeyMode, Settings};
use super::time::Millis;

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

/// What became of a response that reached the client.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reception {
    Decided(Decision),
    /// For an attempt that is no longer current, or after the client is done.
    Late,
}

#[derive(Clone, Debug)]
pub(crate) struct Client {
    settings: Settings,
    /// The logical intent whose key stable attempts reuse.
    intent: u32,
    state: ClientState,
    attempts_sent: u32,
    ack: Option<Millis>,
}

impl Client {
    pub(crate) fn new(settings: &Settings) -> Client {
        Client {
            settings: settings.clone(),
            intent: 1,
            state: ClientState::WaitingToSend { attempt: 1, at: Millis::ZERO },
            attempts_sent: 0,
            ack: None,
        }
    }

    pub(crate) fn state(&self) -> ClientState {
        self.state
    }

    pub(crate) fn attempts_sent(&self) -> u32 {
        self.attempts_sent
    }

    pub(crate) fn ack(&self) -> Option<Millis> {
        self.ack
    }

    pub(crate) fn is_done(&self) -> bool {
        matches!(self.state, ClientState::Done { .. })
    }

    fn key_for(&self, attempt: Attempt) -> OpKey {
        match self.settings.key() {
            KeyMode::Stable => OpKey::Intent(self.intent),
            KeyMode::PerAttempt => OpKey::Attempt(attempt),
        }
    }

    /// Sends `attempt` now; returns its key and deadline.
    pub(crate) fn on_send(&mut self, now: Millis, attempt: Attempt) -> (OpKey, Millis) {
        debug_assert_eq!(self.state, ClientState::WaitingToSend { attempt, at: now });
        let key = self.key_for(attempt);
        let deadline = now + self.settings.timeout();
        self.attempts_sent += 1;
        self.state = ClientState::AwaitingResponse { attempt, key, deadline };
        (key, deadline)
    }

    /// A response for `attempt` reaches the client.
    pub(crate) fn on_response(&mut self, now: Millis, attempt: Attempt, status: Status) -> Reception {
        let ClientState::AwaitingResponse { attempt: current, deadline, .. } = self.state else {
            return Reception::Late;
        };
        // A deadline at this same instant has not fired yet: responses are
        // handled first, so a response landing exactly at the deadline wins.
        if attempt != current || now > deadline {
            return Reception::Late;
        }
        let decision = match status {
            Status::Success => {
                self.ack = Some(now);
                self.finish(now, Outcome::Succeeded)
            }
            Status::Rejected => self.finish(now, Outcome::Rejected),
            Status::Unavailable => self.continue_after(now, attempt),
        };
        Reception::Decided(decision)
    }

    /// `attempt`'s deadline passes: returns the attempt's key and what the
    /// client does next. `None` if that attempt was already decided: such a
    /// deadline is not an event.
    pub(crate) fn on_deadline(&mut self, now: Millis, attempt: Attempt) -> Option<(OpKey, Decision)> {
        match self.state {
            ClientState::AwaitingResponse { attempt: current, key, deadline }
                if current == attempt && deadline == now =>
            {
                Some((key, self.continue_after(now, attempt)))
            }
            _ => None,
        }
    }

    fn continue_after(&mut self, now: Millis, attempt: Attempt) -> Decision {
        if attempt < self.settings.max_attempts() {
            let delay = backoff::delay(&self.settings, attempt);
            let next = attempt + 1;
            let at = now + delay;
            self.state = ClientState::WaitingToSend { attempt: next, at };
            Decision::Retry { next, at, delay }
        } else {
            self.finish(now, Outcome::Exhausted)
        }
    }

    fn finish(&mut self, now: Millis, outcome: Outcome) -> Decision {
        self.state = ClientState::Done { outcome, at: now };
        Decision::Done(outcome)
    }
}
