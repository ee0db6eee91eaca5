//! Alerts an operator would get, raised from the run's own records as of a
//! moment: a row stuck in UNKNOWN past a threshold, a replica's queue
//! filled to capacity (or, with no gates, far more calls in flight than
//! the cap), claims lost (or, without compare-and-set, won twice), an
//! anomalous share of compare-and-set claims lost, a rising rate of
//! authorization refusals, and Risk API latency past its 2.5 s budget.

use crate::sim::Millis;
use crate::sim::risk::facts::{Actor, Record, ReplicaId, RowId, Status, What, WorkerId};
use crate::sim::risk::{Run, Settings};

use super::names;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum AlertKind {
    UnknownStalled,
    QueueSaturated,
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
            AlertKind::ClaimsLost => "claims-lost",
            AlertKind::ClaimsWonTwice => "claims-won-twice",
            AlertKind::CasFailureRate => "cas-failure-rate",
            AlertKind::AuthRejectionsRising => "auth-rejections-rising",
            AlertKind::DownstreamSlow => "downstream-slow",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Alert {
    pub kind: AlertKind,
    /// When the condition began.
    pub since: Millis,
    pub text: String,
}

/// How long a row may stay UNKNOWN before it raises an alert: as long as
/// one tool call may wait for its answer (the client deadline). A row
/// UNKNOWN for longer has outlived every call that could have asked.
pub fn unknown_threshold(settings: &Settings) -> Millis {
    settings.agent.deadline
}

/// The alerts raised by the records up to `t`, oldest first.
pub fn alerts(run: &Run, t: Millis) -> Vec<Alert> {
    let settings = run.settings();
    let records = run.records_until(t);
    let mut out = Vec::new();
    unknown_stalled(settings, records, t, &mut out);
    saturated(settings, records, &mut out);
    claims(records, &mut out);
    claim_failure_rate(records, &mut out);
    auth_rejections(records, &mut out);
    downstream_slow(settings, records, &mut out);
    // By when each began (the kinds break ties, then the words). There are a
    // handful, so an insertion sort does.
    let key = |a: &Alert| (a.since, a.kind, a.text.clone());
    for i in 1..out.len() {
        let mut j = i;
        while j > 0 && key(&out[j - 1]) > key(&out[j]) {
            out.swap(j - 1, j);
            j -= 1;
        }
    }
    out
}

fn unknown_stalled(settings: &Settings, records: &[Record], t: Millis, out: &mut Vec<Alert>) {
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
    for (row, start) in since {
        if let Some(start) = start
            && t.since(start) > threshold
        {
            out.push(Alert {
                kind: AlertKind::UnknownStalled,
                since: start + threshold,
                text: format!(
                    "{} has been UNKNOWN for {} (since {}), past the {} threshold: nothing has settled it.",
                    names::row(row),
                    t.since(start),
                    names::clock(start),
                    threshold
                ),
            });
        }
    }
}

/// A replica's queue full (with the gates), or, without them, more calls in
/// its slots or its queue than the gates would have allowed.
fn saturated(settings: &Settings, records: &[Record], out: &mut Vec<Alert>) {
    let gates = settings.replica.gates;
    // The first time a count passed its size, and its peak.
    let past = |seen: Option<(Millis, u32)>, t: Millis, n: u32| {
        Some((seen.map_or(t, |c| c.0), seen.map_or(n, |c| c.1.max(n))))
    };
    for replica in ReplicaId::all(settings.replicas) {
        let mine = records.iter().filter(|r| r.actor == Actor::Replica(replica));
        let mut full_at = None;
        let (mut crowded, mut waiting) = (None, None);
        let mut overloaded = 0u32;
        for r in mine {
            match r.what {
                What::CallQueued { queued, .. } if gates.on && queued >= gates.queue => {
                    full_at.get_or_insert(r.t);
                }
                What::CallQueued { queued, .. } if !gates.on && queued > gates.queue => {
                    waiting = past(waiting, r.t, queued);
                }
                What::Overloaded { .. } => {
                    full_at.get_or_insert(r.t);
                    overloaded += 1;
                }
                What::CallAdmitted { in_flight, .. } if !gates.on && in_flight > gates.cap => {
                    crowded = past(crowded, r.t, in_flight);
                }
                _ => {}
            }
        }
        let name = replica.name();
        let mut alert = |since: Millis, text: String| out.push(Alert { kind: AlertKind::QueueSaturated, since, text });
        if let Some(at) = full_at {
            let (queue, clock) = (gates.queue, names::clock(at));
            alert(
                at,
                format!(
                    "Replica {name}'s queue is saturated: {queue} of {queue} queued at {clock}; {overloaded} call(s) got OVERLOADED so far."
                ),
            );
        }
        if let Some((at, peak)) = crowded {
            let (cap, clock) = (gates.cap, names::clock(at));
            alert(
                at,
                format!(
                    "Replica {name} has no gates: {peak} calls in flight at once (the cap of {cap} is not applied), since {clock}."
                ),
            );
        }
        if let Some((at, peak)) = waiting {
            let (queue, clock) = (gates.queue, names::clock(at));
            alert(
                at,
                format!(
                    "Replica {name} has no gates: {peak} calls queued at once, waiting for the fleet (the queue's bound of {queue} is not applied), since {clock}."
                ),
            );
        }
    }
}

fn claims(records: &[Record], out: &mut Vec<Alert>) {
    // Per worker: the first lost claim and how many were lost.
    let mut lost: [(Option<Millis>, u32); 2] = [(None, 0); 2];
    // (row, version read, time, worker) of every winning claim.
    let mut winners: Vec<(RowId, u32, Millis, WorkerId)> = Vec::new();
    for r in records {
        if let What::Claim { by, claim, version, won, .. } = r.what {
            if won {
                winners.push((claim.row(), version, r.t, by));
            } else {
                let entry = &mut lost[by.index()];
                entry.0.get_or_insert(r.t);
                entry.1 += 1;
            }
        }
    }
    for worker in WorkerId::ALL {
        if let (Some(first), n) = lost[worker.index()] {
            out.push(Alert {
                kind: AlertKind::ClaimsLost,
                since: first,
                text: format!(
                    "Worker {} lost {n} claim(s), the first at {}: another worker had the row, so it did not resend.",
                    worker.name(),
                    names::clock(first)
                ),
            });
        }
    }
    for (i, &(row, version, _, _)) in winners.iter().enumerate() {
        let same: Vec<&(RowId, u32, Millis, WorkerId)> =
            winners.iter().filter(|w| w.0 == row && w.1 == version).collect();
        // Each (row, version) once, at its first winner.
        let first = winners.iter().position(|w| w.0 == row && w.1 == version);
        if same.len() > 1 && first == Some(i) {
            out.push(Alert {
                kind: AlertKind::ClaimsWonTwice,
                since: same[1].2,
                text: format!(
                    "{} claims of {} at version {version} won: {} each resend the create.",
                    same.len(),
                    names::row(row),
                    same.iter().map(|w| w.3.name()).collect::<Vec<_>>().join(" and ")
                ),
            });
        }
    }
}

/// Claims judged together for the failure rate.
pub const CLAIM_WINDOW: usize = 10;

/// Half or more of the last ten claims lost: every claim is contested, the
/// workers are fighting over the same rows. (With two workers and
/// compare-and-set at most one claim in two can lose, so "more than half"
/// could never be seen.)
fn claim_failure_rate(records: &[Record], out: &mut Vec<Alert>) {
    let mut last: std::collections::VecDeque<bool> = std::collections::VecDeque::with_capacity(CLAIM_WINDOW);
    for r in records {
        let What::Claim { won, .. } = r.what else { continue };
        if last.len() == CLAIM_WINDOW {
            last.pop_front();
        }
        last.push_back(won);
        let lost = last.iter().filter(|w| !**w).count();
        if last.len() == CLAIM_WINDOW && lost * 2 >= CLAIM_WINDOW {
            out.push(Alert {
                kind: AlertKind::CasFailureRate,
                since: r.t,
                text: format!(
                    "{lost} of the last {CLAIM_WINDOW} claims lost (at {}): the workers are racing for the same rows.",
                    names::clock(r.t)
                ),
            });
            return;
        }
    }
}

/// How far back authorization refusals are counted.
pub const AUTH_WINDOW: Millis = Millis(10_000);

/// A second refusal (FORBIDDEN, or a token for another audience) within
/// ten seconds of the one before: refusals are no longer a one-off.
fn auth_rejections(records: &[Record], out: &mut Vec<Alert>) {
    use crate::sim::risk::facts::{ErrorCode, Reply, RpcError};
    let mut previous: Option<Millis> = None;
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
            out.push(Alert {
                kind: AlertKind::AuthRejectionsRising,
                since: r.t,
                text: format!(
                    "Authorization refused two calls within {} ({} and {}): someone may be probing for other users' orders.",
                    r.t.since(before),
                    names::clock(before),
                    names::clock(r.t)
                ),
            });
            return;
        }
        previous = Some(r.t);
    }
}

