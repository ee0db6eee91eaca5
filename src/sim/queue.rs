//! The event queue: ordered by (time, class, insertion sequence).
//!
//! Ties are never left to the queue's whims: at equal times the model's
//! tie-break class decides, and within a class the order of scheduling does.
//! The order is packed into one integer; while few events are pending the
//! queue holds only these keys and the events sit in a list indexed by
//! their sequence number, and on the wheel each key travels with its event.
//!
//! Every key is unique (it holds the sequence number), so any correct
//! priority queue pops the same order. While few events are pending (a
//! single client's run never has more than a handful) they are kept in a
//! short sorted list, whose insertions and removals cost a few comparisons;
//! once more are pending (the storms' thousands of clients) they move to a
//! timing wheel: a ring of buckets, each a short span of time, over the
//! near future, and a binary heap for what lies beyond it. A storm's
//! clients each wait for one message a few milliseconds away, so the next
//! event is found in a bucket or two instead of by sifting a heap.

use std::collections::BinaryHeap;

use super::Surely;
use super::time::Instant;

/// Sequences stay below 2^56; a run schedules far fewer events.
const SEQ_BITS: u32 = 56;
const SEQ_MASK: u128 = (1 << SEQ_BITS) - 1;

/// The most pending events the sorted list holds before they move to the
/// wheel: inserting into a sorted list shifts up to this many keys.
const SHORT: usize = 32;

#[derive(Clone, Debug)]
pub struct EventQueue<T, E> {
    /// Until more than `SHORT` events are pending at once: the pending keys,
    /// the first `short_len` of these, latest first, so the next one is the
    /// last. Keys are (time << 64) | (class << 56) | sequence.
    short: [u128; SHORT],
    short_len: usize,
    /// From then on, until the queue is cleared: the pending keys, each
    /// with its event.
    wheel: Wheel<E>,
    /// Whether the keys have moved to the wheel.
    spilled: bool,
    /// Every event scheduled this run before the keys moved to the wheel,
    /// by sequence number.
    events: Vec<E>,
    /// The next sequence number.
    seq: u64,
    time: std::marker::PhantomData<T>,
}

impl<T: Instant, E: Copy> Default for EventQueue<T, E> {
    fn default() -> Self {
        EventQueue {
            short: [0; SHORT],
            short_len: 0,
            wheel: Wheel::new(T::WHEEL_SHIFT),
            spilled: false,
            events: Vec::new(),
            seq: 0,
            time: std::marker::PhantomData,
        }
    }
}

