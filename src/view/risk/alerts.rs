//! Alerts an operator would get, raised from the run's own records as of a
//! moment, one line per kind with how often it fired, its worst case, and
//! the moment it first fired: rows stuck in UNKNOWN past a threshold,
//! replicas' queues filled to capacity, replicas with no gates holding more
//! than the gates would, claims lost (or, without compare-and-set, won
//! twice), an anomalous share of claims lost, rising authorization
//! refusals, and Risk API calls past their budget.

use crate::sim::Millis;
use crate::sim::risk::facts::{Actor, DsKind, Record, ReplicaId, RowId, Status, What, WorkerId};
use crate::sim::risk::{Run, Settings};

use super::names;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum AlertKind {
    UnknownStalled,
    QueueSaturated,
    GatesMissing,
    ClaimsLost,
    ClaimsWonTwice,
    CasFailureRate,
    AuthRejectionsRising,
    DownstreamSlow,
}

impl AlertKind {
    /// The stable name, as CSS uses it.
    pub fn name(self) -> &'static str {
        match self {
            AlertKind::UnknownStalled => "unknown-stalled",
            AlertKind::QueueSaturated => "queue-saturated",
            AlertKind::GatesMissing => "gates-missing",
            AlertKind::ClaimsLost => "claims-lost",
            AlertKind::ClaimsWonTwice => "claims-won-twice",
            AlertKind::CasFailureRate => "cas-failure-rate",
            AlertKind::AuthRejectionsRising => "auth-rejections-rising",
            AlertKind::DownstreamSlow => "downstream-slow",
        }
    }
}

/// One kind of alert: how many times it fired by the moment asked for,
/// when it first did, and a line that says both and its worst case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Alert {
    pub kind: AlertKind,
    pub count: u64,
    /// When it first fired.
    pub since: Millis,
    pub text: String,
}

/// How long a row may stay UNKNOWN before it raises an alert: as long as
/// one tool call may wait for its answer (the client deadline). A row
/// UNKNOWN for longer has outlived every call that could have asked.
pub fn unknown_threshold(settings: &Settings) -> Millis {
    settings.agent.deadline
}

/// The alerts raised by the records up to `t`, one per kind, by when each
/// first fired.
pub fn alerts(run: &Run, t: Millis) -> Vec<Alert> {
    let settings = run.settings();
    let records = run.records_until(t);
    let mut out: Vec<Alert> = [
        unknown_stalled(settings, records, t),
        saturated(settings, records),
        gates_missing(settings, records),
        claims_lost(records),
        claims_won_twice(records),
        claim_failure_rate(records),
        auth_rejections(records),
        downstream_slow(settings, records, t),
    ]
    .into_iter()
    .flatten()
    .collect();
    out.sort_by_key(|a| (a.since, a.kind));
    out
}

fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn unknown_stalled(settings: &Settings, records: &[Record], t: Millis) -> Option<Alert> {
    // Since when each row has been UNKNOWN (a failed probe keeps it so), by
    // the row's place in the table.
    let mut since: Vec<(RowId, Option<Millis>)> = Vec::new();
    for r in records {
        if let Some(m) = r.row_move() {
            let i = m.row.index();
            if since.len() <= i {
                since.resize(i + 1, (m.row, None));
            }
            let entry = &mut since[i];
            entry.0 = m.row;
            entry.1 = match (m.to, entry.1) {
                (Status::Unknown, Some(start)) => Some(start),
                (Status::Unknown, None) => Some(r.t),
                _ => None,
            };
        }
    }
    let threshold = unknown_threshold(settings);
    let stalled: Vec<(RowId, Millis)> = since
        .into_iter()
        .filter_map(|(row, start)| start.filter(|&s| t.since(s) > threshold).map(|s| (row, s)))
        .collect();
    let &(worst, start) = stalled.iter().min_by_key(|(_, s)| *s)?;
    let n = stalled.len() as u64;
    Some(Alert {
        kind: AlertKind::UnknownStalled,
        count: n,
        since: start + threshold,
        text: format!(
            "{} UNKNOWN past the {threshold} threshold; the longest, {}, for {}: nothing has settled it.",
            plural(n, "row", "rows"),
            names::row(worst),
            t.since(start)
        ),
    })
}

