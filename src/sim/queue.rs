//! The event queue: ordered by (time, class, insertion sequence).
//!
//! Ties are never left to the heap's whims: at equal times the model's
//! tie-break class decides, and within a class the order of scheduling does.
//! The queue holds only that order, packed into one integer; the events sit
//! in a list indexed by their sequence number, so the queue moves 16 bytes
//! at a time whatever a lab's events carry.
//!
//! Every key is unique (it holds the sequence number), so any correct
//! priority queue pops the same order. While few events are pending (a
//! single client's run never has more than a handful) they are kept in a
//! short sorted list, whose insertions and removals cost a few comparisons;
//! once more are pending (the storms' thousands of clients) they move to a
//! binary heap.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::time::Instant;

/// Sequences stay below 2^56; a run schedules far fewer events.
const SEQ_BITS: u32 = 56;
const SEQ_MASK: u128 = (1 << SEQ_BITS) - 1;

/// The most pending events the sorted list holds before they move to the
/// heap: inserting into a sorted list shifts up to this many keys.
const SHORT: usize = 32;

#[derive(Clone, Debug)]
pub struct EventQueue<T, E> {
    /// Until more than `SHORT` events are pending at once: the pending keys,
    /// the first `short_len` of these, latest first, so the next one is the
    /// last. Keys are (time << 64) | (class << 56) | sequence.
    short: [u128; SHORT],
    short_len: usize,
    /// From then on, until the queue is cleared: the pending keys.
    heap: BinaryHeap<Reverse<u128>>,
    /// Whether the keys have moved to the heap.
    spilled: bool,
    /// Every event scheduled this run, by sequence number.
    events: Vec<E>,
    time: std::marker::PhantomData<T>,
}

impl<T: Instant, E: Copy> Default for EventQueue<T, E> {
    fn default() -> Self {
        EventQueue {
            short: [0; SHORT],
            short_len: 0,
            heap: BinaryHeap::new(),
            spilled: false,
            events: Vec::new(),
            time: std::marker::PhantomData,
        }
    }
}

impl<T: Instant, E: Copy> EventQueue<T, E> {
    #[inline(always)]
    pub fn schedule(&mut self, at: T, class: u8, event: E) {
        let seq = self.events.len() as u128;
        debug_assert!(seq <= SEQ_MASK);
        self.events.push(event);
        let key = (u128::from(at.ticks()) << 64) | (u128::from(class) << SEQ_BITS) | seq;
        if self.spilled {
            self.heap.push(Reverse(key));
        } else if self.short_len < SHORT {
            self.insert_short(key);
        } else {
            self.spill(key);
        }
    }

    /// Inserts `key` into the sorted list, after every later key.
    #[inline(always)]
    fn insert_short(&mut self, key: u128) {
        let len = self.short_len;
        let keys = &mut self.short[..=len];
        let mut i = len;
        while i > 0 && keys[i - 1] < key {
            keys[i] = keys[i - 1];
            i -= 1;
        }
        keys[i] = key;
        self.short_len = len + 1;
    }

    /// Moves the sorted list to the heap, and `key` with it.
    #[cold]
    fn spill(&mut self, key: u128) {
        self.heap.extend(self.short[..self.short_len].iter().map(|&key| Reverse(key)));
        self.heap.push(Reverse(key));
        self.short_len = 0;
        self.spilled = true;
    }

    fn time_of(key: u128) -> T {
        T::from_ticks((key >> 64) as u64)
    }

    /// The next event, if there is one.
    #[inline]
    pub fn pop(&mut self) -> Option<(T, E)> {
        self.pop_through(None)
    }

    /// The next event, if there is one at or before `horizon` (any, without
    /// one).
    #[inline(always)]
    pub fn pop_through(&mut self, horizon: Option<T>) -> Option<(T, E)> {
        let next = self.next_key()?;
        if horizon.is_some_and(|h| Self::time_of(next) > h) {
            return None;
        }
        let key = if self.spilled {
            self.heap.pop()?.0
        } else {
            self.short_len -= 1;
            next
        };
        Some((Self::time_of(key), self.events[(key & SEQ_MASK) as usize]))
    }

