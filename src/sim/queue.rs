//! The event queue: ordered by (time, class, insertion sequence).
//!
//! Ties are never left to the heap's whims: at equal times the model's
//! tie-break class decides, and within a class the order of scheduling does.

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

use super::time::Instant;

/// The order of one entry: time first, then class, then sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Order<T> {
    at: T,
    class: u8,
    seq: u64,
}

#[derive(Clone, Copy, Debug)]
struct Entry<T, E> {
    order: Order<T>,
    event: E,
}

// Only the order takes part in comparisons: (at, class, seq) is unique per
// entry, so the event never needs an order of its own.
impl<T: Instant, E> PartialEq for Entry<T, E> {
    fn eq(&self, other: &Self) -> bool {
        self.order == other.order
    }
}

impl<T: Instant, E> Eq for Entry<T, E> {}

impl<T: Instant, E> PartialOrd for Entry<T, E> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<T: Instant, E> Ord for Entry<T, E> {
    fn cmp(&self, other: &Self) -> Ordering {
        self.order.cmp(&other.order)
    }
}

#[derive(Clone, Debug)]
pub struct EventQueue<T, E> {
    heap: BinaryHeap<Reverse<Entry<T, E>>>,
    next_seq: u64,
}

impl<T: Instant, E> Default for EventQueue<T, E> {
    fn default() -> Self {
        EventQueue { heap: BinaryHeap::new(), next_seq: 0 }
    }
}

impl<T: Instant, E> EventQueue<T, E> {
    pub fn schedule(&mut self, at: T, class: u8, event: E) {
        let order = Order { at, class, seq: self.next_seq };
        self.next_seq += 1;
        self.heap.push(Reverse(Entry { order, event }));
    }

    pub fn pop(&mut self) -> Option<(T, E)> {
        self.heap.pop().map(|Reverse(e)| (e.order.at, e.event))
    }

    pub fn peek_time(&self) -> Option<T> {
        self.heap.peek().map(|Reverse(e)| e.order.at)
    }

    pub fn len(&self) -> usize {
        self.heap.len()
    }

    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }

    /// Empties the queue but keeps its memory, for the next run.
    pub fn clear(&mut self) {
        self.heap.clear();
        self.next_seq = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::time::Millis;

    #[test]
    fn orders_by_time_then_class_then_scheduling_order() {
        let mut q = EventQueue::default();
        q.schedule(Millis(5), 6, "deadline");
        q.schedule(Millis(5), 5, "commit");
        q.schedule(Millis(5), 1, "response 7");
        q.schedule(Millis(5), 1, "response 3");
        q.schedule(Millis(1), 6, "early deadline");
        let order: Vec<_> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(
            order,
            vec![
                (Millis(1), "early deadline"),
                (Millis(5), "response 7"),
                (Millis(5), "response 3"),
                (Millis(5), "commit"),
                (Millis(5), "deadline"),
            ]
        );
    }
}