/// Replicas whose queue filled, with the gates on.
fn saturated(settings: &Settings, records: &[Record]) -> Option<Alert> {
    let gates = settings.replica.gates;
    if !gates.on {
        return None;
    }
    // Per replica: when its queue first filled, and its OVERLOADED answers.
    let mut full: Vec<(Option<Millis>, u64)> = vec![(None, 0); settings.replicas];
    for r in records {
        let Actor::Replica(replica) = r.actor else { continue };
        let Some(entry) = full.get_mut(replica.index()) else { continue };
        match r.what {
            What::CallQueued { queued, .. } if queued >= gates.queue => {
                entry.0.get_or_insert(r.t);
            }
            What::Overloaded { .. } => {
                entry.0.get_or_insert(r.t);
                entry.1 += 1;
            }
            _ => {}
        }
    }
    let first = full.iter().filter_map(|f| f.0).min()?;
    let replicas = full.iter().filter(|f| f.0.is_some()).count() as u64;
    let overloaded: u64 = full.iter().map(|f| f.1).sum();
    let (worst, most) = full.iter().enumerate().max_by_key(|(i, f)| (f.1, std::cmp::Reverse(*i)))?;
    Some(Alert {
        kind: AlertKind::QueueSaturated,
        count: replicas,
        since: first,
        text: format!(
            "Queues full ({} of {}) on {}; {} answered OVERLOADED, the most on replica {} ({}).",
            gates.queue,
            gates.queue,
            plural(replicas, "replica", "replicas"),
            plural(overloaded, "call", "calls"),
            ReplicaId(worst as u8).name(),
            most.1
        ),
    })
}

/// Replicas with no gates holding more calls in their slots or queues than
/// the gates would have allowed.
fn gates_missing(settings: &Settings, records: &[Record]) -> Option<Alert> {
    let gates = settings.replica.gates;
    if gates.on {
        return None;
    }
    let (mut first, mut crowded) = (None::<Millis>, vec![(0u32, 0u32); settings.replicas]);
    for r in records {
        let Actor::Replica(replica) = r.actor else { continue };
        let Some(entry) = crowded.get_mut(replica.index()) else { continue };
        let (in_flight, queued) = match r.what {
            What::CallAdmitted { in_flight, queued, .. } | What::CallQueued { in_flight, queued, .. } => {
                (in_flight, queued)
            }
            _ => continue,
        };
        if in_flight > gates.cap || queued > gates.queue {
            first.get_or_insert(r.t);
            *entry = (entry.0.max(in_flight), entry.1.max(queued));
        }
    }
    let since = first?;
    let over = crowded.iter().filter(|c| c.0 > gates.cap || c.1 > gates.queue).count() as u64;
    let (worst, &(in_flight, queued)) =
        crowded.iter().enumerate().max_by_key(|(i, c)| (c.0 + c.1, std::cmp::Reverse(*i)))?;
    Some(Alert {
        kind: AlertKind::GatesMissing,
        count: over,
        since,
        text: format!(
            "No gates: {} past the cap of {} slots or the queue's bound of {}; the most, replica {}, with {in_flight} in flight and {queued} queued at once.",
            plural(over, "replica", "replicas"),
            gates.cap,
            gates.queue,
            ReplicaId(worst as u8).name()
        ),
    })
}

fn claims_lost(records: &[Record]) -> Option<Alert> {
    let mut lost = [0u64; 2];
    let mut first = None;
    for r in records {
        if let What::Claim { by, won: false, .. } = r.what {
            lost[by.index()] += 1;
            first.get_or_insert(r.t);
        }
    }
    let since = first?;
    let n = lost[0] + lost[1];
    Some(Alert {
        kind: AlertKind::ClaimsLost,
        count: n,
        since,
        text: format!(
            "{} lost (W1 {}, W2 {}): another worker had the row each time, so the loser did not resend.",
            plural(n, "claim", "claims"),
            lost[0],
            lost[1]
        ),
    })
}

