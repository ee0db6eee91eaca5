//! Where idempotency broke: for a run whose ledger holds more increments
//! than the one intent asked for, the place (the lane and the event) where
//! the retry should have been recognised and was not, and why, in one
//! sentence. Found from the records alone: the duplicate increment, the
//! operation that made it, and what the server knew of the key when that
//! operation started.

use crate::sim::Millis;
use crate::sim::ack::{KeyName, Record, Run, What};

/// What the region says while a prediction is still to be made.
pub const PREDICT_FIRST: &str = "Make your prediction in the experiment first.";

/// The "Break it three ways" experiment's introduction.
pub const THREE_WAYS_HINT: &str = "Each run loses the first success and retries, and each ends with two increments for one intent. They break in different places: choose, for each, the lane where idempotency broke.";

/// A lane of the diagram where idempotency can break.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    Client,
    Network,
    Server,
    DedupStore,
}

impl Place {
    pub const ALL: [Place; 4] = [Place::Client, Place::Network, Place::Server, Place::DedupStore];

    /// The lane's title, as the diagram names it.
    pub fn lane(self) -> &'static str {
        match self {
            Place::Client => "Client",
            Place::Network => "Network",
            Place::Server => "Server",
            Place::DedupStore => "Dedup store",
        }
    }
}

/// Where and why one intent was counted twice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Break {
    pub place: Place,
    /// The record where it broke (an index into the run's records).
    pub at: usize,
    /// The commits of the intent's first increment and of its duplicate.
    pub first: usize,
    pub duplicate: usize,
    /// Why, in one sentence.
    pub why: String,
}

impl Break {
    /// The moment it broke.
    pub fn t(&self, run: &Run) -> Millis {
        run.records()[self.at].t
    }
}

/// The record of the commit that made ledger entry `i`.
fn commit_of(run: &Run, i: usize) -> Option<usize> {
    let entry = run.ledger().get(i)?;
    run.records().iter().position(|r| {
        r.t == entry.t
            && r.attempt == entry.attempt
            && match r.what {
                What::OperationCommitted { .. } => true,
                What::ServerCrashed { applied, .. } => applied.is_some(),
                _ => false,
            }
    })
}

/// The last record before `before` (an index) that `hit` accepts.
fn last_before(records: &[Record], before: usize, hit: impl Fn(&Record) -> bool) -> Option<usize> {
    records[..before].iter().rposition(hit)
}

/// Where it broke, if the run counted its one intent more than once.
pub fn where_it_broke(run: &Run) -> Option<Break> {
    let (first, duplicate) = (commit_of(run, 0)?, commit_of(run, 1)?);
    let records = run.records();
    let (one, dup) = (records[first], records[duplicate]);
    let n = dup.attempt;
    // The duplicate's operation, and when it started.
    let started =
        last_before(records, duplicate, |r| r.attempt == n && matches!(r.what, What::OperationStarted { .. }))?;
    let start = records[started];
    let key = dup.key?;
    let first_key = one.key?;
    let (place, at, why) = if !run.settings().dedup() {
        let why = format!(
            "Deduplication is off: the server never looks at attempt {n}'s key, so it performs the increment again."
        );
        (Place::Server, started, why)
    } else if key != first_key {
        let sent = last_before(records, started, |r| r.attempt == n && matches!(r.what, What::AttemptSent { .. }))
            .unwrap_or(started);
        let why = match key.name {
            KeyName::Attempt(_) => format!(
                "Attempt {n} carries key {key}, which the server has never seen: a new key per attempt names the attempt, not the intent."
            ),
            KeyName::Intent(_) => format!("Attempt {n} carries key {key}, not attempt {}'s {first_key}.", one.attempt),
        };
        (Place::Client, sent, why)
    } else {
        forgotten(run, first, started, start)
    };
    Some(Break { place, at, first, duplicate, why })
}

