//! A real database agrees with the model: the SQL every database step of a
//! run stands for is replayed, in order, against an in-memory SQLite with
//! the incident report's schema (a unique index per unique key, left out
//! when the model's switch is off). Every statement must touch the rows the
//! model says it touched, and the real table must end as the model's.

use idempotency_lab::sim::risk::facts::{Claim, Stmt};
use idempotency_lab::sim::risk::{Preset, Run};
use idempotency_lab::view::risk::{names, sql};
use rusqlite::Connection;

use super::run;

/// The report's table, written here rather than taken from the program.
const TABLE: &str = "CREATE TABLE risk_requests (
    id TEXT PRIMARY KEY,
    request_key TEXT NOT NULL,
    business_key TEXT NOT NULL,
    order_id TEXT NOT NULL,
    requester_id TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('PENDING', 'SUCCEEDED', 'FAILED', 'UNKNOWN', 'RETRYABLE')),
    downstream_ref TEXT,
    retry_count INTEGER NOT NULL,
    next_retry_at INTEGER,
    version INTEGER NOT NULL
)";

/// What kinds of statement the replays covered, with how many rows.
#[derive(Default, Debug)]
struct Coverage {
    inserted: u32,
    insert_conflicts: u32,
    cas_won: u32,
    cas_lost: u32,
    blind_claims: u32,
    updates: u32,
    skipped_updates: u32,
    reads: u32,
    scans: u32,
    locks_taken: u32,
    locks_busy: u32,
    unlocks: u32,
    counts: u32,
}

