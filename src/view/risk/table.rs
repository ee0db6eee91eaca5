//! The database table at a moment, as the incident report prints it: ten
//! columns per row, the row that changed last, and every unique conflict
//! next to the row the insert ran into.

use crate::sim::Millis;
use crate::sim::risk::facts::{Issuer, RowId, Status, UniqueKey, What};
use crate::sim::risk::{Row, Run};

use super::names;

/// The report's columns.
pub const COLUMNS: [&str; 10] = [
    "id",
    "request_key",
    "business_key",
    "order_id",
    "requester_id",
    "status",
    "downstream_ref",
    "retry_count",
    "next_retry_at",
    "version",
];

/// One row's cells, in [`COLUMNS`] order.
pub fn cells(row: &Row) -> [String; 10] {
    [
        names::row(row.id),
        names::request_key(row.request_key),
        names::business_key(row.business_key()),
        names::order(row.order),
        names::user(row.requester),
        row.status.name().to_owned(),
        row.downstream_ref.map_or_else(|| "NULL".to_owned(), names::review),
        row.retry_count.to_string(),
        row.next_retry_at.map_or_else(|| "NULL".to_owned(), names::clock),
        row.version.to_string(),
    ]
}

/// The last change the database made by `t`: a row's move, or an insert
/// that ran into a unique key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    pub row: RowId,
    pub t: Millis,
    pub conflict: bool,
}

pub fn latest_change(run: &Run, t: Millis) -> Option<Change> {
    run.records_until(t).iter().rev().find_map(|r| match r.what {
        What::InsertConflict { existing, .. } => Some(Change { row: existing, t: r.t, conflict: true }),
        _ => r.row_move().map(|m| Change { row: m.row, t: r.t, conflict: false }),
    })
}

/// An insert refused by a unique key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conflict {
    pub t: Millis,
    /// The row that already held the key.
    pub existing: RowId,
    pub text: String,
}

/// Every unique conflict by `t`, oldest first.
pub fn conflicts(run: &Run, t: Millis) -> Vec<Conflict> {
    run.records_until(t)
        .iter()
        .filter_map(|r| match r.what {
            What::InsertConflict { by, insert, on, existing } => {
                let key = match on {
                    UniqueKey::RequestKey => format!("request_key {}", names::request_key(insert.request_key)),
                    UniqueKey::BusinessKey => format!("business_key {}", names::business_key(insert.business_key())),
                };
                let who = match by {
                    Issuer::Replica(replica, call) => {
                        format!("replica {}'s insert for {}", replica.name(), names::call(call))
                    }
                    Issuer::Worker(worker) => format!("worker {}'s insert", worker.name()),
                };
                Some(Conflict {
                    t: r.t,
                    existing,
                    text: format!("{}: {who} ran into the unique {key}; no new row.", names::clock(r.t)),
                })
            }
            _ => None,
        })
        .collect()
}

/// The CSS name of a status's colour.
pub fn status_class(status: Status) -> &'static str {
    match status {
        Status::Pending => "status-pending",
        Status::Succeeded => "status-succeeded",
        Status::Failed => "status-failed",
        Status::Unknown => "status-unknown",
        Status::Retryable => "status-retryable",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::risk::{Mode, Preset, Settings};

    #[test]
    fn the_naive_incident_table_reads_as_the_report() {
        let run = Run::simulate(&Settings::preset(Preset::Incident, Mode::Naive)).unwrap();
        let rows = run.rows();
        assert_eq!(
            cells(&rows[0]),
            ["R10086", "rk-0001", "O20260728001:risk:1", "O20260728001", "u-1001", "FAILED", "NULL", "0", "NULL", "2"]
        );
        assert_eq!(cells(&rows[1])[6], "RV-2");
        // The timeout's update is the change at 2.622 s.
        assert_eq!(
            latest_change(&run, Millis(2_622)),
            Some(Change { row: RowId(10086), t: Millis(2_622), conflict: false })
        );
        assert_eq!(latest_change(&run, Millis(100)), None);
        assert!(conflicts(&run, run.horizon()).is_empty());
    }

    #[test]
    fn a_conflict_is_shown_on_the_row_it_ran_into() {
        // An agent that calls again at 10:31:12.000 rather than polling: its
        // call runs into the unique request_key.
        use crate::sim::risk::settings::{MODE, RETRY_POLICY};
        let settings = Settings::from_pairs(&[(&MODE, "patterns"), (&RETRY_POLICY, "off")]).unwrap();
        let run = Run::simulate(&settings).unwrap();
        let c = conflicts(&run, run.horizon());
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].existing, RowId(10086));
        assert!(
            c[0].text.ends_with("replica A's insert for call 3 ran into the unique request_key rk-0001; no new row.")
        );
        let change = latest_change(&run, c[0].t).unwrap();
        assert!(change.conflict && change.row == RowId(10086));
        let retry = Run::simulate(&Settings::preset(Preset::NotFoundResend, Mode::Patterns)).unwrap();
        let last = retry.rows().last().unwrap();
        assert_eq!(status_class(last.status), "status-succeeded");
        assert_eq!(cells(last)[7], "1", "one resend");
    }
}