/// Why a deduplicating server that saw the same key twice did not know it
/// the second time: what made it forget, and where.
fn forgotten(run: &Run, first: usize, started: usize, start: Record) -> (Place, usize, String) {
    let records = run.records();
    let one = records[first];
    let (m, n, key) = (one.attempt, start.attempt, start.key.map_or_else(String::new, |k| k.to_string()));
    let arrived = start.t;
    let crash = last_before(records, started, |r| matches!(r.what, What::ServerCrashed { .. }));
    if let Some(c) = crash
        && let What::ServerCrashed { applied, stored_until, wiped, .. } = records[c].what
    {
        let t = records[c].t;
        if applied.is_some() && stored_until.is_none() {
            let why = format!(
                "The server crashed at {t} after attempt {m}'s increment and before storing its result: the store kept no trace that the increment had happened, so attempt {n} performed it again."
            );
            return (Place::DedupStore, c, why);
        }
        if wiped {
            let why = format!(
                "The crash at {t} wiped the in-memory store, and attempt {m}'s stored result with it: attempt {n} arrived at {arrived} to a server that had never seen key {key}."
            );
            return (Place::DedupStore, c, why);
        }
    }
    if let What::OperationStarted { took_over: true, .. } = start.what
        && let Some(l) = last_before(records, started, |r| matches!(r.what, What::LeaseEnded { .. }))
    {
        let t = records[l].t;
        let why = format!(
            "Attempt {m}'s reservation lease ended at {t}, before its operation could store a result: attempt {n} took key {key} over and performed the increment again."
        );
        return (Place::DedupStore, l, why);
    }
    if let Some(e) = last_before(records, started, |r| matches!(r.what, What::StoredResultExpired { .. })) {
        let t = records[e].t;
        let why = format!(
            "Attempt {m}'s stored result expired at {t}, before attempt {n} arrived at {arrived}: the retention is shorter than the wait for the retry, so the server had forgotten key {key}."
        );
        return (Place::DedupStore, e, why);
    }
    let why =
        format!("The server found neither a stored result nor a reservation for key {key} when attempt {n} arrived.");
    (Place::Server, started, why)
}

/// The region's words: where, when and why it broke, or that nothing did.
pub fn break_words(run: &Run, b: Option<&Break>) -> String {
    match b {
        Some(b) => {
            let r = run.records()[b.at];
            format!("{} lane, at {}: {}", b.place.lane(), r.t, b.why)
        }
        None => match run.ledger().len() {
            0 => "Nothing broke: the ledger holds no increment for the one intent.".to_owned(),
            _ => "Nothing broke: the ledger holds one increment for the one intent.".to_owned(),
        },
    }
}