fn replay(run: &Run, coverage: &mut Coverage) {
    let db = Connection::open_in_memory().unwrap();
    db.execute(TABLE, []).unwrap();
    db.execute(
        "CREATE TABLE risk_locks (name TEXT PRIMARY KEY, holder TEXT NOT NULL, expires_at INTEGER NOT NULL)",
        [],
    )
    .unwrap();
    let switches = run.settings().switches;
    if switches.unique_request_key {
        db.execute("CREATE UNIQUE INDEX by_request_key ON risk_requests (request_key)", []).unwrap();
    }
    if switches.unique_business_key {
        db.execute("CREATE UNIQUE INDEX by_business_key ON risk_requests (business_key)", []).unwrap();
    }
    for record in run.records() {
        let Some((stmt, rows)) = record.statement() else { continue };
        let text = sql::statement(&stmt);
        let touched = if text.starts_with("SELECT") {
            let mut query = db.prepare(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
            let mut found = query.query([]).unwrap();
            let mut n = 0;
            while found.next().unwrap().is_some() {
                n += 1;
            }
            n
        } else {
            db.execute(&text, []).unwrap_or_else(|e| panic!("{text}: {e}")) as u32
        };
        assert_eq!(touched, rows, "{:?} at {}: {text}", run.settings().preset, record.t);
        match (stmt, rows) {
            (Stmt::Insert(_), 1) => coverage.inserted += 1,
            (Stmt::Insert(_), _) => coverage.insert_conflicts += 1,
            (Stmt::Claim(Claim::Cas { .. }), 1) => coverage.cas_won += 1,
            (Stmt::Claim(Claim::Cas { .. }), _) => coverage.cas_lost += 1,
            (Stmt::Claim(Claim::Blind { .. }), _) => coverage.blind_claims += 1,
            (Stmt::Update(_), 1) => coverage.updates += 1,
            (Stmt::Update(_), _) => coverage.skipped_updates += 1,
            (Stmt::Read(_), _) => coverage.reads += 1,
            (Stmt::Due { .. } | Stmt::Unfinished { .. }, _) => coverage.scans += 1,
            (Stmt::Lock(_), 1) => coverage.locks_taken += 1,
            (Stmt::Lock(_), _) => coverage.locks_busy += 1,
            (Stmt::Unlock { .. }, _) => coverage.unlocks += 1,
            (Stmt::Bump { .. }, _) => coverage.counts += 1,
        }
    }
    let mut query = db
        .prepare(
            "SELECT id, request_key, business_key, order_id, requester_id, status, downstream_ref, retry_count, \
             next_retry_at, version FROM risk_requests ORDER BY id",
        )
        .unwrap();
    let real: Vec<String> = query
        .query_map([], |r| {
            Ok(format!(
                "{}|{}|{}|{}|{}|{}|{}|{}|{}|{}",
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, String>(4)?,
                r.get::<_, String>(5)?,
                r.get::<_, Option<String>>(6)?.unwrap_or_default(),
                r.get::<_, i64>(7)?,
                r.get::<_, Option<i64>>(8)?.map_or_else(String::new, |t| t.to_string()),
                r.get::<_, i64>(9)?,
            ))
        })
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let model: Vec<String> = run
        .rows()
        .iter()
        .map(|r| {
            format!(
                "{}|{}|{}|{}|{}|{}|{}|{}|{}|{}",
                names::row(r.id),
                names::request_key(r.request_key),
                names::business_key(r.business_key()),
                names::order(r.order),
                names::user(r.requester),
                r.status.name(),
                r.downstream_ref.map_or_else(String::new, names::review),
                r.retry_count,
                r.next_retry_at.map_or_else(String::new, |t| t.ms().to_string()),
                r.version
            )
        })
        .collect();
    assert_eq!(real, model, "{:?} {:?}", run.settings().preset, run.settings().switches);
}

#[test]
fn every_preset_in_both_modes_and_with_each_switch_off() {
    let mut coverage = Coverage::default();
    for preset in Preset::ALL {
        for mode in ["naive", "patterns"] {
            replay(&run(&format!("--preset {} --mode {mode}", preset.value())), &mut coverage);
        }
        for switch in [
            "--unique-request-key off",
            "--unique-business-key off",
            "--unique-request-key off --unique-business-key off",
            "--timeout-is-unknown off",
            "--idempotent-create off --cas off",
            "--find-by-key off",
            "--cas off",
            "--authorize off",
        ] {
            replay(&run(&format!("--preset {} --mode patterns {switch}", preset.value())), &mut coverage);
        }
    }
    // Every kind of step the model has, with its row counts, was checked.
    assert!(coverage.inserted > 0 && coverage.insert_conflicts > 0, "{coverage:?}");
    assert!(coverage.cas_won > 0 && coverage.cas_lost > 0 && coverage.blind_claims > 0, "{coverage:?}");
    assert!(coverage.updates > 0 && coverage.skipped_updates > 0, "{coverage:?}");
    assert!(coverage.reads > 0 && coverage.scans > 0, "{coverage:?}");
}

#[test]
fn random_faults_agree_too() {
    let mut coverage = Coverage::default();
    for seed in 0..60 {
        for mode in ["naive", "patterns"] {
            replay(&run(&format!("--preset random-faults --mode {mode} --seed {seed}")), &mut coverage);
        }
        replay(&run(&format!("--preset random-faults --mode patterns --cas off --seed {seed}")), &mut coverage);
    }
    assert!(coverage.insert_conflicts > 0 && coverage.cas_lost > 0 && coverage.blind_claims > 0, "{coverage:?}");
}

#[test]
fn the_overload_without_gates_agrees() {
    // Hundreds of rows, probes, claims and resends under load.
    replay(&run("--preset overload --mode patterns --gates off --global-gate off"), &mut Coverage::default());
}

#[test]
fn check_then_insert_lets_both_rows_in_where_the_unique_key_refuses_the_second() {
    // Two replicas check by business_key at the same instant: both SELECTs
    // find nothing, then both INSERTs succeed, in SQLite as in the model.
    let mut racing = Coverage::default();
    replay(
        &run("--preset check-then-insert-race --mode patterns --unique-business-key check-then-insert"),
        &mut racing,
    );
    assert_eq!((racing.reads, racing.inserted, racing.insert_conflicts), (2, 2, 0), "{racing:?}");
    // With the unique index the second INSERT is refused; its replica reads
    // the first row (PENDING), and the agent's poll a second later reads it
    // again.
    let mut unique = Coverage::default();
    replay(&run("--preset check-then-insert-race --mode patterns"), &mut unique);
    assert_eq!((unique.inserted, unique.insert_conflicts, unique.reads), (1, 1, 2), "{unique:?}");
}

#[test]
fn the_wrong_designs_agree_too() {
    let mut coverage = Coverage::default();
    for flags in [
        "--preset pause-past-lease --mode patterns --unique-business-key lock",
        "--preset pause-past-lease --mode patterns --unique-request-key lock --unique-business-key off",
        "--preset lost-create-response --mode patterns --timeout-is-unknown resend",
        "--preset lost-create-response --mode patterns --recovery retry-count",
        "--preset same-request-key --mode patterns --recovery retry-count --fault business-rejection@1",
    ] {
        replay(&run(flags), &mut coverage);
    }
    assert!(coverage.locks_taken > 0 && coverage.locks_busy > 0 && coverage.unlocks > 0, "{coverage:?}");
    assert!(coverage.counts > 0 && coverage.skipped_updates > 0, "{coverage:?}");
    for preset in Preset::ALL {
        for design in [
            "--unique-request-key check-then-insert --unique-business-key check-then-insert",
            "--unique-business-key lock",
            "--timeout-is-unknown resend",
            "--recovery retry-count",
        ] {
            replay(&run(&format!("--preset {} --mode patterns {design}", preset.value())), &mut coverage);
        }
    }
}
