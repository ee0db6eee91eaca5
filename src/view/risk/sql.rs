//! The SQL each database step stands for, with its values written in, as
//! the event text shows it and a real database can run it. Times
//! (`next_retry_at`) are model milliseconds.

use crate::sim::Millis;
use crate::sim::risk::facts::{Claim, Lock, Read, Stmt, Update};

use super::names;

/// The report's table. Each unique key is its own index, so either can be
/// left out when its switch is off.
pub const TABLE: &str = "CREATE TABLE risk_requests (\n  id TEXT PRIMARY KEY,\n  request_key TEXT NOT NULL,\n  \
                         business_key TEXT NOT NULL,\n  order_id TEXT NOT NULL,\n  requester_id TEXT NOT NULL,\n  \
                         status TEXT NOT NULL,\n  downstream_ref TEXT,\n  retry_count INTEGER NOT NULL,\n  \
                         next_retry_at INTEGER,\n  version INTEGER NOT NULL\n)";
pub const UNIQUE_REQUEST_KEY: &str = "CREATE UNIQUE INDEX risk_requests_request_key ON risk_requests (request_key)";
pub const UNIQUE_BUSINESS_KEY: &str = "CREATE UNIQUE INDEX risk_requests_business_key ON risk_requests (business_key)";
/// The replicas' locks, for the lock design.
pub const LOCKS: &str =
    "CREATE TABLE risk_locks (name TEXT PRIMARY KEY, holder TEXT NOT NULL, expires_at INTEGER NOT NULL)";

/// The schema with the unique keys that are switched on.
pub fn schema(unique_request_key: bool, unique_business_key: bool) -> Vec<&'static str> {
    let mut statements = vec![TABLE];
    if unique_request_key {
        statements.push(UNIQUE_REQUEST_KEY);
    }
    if unique_business_key {
        statements.push(UNIQUE_BUSINESS_KEY);
    }
    statements
}

fn quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

fn time_or_null(t: Option<Millis>) -> String {
    t.map_or_else(|| "NULL".to_owned(), |t| t.ms().to_string())
}

/// One statement, values written in.
pub fn statement(stmt: &Stmt) -> String {
    match *stmt {
        Stmt::Insert(i) => format!(
            "INSERT INTO risk_requests (id, request_key, business_key, order_id, requester_id, status, \
             downstream_ref, retry_count, next_retry_at, version) VALUES ({}, {}, {}, {}, {}, 'PENDING', NULL, 0, \
             NULL, 1) ON CONFLICT DO NOTHING",
            quoted(&names::row(i.row)),
            quoted(&names::request_key(i.request_key)),
            quoted(&names::business_key(i.business_key())),
            quoted(&names::order(i.order)),
            quoted(&names::user(i.requester)),
        ),
        Stmt::Read(Read::ByRequestKey(key)) => {
            format!("SELECT id, status FROM risk_requests WHERE request_key = {}", quoted(&names::request_key(key)))
        }
        Stmt::Read(Read::ByBusinessKey(key)) => {
            format!("SELECT id, status FROM risk_requests WHERE business_key = {}", quoted(&names::business_key(key)))
        }
        Stmt::Read(Read::ById { row, requester }) => {
            let mut text = format!("SELECT id, status FROM risk_requests WHERE id = {}", quoted(&names::row(row)));
            if let Some(subject) = requester {
                text.push_str(&format!(" AND requester_id = {}", quoted(&names::user(subject))));
            }
            text
        }
        Stmt::Read(Read::Existing { request_key, business_key }) => {
            let mut keys = Vec::new();
            keys.extend(request_key.map(|k| format!("request_key = {}", quoted(&names::request_key(k)))));
            keys.extend(business_key.map(|k| format!("business_key = {}", quoted(&names::business_key(k)))));
            format!("SELECT id, status FROM risk_requests WHERE {} ORDER BY id LIMIT 1", keys.join(" OR "))
        }
        Stmt::Lock(Lock { name, holder, now, until }) => format!(
            "INSERT INTO risk_locks (name, holder, expires_at) VALUES ({}, {}, {}) ON CONFLICT (name) DO UPDATE \
             SET holder = excluded.holder, expires_at = excluded.expires_at \
             WHERE risk_locks.expires_at <= {} OR risk_locks.holder = excluded.holder",
            quoted(&names::lock(name)),
            quoted(&names::call(holder)),
            until.ms(),
            now.ms()
        ),
        Stmt::Unlock { holder } => format!("DELETE FROM risk_locks WHERE holder = {}", quoted(&names::call(holder))),
        Stmt::Bump { row, retry_count } => {
            format!("UPDATE risk_requests SET retry_count = {retry_count} WHERE id = {}", quoted(&names::row(row)))
        }
        Stmt::Unfinished { .. } => "SELECT id, request_key, order_id, status, version, retry_count FROM risk_requests \
             WHERE status <> 'SUCCEEDED' AND retry_count < 3 ORDER BY id"
            .to_owned(),
        Stmt::Due { now } => format!(
            "SELECT id, request_key, order_id, status, version, retry_count FROM risk_requests \
             WHERE next_retry_at <= {} ORDER BY id",
            now.ms()
        ),
        Stmt::Update(u) => update(&u),
        Stmt::Claim(Claim::Cas { row, version, now, lease_until }) => format!(
            "UPDATE risk_requests SET status = 'PENDING', retry_count = retry_count + 1, next_retry_at = {}, \
             version = version + 1 WHERE id = {} AND status = 'RETRYABLE' AND version = {version} \
             AND next_retry_at <= {}",
            lease_until.ms(),
            quoted(&names::row(row)),
            now.ms()
        ),
        Stmt::Claim(Claim::Blind { row, retry_count, version, lease_until }) => format!(
            "UPDATE risk_requests SET status = 'PENDING', retry_count = {retry_count}, next_retry_at = {}, \
             version = {version} WHERE id = {}",
            lease_until.ms(),
            quoted(&names::row(row))
        ),
    }
}

