//! The database: the incident report's table with its two unique keys
//! (each can be switched off). Statements are atomic: each takes effect
//! whole at the instant it completes, and reports the rows it touched.

use std::collections::BTreeMap;

use crate::sim::SimError;
use crate::sim::time::Millis;

use super::facts::{
    BusinessKey, CallId, Claim, FIRST_ROW, Insert, Lock, LockName, OrderId, Read, RequestKey, ReviewRef, RowId, Status,
    Stmt, UniqueKey, Update, UserId,
};
use super::settings::DatabaseConfig;

/// The most rows a run may insert. Runs stay far below (every row comes
/// from a call, and calls are bounded); reaching it stops the run.
pub const MAX_ROWS: usize = 20_000;

/// A row with all ten columns of the report's table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Row {
    pub id: RowId,
    pub request_key: RequestKey,
    pub order: OrderId,
    pub requester: UserId,
    pub status: Status,
    pub downstream_ref: Option<ReviewRef>,
    pub retry_count: u32,
    pub next_retry_at: Option<Millis>,
    pub version: u32,
    /// The order's generation the row belongs to.
    pub generation: u32,
}

impl Row {
    pub fn business_key(&self) -> BusinessKey {
        BusinessKey { order: self.order, generation: self.generation }
    }
}

/// A row as the workers' scan returns it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DueRow {
    pub row: RowId,
    pub request_key: RequestKey,
    pub order: OrderId,
    pub status: Status,
    pub version: u32,
    pub retry_count: u32,
}

impl DueRow {
    fn of(r: &Row) -> DueRow {
        DueRow {
            row: r.id,
            request_key: r.request_key,
            order: r.order,
            status: r.status,
            version: r.version,
            retry_count: r.retry_count,
        }
    }
}

/// What a statement did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Executed {
    /// One row; the insert carries the id it got.
    Inserted(Insert),
    /// No row: a unique key was taken.
    Conflict {
        insert: Insert,
        on: UniqueKey,
        existing: RowId,
    },
    Read(Option<(RowId, Status)>),
    /// The scan found this many due rows.
    Due(u32),
    Updated,
    /// The guard did not match: no row.
    Skipped,
    /// The claim hit its row, which had this status just before.
    Claimed {
        from: Status,
    },
    ClaimLost,
    /// The lock is the caller's until its lease ends.
    Locked,
    /// Another call holds the lock.
    LockBusy,
    /// The retry count was written.
    Bumped,
}

/// A lock a replica holds, until its lease ends or it answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeldLock {
    pub name: LockName,
    pub holder: CallId,
    pub until: Millis,
}

#[derive(Clone, Debug)]
pub struct Database {
    config: DatabaseConfig,
    rows: Vec<Row>,
    /// The first row with each request_key and each business key, by key
    /// number (keys are small, dense integers).
    by_request_key: Vec<Option<RowId>>,
    by_business_key: BTreeMap<BusinessKey, RowId>,
    /// How many of each order's generations ended FAILED, by order number.
    closed: Vec<u32>,
    /// The generation each request_key was first inserted (or refused, or
    /// answered from a found row) in, kept only while request_key is
    /// unique: which generation a key belongs to comes with making it
    /// unique (the index for a key with a row, this memory for one without).
    key_generation: BTreeMap<RequestKey, u32>,
    /// Rows with a `next_retry_at`: the scan has nothing to find without one.
    scheduled: usize,
    /// The replicas' locks (a handful at most).
    locks: Vec<HeldLock>,
}

fn slot<T: Copy>(index: &mut Vec<Option<T>>, key: u32) -> &mut Option<T> {
    let i = key as usize;
    if index.len() <= i {
        index.resize(i + 1, None);
    }
    &mut index[i]
}

fn lookup<T: Copy>(index: &[Option<T>], key: u32) -> Option<T> {
    index.get(key as usize).copied().flatten()
}

impl Database {
    pub fn new(config: DatabaseConfig) -> Database {
        Database {
            config,
            rows: Vec::new(),
            by_request_key: Vec::new(),
            by_business_key: BTreeMap::new(),
            closed: Vec::new(),
            key_generation: BTreeMap::new(),
            scheduled: 0,
            locks: Vec::new(),
        }
    }

    /// An empty table for a new run, keeping this one's memory.
    pub fn reset(&mut self, config: DatabaseConfig) {
        self.config = config;
        self.rows.clear();
        self.by_request_key.clear();
        self.by_business_key.clear();
        self.closed.clear();
        self.key_generation.clear();
        self.scheduled = 0;
        self.locks.clear();
    }

