//! The Risk API (downstream): it creates reviews, and its ledger of reviews
//! is the truth the lab checks. Idempotent create by request_key (a second
//! create with the key returns the first review, and a probe hears that a
//! create with the key is still under way), FindByRequestKey, an admission
//! limit (past it, 503 at once) and its own time limit for any call. A
//! caller's timeout ends the caller's wait, never the Risk API's work. The
//! fault plan says which create or find each fault hits.

use crate::sim::time::Millis;

use super::facts::{Answer, DownstreamId, DsKind, Issuer, OrderId, RequestKey, ReviewRef, RowId};
use super::scenario::{CreateFault, FaultPlan, SLOW_BY};
use super::settings::RiskApiConfig;

/// The Risk API's own time limit: a call still under way this long after
/// it arrived is abandoned, not performed (answered 504). A caller that
/// never hears back knows the Risk API is done with its call by then.
pub const OWN_LIMIT: Millis = Millis(10_000);

/// Past its safe concurrency the Risk API slows: a call sent while it
/// works on `load` calls (this one included) takes `base × load / safe`.
pub fn slowed(base: Millis, load: u32, safe: u32) -> Millis {
    if load <= safe || safe == 0 {
        return base;
    }
    Millis(base.ms().saturating_mul(u64::from(load)) / u64::from(safe))
}

/// A review in the ledger.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Review {
    pub review: ReviewRef,
    pub at: Millis,
    pub request_key: RequestKey,
    pub order: OrderId,
    /// The generation of the order whose row sent it.
    pub generation: u32,
}

/// What becomes of a call once sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fate {
    /// 503 at once: the capacity was taken.
    Refused,
    Create(CreateFault),
    Find,
    /// The find-timeout fault.
    Hangs,
    /// Still under way at [`OWN_LIMIT`]: abandoned then, not performed.
    Abandoned,
}

/// When the Risk API will be done with a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dispatch {
    At(Millis),
    /// The request never arrives.
    Lost,
    /// The query hangs past any timeout.
    Hangs,
}

/// Whether the caller still waits for the answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Waiting {
    Yes,
    Answered,
    TimedOut,
}

/// A call to the Risk API and what became of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Downstream {
    pub id: DownstreamId,
    pub kind: DsKind,
    pub caller: Issuer,
    pub row: RowId,
    pub request_key: RequestKey,
    pub order: OrderId,
    pub generation: u32,
    pub sent_at: Millis,
    pub fate: Fate,
    pub waiting: Waiting,
    /// Whether its caller knows the Risk API is done with it (an answer
    /// reached it, or the Risk API's own time limit passed).
    pub seen_done: bool,
}

/// What the Risk API did when done with a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Done {
    pub answer: Answer,
    /// A review this call created.
    pub created: Option<ReviewRef>,
    /// The existing review an idempotent create returned.
    pub replayed: Option<ReviewRef>,
    /// Whether the answer reaches the caller.
    pub delivered: bool,
}

#[derive(Clone, Debug)]
pub struct RiskApi {
    config: RiskApiConfig,
    faults: FaultPlan,
    reviews: Vec<Review>,
    /// The first review of each request_key, by key number.
    by_key: Vec<Option<ReviewRef>>,
    /// Creates under way for each request_key, by key number.
    underway: Vec<u32>,
    in_progress: u32,
    creates: u32,
    finds: u32,
}

impl RiskApi {
    pub fn new(config: RiskApiConfig, faults: FaultPlan) -> RiskApi {
        RiskApi {
            config,
            faults,
            reviews: Vec::new(),
            by_key: Vec::new(),
            underway: Vec::new(),
            in_progress: 0,
            creates: 0,
            finds: 0,
        }
    }

    /// A fresh ledger for a new run, keeping this one's memory.
    pub fn reset(&mut self, config: RiskApiConfig, faults: &FaultPlan) {
        self.config = config;
        self.faults.clone_from(faults);
        self.reviews.clear();
        self.by_key.clear();
        self.underway.clear();
        self.in_progress = 0;
        self.creates = 0;
        self.finds = 0;
    }

    pub fn reviews(&self) -> &[Review] {
        &self.reviews
    }

    pub fn in_progress(&self) -> u32 {
        self.in_progress
    }