fn claims_won_twice(records: &[Record]) -> Option<Alert> {
    // (row, version read) of every winning claim, with its worker.
    let mut winners: Vec<(RowId, u32, Millis, WorkerId)> = Vec::new();
    for r in records {
        if let What::Claim { by, claim, version, won: true, .. } = r.what {
            winners.push((claim.row(), version, r.t, by));
        }
    }
    let mut twice: Vec<(RowId, u32, Millis)> = Vec::new();
    for (i, &(row, version, t, _)) in winners.iter().enumerate() {
        if winners[..i].iter().any(|w| w.0 == row && w.1 == version)
            && !twice.iter().any(|w| w.0 == row && w.1 == version)
        {
            twice.push((row, version, t));
        }
    }
    let &(row, version, since) = twice.first()?;
    let n = twice.len() as u64;
    Some(Alert {
        kind: AlertKind::ClaimsWonTwice,
        count: n,
        since,
        text: format!(
            "Claims won twice at one version on {}, each then resent twice; the first, {} at version {version}.",
            plural(n, "row", "rows"),
            names::row(row)
        ),
    })
}

/// Claims judged together for the failure rate.
pub const CLAIM_WINDOW: usize = 10;

/// Half or more of the last ten claims lost: every claim is contested, the
/// workers are fighting over the same rows. (With two workers and
/// compare-and-set at most one claim in two can lose, so "more than half"
/// could never be seen.) Counted once per window that crosses.
fn claim_failure_rate(records: &[Record]) -> Option<Alert> {
    let mut last: std::collections::VecDeque<bool> = std::collections::VecDeque::with_capacity(CLAIM_WINDOW);
    let (mut first, mut windows, mut worst) = (None, 0u64, 0usize);
    for r in records {
        let What::Claim { won, .. } = r.what else { continue };
        if last.len() == CLAIM_WINDOW {
            last.pop_front();
        }
        last.push_back(won);
        let lost = last.iter().filter(|w| !**w).count();
        if last.len() == CLAIM_WINDOW && lost * 2 >= CLAIM_WINDOW {
            first.get_or_insert(r.t);
            windows += 1;
            worst = worst.max(lost);
        }
    }
    Some(Alert {
        kind: AlertKind::CasFailureRate,
        count: windows,
        since: first?,
        text: format!(
            "Half or more of the last {CLAIM_WINDOW} claims lost, {}; at worst {worst} of {CLAIM_WINDOW}: the workers are racing for the same rows.",
            plural(windows, "time", "times")
        ),
    })
}

/// How far back authorization refusals are counted.
pub const AUTH_WINDOW: Millis = Millis(10_000);

/// A refusal (FORBIDDEN, or a token for another audience) within ten
/// seconds of the one before: refusals are no longer a one-off.
fn auth_rejections(records: &[Record]) -> Option<Alert> {
    use crate::sim::risk::facts::{ErrorCode, Reply, RpcError};
    let (mut previous, mut first, mut n, mut closest) = (None::<Millis>, None, 0u64, None::<Millis>);
    for r in records {
        let refused = matches!(
            r.what,
            What::ToolResult { reply: Reply::Error { code: ErrorCode::Forbidden, .. }, .. }
                | What::RpcError { error: RpcError::WrongAudience, .. }
        );
        if !refused {
            continue;
        }
        if let Some(before) = previous
            && r.t.since(before) <= AUTH_WINDOW
        {
            first.get_or_insert(r.t);
            n += 1;
            closest = Some(closest.map_or(r.t.since(before), |c| c.min(r.t.since(before))));
        }
        previous = Some(r.t);
    }
    Some(Alert {
        kind: AlertKind::AuthRejectionsRising,
        count: n,
        since: first?,
        text: format!(
            "{} within {AUTH_WINDOW} of the one before, the closest {} apart: someone may be probing for other users' orders.",
            plural(n, "authorization refusal", "authorization refusals"),
            closest.unwrap_or(Millis::ZERO)
        ),
    })
}