fn update(u: &Update) -> String {
    let reference =
        u.downstream_ref.map_or_else(String::new, |r| format!("downstream_ref = {}, ", quoted(&names::review(r))));
    let bump = if u.changes_status() { ", version = version + 1" } else { "" };
    format!(
        "UPDATE risk_requests SET status = '{}', {reference}next_retry_at = {}{bump} \
         WHERE id = {} AND status = '{}' AND version = {}",
        u.to.name(),
        time_or_null(u.next_retry_at),
        quoted(&names::row(u.row)),
        u.from.name(),
        u.version
    )
}

/// "1 row", "0 rows".
pub fn rows(n: u32) -> String {
    if n == 1 { "1 row".to_owned() } else { format!("{n} rows") }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::risk::facts::{END_USER, Insert, OrderId, RequestKey, RowId, Status};

    #[test]
    fn the_report_statements_read_as_sql() {
        let insert = Stmt::Insert(Insert {
            row: RowId(10086),
            request_key: RequestKey(1),
            order: OrderId(1),
            requester: END_USER,
            generation: 1,
        });
        assert_eq!(
            statement(&insert),
            "INSERT INTO risk_requests (id, request_key, business_key, order_id, requester_id, status, downstream_ref, \
             retry_count, next_retry_at, version) VALUES ('R10086', 'rk-0001', 'O20260728001:risk:1', 'O20260728001', \
             'u-1001', 'PENDING', NULL, 0, NULL, 1) ON CONFLICT DO NOTHING"
        );
        let claim =
            Stmt::Claim(Claim::Cas { row: RowId(10086), version: 3, now: Millis(5001), lease_until: Millis(10_001) });
        assert!(
            statement(&claim)
                .ends_with("WHERE id = 'R10086' AND status = 'RETRYABLE' AND version = 3 AND next_retry_at <= 5001")
        );
        let update = Stmt::Update(Update {
            row: RowId(10086),
            from: Status::Pending,
            version: 1,
            to: Status::Failed,
            downstream_ref: None,
            next_retry_at: None,
        });
        assert_eq!(
            statement(&update),
            "UPDATE risk_requests SET status = 'FAILED', next_retry_at = NULL, version = version + 1 WHERE id = 'R10086' \
             AND status = 'PENDING' AND version = 1"
        );
    }
}