/// What the "Where it broke" region says with the playhead at `t`: the
/// break once the duplicate increment has happened, and before that only
/// what has happened so far, so the region gives nothing away.
pub fn words_at(run: &Run, t: Millis) -> String {
    let b = where_it_broke(run);
    match &b {
        Some(b) if run.records()[b.duplicate].t <= t => break_words(run, Some(b)),
        _ if t >= run.end() => break_words(run, None),
        _ => {
            let n = run.ledger().iter().filter(|e| e.t <= t).count() as u64;
            format!("Nothing has broken so far: the ledger holds {} for the one intent.", super::increments(n))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::ParamDef;
    use crate::sim::ack::Settings;
    use crate::sim::ack::settings::{DEDUP, FAULT, KEY, LEASE, RETENTION, TIMEOUT};

    fn run(pairs: &[(&'static ParamDef, &str)]) -> Run {
        Run::simulate(&Settings::from_pairs(pairs).unwrap()).unwrap()
    }

    fn broke(pairs: &[(&'static ParamDef, &str)]) -> (Place, Millis, String) {
        let run = run(pairs);
        let b = where_it_broke(&run).expect("counted twice");
        (b.place, b.t(&run), b.why)
    }

    #[test]
    fn the_seeds_three_breaks_each_name_a_different_lane() {
        // docs/model.md's opening run loses attempt 1's success at 2.05 s;
        // attempt 1 times out at 3.00 s and attempt 2 is sent at 4.00 s.
        // Deduplication off: the server runs attempt 2 again at 4.00 s.
        assert_eq!(
            broke(&[(&DEDUP, "off")]),
            (
                Place::Server,
                Millis(4_000),
                "Deduplication is off: the server never looks at attempt 2's key, so it performs the increment again."
                    .to_owned()
            )
        );
        // Retention 0: the result attempt 1's commit stored at 2.00 s
        // expires at that instant, long before attempt 2 at 4.00 s.
        assert_eq!(
            broke(&[(&RETENTION, "0")]),
            (
                Place::DedupStore,
                Millis(2_000),
                "Attempt 1's stored result expired at 2.00 s, before attempt 2 arrived at 4.00 s: the retention is shorter than the wait for the retry, so the server had forgotten key intent-1."
                    .to_owned()
            )
        );
        // A new key per attempt: attempt 2, sent at 4.00 s, carries
        // attempt-2.
        assert_eq!(
            broke(&[(&KEY, "per-attempt")]),
            (
                Place::Client,
                Millis(4_000),
                "Attempt 2 carries key attempt-2, which the server has never seen: a new key per attempt names the attempt, not the intent."
                    .to_owned()
            )
        );
        // Deduplication on: one increment, nothing broke.
        let opening = run(&[]);
        assert_eq!(where_it_broke(&opening), None);
        assert_eq!(break_words(&opening, None), "Nothing broke: the ledger holds one increment for the one intent.");
    }

    #[test]
    fn every_success_lost_breaks_at_the_first_retry_and_counts_three_times() {
        // The seed's last runs: every success is lost, so each attempt
        // times out 3 s after it was sent. Attempt 1 goes at 0 s, attempt 2
        // after a 1 s backoff at 4.00 s, attempt 3 after 2 s at 9.00 s; each
        // commits 2 s after it starts (2.00, 6.00 and 11.00 s).
        let off = run(&[(&FAULT, "lose-all"), (&DEDUP, "off")]);
        let commits: Vec<(Millis, u32)> = off.ledger().iter().map(|e| (e.t, e.attempt)).collect();
        assert_eq!(commits, [(Millis(2_000), 1), (Millis(6_000), 2), (Millis(11_000), 3)]);
        let b = where_it_broke(&off).expect("counted three times");
        // It broke the first time the same intent was performed again.
        assert_eq!((b.place, b.t(&off)), (Place::Server, Millis(4_000)));
        assert_eq!((off.records()[b.duplicate].t, off.records()[b.duplicate].attempt), (Millis(6_000), 2));
        assert_eq!(
            words_at(&off, Millis(12_000)),
            "Server lane, at 4.00 s: Deduplication is off: the server never looks at attempt 2's key, so it performs the increment again."
        );
        // Deduplication on: attempts 2 and 3 find attempt 1's result.
        let on = run(&[(&FAULT, "lose-all")]);
        assert_eq!(on.ledger().len(), 1);
        assert_eq!(where_it_broke(&on), None);
        assert_eq!(words_at(&on, on.end()), "Nothing broke: the ledger holds one increment for the one intent.");
    }

    #[test]
    fn the_duplicate_and_the_first_increment_are_the_ledgers_two_commits() {
        let run = run(&[(&DEDUP, "off")]);
        let b = where_it_broke(&run).unwrap();
        // Attempt 1 commits at 2.00 s, attempt 2 at 6.00 s.
        assert_eq!((run.records()[b.first].t, run.records()[b.first].attempt), (Millis(2_000), 1));
        assert_eq!((run.records()[b.duplicate].t, run.records()[b.duplicate].attempt), (Millis(6_000), 2));
        assert_eq!(
            break_words(&run, Some(&b)),
            "Server lane, at 4.00 s: Deduplication is off: the server never looks at attempt 2's key, so it performs the increment again."
        );
    }

    #[test]
    fn the_region_says_nothing_before_the_duplicate_happens() {
        // Deduplication off: the duplicate increment commits at 6.00 s.
        let off = run(&[(&DEDUP, "off")]);
        assert_eq!(
            words_at(&off, Millis(0)),
            "Nothing has broken so far: the ledger holds 0 increments for the one intent."
        );
        assert_eq!(
            words_at(&off, Millis(4_000)),
            "Nothing has broken so far: the ledger holds 1 increment for the one intent."
        );
        assert!(words_at(&off, Millis(6_000)).starts_with("Server lane, at 4.00 s: Deduplication is off"));
        let opening = run(&[]);
        assert_eq!(
            words_at(&opening, Millis(4_050)),
            "Nothing broke: the ledger holds one increment for the one intent."
        );
    }

    #[test]
    fn a_lease_shorter_than_the_work_breaks_in_the_store() {
        // docs/model.md, worked example 8: with no fault, a 1 s timeout and a
        // 1.5 s lease, op 1's lease ends at 1.50 s while it runs; attempt 2
        // arrives at 2.00 s, takes the key over and executes.
        assert_eq!(
            broke(&[(&FAULT, "none"), (&TIMEOUT, "1000"), (&LEASE, "1500")]),
            (
                Place::DedupStore,
                Millis(1_500),
                "Attempt 1's reservation lease ended at 1.50 s, before its operation could store a result: attempt 2 took key intent-1 over and performed the increment again."
                    .to_owned()
            )
        );
    }

    #[test]
    fn crashes_break_in_the_store() {
        use crate::sim::ack::settings::{CRASH, STORE};
        // docs/model.md, worked example 1: the effect commits at 2.00 s and
        // the server crashes before storing the result.
        let (place, t, why) = broke(&[(&FAULT, "none"), (&CRASH, "after-effect")]);
        assert_eq!((place, t), (Place::DedupStore, Millis(2_000)));
        assert!(
            why.starts_with("The server crashed at 2.00 s after attempt 1's increment and before storing"),
            "{why}"
        );
        // Worked example 4: after-record, in memory: the stored result dies
        // with the crash at 2.00 s.
        let (place, t, why) = broke(&[(&FAULT, "none"), (&CRASH, "after-record")]);
        assert_eq!((place, t), (Place::DedupStore, Millis(2_000)));
        assert!(why.starts_with("The crash at 2.00 s wiped the in-memory store"), "{why}");
        // The same crash with a durable store breaks nothing.
        assert_eq!(
            where_it_broke(&run(&[(&FAULT, "none"), (&CRASH, "after-record"), (&STORE, "durable-separate")])),
            None
        );
    }
}