    /// The generation an insert for `order` with `request_key` belongs to:
    /// with request_key unique, the one the key was first seen in (a retry
    /// stays where it began); otherwise, and for a key not seen yet, the
    /// order's active one, one past its last that ended FAILED. Without a
    /// unique request_key nothing remembers where a key began, so a copy
    /// that arrives after its generation closed opens the next one.
    pub fn generation_for(&self, order: OrderId, request_key: RequestKey) -> u32 {
        let active = self.closed.get(order.0 as usize).copied().unwrap_or(0) + 1;
        if !self.config.unique_request_key {
            return active;
        }
        self.key_generation.get(&request_key).copied().unwrap_or(active)
    }

    /// `request_key` met its order's `generation` (an insert, or a row
    /// found in its place): with request_key unique, the first such
    /// generation is the key's for good.
    pub fn remember(&mut self, request_key: RequestKey, generation: u32) {
        if self.config.unique_request_key {
            self.key_generation.entry(request_key).or_insert(generation);
        }
    }

    pub fn locks(&self) -> &[HeldLock] {
        &self.locks
    }

    /// A replica answered its call: the lock it held goes. Whether it held
    /// one (a lock taken over after its lease ended is no longer its own).
    pub fn release(&mut self, holder: CallId) -> bool {
        let before = self.locks.len();
        self.locks.retain(|l| l.holder != holder);
        self.locks.len() < before
    }

    fn lock(&mut self, lock: Lock) -> Executed {
        match self.locks.iter_mut().find(|l| l.name == lock.name) {
            Some(held) if held.until > lock.now && held.holder != lock.holder => Executed::LockBusy,
            Some(held) => {
                *held = HeldLock { name: lock.name, holder: lock.holder, until: lock.until };
                Executed::Locked
            }
            None => {
                self.locks.push(HeldLock { name: lock.name, holder: lock.holder, until: lock.until });
                Executed::Locked
            }
        }
    }

    pub fn config(&self) -> &DatabaseConfig {
        &self.config
    }

    pub fn rows(&self) -> &[Row] {
        &self.rows
    }

    pub fn row(&self, id: RowId) -> Option<&Row> {
        self.rows.get(id.index()).filter(|r| r.id == id)
    }

    /// Sets a row's `next_retry_at`, keeping count of scheduled rows.
    fn schedule(scheduled: &mut usize, row: &mut Row, next: Option<Millis>) {
        *scheduled = *scheduled + usize::from(next.is_some()) - usize::from(row.next_retry_at.is_some());
        row.next_retry_at = next;
    }

    /// Runs one statement at `now`; the scan's rows go to `due`.
    pub fn execute(&mut self, stmt: Stmt, due: &mut Vec<DueRow>) -> Result<Executed, SimError> {
        Ok(match stmt {
            Stmt::Insert(insert) => self.insert(insert)?,
            Stmt::Read(read) => Executed::Read(self.read(read)),
            Stmt::Due { now } => {
                due.clear();
                if self.scheduled > 0 {
                    due.extend(self.rows.iter().filter(|r| r.next_retry_at.is_some_and(|n| n <= now)).map(DueRow::of));
                }
                Executed::Due(due.len() as u32)
            }
            Stmt::Unfinished { .. } => {
                due.clear();
                due.extend(
                    self.rows.iter().filter(|r| r.status != Status::Succeeded && r.retry_count < 3).map(DueRow::of),
                );
                Executed::Due(due.len() as u32)
            }
            Stmt::Update(update) => self.update(update),
            Stmt::Claim(claim) => self.claim(claim),
            Stmt::Lock(lock) => self.lock(lock),
            Stmt::Unlock { holder } => {
                if self.release(holder) {
                    Executed::Updated
                } else {
                    Executed::Skipped
                }
            }
            Stmt::Bump { row, retry_count } => match self.rows.get_mut(row.index()).filter(|r| r.id == row) {
                Some(r) => {
                    r.retry_count = retry_count;
                    Executed::Bumped
                }
                None => Executed::Skipped,
            },
        })
    }

    fn insert(&mut self, mut insert: Insert) -> Result<Executed, SimError> {
        insert.row = RowId(FIRST_ROW.0 + self.rows.len() as u32);
        self.remember(insert.request_key, insert.generation);
        let taken_request = lookup(&self.by_request_key, insert.request_key.0);
        let taken_business = self.by_business_key.get(&insert.business_key()).copied();
        if let (true, Some(existing)) = (self.config.unique_request_key, taken_request) {
            return Ok(Executed::Conflict { insert, on: UniqueKey::RequestKey, existing });
        }
        if let (true, Some(existing)) = (self.config.unique_business_key, taken_business) {
            return Ok(Executed::Conflict { insert, on: UniqueKey::BusinessKey, existing });
        }
        if self.rows.len() >= MAX_ROWS {
            return Err(SimError::StoreFull { capacity: MAX_ROWS });
        }
        self.rows.push(Row {
            id: insert.row,
            request_key: insert.request_key,
            order: insert.order,
            requester: insert.requester,
            status: Status::Pending,
            downstream_ref: None,
            retry_count: 0,
            next_retry_at: None,
            version: 1,
            generation: insert.generation,
        });
        slot(&mut self.by_request_key, insert.request_key.0).get_or_insert(insert.row);
        self.by_business_key.entry(insert.business_key()).or_insert(insert.row);
        Ok(Executed::Inserted(insert))
    }