    /// Creates sent so far (lost ones included).
    pub fn creates(&self) -> u32 {
        self.creates
    }

    pub fn finds(&self) -> u32 {
        self.finds
    }

    fn admit(&mut self, now: Millis, takes: Millis, fate: Fate) -> (Fate, Dispatch) {
        if self.in_progress >= self.config.capacity {
            return (Fate::Refused, Dispatch::At(now));
        }
        self.in_progress += 1;
        debug_assert!(self.in_progress <= self.config.capacity, "admitted within the admission limit");
        let takes = slowed(takes, self.in_progress, self.config.safe_concurrency);
        if takes > OWN_LIMIT {
            return (Fate::Abandoned, Dispatch::At(now + OWN_LIMIT));
        }
        (fate, Dispatch::At(now + takes))
    }

    fn underway_mut(&mut self, key: RequestKey) -> &mut u32 {
        let i = key.0 as usize;
        if self.underway.len() <= i {
            self.underway.resize(i + 1, 0);
        }
        &mut self.underway[i]
    }

    /// A create for `key` is sent at `now`.
    pub fn on_create_sent(&mut self, now: Millis, key: RequestKey) -> (Fate, Dispatch) {
        self.creates += 1;
        let sent = match self.faults.create(self.creates) {
            CreateFault::RequestLost => (Fate::Create(CreateFault::RequestLost), Dispatch::Lost),
            CreateFault::Slow => {
                // It finishes after the caller has given up.
                let takes = self.config.caller_timeout + SLOW_BY;
                self.admit(now, takes, Fate::Create(CreateFault::Slow))
            }
            fault => {
                let takes = self.faults.ramp.map_or(self.config.create, |ramp| ramp.latency(self.config.create, now));
                self.admit(now, takes, Fate::Create(fault))
            }
        };
        if matches!(sent.0, Fate::Create(_) | Fate::Abandoned) && sent.1 != Dispatch::Lost {
            *self.underway_mut(key) += 1;
        }
        sent
    }

    /// A FindByRequestKey is sent at `now`.
    pub fn on_find_sent(&mut self, now: Millis) -> (Fate, Dispatch) {
        self.finds += 1;
        if self.faults.probe_hangs(self.finds) {
            return (Fate::Hangs, Dispatch::Hangs);
        }
        self.admit(now, self.config.find, Fate::Find)
    }

