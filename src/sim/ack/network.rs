//! The network: fixed transit times, the response faults that drop success
//! responses (refusals, 4xx and 5xx answers are never dropped by them), and
//! the aimed faults that drop one attempt's request or every answer to it. A
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

/// Where a message is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    OnTheWire,
    Delivered,
    Lost,
}

#[derive(Clone, Debug)]
pub struct Network {
    config: NetworkConfig,
    successes_sent: u32,
    /// Every message of the run, indexed by its id, with where it is now.
    messages: Vec<(Message, Place)>,
    on_the_wire: usize,
    /// Messages the fault dropped that have vanished.
    lost: u32,
}

impl Network {
    pub fn new(config: NetworkConfig) -> Network {
        Network { config, successes_sent: 0, messages: Vec::new(), on_the_wire: 0, lost: 0 }
    }

    /// A fresh network for a new run, keeping this one's memory.
    pub fn reset(&mut self, config: NetworkConfig) {
        self.config = config;
        self.successes_sent = 0;
        self.messages.clear();
        self.on_the_wire = 0;
        self.lost = 0;
    }

    pub fn is_idle(&self) -> bool {
        self.on_the_wire == 0
    }

    fn placed(&self, place: Place) -> impl Iterator<Item = &Message> {
        self.messages.iter().filter(move |(_, p)| *p == place).map(|(m, _)| m)
    }

    /// Messages on the wire, in the order they were sent.
    pub fn in_transit(&self) -> impl Iterator<Item = &Message> {
        self.placed(Place::OnTheWire)
    }

    /// Responses a fault dropped, in the order they were sent (a lost
    /// request is the attempt's own event, not a lost response).
    pub fn lost(&self) -> impl Iterator<Item = &Message> {
        self.placed(Place::Lost).filter(|m| matches!(m.body, Body::Response(_)))
    }

    /// How many responses a fault dropped have vanished so far (the length
    /// of `lost`, counted as they vanish).
    pub fn lost_count(&self) -> u32 {
        self.lost
    }

    /// Whether a fault drops the next answer to `attempt`, with `status`:
    /// an aimed `response-lost` drops every answer to its attempt.
    fn drops(&mut self, attempt: Attempt, status: Status) -> bool {
        // Every success counts towards lose-first, whoever drops it.
        let by_fault = status == Status::Success && {
            self.successes_sent += 1;
            match self.config.drops {
                Drops::FirstSuccess => self.successes_sent == 1,
                Drops::EverySuccess => true,
                Drops::None => false,
            }
        };
        by_fault || self.config.responses_lost.has(attempt)
    }

    /// Puts a message on the wire at `now`; returns its id and when it
    /// arrives (or vanishes).
    pub fn send(
        &mut self,
        now: Millis,
        client: ClientId,
        attempt: Attempt,
        key: OpKey,
        body: Body,
    ) -> (MessageId, Millis) {
        let (transit, dropped) = match body {
            Body::Request(_) => (self.config.request_transit, self.config.requests_lost.has(attempt)),
            Body::Response(status) => (self.config.response_transit, self.drops(attempt, status)),
        };
        let message = Message {
            id: MessageId(self.messages.len() as u32),
            client,
            attempt,
            key,
            body,
            sent_at: now,
            arrives_at: now + transit,
            dropped,
        };
        self.messages.push((message, Place::OnTheWire));
        self.on_the_wire += 1;
        (message.id, message.arrives_at)
    }

    /// Message `id`, wherever it is.
    pub fn message(&self, id: MessageId) -> &Message {
        &self.messages[id.0 as usize].0
    }

    /// Takes message `id` off the wire: it is delivered, or it vanishes.
    /// `None` if it is not on the wire (a stale event).
    pub fn on_arrival(&mut self, id: MessageId) -> Option<&Message> {
        let (message, place) = self.messages.get_mut(id.0 as usize)?;
        if *place != Place::OnTheWire {
            return None;
        }
        if message.dropped {
            *place = Place::Lost;
            self.lost += u32::from(matches!(message.body, Body::Response(_)));
        } else {
            *place = Place::Delivered;
        }
        debug_assert!(self.on_the_wire > 0, "a message leaves the wire only once");
        self.on_the_wire -= 1;
        debug_assert_eq!(self.on_the_wire, self.placed(Place::OnTheWire).count(), "the wire's count is its messages");
        Some(&self.messages[id.0 as usize].0)
    }
}