    fn read(&self, read: Read) -> Option<(RowId, Status)> {
        let row = match read {
            Read::ByRequestKey(key) => lookup(&self.by_request_key, key.0).and_then(|id| self.row(id)),
            Read::ByBusinessKey(key) => self.by_business_key.get(&key).and_then(|id| self.row(*id)),
            Read::ById { row, requester } => self.row(row).filter(|r| requester.is_none_or(|s| r.requester == s)),
            Read::Existing { request_key, business_key } => self.rows.iter().find(|r| {
                request_key.is_some_and(|k| r.request_key == k) || business_key.is_some_and(|b| r.business_key() == b)
            }),
        };
        row.map(|r| (r.id, r.status))
    }

    fn update(&mut self, u: Update) -> Executed {
        let scheduled = &mut self.scheduled;
        let Some(row) = self.rows.get_mut(u.row.index()).filter(|r| r.id == u.row) else {
            return Executed::Skipped;
        };
        if row.status != u.from || row.version != u.version {
            return Executed::Skipped;
        }
        row.status = u.to;
        if u.to == Status::Failed && u.from != Status::Failed {
            // A FAILED review closes its generation: the order's next request
            // opens the next one.
            let (order, generation) = (row.order.0 as usize, row.generation);
            if self.closed.len() <= order {
                self.closed.resize(order + 1, 0);
            }
            if generation > self.closed[order] {
                self.closed[order] = generation;
            }
        }
        if u.downstream_ref.is_some() {
            row.downstream_ref = u.downstream_ref;
        }
        Self::schedule(scheduled, row, u.next_retry_at);
        if u.changes_status() {
            row.version += 1;
        }
        Executed::Updated
    }

    fn claim(&mut self, claim: Claim) -> Executed {
        let scheduled = &mut self.scheduled;
        let Some(row) = self.rows.get_mut(claim.row().index()).filter(|r| r.id == claim.row()) else {
            return Executed::ClaimLost;
        };
        let from = row.status;
        match claim {
            Claim::Cas { version, now, lease_until, .. } => {
                if row.status != Status::Retryable
                    || row.version != version
                    || row.next_retry_at.is_none_or(|n| n > now)
                {
                    return Executed::ClaimLost;
                }
                row.retry_count += 1;
                row.version += 1;
                row.status = Status::Pending;
                Self::schedule(scheduled, row, Some(lease_until));
            }
            Claim::Blind { retry_count, version, lease_until, .. } => {
                row.retry_count = retry_count;
                row.version = version;
                row.status = Status::Pending;
                Self::schedule(scheduled, row, Some(lease_until));
            }
        }
        Executed::Claimed { from }
    }

    /// A row by id, for tests and snapshots that know it exists.
    pub fn get(&self, id: RowId) -> Option<Row> {
        self.row(id).copied()
    }