    /// The Risk API is done with `call` at `now`.
    pub fn on_done(&mut self, now: Millis, call: &Downstream) -> Done {
        let answer = |answer| Done { answer, created: None, replayed: None, delivered: true };
        let fault = match call.fate {
            Fate::Refused => return answer(Answer::Unavailable),
            Fate::Hangs | Fate::Create(CreateFault::RequestLost) => unreachable!("never scheduled"),
            Fate::Find => {
                self.in_progress = self.in_progress.saturating_sub(1);
                let key = call.request_key.0 as usize;
                let found = self.by_key.get(key).copied().flatten();
                let underway = self.config.idempotent_create && self.underway.get(key).is_some_and(|&n| n > 0);
                return answer(match found {
                    Some(review) => Answer::Found(review),
                    None if underway => Answer::InProgress,
                    None => Answer::NotFound,
                });
            }
            Fate::Abandoned => {
                self.in_progress = self.in_progress.saturating_sub(1);
                if call.kind == DsKind::Create {
                    let left = self.underway_mut(call.request_key);
                    *left = left.saturating_sub(1);
                }
                return answer(Answer::ServerError);
            }
            Fate::Create(fault) => fault,
        };
        debug_assert!(self.in_progress > 0, "a create it performs was admitted");
        self.in_progress = self.in_progress.saturating_sub(1);
        let left = self.underway_mut(call.request_key);
        debug_assert!(*left > 0, "a create it performs is under way");
        *left = left.saturating_sub(1);
        let key = call.request_key.0 as usize;
        let existing = self.by_key.get(key).copied().flatten().filter(|_| self.config.idempotent_create);
        match (fault, existing) {
            (CreateFault::ServerError, _) => return answer(Answer::ServerError),
            // An idempotent create looks the key up before anything else: a
            // key that already has its review gets it back, never a rejection.
            (CreateFault::Rejected, None) => return answer(Answer::Rejected),
            _ => {}
        }
        if self.by_key.len() <= key {
            self.by_key.resize(key + 1, None);
        }
        let mut done = match self.by_key[key] {
            Some(existing) if self.config.idempotent_create => {
                Done { answer: Answer::Existing(existing), created: None, replayed: Some(existing), delivered: true }
            }
            first => {
                let review = ReviewRef(self.reviews.len() as u32 + 1);
                self.reviews.push(Review {
                    review,
                    at: now,
                    request_key: call.request_key,
                    order: call.order,
                    generation: call.generation,
                });
                if first.is_none() {
                    self.by_key[key] = Some(review);
                }
                Done { answer: Answer::Created(review), created: Some(review), replayed: None, delivered: true }
            }
        };
        match fault {
            CreateFault::ResponseLost => done.delivered = false,
            CreateFault::Reset => done.answer = Answer::Reset,
            _ => {}
        }
        done
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::risk::facts::{CallId, ReplicaId};

    fn api(idempotent_create: bool, capacity: u32, faults: FaultPlan) -> RiskApi {
        let config = RiskApiConfig {
            create: Millis(410),
            find: Millis(100),
            capacity,
            safe_concurrency: capacity,
            idempotent_create,
            caller_timeout: Millis(2500),
        };
        RiskApi::new(config, faults)
    }

    fn create(api: &mut RiskApi, now: u64) -> (Downstream, Dispatch) {
        let (fate, dispatch) = api.on_create_sent(Millis(now), RequestKey(1));
        let call = Downstream {
            id: DownstreamId(api.creates()),
            kind: DsKind::Create,
            caller: Issuer::Replica(ReplicaId::A, CallId(1)),
            row: RowId(10086),
            request_key: RequestKey(1),
            order: OrderId(1),
            generation: 1,
            sent_at: Millis(now),
            fate,
            waiting: Waiting::Yes,
            seen_done: false,
        };
        (call, dispatch)
    }

    #[test]
    fn idempotent_create_returns_the_first_review() {
        for (idempotent, reviews) in [(true, 1), (false, 2)] {
            let mut a = api(idempotent, 32, FaultPlan::default());
            let (first, at) = create(&mut a, 121);
            assert_eq!(at, Dispatch::At(Millis(531)));
            let (second, _) = create(&mut a, 121);
            assert_eq!(a.on_done(Millis(531), &first).answer, Answer::Created(ReviewRef(1)));
            let again = a.on_done(Millis(531), &second).answer;
            assert_eq!(a.reviews().len(), reviews);
            assert_eq!(again, if idempotent { Answer::Existing(ReviewRef(1)) } else { Answer::Created(ReviewRef(2)) });
        }
    }

    #[test]
    fn faults_hit_exactly_the_calls_they_name() {
        let faults = FaultPlan {
            creates: vec![CreateFault::ResponseLost, CreateFault::RequestLost, CreateFault::Slow],
            hanging_probes: vec![1],
            ..FaultPlan::default()
        };
        let mut a = api(true, 32, faults);
        let (lost_response, _) = create(&mut a, 0);
        let done = a.on_done(Millis(410), &lost_response);
        assert!(!done.delivered && done.created == Some(ReviewRef(1)));
        assert_eq!(create(&mut a, 0).1, Dispatch::Lost);
        assert_eq!(create(&mut a, 0).1, Dispatch::At(Millis(3000)), "slow: 0.5 s after the 2.5 s timeout");
        assert_eq!(create(&mut a, 0).1, Dispatch::At(Millis(410)), "the fourth create is not faulted");
        assert_eq!(a.on_find_sent(Millis(0)), (Fate::Hangs, Dispatch::Hangs));
        assert_eq!(a.on_find_sent(Millis(0)), (Fate::Find, Dispatch::At(Millis(100))));
    }

    #[test]
    fn the_excess_over_capacity_gets_503_at_once() {
        let mut a = api(true, 2, FaultPlan::default());
        create(&mut a, 0);
        create(&mut a, 0);
        let (third, at) = create(&mut a, 5);
        assert_eq!((third.fate, at), (Fate::Refused, Dispatch::At(Millis(5))));
        assert_eq!(a.on_done(Millis(5), &third).answer, Answer::Unavailable);
        assert_eq!(a.in_progress(), 2);
    }
}