impl<T: Instant, E: Copy> EventQueue<T, E> {
    #[inline(always)]
    pub fn schedule(&mut self, at: T, class: u8, event: E) {
        let seq = u128::from(self.seq);
        self.seq += 1;
        debug_assert!(seq <= SEQ_MASK);
        let key = (u128::from(at.ticks()) << 64) | (u128::from(class) << SEQ_BITS) | seq;
        if self.spilled {
            self.wheel.push(key, event);
        } else {
            self.events.push(event);
            if self.short_len < SHORT {
                self.insert_short(key);
            } else {
                self.spill(key);
            }
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

    /// Moves the sorted list to the wheel, and `key` with it.
    #[cold]
    fn spill(&mut self, key: u128) {
        let event = |key: u128| self.events[(key & SEQ_MASK) as usize];
        for i in 0..self.short_len {
            self.wheel.push(self.short[i], event(self.short[i]));
        }
        self.wheel.push(key, event(key));
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
        if self.spilled {
            let (place, key) = self.wheel.first()?;
            if horizon.is_some_and(|h| Self::time_of(key) > h) {
                return None;
            }
            let (key, event) = self.wheel.take(place);
            return Some((Self::time_of(key), event));
        }
        let next = *self.short[..self.short_len].last()?;
        if horizon.is_some_and(|h| Self::time_of(next) > h) {
            return None;
        }
        self.short_len -= 1;
        Some((Self::time_of(next), self.events[(next & SEQ_MASK) as usize]))
    }

    #[inline]
    pub fn peek_time(&self) -> Option<T> {
        let key = if self.spilled { self.wheel.peek() } else { self.short[..self.short_len].last().copied() };
        key.map(Self::time_of)
    }

    pub fn len(&self) -> usize {
        self.wheel.len() + self.short_len
    }

    /// The queue's work beyond a constant per event since it was made or
    /// cleared (see `Wheel::work`): a measure of how it grows, not of time.
    pub fn work(&self) -> u64 {
        self.wheel.work
    }

    /// Every pending event, in no particular order (for checks that judge
    /// a run in progress by what is really scheduled).
    pub fn pending(&self) -> impl Iterator<Item = (T, E)> + '_ {
        let pending: Box<dyn Iterator<Item = (u128, E)>> = if self.spilled {
            Box::new(self.wheel.entries())
        } else {
            Box::new(self.short[..self.short_len].iter().map(|&key| (key, self.events[(key & SEQ_MASK) as usize])))
        };
        pending.map(|(key, event)| (Self::time_of(key), event))
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Empties the queue but keeps its memory, for the next run.
    pub fn clear(&mut self) {
        self.short_len = 0;
        self.wheel.clear();
        self.spilled = false;
        self.events.clear();
        self.seq = 0;
    }
}

/// The most keys a key scheduled into the bucket being emptied may move
/// to go in at its place; one that would move more waits in `early`. (The
/// unit tests allow two, so that the property test's short runs use the
/// heap beside the bucket often.)
const SHIFT_AT_MOST: usize = if cfg!(test) { 2 } else { 64 };

/// Where the least key of the wheel is: in its bucket's sorted keys, or in
/// the heap of keys scheduled into that bucket while it was being emptied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    Sorted(usize),
    Early,
}

/// Buckets on the wheel (a power of two).
const SLOTS: usize = 1024;
const SLOT_MASK: u64 = SLOTS as u64 - 1;

/// A timing wheel over keys (time << 64 | order), each with its event:
/// bucket `b` holds the keys whose time shifted right by `shift` is `b`,
/// for the `SLOTS` buckets from `now` on; later keys wait in `far` until
/// the wheel reaches them. A bucket's keys are unsorted until the wheel
/// reaches it; it is then sorted once and emptied in order.
#[derive(Clone, Debug)]
struct Wheel<E> {
    shift: u32,
    slots: Vec<Vec<(u128, E)>>,
    /// A bit per slot, set while it holds keys: the next bucket with any
    /// is found a word of 64 at a time.
    occupied: [u64; SLOTS / 64],
    /// The bucket the wheel has reached: nothing pending lies before it.
    now: u64,
    /// The bucket being emptied, its keys sorted, earliest first: they are
    /// taken from `head` on (a key scheduled into it, usually later than
    /// the rest, goes in near its end).
    sorted: Option<u64>,
    head: usize,
    /// Keys scheduled into the bucket being emptied that would have to go
    /// in far from its end: a heap of their own, so that thousands of
    /// clients each scheduling one into a full bucket cost a sift each, not
    /// a shift of the bucket each (quadratic in the clients). The least key
    /// of the bucket is the least of its sorted rest and this heap's.
    early: BinaryHeap<Far<E>>,
    /// Keys on the wheel.
    near: usize,
    far: BinaryHeap<Far<E>>,
    /// The work done beyond a constant per key, for tests that bound how it
    /// grows with the keys (never a time): keys moved to make room in the
    /// bucket being emptied, and for each sort and each heap's push or pop
    /// the comparisons it may make (n log n, log n).
    work: u64,
}

/// The comparisons a sort of `n` keys or a heap of `n` keys' push or pop
/// may make, per key: the bits of `n`.
fn depth(n: usize) -> u64 {
    u64::from(usize::BITS - n.leading_zeros())
}

/// A key beyond the wheel, with its event, ordered by the key alone (the
/// least first).
#[derive(Clone, Copy, Debug)]
struct Far<E>(u128, E);

impl<E> PartialEq for Far<E> {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}

impl<E> Eq for Far<E> {}

impl<E> PartialOrd for Far<E> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl<E> Ord for Far<E> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        other.0.cmp(&self.0)
    }
}

impl<E: Copy> Wheel<E> {
    fn new(shift: u32) -> Wheel<E> {
        Wheel {
            shift,
            slots: Vec::new(),
            occupied: [0; SLOTS / 64],
            now: 0,
            sorted: None,
            head: 0,
            early: BinaryHeap::new(),
            near: 0,
            far: BinaryHeap::new(),
            work: 0,
        }
    }

    fn bucket(&self, key: u128) -> u64 {
        ((key >> 64) as u64) >> self.shift
    }

