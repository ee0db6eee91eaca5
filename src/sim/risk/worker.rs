//! A reconciliation worker. It wakes every scan interval and works through
//! the rows that are due, one at a time (W1 from the first, W2 from the
//! last): an UNKNOWN row is probed with
//! FindByRequestKey; a RETRYABLE row is claimed (compare-and-set, or
//! read-then-write without the pattern) and, if the claim hit, its create
//! is resent with the same request_key; a PENDING row whose claim lease
//! ended counts as UNKNOWN again and is probed before anything else.
//!
//! The report's wrong recovery, `retry-count`, is a worker too: it scans
//! every row not SUCCEEDED whose retry_count is below three, counts a resend
//! and resends, with no probe and no claim, and writes SUCCEEDED or FAILED
//! from whatever status it read.

use crate::sim::time::Millis;

use super::database::{DueRow, Executed};
use super::facts::{Answer, Cause, Claim, RowId, Status, Stmt, Update, WorkerId};
use super::rules::{backoff, create_outcome};
use super::settings::{Recovery, WorkerConfig};

/// Named after what the worker waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WorkerState {
    /// Waiting for its next wake.
    Idle,
    /// Its scan is under way.
    Scanning,
    /// Waiting for a FindByRequestKey answer about `row`.
    Probing {
        row: DueRow,
    },
    WritingProbe,
    /// Marking a row whose claim lease ended UNKNOWN.
    EndingLease {
        row: DueRow,
    },
    Claiming {
        row: DueRow,
    },
    /// The retry-count worker writing its count.
    Counting {
        row: DueRow,
    },
    /// Waiting for its resent create.
    Resending {
        row: DueRow,
    },
    WritingResend,
    Crashed {
        at: Millis,
    },
}

impl WorkerState {
    pub fn name(self) -> &'static str {
        match self {
            WorkerState::Idle => "idle",
            WorkerState::Scanning => "scanning",
            WorkerState::Probing { .. } => "probing",
            WorkerState::WritingProbe => "writing_probe",
            WorkerState::EndingLease { .. } => "ending_lease",
            WorkerState::Claiming { .. } => "claiming",
            WorkerState::Counting { .. } => "counting",
            WorkerState::Resending { .. } => "resending",
            WorkerState::WritingResend => "writing_resend",
            WorkerState::Crashed { .. } => "crashed",
        }
    }
}

/// The worker's latest claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LastClaim {
    pub at: Millis,
    pub row: RowId,
    /// The version the claim expected.
    pub version: u32,
    pub won: bool,
}

/// What the worker decided to do next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WorkerStep {
    Statement(Stmt, Option<Cause>),
    Probe(DueRow),
    Resend(DueRow),
    Idle,
}

#[derive(Clone, Debug)]
pub struct Worker {
    id: WorkerId,
    config: WorkerConfig,
    state: WorkerState,
    /// The rows of its last scan, and how far it got through them.
    due: Vec<DueRow>,
    next: usize,
    last_claim: Option<LastClaim>,
}

impl Worker {
    pub fn new(id: WorkerId, config: WorkerConfig) -> Worker {
        Worker { id, config, state: WorkerState::Idle, due: Vec::new(), next: 0, last_claim: None }
    }

    /// A fresh worker for a new run, keeping this one's memory.
    pub fn reset(&mut self, config: WorkerConfig) {
        self.config = config;
        self.state = WorkerState::Idle;
        self.due.clear();
        self.next = 0;
        self.last_claim = None;
    }

    pub fn id(&self) -> WorkerId {
        self.id
    }

    pub fn state(&self) -> WorkerState {
        self.state
    }

    pub fn last_claim(&self) -> Option<LastClaim> {
        self.last_claim
    }

    pub fn is_crashed(&self) -> bool {
        matches!(self.state, WorkerState::Crashed { .. })
    }

    pub fn scan_interval(&self) -> Millis {
        self.config.scan_interval
    }

    /// When the worker first wakes: W2 is offset from W1.
    pub fn first_wake(&self) -> Millis {
        match self.id {
            WorkerId::W1 => self.config.scan_interval,
            WorkerId::W2 => self.config.scan_interval + self.config.offset,
        }
    }

    /// A wake: start a scan, unless still busy with the last one.
    pub fn on_wake(&mut self, now: Millis) -> Option<WorkerStep> {
        if self.state != WorkerState::Idle {
            return None;
        }
        self.state = WorkerState::Scanning;
        let scan = match self.config.recovery {
            Recovery::StateMachine => Stmt::Due { now },
            Recovery::RetryCount => Stmt::Unfinished { now },
        };
        Some(WorkerStep::Statement(scan, None))
    }

