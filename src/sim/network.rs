//! The network: fixed transit times, and the response faults that drop
//! success responses.

use super::event::{Attempt, MessageId, OpKey, Status};
use super::settings::{Fault, Settings};
use super::time::Millis;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Payload {
    Request,
    Response(Status),
}

/// A message on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Message {
    pub id: MessageId,
    pub attempt: Attempt,
    pub key: OpKey,
    pub payload: Payload,
    pub sent_at: Millis,
    /// When it is delivered, or (if dropped) when it would have been.
    pub arrives_at: Millis,
    /// The fault drops it: it vanishes at `arrives_at` instead of arriving.
    pub dropped: bool,
}

#[derive(Clone, Debug)]
pub(crate) struct Network {
    settings: Settings,
    next_id: u32,
    successes_sent: u32,
    in_transit: Vec<Message>,
    lost: Vec<Message>,
}

impl Network {
    pub(crate) fn new(settings: &Settings) -> Network {
        Network { settings: settings.clone(), next_id: 0, successes_sent: 0, in_transit: Vec::new(), lost: Vec::new() }
    }

    pub(crate) fn is_idle(&self) -> bool {
        self.in_transit.is_empty()
    }

    pub(crate) fn in_transit(&self) -> &[Message] {
        &self.in_transit
    }

    pub(crate) fn lost(&self) -> &[Message] {
        &self.lost
    }

    /// Whether the fault drops the next response with `status`.
    fn drops(&mut self, status: Status) -> bool {
        if status != Status::Success {
            return false;
        }
        self.successes_sent += 1;
        match self.settings.fault() {
            Fault::LoseFirst => self.successes_sent == 1,
            Fault::LoseAll => true,
            Fault::None | Fault::First503 | Fault::Reject400 => false,
        }
    }

    /// Puts a message on the wire at `now` and returns it.
    pub(crate) fn send(&mut self, now: Millis, attempt: Attempt, key: OpKey, payload: Payload) -> Message {
        let (transit, dropped) = match payload {
            Payload::Request => (self.settings.request_transit(), false),
            Payload::Response(status) => (self.settings.response_transit(), self.drops(status)),
        };
        let message = Message {
            id: MessageId(self.next_id),
            attempt,
            key,
            payload,
            sent_at: now,
            arrives_at: now + transit,
            dropped,
        };
        self.next_id += 1;
        self.in_transit.push(message);
        message
    }

    /// Takes message `id` off the wire: it is delivered, or it vanishes.
    pub(crate) fn on_arrival(&mut self, id: MessageId) -> Message {
        let index = self.in_transit.iter().position(|m| m.id == id).expect("arriving message is in transit");
        let message = self.in_transit.remove(index);
        if message.dropped {
            self.lost.push(message);
        }
        message
    }
}