    fn len(&self) -> usize {
        self.near + self.far.len()
    }

    #[inline(always)]
    fn push(&mut self, key: u128, event: E) {
        if self.slots.is_empty() {
            self.slots = (0..SLOTS).map(|_| Vec::new()).collect();
        }
        let b = self.bucket(key);
        if b < self.now {
            self.rewind(b);
        }
        if b - self.now < SLOTS as u64 {
            self.put(b, key, event);
        } else {
            self.work += depth(self.far.len());
            self.far.push(Far(key, event));
        }
    }

    #[inline(always)]
    fn put(&mut self, bucket: u64, key: u128, event: E) {
        let slot = (bucket & SLOT_MASK) as usize;
        if self.sorted == Some(bucket) {
            let keys = &mut self.slots[slot];
            let at = self.head + keys[self.head..].partition_point(|e| e.0 < key);
            let moved = keys.len() - at;
            if moved <= SHIFT_AT_MOST {
                keys.insert(at, (key, event));
                self.work += moved as u64;
            } else {
                self.work += depth(self.early.len());
                self.early.push(Far(key, event));
            }
        } else {
            self.slots[slot].push((key, event));
        }
        self.occupied[slot / 64] |= 1 << (slot % 64);
        self.near += 1;
    }

    /// How many buckets on from `now` the first one holding keys is.
    fn next_occupied(&self) -> Option<u64> {
        let start = (self.now & SLOT_MASK) as usize;
        let (w0, b0) = (start / 64, start % 64);
        let words = SLOTS / 64;
        for k in 0..=words {
            let w = (w0 + k) % words;
            let bits = match k {
                0 => self.occupied[w] & (!0u64 << b0),
                k if k == words => self.occupied[w] & !(!0u64 << b0),
                _ => self.occupied[w],
            };
            if bits != 0 {
                let slot = w * 64 + bits.trailing_zeros() as usize;
                return Some(((slot + SLOTS - start) % SLOTS) as u64);
            }
        }
        None
    }

    /// A key earlier than the wheel's bucket (scheduled after a look past
    /// an idle stretch): the wheel steps back to it, and what no longer
    /// fits its window waits with the far keys.
    #[cold]
    fn rewind(&mut self, to: u64) {
        if let Some(bucket) = self.sorted.take() {
            // The keys already taken from the bucket being emptied go, and
            // those waiting beside it join the rest, unsorted again.
            let slot = (bucket & SLOT_MASK) as usize;
            self.slots[slot].drain(..self.head);
            self.slots[slot].extend(self.early.drain().map(|Far(key, event)| (key, event)));
            self.head = 0;
        }
        self.now = to;
        for slot in 0..SLOTS {
            let mut i = 0;
            while i < self.slots[slot].len() {
                let (key, event) = self.slots[slot][i];
                if self.bucket(key) - to >= SLOTS as u64 {
                    self.slots[slot].swap_remove(i);
                    self.near -= 1;
                    self.far.push(Far(key, event));
                } else {
                    i += 1;
                }
            }
            if self.slots[slot].is_empty() {
                self.occupied[slot / 64] &= !(1 << (slot % 64));
            }
        }
    }

    /// Brings the far keys that now fall within the wheel's window onto it.
    fn pull(&mut self) {
        while let Some(&Far(key, _)) = self.far.peek() {
            let b = self.bucket(key);
            if b - self.now >= SLOTS as u64 {
                break;
            }
            self.work += depth(self.far.len());
            if let Some(Far(key, event)) = self.far.pop() {
                self.put(b, key, event);
            }
        }
    }

    /// The least key: where it is, and the key. The wheel moves on to its
    /// bucket (nothing pending lies before it).
    fn first(&mut self) -> Option<(Place, u128)> {
        if self.near == 0 {
            let &Far(key, _) = self.far.peek()?;
            self.now = self.bucket(key);
            self.pull();
        }
        let step = self.next_occupied()?;
        if step > 0 {
            // The far keys all lie past the wheel's old window, so past
            // this bucket too: it still holds the least key.
            self.now += step;
            self.pull();
        }
        let slot = (self.now & SLOT_MASK) as usize;
        if self.sorted != Some(self.now) {
            // The bucket emptied before is empty (it was taken to its end),
            // so nothing of it is left behind, beside it either.
            debug_assert!(self.early.is_empty(), "keys beside a bucket go with it");
            let n = self.slots[slot].len();
            self.work += n as u64 * depth(n);
            self.slots[slot].sort_unstable_by_key(|e| e.0);
            self.sorted = Some(self.now);
            self.head = 0;
        }
        let sorted = self.slots[slot].get(self.head).map(|e| e.0);
        let early = self.early.peek().map(|f| f.0);
        match (sorted, early) {
            (Some(s), Some(e)) if e < s => Some((Place::Early, e)),
            (Some(s), _) => Some((Place::Sorted(slot), s)),
            (None, Some(e)) => Some((Place::Early, e)),
            (None, None) => None,
        }
    }