    /// One of its statements completed.
    pub fn on_statement(&mut self, now: Millis, executed: Executed, due: &[DueRow]) -> WorkerStep {
        match (self.state, executed) {
            (WorkerState::Scanning, Executed::Due(_)) => {
                // The workers take the due rows from opposite ends (W1 from
                // the first, W2 from the last), so with many rows due they
                // share the work and meet in the middle; a row due alone,
                // both take, and race for.
                self.due.clear();
                match self.id {
                    WorkerId::W1 => self.due.extend_from_slice(due),
                    WorkerId::W2 => self.due.extend(due.iter().rev()),
                }
                self.next = 0;
                self.next_row(now)
            }
            (WorkerState::EndingLease { row }, Executed::Updated) => {
                self.probe(now, DueRow { status: Status::Unknown, version: row.version + 1, ..row })
            }
            (WorkerState::Claiming { row }, Executed::Claimed { .. }) => {
                self.last_claim = Some(LastClaim { at: now, row: row.row, version: row.version, won: true });
                let claimed = DueRow {
                    status: Status::Pending,
                    version: row.version + 1,
                    retry_count: row.retry_count + 1,
                    ..row
                };
                self.state = WorkerState::Resending { row: claimed };
                WorkerStep::Resend(claimed)
            }
            (WorkerState::Counting { row }, Executed::Bumped) => {
                let counted = DueRow { retry_count: row.retry_count + 1, ..row };
                self.state = WorkerState::Resending { row: counted };
                WorkerStep::Resend(counted)
            }
            (WorkerState::Claiming { row }, _) => {
                self.last_claim = Some(LastClaim { at: now, row: row.row, version: row.version, won: false });
                self.next_row(now)
            }
            (
                WorkerState::EndingLease { .. }
                | WorkerState::WritingProbe
                | WorkerState::WritingResend
                | WorkerState::Counting { .. },
                _,
            ) => self.next_row(now),
            _ => WorkerStep::Idle,
        }
    }

    fn probe(&mut self, now: Millis, row: DueRow) -> WorkerStep {
        if !self.config.find_by_key {
            return self.next_row(now);
        }
        self.state = WorkerState::Probing { row };
        WorkerStep::Probe(row)
    }

    /// The next due row's step, or idle once they are done.
    fn next_row(&mut self, now: Millis) -> WorkerStep {
        while let Some(&row) = self.due.get(self.next) {
            self.next += 1;
            if self.config.recovery == Recovery::RetryCount {
                self.state = WorkerState::Counting { row };
                return WorkerStep::Statement(Stmt::Bump { row: row.row, retry_count: row.retry_count + 1 }, None);
            }
            match row.status {
                Status::Unknown if self.config.find_by_key => return self.probe(now, row),
                Status::Retryable => {
                    let lease_until = now + self.config.lease;
                    let claim = if self.config.cas {
                        Claim::Cas { row: row.row, version: row.version, now, lease_until }
                    } else {
                        Claim::Blind {
                            row: row.row,
                            retry_count: row.retry_count + 1,
                            version: row.version + 1,
                            lease_until,
                        }
                    };
                    self.state = WorkerState::Claiming { row };
                    return WorkerStep::Statement(Stmt::Claim(claim), Some(Cause::ClaimWon));
                }
                Status::Pending => {
                    let update = Update {
                        row: row.row,
                        from: Status::Pending,
                        version: row.version,
                        to: Status::Unknown,
                        downstream_ref: None,
                        next_retry_at: self.config.find_by_key.then_some(now),
                    };
                    self.state = WorkerState::EndingLease { row };
                    return WorkerStep::Statement(Stmt::Update(update), Some(Cause::ClaimLeaseEnded));
                }
                _ => {}
            }
        }
        self.state = WorkerState::Idle;
        WorkerStep::Idle
    }

    /// The probe's answer (`None`: it timed out).
    pub fn on_probe_answer(&mut self, now: Millis, answer: Option<Answer>) -> WorkerStep {
        let WorkerState::Probing { row } = self.state else { return WorkerStep::Idle };
        let later = Some(now + backoff(self.config.backoff, row.retry_count));
        let (to, downstream_ref, next_retry_at, cause) = match answer {
            Some(Answer::Found(review)) => (Status::Succeeded, Some(review), None, Cause::FindFound),
            Some(Answer::NotFound) => (Status::Retryable, None, later, Cause::FindNotFound),
            // A create with the key is still under way: ask again later.
            Some(Answer::InProgress) => (Status::Unknown, None, later, Cause::FindInProgress),
            Some(Answer::Unavailable | Answer::ServerError) => (Status::Unknown, None, later, Cause::Downstream5xx),
            // No answer: the query still times out.
            _ => (Status::Unknown, None, later, Cause::FindTimeout),
        };
        let update =
            Update { row: row.row, from: Status::Unknown, version: row.version, to, downstream_ref, next_retry_at };
        self.state = WorkerState::WritingProbe;
        WorkerStep::Statement(Stmt::Update(update), Some(cause))
    }

