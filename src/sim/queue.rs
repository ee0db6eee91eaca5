//! The event queue: ordered by (time, class, insertion sequence).
//!
//! Ties are never left to the heap's whims: at equal times the model's
//! tie-break class decides, and within a class the order of scheduling does.
//! The heap holds only that order, packed into one integer; the events sit
//! in a list indexed by their sequence number, so the heap moves 16 bytes
//! at a time whatever a lab's events carry.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::time::Instant;

/// Sequences stay below 2^56; a run schedules far fewer events.
const SEQ_BITS: u32 = 56;
const SEQ_MASK: u128 = (1 << SEQ_BITS) - 1;

#[derive(Clone, Debug)]
pub struct EventQueue<T, E> {
    /// (time << 64) | (class << 56) | sequence.
    heap: BinaryHeap<Reverse<u128>>,
    /// Every event scheduled this run, by sequence number.
    events: Vec<E>,
    time: std::marker::PhantomData<T>,
}

impl<T: Instant, E: Copy> Default for EventQueue<T, E> {
    fn default() -> Self {
        EventQueue { heap: BinaryHeap::new(), events: Vec::new(), time: std::marker::PhantomData }
    }
}

impl<T: Instant, E: Copy> EventQueue<T, E> {
    #[inline(always)]
    pub fn schedule(&mut self, at: T, class: u8, event: E) {
        let seq = self.events.len() as u128;
        debug_assert!(seq <= SEQ_MASK);
        self.events.push(event);
        self.heap.push(Reverse((u128::from(at.ticks()) << 64) | (u128::from(class) << SEQ_BITS) | seq));
    }

    #[inline]
    pub fn pop(&mut self) -> Option<(T, E)> {
        let Reverse(key) = self.heap.pop()?;
        Some((T::from_ticks((key >> 64) as u64), self.events[(key & SEQ_MASK) as usize]))
    }

    #[inline]
    pub fn peek_time(&self) -> Option<T> {
        self.heap.peek().map(|Reverse(key)| T::from_ticks((key >> 64) as u64))
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
        self.events.clear();
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

    #[test]
    fn far_times_order_correctly() {
        let mut q = EventQueue::default();
        q.schedule(Millis(u64::MAX - 1), 0, 'b');
        q.schedule(Millis(1 << 40), 7, 'a');
        assert_eq!(q.pop(), Some((Millis(1 << 40), 'a')));
        assert_eq!(q.pop(), Some((Millis(u64::MAX - 1), 'b')));
        assert!(q.is_empty());
    }
}