    fn take(&mut self, place: Place) -> (u128, E) {
        self.near -= 1;
        let slot = (self.now & SLOT_MASK) as usize;
        let taken = match place {
            Place::Early => {
                self.work += depth(self.early.len());
                self.early.pop().map(|Far(key, event)| (key, event)).ok_or(()).surely("the early key was peeked")
            }
            Place::Sorted(s) => {
                debug_assert_eq!(s, slot, "keys are taken from the bucket being emptied, in order");
                self.head += 1;
                self.slots[slot][self.head - 1]
            }
        };
        if self.head == self.slots[slot].len() && self.early.is_empty() {
            self.slots[slot].clear();
            self.head = 0;
            self.occupied[slot / 64] &= !(1 << (slot % 64));
        }
        taken
    }

    /// The least key, without moving the wheel.
    fn peek(&self) -> Option<u128> {
        match self.next_occupied() {
            Some(step) => {
                let bucket = self.now + step;
                let keys = &self.slots[(bucket & SLOT_MASK) as usize];
                if self.sorted == Some(bucket) {
                    let early = self.early.peek().map(|f| f.0);
                    keys.get(self.head).map(|e| e.0).into_iter().chain(early).min()
                } else {
                    keys.iter().map(|e| e.0).min()
                }
            }
            None => self.far.peek().map(|f| f.0),
        }
    }