    #[inline(always)]
    fn next_key(&self) -> Option<u128> {
        if self.spilled {
            self.heap.peek().map(|&Reverse(key)| key)
        } else {
            self.short[..self.short_len].last().copied()
        }
    }

    #[inline]
    pub fn peek_time(&self) -> Option<T> {
        self.next_key().map(Self::time_of)
    }

    pub fn len(&self) -> usize {
        self.heap.len() + self.short_len
    }

    /// Every pending event, in no particular order (for checks that judge
    /// a run in progress by what is really scheduled).
    pub fn pending(&self) -> impl Iterator<Item = (T, E)> + '_ {
        let keys: Box<dyn Iterator<Item = u128>> = if self.spilled {
            Box::new(self.heap.iter().map(|&Reverse(key)| key))
        } else {
            Box::new(self.short[..self.short_len].iter().copied())
        };
        keys.map(|key| (Self::time_of(key), self.events[(key & SEQ_MASK) as usize]))
    }

    pub fn is_empty(&self) -> bool {
        self.heap.is_empty() && self.short_len == 0
    }

    /// Empties the queue but keeps its memory, for the next run.
    pub fn clear(&mut self) {
        self.short_len = 0;
        self.heap.clear();
        self.spilled = false;
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

    /// Pops everything, as (time, event), and checks the order against a
    /// plain sort of what was scheduled.
    fn drain_in_order(q: &mut EventQueue<Millis, u32>, scheduled: &mut Vec<(u64, u8, u32)>) {
        scheduled.sort_by_key(|&(t, class, n)| (t, class, n));
        let popped: Vec<_> = std::iter::from_fn(|| q.pop()).collect();
        let expected: Vec<_> = scheduled.drain(..).map(|(t, _, n)| (Millis(t), n)).collect();
        assert_eq!(popped, expected);
    }

    #[test]
    fn many_pending_events_keep_the_same_order_as_few() {
        let mut q = EventQueue::default();
        let mut scheduled = Vec::new();
        // Runs that never hold more than the sorted list, runs that spill
        // to the heap, and a run after a clear, which starts short again.
        for (round, count) in [(0u32, 5u32), (1, 40), (2, 500), (3, 7)] {
            q.clear();
            let mut state = 12_345u64 + u64::from(round);
            for n in 0..count {
                state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                let (t, class) = ((state >> 40) % 50, ((state >> 20) % 7) as u8);
                q.schedule(Millis(t), class, n);
                scheduled.push((t, class, n));
                // Take some away while scheduling, as a run does.
                if n % 3 == 2 {
                    scheduled.sort_by_key(|&(t, class, n)| (t, class, n));
                    let (t, _, first) = scheduled.remove(0);
                    assert_eq!(q.pop(), Some((Millis(t), first)));
                }
            }
            assert_eq!(q.len(), scheduled.len());
            drain_in_order(&mut q, &mut scheduled);
            assert!(q.is_empty());
        }
    }

    #[test]
    fn nothing_past_the_horizon_is_popped() {
        // Few pending (the sorted list) and many (the heap).
        for count in [5u32, 40] {
            let mut q = EventQueue::default();
            for n in (0..count).rev() {
                q.schedule(Millis(u64::from(n)), 0, n);
            }
            assert_eq!(q.pop_through(Some(Millis(0))), Some((Millis(0), 0)));
            assert_eq!(q.pop_through(Some(Millis(0))), None);
            assert_eq!(q.peek_time(), Some(Millis(1)));
            assert_eq!(q.pop_through(Some(Millis(1))), Some((Millis(1), 1)));
            assert_eq!(q.pop_through(None), Some((Millis(2), 2)));
            assert_eq!(q.len(), count as usize - 3);
        }
    }
}