/// Risk API calls that took longer than the caller's budget for them (its
/// 2.5 s timeout by default): answered late, or not by then.
fn downstream_slow(settings: &Settings, records: &[Record], t: Millis) -> Option<Alert> {
    let budget = settings.replica.downstream_timeout;
    // Each call past its budget: when it was sent, and when it was done
    // with (an answer, late or lost), by its number.
    let mut sent: Vec<Option<(Millis, DsKind, crate::sim::risk::facts::RequestKey)>> = Vec::new();
    let mut slow: Vec<(usize, Millis, Option<Millis>)> = Vec::new();
    for r in records {
        match r.what {
            What::CreateSent { ds, request_key, .. } | What::ProbeSent { ds, request_key, .. } => {
                let i = ds.0 as usize;
                if sent.len() <= i {
                    sent.resize(i + 1, None);
                }
                let kind = if matches!(r.what, What::CreateSent { .. }) { DsKind::Create } else { DsKind::Find };
                sent[i] = Some((r.t, kind, request_key));
            }
            What::DownstreamTimeout { ds, .. } => slow.push((ds.0 as usize, r.t, None)),
            What::LateReply { ds, .. } | What::ResponseLost { ds, .. } | What::ReplyUnheard { ds, .. } => {
                if let Some(s) = slow.iter_mut().find(|s| s.0 == ds.0 as usize) {
                    s.2.get_or_insert(r.t);
                }
            }
            _ => {}
        }
    }
    let since = slow.first()?.1;
    let (i, longest) = slow
        .iter()
        .filter_map(|&(i, _, done)| sent.get(i).copied().flatten().map(|(at, _, _)| (i, done.unwrap_or(t).since(at))))
        .max_by_key(|&(i, took)| (took, std::cmp::Reverse(i)))?;
    let (_, kind, key) = sent[i]?;
    let call = super::kinds::call(kind).operation;
    let n = slow.len() as u64;
    Some(Alert {
        kind: AlertKind::DownstreamSlow,
        count: n,
        since,
        text: format!(
            "{} still unanswered at the {budget} budget; the slowest, {call}({}), {longest} without an answer in time.",
            plural(n, "Risk API call", "Risk API calls"),
            names::request_key(key)
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::risk::settings::{CAS, FIND_BY_KEY, GATES, MODE, PRESET};
    use crate::sim::risk::{Mode, Preset};

    fn kinds(run: &Run, t: Millis) -> Vec<AlertKind> {
        alerts(run, t).into_iter().map(|a| a.kind).collect()
    }

    #[test]
    fn a_row_left_unknown_raises_an_alert_once_past_the_threshold() {
        // Without FindByRequestKey nobody can settle an UNKNOWN row: R10086
        // is UNKNOWN from 2622, so the 5 s threshold passes at 7622.
        let s = Settings::from_pairs(&[(&PRESET, "incident"), (&MODE, "patterns"), (&FIND_BY_KEY, "off")]).unwrap();
        let run = Run::simulate(&s).unwrap();
        let stalled =
            |t| alerts(&run, t).into_iter().filter(|a| a.kind == AlertKind::UnknownStalled).collect::<Vec<_>>();
        assert!(stalled(Millis(7_622)).is_empty(), "not yet: exactly at the threshold");
        let late = stalled(Millis(7_623));
        assert_eq!(late.len(), 1, "one line for the kind");
        assert_eq!(
            late[0].text,
            "1 row UNKNOWN past the 5.00 s threshold; the longest, R10086, for 5.001 s: nothing has settled it."
        );
        assert_eq!((late[0].count, late[0].since), (1, Millis(7_622)));
        // With the pattern a probe settles it first.
        let fine = Run::simulate(&Settings::preset(Preset::Incident, Mode::Patterns)).unwrap();
        assert!(!kinds(&fine, fine.horizon()).contains(&AlertKind::UnknownStalled));
    }

    #[test]
    fn a_burst_gives_one_line_per_kind() {
        let run = Run::simulate(&Settings::preset(Preset::Overload, Mode::Patterns)).unwrap();
        let a = alerts(&run, run.horizon());
        let kinds: Vec<AlertKind> = a.iter().map(|a| a.kind).collect();
        let mut unique = kinds.clone();
        unique.dedup();
        assert_eq!(kinds, unique, "one line per kind");
        let full = a.iter().find(|a| a.kind == AlertKind::QueueSaturated).unwrap();
        assert_eq!(full.count, 2);
        assert!(full.text.starts_with("Queues full (16 of 16) on 2 replicas;"), "{}", full.text);
        // Naive: no gates, and each replica takes its 100 calls at 20 ms.
        let naive = Run::simulate(&Settings::preset(Preset::Overload, Mode::Naive)).unwrap();
        let a = alerts(&naive, naive.horizon());
        let missing = a.iter().find(|a| a.kind == AlertKind::GatesMissing).unwrap();
        assert_eq!(
            missing.text,
            "No gates: 2 replicas past the cap of 8 slots or the queue's bound of 16; the most, replica A, with 100 in flight and 0 queued at once."
        );
        // The global gate alone: the fleet's quota is the Risk API's safe 32,
        // so the first 32 calls (16 to each replica, alternately) work and
        // the other 84 of each replica's 100 wait, all at 20 ms (08.140):
        // past the cap of 8 from A's ninth call.
        let s = Settings::from_pairs(&[(&PRESET, "overload"), (&MODE, "patterns"), (&GATES, "off")]).unwrap();
        let waiting = Run::simulate(&s).unwrap();
        let missing = alerts(&waiting, waiting.horizon()).into_iter().find(|a| a.kind == AlertKind::GatesMissing);
        let missing = missing.unwrap();
        assert_eq!(missing.since, Millis(20));
        assert!(
            missing.text.ends_with("the most, replica A, with 16 in flight and 84 queued at once."),
            "{}",
            missing.text
        );
    }

    #[test]
    fn compare_and_set_loses_claims_and_read_then_write_wins_twice() {
        let run = Run::simulate(&Settings::preset(Preset::NotFoundResend, Mode::Patterns)).unwrap();
        // The lost request's create is still unanswered at its 2.5 s timeout
        // (121+2500 = 2621); W2's claim loses at 5002.
        let a = alerts(&run, run.horizon());
        assert_eq!(
            a.iter().map(|a| (a.kind, a.since)).collect::<Vec<_>>(),
            [(AlertKind::DownstreamSlow, Millis(2_621)), (AlertKind::ClaimsLost, Millis(5_002))]
        );
        assert_eq!(
            a[1].text,
            "1 claim lost (W1 0, W2 1): another worker had the row each time, so the loser did not resend."
        );
        let s = Settings::from_pairs(&[(&PRESET, "not-found-resend"), (&MODE, "patterns"), (&CAS, "off")]).unwrap();
        let run = Run::simulate(&s).unwrap();
        let a = alerts(&run, run.horizon());
        let twice = a.iter().find(|a| a.kind == AlertKind::ClaimsWonTwice).unwrap();
        assert_eq!(
            twice.text,
            "Claims won twice at one version on 1 row, each then resent twice; the first, R10086 at version 3."
        );
    }

    #[test]
    fn the_naive_incident_raises_only_the_slow_risk_api() {
        // The create's answer is lost, so at 2621 it is still unanswered:
        // past the 2.5 s budget. Nothing else is visible.
        let run = Run::simulate(&Settings::preset(Preset::Incident, Mode::Naive)).unwrap();
        let a = alerts(&run, run.horizon());
        assert_eq!(a.iter().map(|a| a.kind).collect::<Vec<_>>(), [AlertKind::DownstreamSlow]);
        assert_eq!(a[0].since, Millis(2_621));
        assert!(alerts(&run, Millis(2_620)).is_empty());
    }

    #[test]
    fn most_of_the_last_ten_claims_lost_is_an_anomaly() {
        // The slow fleet without the global gate: the Risk API refuses the
        // excess, and both workers claim the rows that leaves RETRYABLE,
        // often the same one. The alert comes at the first window of ten
        // where half were lost, once for the kind however many follow.
        let s = Settings::from_pairs(&[
            (&PRESET, "slow-fleet"),
            (&MODE, "patterns"),
            (&crate::sim::risk::settings::GLOBAL_GATE, "off"),
        ])
        .unwrap();
        let run = Run::simulate(&s).unwrap();
        let outcomes: Vec<(Millis, bool)> = run
            .records()
            .iter()
            .filter_map(|r| match r.what {
                What::Claim { won, .. } => Some((r.t, won)),
                _ => None,
            })
            .collect();
        let windows: Vec<Millis> = (CLAIM_WINDOW..=outcomes.len())
            .filter(|&end| outcomes[end - CLAIM_WINDOW..end].iter().filter(|o| !o.1).count() * 2 >= CLAIM_WINDOW)
            .map(|end| outcomes[end - 1].0)
            .collect();
        assert!(!windows.is_empty(), "some window of ten lost half");
        let raised =
            alerts(&run, run.horizon()).into_iter().filter(|a| a.kind == AlertKind::CasFailureRate).collect::<Vec<_>>();
        assert_eq!(raised.len(), 1);
        assert_eq!((raised[0].since, raised[0].count), (windows[0], windows.len() as u64));
        // Two workers, one claim each: never a full window.
        let few = Run::simulate(&Settings::preset(Preset::NotFoundResend, Mode::Patterns)).unwrap();
        assert!(!kinds(&few, few.horizon()).contains(&AlertKind::CasFailureRate));
    }

    #[test]
    fn a_second_refusal_within_ten_seconds_raises_an_alert() {
        let one = Run::simulate(&Settings::preset(Preset::ForgedOrder, Mode::Patterns)).unwrap();
        assert!(!kinds(&one, one.horizon()).contains(&AlertKind::AuthRejectionsRising), "one refusal");
        // Among the random runs, the alert comes exactly where a refusal
        // follows another within 10 s.
        let mut seen = 0;
        for seed in 0..400 {
            let s = Settings::from_pairs(&[
                (&PRESET, "random-faults"),
                (&MODE, "patterns"),
                (&crate::sim::risk::settings::SEED, &seed.to_string()),
            ])
            .unwrap();
            let run = Run::simulate(&s).unwrap();
            let refusals: Vec<Millis> = run
                .records()
                .iter()
                .filter(|r| {
                    r.kind() == "tool_result"
                        && matches!(
                            r.what,
                            What::ToolResult {
                                reply: crate::sim::risk::facts::Reply::Error {
                                    code: crate::sim::risk::facts::ErrorCode::Forbidden,
                                    ..
                                },
                                ..
                            }
                        )
                })
                .map(|r| r.t)
                .collect();
            let close: Vec<Millis> =
                refusals.windows(2).filter(|w| w[1].since(w[0]) <= AUTH_WINDOW).map(|w| w[1]).collect();
            let expected = close.first().copied();
            let raised = alerts(&run, run.horizon()).into_iter().find(|a| a.kind == AlertKind::AuthRejectionsRising);
            assert_eq!(raised.as_ref().map(|a| a.since), expected, "seed {seed}");
            assert_eq!(raised.map_or(0, |a| a.count), close.len() as u64, "seed {seed}");
            seen += usize::from(expected.is_some());
        }
        assert!(seen > 0, "some seed refuses twice");
    }
}
