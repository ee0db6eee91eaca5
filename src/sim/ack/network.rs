//! The network: fixed transit times, and the response faults that drop
//! success responses. Refusals, 4xx and 5xx answers are never dropped, and a
//! crash stops the server, not the network.

use crate::sim::time::Millis;

use super::facts::{Attempt, ClientId, MessageId, OpKey, Payload, Status};
use super::settings::{Drops, NetworkConfig};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Body {
    Request(Payload),
    Response(Status),
}

/// A message on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Message {
    pub id: MessageId,
    pub client: ClientId,
    pub attempt: Attempt,
    pub key: OpKey,
    pub body: Body,
    pub sent_at: Millis,
    /// When it is delivered, or (if dropped) when it would have been.
    pub arrives_at: Millis,
    /// The fault drops it: it vanishes at `arrives_at` instead of arriving.
    pub dropped: bool,
}

#[derive(Clone, Debug)]
pub struct Network {
    config: NetworkConfig,
    next_id: u32,
    successes_sent: u32,
    in_transit: Vec<Message>,
    lost: Vec<Message>,
}

impl Network {
    pub fn new(config: NetworkConfig) -> Network {
        Network { config, next_id: 0, successes_sent: 0, in_transit: Vec::new(), lost: Vec::new() }
    }

    pub fn is_idle(&self) -> bool {
        self.in_transit.is_empty()
    }

    /// Messages on the wire, in the order they were sent.
    pub fn in_transit(&self) -> &[Message] {
        &self.in_transit
    }

    pub fn lost(&self) -> &[Message] {
        &self.lost
    }

    /// Whether the fault drops the next answer with `status`.
    fn drops(&mut self, status: Status) -> bool {
        if status != Status::Success {
            return false;
        }
        self.successes_sent += 1;
        match self.config.drops {
            Drops::FirstSuccess => self.successes_sent == 1,
            Drops::EverySuccess => true,
            Drops::None => false,
        }
    }

    /// Puts a message on the wire at `now` and returns it.
    pub fn send(&mut self, now: Millis, client: ClientId, attempt: Attempt, key: OpKey, body: Body) -> Message {
        let (transit, dropped) = match body {
            Body::Request(_) => (self.config.request_transit, false),
            Body::Response(status) => (self.config.response_transit, self.drops(status)),
        };
        let message = Message {
            id: MessageId(self.next_id),
            client,
            attempt,
            key,
            body,
            sent_at: now,
            arrives_at: now + transit,
            dropped,
        };
        self.next_id += 1;
        self.in_transit.push(message);
        message
    }

    /// Takes message `id` off the wire: it is delivered, or it vanishes.
    /// `None` if it is not on the wire (a stale event).
    pub fn on_arrival(&mut self, id: MessageId) -> Option<Message> {
        let index = self.in_transit.iter().position(|m| m.id == id)?;
        let message = self.in_transit.remove(index);
        if message.dropped {
            self.lost.push(message);
        }
        Some(message)
    }
}
