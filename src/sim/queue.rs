//! The event queue: ordered by (time, class, insertion sequence).
//!
//! Ties are never left to the heap's whims: at equal times the class from
//! MODEL.md decides, and within a class the order of scheduling does.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::event::Event;
use super::time::Millis;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Entry {
    at: Millis,
    class: u8,
    seq: u64,
    // Never compared in practice: (at, class, seq) is unique per entry.
    event: EventOrd,
}

/// `Event` has no meaningful order of its own; this wrapper gives it a
/// trivial one so it can ride along in the heap entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct EventOrd(Event);

impl PartialOrd for EventOrd {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for EventOrd {
    fn cmp(&self, _other: &Self) -> std::cmp::Ordering {
        std::cmp::Ordering::Equal
    }
}

#[derive(Clone, Debug, Default)]
pub(crate) struct EventQueue {
    heap: BinaryHeap<Reverse<Entry>>,
    next_seq: u64,
}

impl EventQueue {
    pub(crate) fn schedule(&mut self, at: Millis, event: Event) {
        let entry = Entry { at, class: event.class(), seq: self.next_seq, event: EventOrd(event) };
        self.next_seq += 1;
        self.heap.push(Reverse(entry));
    }

    pub(crate) fn pop(&mut self) -> Option<(Millis, Event)> {
        self.heap.pop().map(|Reverse(e)| (e.at, e.event.0))
    }

    pub(crate) fn peek_time(&self) -> Option<Millis> {
        self.heap.peek().map(|Reverse(e)| e.at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::event::{MessageId, OpId};

    #[test]
    fn orders_by_time_then_class_then_scheduling_order() {
        let mut q = EventQueue::default();
        q.schedule(Millis(5), Event::DeadlinePasses(1));
        q.schedule(Millis(5), Event::OperationCommits(OpId(0)));
        q.schedule(Millis(5), Event::ResponseArrives(MessageId(7)));
        q.schedule(Millis(5), Event::ResponseArrives(MessageId(3)));
        q.schedule(Millis(1), Event::DeadlinePasses(2));
        let order: Vec<_> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(
            order,
            vec![
                (Millis(1), Event::DeadlinePasses(2)),
                (Millis(5), Event::ResponseArrives(MessageId(7))),
                (Millis(5), Event::ResponseArrives(MessageId(3))),
                (Millis(5), Event::OperationCommits(OpId(0))),
                (Millis(5), Event::DeadlinePasses(1)),
            ]
        );
    }
}