    /// The resent create's answer (`None`: it timed out).
    pub fn on_resend_answer(&mut self, now: Millis, answer: Option<Answer>) -> WorkerStep {
        let WorkerState::Resending { row } = self.state else { return WorkerStep::Idle };
        if self.config.recovery == Recovery::RetryCount {
            return self.counted_answer(now, row, answer);
        }
        let (update, cause) =
            create_outcome(now, row.row, row.version, answer, self.config.timeout_is_unknown, self.config.find_by_key);
        self.state = WorkerState::WritingResend;
        WorkerStep::Statement(Stmt::Update(update), Some(cause))
    }

    /// The retry-count worker's write: SUCCEEDED for a review, FAILED for a
    /// rejection, from whatever status it read; nothing otherwise.
    fn counted_answer(&mut self, now: Millis, row: DueRow, answer: Option<Answer>) -> WorkerStep {
        let (to, downstream_ref, cause) = match answer {
            Some(Answer::Created(review) | Answer::Existing(review)) => {
                (Status::Succeeded, Some(review), Cause::CreateSucceeded)
            }
            Some(Answer::Rejected) if row.status != Status::Failed => (Status::Failed, None, Cause::BusinessRejection),
            _ => return self.next_row(now),
        };
        let update =
            Update { row: row.row, from: row.status, version: row.version, to, downstream_ref, next_retry_at: None };
        self.state = WorkerState::WritingResend;
        WorkerStep::Statement(Stmt::Update(update), Some(cause))
    }

    /// The worker-crash-after-send fault: it stops for the rest of the run.
    pub fn crash(&mut self, now: Millis) {
        self.state = WorkerState::Crashed { at: now };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::risk::facts::{OrderId, RequestKey};

    fn worker(cas: bool) -> Worker {
        Worker::new(
            WorkerId::W1,
            WorkerConfig {
                scan_interval: Millis(1000),
                offset: Millis(0),
                backoff: Millis(1000),
                lease: Millis(5000),
                cas,
                find_by_key: true,
                timeout_is_unknown: true,
                recovery: Recovery::StateMachine,
            },
        )
    }

    fn due(status: Status, version: u32) -> DueRow {
        DueRow { row: RowId(10086), request_key: RequestKey(1), order: OrderId(1), status, version, retry_count: 0 }
    }

    #[test]
    fn an_unknown_row_is_probed_and_not_found_makes_it_retryable_after_backoff() {
        let mut w = worker(true);
        assert_eq!(w.on_wake(Millis(3000)), Some(WorkerStep::Statement(Stmt::Due { now: Millis(3000) }, None)));
        assert_eq!(w.on_wake(Millis(3000)), None, "busy");
        let row = due(Status::Unknown, 2);
        assert_eq!(w.on_statement(Millis(3001), Executed::Due(1), &[row]), WorkerStep::Probe(row));
        let WorkerStep::Statement(Stmt::Update(u), Some(Cause::FindNotFound)) =
            w.on_probe_answer(Millis(3101), Some(Answer::NotFound))
        else {
            panic!("a write")
        };
        assert_eq!((u.to, u.version, u.next_retry_at), (Status::Retryable, 2, Some(Millis(4101))));
        assert_eq!(w.on_statement(Millis(3102), Executed::Updated, &[]), WorkerStep::Idle);
    }

    #[test]
    fn claims_are_compare_and_set_or_blind() {
        for cas in [true, false] {
            let mut w = worker(cas);
            w.on_wake(Millis(5000));
            let step = w.on_statement(Millis(5001), Executed::Due(1), &[due(Status::Retryable, 3)]);
            let WorkerStep::Statement(Stmt::Claim(claim), _) = step else { panic!("a claim") };
            let lease_until = Millis(10_001);
            let expected = if cas {
                Claim::Cas { row: RowId(10086), version: 3, now: Millis(5001), lease_until }
            } else {
                Claim::Blind { row: RowId(10086), retry_count: 1, version: 4, lease_until }
            };
            assert_eq!(claim, expected);
            let step = w.on_statement(Millis(5002), Executed::Claimed { from: Status::Retryable }, &[]);
            assert!(matches!(step, WorkerStep::Resend(r) if r.version == 4 && r.retry_count == 1));
            assert_eq!(w.last_claim().map(|c| c.won), Some(true));
        }
    }

    #[test]
    fn a_pending_row_whose_lease_ended_is_marked_unknown_then_probed() {
        let mut w = worker(true);
        w.on_wake(Millis(11_000));
        let step = w.on_statement(Millis(11_001), Executed::Due(1), &[due(Status::Pending, 4)]);
        assert!(matches!(step, WorkerStep::Statement(Stmt::Update(u), Some(Cause::ClaimLeaseEnded)) if u.version == 4));
        let step = w.on_statement(Millis(11_002), Executed::Updated, &[]);
        assert!(matches!(step, WorkerStep::Probe(r) if r.status == Status::Unknown && r.version == 5));
    }
}