/// A Risk API call that took longer than the caller's budget for it (its
/// 2.5 s timeout by default): answered late, or not by then.
fn downstream_slow(settings: &Settings, records: &[Record], out: &mut Vec<Alert>) {
    let budget = settings.replica.downstream_timeout;
    let slow = records.iter().find_map(|r| match r.what {
        What::DownstreamTimeout { request_key, kind, .. } => Some((r.t, request_key, kind)),
        _ => None,
    });
    if let Some((at, key, kind)) = slow {
        let call = match kind {
            crate::sim::risk::facts::DsKind::Create => "CreateReview",
            crate::sim::risk::facts::DsKind::Find => "FindByRequestKey",
        };
        out.push(Alert {
            kind: AlertKind::DownstreamSlow,
            since: at,
            text: format!(
                "Risk API latency past its {budget} budget: {call}({}) was still unanswered at {}.",
                names::request_key(key),
                names::clock(at)
            ),
        });
    }
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
        // Without FindByRequestKey nobody can settle an UNKNOWN row.
        let s = Settings::from_pairs(&[(&PRESET, "incident"), (&MODE, "patterns"), (&FIND_BY_KEY, "off")]).unwrap();
        let run = Run::simulate(&s).unwrap();
        let became =
            run.records().iter().find_map(|r| r.row_move().filter(|m| m.to == Status::Unknown).map(|_| r.t)).unwrap();
        let threshold = unknown_threshold(&s);
        let stalled =
            |t| alerts(&run, t).into_iter().filter(|a| a.kind == AlertKind::UnknownStalled).collect::<Vec<_>>();
        assert!(stalled(became + threshold).is_empty(), "not yet: exactly at the threshold");
        let late = stalled(became + threshold + Millis(1));
        assert_eq!(late.len(), 1);
        assert!(late[0].text.starts_with("R10086 has been UNKNOWN for 5.001 s"), "{}", late[0].text);
        // With the pattern a probe settles it first.
        let fine = Run::simulate(&Settings::preset(Preset::Incident, Mode::Patterns)).unwrap();
        assert!(!kinds(&fine, fine.horizon()).contains(&AlertKind::UnknownStalled));
    }

    #[test]
    fn the_burst_saturates_both_queues() {
        let run = Run::simulate(&Settings::preset(Preset::Overload, Mode::Patterns)).unwrap();
        let a = alerts(&run, run.horizon());
        assert_eq!(a.iter().filter(|a| a.kind == AlertKind::QueueSaturated).count(), 2);
        assert!(a[0].text.contains("16 of 16 queued"), "{}", a[0].text);
        let naive = Run::simulate(&Settings::preset(Preset::Overload, Mode::Naive)).unwrap();
        let a = alerts(&naive, naive.horizon());
        assert!(a.iter().any(|a| a.text.contains("has no gates: 100 calls in flight")), "{a:?}");
        // The global gate alone: 15 of A's 100 calls work (30 in the fleet),
        // past the cap of 8 the gates would have kept, and 85 wait, the 17th
        // of them past the bound the queue would have had; all at 20.
        let s = Settings::from_pairs(&[(&PRESET, "overload"), (&MODE, "patterns"), (&GATES, "off")]).unwrap();
        let waiting = Run::simulate(&s).unwrap();
        let a: Vec<String> = alerts(&waiting, waiting.horizon()).into_iter().map(|a| a.text).collect();
        assert_eq!(
            a[..2],
            [
                "Replica A has no gates: 15 calls in flight at once (the cap of 8 is not applied), since 10:31:08.140.",
                "Replica A has no gates: 85 calls queued at once, waiting for the fleet (the queue's bound of 16 is not applied), since 10:31:08.140."
            ]
        );
    }

    #[test]
    fn compare_and_set_loses_claims_and_read_then_write_wins_twice() {
        let run = Run::simulate(&Settings::preset(Preset::NotFoundResend, Mode::Patterns)).unwrap();
        // The lost request's create is still unanswered at its 2.5 s timeout.
        assert_eq!(kinds(&run, run.horizon()), [AlertKind::DownstreamSlow, AlertKind::ClaimsLost]);
        let s = Settings::from_pairs(&[(&PRESET, "not-found-resend"), (&MODE, "patterns"), (&CAS, "off")]).unwrap();
        let run = Run::simulate(&s).unwrap();
        let a = alerts(&run, run.horizon());
        assert!(a.iter().any(|a| a.kind == AlertKind::ClaimsWonTwice && a.text.contains("W1 and W2")), "{a:?}");
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
        // The gates-off burst: both workers claim the same RETRYABLE rows one
        // by one; each row has one winner and one loser, and the alert waits
        // for a window of ten where half were lost.
        let s = Settings::from_pairs(&[
            (&PRESET, "overload"),
            (&MODE, "patterns"),
            (&crate::sim::risk::settings::GATES, "off"),
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
        let first = (CLAIM_WINDOW..=outcomes.len())
            .find(|&end| outcomes[end - CLAIM_WINDOW..end].iter().filter(|o| !o.1).count() * 2 >= CLAIM_WINDOW)
            .map(|end| outcomes[end - 1].0);
        let raised = alerts(&run, run.horizon()).into_iter().find(|a| a.kind == AlertKind::CasFailureRate);
        assert!(first.is_some(), "some window of ten lost half");
        assert_eq!(raised.map(|a| a.since), first);
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
            let expected = refusals.windows(2).find(|w| w[1].since(w[0]) <= AUTH_WINDOW).map(|w| w[1]);
            let raised = alerts(&run, run.horizon()).into_iter().find(|a| a.kind == AlertKind::AuthRejectionsRising);
            assert_eq!(raised.map(|a| a.since), expected, "seed {seed}");
            seen += usize::from(expected.is_some());
        }
        assert!(seen > 0, "some seed refuses twice");
    }
}