    fn entries(&self) -> impl Iterator<Item = (u128, E)> + '_ {
        let emptied = self.sorted.map(|b| (b & SLOT_MASK) as usize);
        self.slots
            .iter()
            .enumerate()
            .flat_map(move |(i, keys)| keys[if emptied == Some(i) { self.head } else { 0 }..].iter().copied())
            .chain(self.early.iter().map(|f| (f.0, f.1)))
            .chain(self.far.iter().map(|f| (f.0, f.1)))
    }

    fn clear(&mut self) {
        if self.near > 0 {
            for slot in &mut self.slots {
                slot.clear();
            }
        }
        self.occupied = [0; SLOTS / 64];
        self.sorted = None;
        self.head = 0;
        self.early.clear();
        self.near = 0;
        self.now = 0;
        self.far.clear();
        self.work = 0;
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
        // to the wheel, and a run after a clear, which starts short again.
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
        // Few pending (the sorted list) and many (the wheel).
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

    mod wheel {
        use super::super::*;
        use crate::sim::time::Micros;
        use proptest::prelude::*;

        /// Thousands of clients arriving at once all land in the bucket the
        /// wheel is emptying, and each schedules a later event into it: the
        /// later key goes in at the bucket's end, moving nothing (inserting
        /// at the front would move the whole bucket each time, quadratic in
        /// the clients).
        #[test]
        fn a_later_key_joins_the_bucket_being_emptied_at_its_end() {
            let mut w: Wheel<u32> = Wheel::new(11);
            for n in 0..1_000u32 {
                w.push(u128::from(n), n);
            }
            let (place, key) = w.first().unwrap();
            assert_eq!((place, key), (Place::Sorted(0), 0));
            assert_eq!(w.take(place).1, 0);
            // A key 1 ms later (the same 2 ms bucket) than all the others.
            w.push((1_000u128 << 64) | 5_000, 5_000);
            let keys = &w.slots[0];
            assert_eq!(keys.last().map(|e| e.1), Some(5_000), "it went in at the end");
            assert!(keys[w.head..].windows(2).all(|p| p[0].0 < p[1].0), "the rest stay in order");
            assert!(w.early.is_empty());
            let order: Vec<u32> = std::iter::from_fn(|| w.first().map(|(p, _)| w.take(p).1)).collect();
            assert_eq!(order.len(), 1_000);
            assert_eq!(order.last(), Some(&5_000));
        }

        /// Thousands of clients sending at once each schedule their request
        /// (soon) and their deadline (later) into the bucket being emptied:
        /// a request goes before every deadline scheduled so far. It waits
        /// beside the bucket instead of moving them all, and the order is
        /// still the keys' order.
        #[test]
        fn an_earlier_key_waits_beside_the_bucket_and_still_comes_in_order() {
            let mut w: Wheel<u32> = Wheel::new(11);
            for n in 0..1_000u32 {
                w.push(u128::from(n), n);
            }
            let mut all: Vec<u128> = (0..1_000).collect();
            let mut popped = Vec::new();
            for n in 0..1_000u32 {
                let (place, _) = w.first().unwrap();
                popped.push(w.take(place).0);
                // A request 500 µs on and a deadline 1 000 µs on (both in the
                // bucket of 0 to 2 047 µs), each after everything before it.
                let (request, deadline) = ((500u128 << 64) | u128::from(n), (1_000u128 << 64) | u128::from(n));
                w.push(request, n);
                w.push(deadline, n);
                all.extend([request, deadline]);
            }
            assert!(!w.early.is_empty(), "requests went beside the bucket");
            popped.extend(std::iter::from_fn(|| w.first().map(|(p, _)| w.take(p).0)));
            all.sort_unstable();
            assert_eq!(popped, all, "every key, in the keys' order");
            assert_eq!(w.len(), 0);
        }

        /// What a run may do to its queue: schedule an event some ticks
        /// after now (near, across the wheel, or far beyond it), pop the
        /// next one, or look no further than a horizon.
        #[derive(Clone, Debug)]
        enum Step {
            Schedule { after: u64, class: u8 },
            Pop,
            PopThrough { ahead: u64 },
        }

        fn step() -> impl Strategy<Value = Step> {
            prop_oneof![
                4 => (0u64..40_000, 0u8..4).prop_map(|(after, class)| Step::Schedule { after, class }),
                1 => (0u64..10_000_000, 0u8..4).prop_map(|(after, class)| Step::Schedule { after, class }),
                3 => Just(Step::Pop),
                1 => (0u64..200_000).prop_map(|ahead| Step::PopThrough { ahead }),
            ]
        }

        proptest! {
            #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

            /// The wheel pops exactly what a sorted list of the same keys
            /// would, whatever the mix of near and far times and horizons.
            #[test]
            fn pops_in_the_order_of_a_sorted_list(steps in prop::collection::vec(step(), 1..600)) {
                let mut q: EventQueue<Micros, u32> = EventQueue::default();
                let mut reference: Vec<(u64, u8, u32)> = Vec::new();
                let mut now = 0u64;
                let mut n = 0u32;
                let next = |reference: &mut Vec<(u64, u8, u32)>| {
                    reference.sort_by_key(|&(t, c, n)| (t, c, n));
                    (!reference.is_empty()).then(|| reference.remove(0))
                };
                for s in steps {
                    match s {
                        Step::Schedule { after, class } => {
                            q.schedule(Micros(now + after), class, n);
                            reference.push((now + after, class, n));
                            n += 1;
                        }
                        Step::Pop => {
                            let expected = next(&mut reference).map(|(t, _, n)| (Micros(t), n));
                            prop_assert_eq!(q.pop(), expected);
                            if let Some((t, _)) = expected {
                                now = t.0;
                            }
                        }
                        Step::PopThrough { ahead } => {
                            let horizon = now + ahead;
                            reference.sort_by_key(|&(t, c, n)| (t, c, n));
                            let expected = reference.first().filter(|e| e.0 <= horizon).copied();
                            if expected.is_some() {
                                reference.remove(0);
                            }
                            let got = q.pop_through(Some(Micros(horizon)));
                            prop_assert_eq!(got, expected.map(|(t, _, n)| (Micros(t), n)));
                            if let Some((t, _)) = got {
                                now = t.0;
                            }
                        }
                    }
                    prop_assert_eq!(q.len(), reference.len());
                    reference.sort_by_key(|&(t, c, n)| (t, c, n));
                    prop_assert_eq!(q.peek_time(), reference.first().map(|e| Micros(e.0)));
                }
                while let Some(expected) = next(&mut reference) {
                    prop_assert_eq!(q.pop(), Some((Micros(expected.0), expected.2)));
                }
                prop_assert!(q.is_empty());
            }
        }
    }
}