    #[cfg(test)]
    fn force(&mut self, id: RowId, status: Status, next: Option<Millis>) {
        let scheduled = &mut self.scheduled;
        let row = self.rows.get_mut(id.index()).expect("row exists");
        row.status = status;
        Self::schedule(scheduled, row, next);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::risk::facts::END_USER;

    fn db(unique_request_key: bool, unique_business_key: bool) -> Database {
        Database::new(DatabaseConfig { statement: Millis(1), unique_request_key, unique_business_key })
    }

    fn insert(key: u32, order: u32) -> Stmt {
        let (request_key, order) = (RequestKey(key), OrderId(order));
        Stmt::Insert(Insert { row: RowId(0), request_key, order, requester: END_USER, generation: 1 })
    }

    #[test]
    fn a_lock_is_free_again_the_instant_its_lease_ends() {
        let mut d = db(true, true);
        let name = LockName::BusinessKey(BusinessKey { order: OrderId(1), generation: 1 });
        let lock = |holder, now| {
            Stmt::Lock(Lock { name, holder: CallId(holder), now: Millis(now), until: Millis(now + 5000) })
        };
        let mut due = Vec::new();
        assert_eq!(d.execute(lock(1, 120), &mut due).unwrap(), Executed::Locked);
        assert_eq!(d.execute(lock(2, 5119), &mut due).unwrap(), Executed::LockBusy, "a millisecond before 5120");
        assert_eq!(d.execute(lock(1, 5119), &mut due).unwrap(), Executed::Locked, "its holder may take it again");
        assert_eq!(d.execute(lock(2, 10_119), &mut due).unwrap(), Executed::Locked, "at the end of the renewed lease");
        assert!(d.release(CallId(2)) && !d.release(CallId(1)), "the lock is call 2's now");
    }

    #[test]
    fn insert_if_absent_reports_the_key_that_conflicted() {
        let mut d = db(true, true);
        let mut due = Vec::new();
        assert!(matches!(d.execute(insert(1, 1), &mut due), Ok(Executed::Inserted(i)) if i.row == RowId(10086)));
        let Ok(Executed::Conflict { on, existing, insert: tried }) = d.execute(insert(1, 1), &mut due) else {
            panic!()
        };
        assert_eq!((on, existing, tried.row), (UniqueKey::RequestKey, RowId(10086), RowId(10087)));
        let Ok(Executed::Conflict { on, .. }) = d.execute(insert(2, 1), &mut due) else { panic!() };
        assert_eq!(on, UniqueKey::BusinessKey);
        let mut open = db(false, false);
        for _ in 0..3 {
            assert!(matches!(open.execute(insert(1, 1), &mut due), Ok(Executed::Inserted(_))));
        }
        assert_eq!(open.rows().len(), 3);
    }

    #[test]
    fn only_a_unique_request_key_keeps_a_key_in_the_generation_it_began_in() {
        let (order, key) = (OrderId(1), RequestKey(1));
        for (unique, later) in [(true, 1), (false, 2)] {
            let mut d = db(unique, true);
            let mut due = Vec::new();
            d.execute(insert(1, 1), &mut due).unwrap();
            let fail = Update {
                row: RowId(10086),
                from: Status::Pending,
                version: 1,
                to: Status::Failed,
                downstream_ref: None,
                next_retry_at: None,
            };
            assert_eq!(d.execute(Stmt::Update(fail), &mut due).unwrap(), Executed::Updated);
            // Generation 1 closed: a new key opens generation 2 either way.
            assert_eq!(d.generation_for(order, RequestKey(2)), 2);
            assert_eq!(d.generation_for(order, key), later, "unique request_key: {unique}");
        }
    }

    #[test]
    fn a_cas_claim_hits_once_and_a_blind_claim_always_hits() {
        let mut d = db(true, true);
        let mut due = Vec::new();
        d.execute(insert(1, 1), &mut due).unwrap();
        d.force(RowId(10086), Status::Retryable, Some(Millis(4101)));
        let cas =
            Stmt::Claim(Claim::Cas { row: RowId(10086), version: 1, now: Millis(5001), lease_until: Millis(10001) });
        assert_eq!(d.execute(cas, &mut due).unwrap(), Executed::Claimed { from: Status::Retryable });
        assert_eq!(d.execute(cas, &mut due).unwrap(), Executed::ClaimLost);
        let row = d.get(RowId(10086)).unwrap();
        assert_eq!((row.status, row.version, row.retry_count), (Status::Pending, 2, 1));
        let blind =
            Stmt::Claim(Claim::Blind { row: RowId(10086), retry_count: 1, version: 2, lease_until: Millis(10001) });
        assert_eq!(d.execute(blind, &mut due).unwrap(), Executed::Claimed { from: Status::Pending });
    }

    #[test]
    fn the_scan_finds_rows_whose_time_has_come_in_id_order() {
        let mut d = db(false, false);
        let mut due = Vec::new();
        for k in 1..=3 {
            d.execute(insert(k, k), &mut due).unwrap();
        }
        d.force(RowId(10088), Status::Unknown, Some(Millis(10)));
        d.force(RowId(10086), Status::Retryable, Some(Millis(20)));
        d.force(RowId(10087), Status::Unknown, Some(Millis(30)));
        assert_eq!(d.execute(Stmt::Due { now: Millis(20) }, &mut due).unwrap(), Executed::Due(2));
        assert_eq!(due.iter().map(|r| r.row.0).collect::<Vec<_>>(), [10086, 10088]);
        let guarded = Update {
            row: RowId(10087),
            from: Status::Unknown,
            version: 1,
            to: Status::Succeeded,
            downstream_ref: Some(ReviewRef(1)),
            next_retry_at: None,
        };
        assert_eq!(d.execute(Stmt::Update(guarded), &mut due).unwrap(), Executed::Updated);
        assert_eq!(d.execute(Stmt::Update(guarded), &mut due).unwrap(), Executed::Skipped, "the version moved");
        assert_eq!(d.scheduled, 2);
    }
}
