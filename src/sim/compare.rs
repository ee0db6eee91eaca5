//! Two runs on one clock: where they first part ways, and which effects one
//! holds that the other does not. Generic over what a lab counts as "the
//! same event" and "the same effect"; each lab says that once, in its own
//! `compare` module, and `view` words the result.

use std::cmp::Ordering;

use super::SimError;
use super::driver::{Driver, Handled, Model};
use super::time::Millis;

/// A record that happened at a model time.
pub trait Timed {
    fn at(&self) -> Millis;
}

/// Where two runs first differ. The runs agree on every event before
/// `index`; at `index` one run's record differs from the other's, or one run
/// has ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Divergence<R> {
    pub index: usize,
    pub a: Option<R>,
    pub b: Option<R>,
}

impl<R: Timed> Divergence<R> {
    /// The model time of the divergence: the earlier of the two events.
    pub fn t(&self) -> Millis {
        match (&self.a, &self.b) {
            (Some(a), Some(b)) => a.at().min(b.at()),
            (Some(r), None) | (None, Some(r)) => r.at(),
            // Two empty lists never diverge; kept total for safety.
            (None, None) => Millis(0),
        }
    }
}

/// What differs between run A and run B: the first divergence of their
/// records, and the effects (ledger entries, reviews) one holds and the
/// other does not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comparison<R, E> {
    pub divergence: Option<Divergence<R>>,
    /// Effects in A with no counterpart in B.
    pub only_a: Vec<E>,
    /// Effects in B with no counterpart in A.
    pub only_b: Vec<E>,
}

/// One run's side of a comparison: its records, what a comparison sees of
/// each (one gist per record), and its effects.
pub struct Side<'a, R, G, E> {
    pub records: &'a [R],
    pub gists: &'a [G],
    pub effects: &'a [E],
}

impl<R: Copy + Timed, E: Copy> Comparison<R, E> {
    /// Compares two runs' sides; `same` orders effects by what makes two of
    /// them "the same effect".
    pub fn between<G: PartialEq>(a: Side<R, G, E>, b: Side<R, G, E>, same: impl Fn(&E, &E) -> Ordering) -> Self {
        let divergence = first_divergence(a.gists, b.gists).map(|index| Divergence {
            index,
            a: a.records.get(index).copied(),
            b: b.records.get(index).copied(),
        });
        let only_a = only_in(a.effects, b.effects, &same).into_iter().copied().collect();
        let only_b = only_in(b.effects, a.effects, &same).into_iter().copied().collect();
        Comparison { divergence, only_a, only_b }
    }

    /// The runs are the same in every event and every effect.
    pub fn identical(&self) -> bool {
        self.divergence.is_none() && self.only_a.is_empty() && self.only_b.is_empty()
    }

    /// Whether the runs agree on everything that happens before `t`.
    pub fn agree_before(&self, t: Millis) -> bool {
        self.divergence.as_ref().is_none_or(|d| d.t() >= t)
    }
}

/// Steps two runs of one model side by side until they handle different
/// events, then runs both to their ends. The divergence's records are the
/// events each run handled there (`None` for a run already over); runs
/// that handle the same events in the same order do not diverge. This
/// needs no event list, so it suits runs with many thousands of events.
pub fn part_ways<M: Model>(a: &mut Driver<M>, b: &mut Driver<M>) -> Result<Option<Divergence<Handled<M>>>, SimError>
where
    M::Event: PartialEq,
{
    let mut index = 0;
    let divergence = loop {
        let (x, y) = (a.step_event()?, b.step_event()?);
        if x.is_none() && y.is_none() {
            break None;
        }
        if x != y {
            break Some(Divergence { index, a: x, b: y });
        }
        index += 1;
    };
    a.run_to_end()?;
    b.run_to_end()?;
    Ok(divergence)
}

/// The first position at which two event lists differ, or `None` when they
/// are equal. When one list is a prefix of the other, the divergence is at
/// the shorter list's length: one run has an event there, the other none.
pub fn first_divergence<T: PartialEq>(a: &[T], b: &[T]) -> Option<usize> {
    let common = a.iter().zip(b).position(|(x, y)| x != y);
    match common {
        Some(i) => Some(i),
        None if a.len() == b.len() => None,
        None => Some(a.len().min(b.len())),
    }
}

/// The entries of `a` with no counterpart in `b`, as a multiset: each entry
/// of `b` cancels at most one equal entry of `a`. The order of `a` is kept.
/// `same` orders entries by what makes two of them "the same effect".
pub fn only_in<'a, T>(a: &'a [T], b: &[T], same: impl Fn(&T, &T) -> Ordering) -> Vec<&'a T> {
    let mut others: Vec<&T> = b.iter().collect();
    others.sort_by(|x, y| same(x, y));
    let mut used = vec![false; others.len()];
    let mut out = Vec::new();
    for entry in a {
        // The first unused equal entry of `b`, found by binary search on the
        // sorted copy and then a walk over its run of equals.
        let start = others.partition_point(|o| same(o, entry) == Ordering::Less);
        let matched =
            (start..others.len()).take_while(|&i| same(others[i], entry) == Ordering::Equal).find(|&i| !used[i]);
        match matched {
            Some(i) => used[i] = true,
            None => out.push(entry),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_lists_have_no_divergence() {
        assert_eq!(first_divergence::<u8>(&[], &[]), None);
        assert_eq!(first_divergence(&[1, 2, 3], &[1, 2, 3]), None);
    }

    #[test]
    fn the_first_differing_position_is_reported() {
        assert_eq!(first_divergence(&[1, 2, 3], &[1, 5, 3]), Some(1));
        assert_eq!(first_divergence(&[9], &[1]), Some(0));
    }

    #[test]
    fn a_prefix_diverges_where_it_ends() {
        assert_eq!(first_divergence(&[1, 2], &[1, 2, 3]), Some(2));
        assert_eq!(first_divergence(&[1, 2, 3], &[]), Some(0));
    }

    #[test]
    fn set_difference_counts_repeats() {
        let a = [1, 2, 2, 3];
        let b = [2, 3, 3, 4];
        assert_eq!(only_in(&a, &b, |x, y| x.cmp(y)), vec![&1, &2]);
        assert_eq!(only_in(&b, &a, |x, y| x.cmp(y)), vec![&3, &4]);
        assert!(only_in(&a, &a, |x, y| x.cmp(y)).is_empty());
    }

    #[test]
    fn set_difference_uses_the_given_sameness() {
        // Pairs are "the same" when their first halves are equal.
        let a = [(1, 'x'), (2, 'y')];
        let b = [(1, 'z')];
        assert_eq!(only_in(&a, &b, |x, y| x.0.cmp(&y.0)), vec![&(2, 'y')]);
    }
}
