//! What a preset plays: the agent's script (intents and when each is
//! invoked) and the fault plan (which calls the faults hit). Faults are
//! scoped: each names the exact create or probe it hits, by its number in
//! the run.

use crate::sim::rng::Rng;
use crate::sim::time::Millis;

use crate::sim::params::{Aimed, AimedFault};

use super::facts::{CallShape, FORGED_ORDER, IntentId, OrderId, RequestKey};
use super::settings::{FaultKind, Preset, Settings};

/// The incident's retry, at 10:31:12.000 on the wall clock (model time 0 is
/// 10:31:08.120).
pub const INCIDENT_RETRY_AT: Millis = Millis(3_880);
/// The second click of the same-business-key preset comes while the first
/// create is still under way.
pub const SECOND_CLICK_AT: Millis = Millis(300);

/// The new-generation preset's new request for the rejected order.
pub const NEW_REQUEST_AT: Millis = Millis(1_000);

/// How long after its caller's timeout a slow create is performed and
/// answered.
pub const SLOW_BY: Millis = Millis(500);

/// How long the replica-pause fault stops a replica before its insert: a
/// second past the default lease, as a long garbage-collection pause or a
/// descheduled process would.
pub const PAUSE_FOR: Millis = Millis(6_000);

/// The fate of one create at the Risk API.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CreateFault {
    None,
    /// Performed; its response dropped.
    ResponseLost,
    /// Never reaches the Risk API.
    RequestLost,
    /// 500 after the create latency, not performed.
    ServerError,
    /// Performed and answered [`SLOW_BY`] after the caller's timeout, when
    /// its caller has given up.
    Slow,
    /// Performed; the connection resets instead of answering.
    Reset,
    /// An explicit business rejection.
    Rejected,
}

/// Which calls the faults hit.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct FaultPlan {
    /// The fate of the n-th create (from 1), by index n - 1; creates past
    /// the list are not faulted.
    pub creates: Vec<CreateFault>,
    /// The probes (by number, from 1) that hang.
    pub hanging_probes: Vec<u32>,
    /// The workers' n-th resend (from 1), after which its worker crashes.
    pub crash_after_resend: Option<u32>,
    /// The inserts (by number, from 1, in the order the replicas reach
    /// them) before which the replica pauses for [`PAUSE_FOR`].
    pub pauses: Vec<u32>,
    /// The ties (by number, from 1, in the order the run meets them) that
    /// go against the race order.
    pub flipped_ties: Vec<u32>,
    /// The slowing-downstream preset: the create latency rises over the run.
    pub ramp: Option<Ramp>,
    /// The tool calls (by number, from 1, in the order the agent makes
    /// them) that reach their replica [`DELAY_BY`] late.
    pub delayed_calls: Vec<u32>,
    /// Inputs rather than faults of the infrastructure, aimed like faults:
    /// the invocations (by number, from 1) delivered to two replicas, and
    /// the intents (from 1) that name another user's order.
    pub duplicated: Vec<u32>,
    pub forged: Vec<u32>,
    /// The intents (from 1) that name another user's order and give its
    /// owner as `user_id` in their arguments.
    pub claimed: Vec<u32>,
    /// The invocations (from 1) whose call carries an argument the schema
    /// does not have, and those whose reason is too long.
    pub extra_arguments: Vec<u32>,
    pub long_reasons: Vec<u32>,
}

/// How late the call-delayed fault makes a tool call: a retransmission
/// that arrives well after the first copy, within the client deadline.
pub const DELAY_BY: Millis = Millis(2_000);

/// A create latency that rises in a straight line from the configured one
/// at time 0 to `to` at `over`, and stays there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ramp {
    pub to: Millis,
    pub over: Millis,
}

impl Ramp {
    /// The latency of a create sent at `now`, rounded down to the ms.
    pub fn latency(&self, base: Millis, now: Millis) -> Millis {
        let at = now.ms().min(self.over.ms());
        let rise = self.to.ms().saturating_sub(base.ms());
        Millis(base.ms() + rise * at / self.over.ms().max(1))
    }
}

/// The slowing-downstream preset: one call every 100 ms for 20 s while the
/// create latency rises from 410 ms to 1.4 s.
pub const STEADY_EVERY: Millis = Millis(100);
pub const STEADY_CALLS: u32 = 200;
pub const RAMP: Ramp = Ramp { to: Millis(1_400), over: Millis(20_000) };

/// The slow-fleet preset's Risk API: from its first millisecond every
/// create takes 3 s, half a second past the replicas' 2.5 s budget (a ramp
/// that rises at once).
pub const SLOW_FLEET: Ramp = Ramp { to: Millis(3_000), over: Millis(1) };
/// The slow-fleet preset's calls come one every 5 ms (200 a second), six
/// times what 100 places held 3 s each can take (33 a second).
pub const SLOW_FLEET_EVERY: Millis = Millis(5);

impl FaultPlan {
    pub fn create(&self, nth: u32) -> CreateFault {
        nth.checked_sub(1).and_then(|i| self.creates.get(i as usize)).copied().unwrap_or(CreateFault::None)
    }

    pub fn probe_hangs(&self, nth: u32) -> bool {
        self.hanging_probes.contains(&nth)
    }

    pub fn pauses_before(&self, nth: u32) -> bool {
        self.pauses.contains(&nth)
    }

    pub fn flips_tie(&self, nth: u32) -> bool {
        self.flipped_ties.contains(&nth)
    }

    /// How much later than its transit the `nth` tool call arrives.
    pub fn delay_of(&self, nth: u32) -> Millis {
        if self.delayed_calls.contains(&nth) { DELAY_BY } else { Millis::ZERO }
    }

    /// The plan an aimed-fault list makes: each fault hits exactly the
    /// call it names.
    pub fn of(faults: &[AimedFault]) -> FaultPlan {
        let mut plan = FaultPlan::default();
        for f in faults {
            let fate = match FaultKind::ALL[f.kind] {
                FaultKind::CreateResponseLost => CreateFault::ResponseLost,
                FaultKind::CreateRequestLost => CreateFault::RequestLost,
                FaultKind::Downstream5xx => CreateFault::ServerError,
                FaultKind::DownstreamSlow => CreateFault::Slow,
                FaultKind::CreateReset => CreateFault::Reset,
                FaultKind::BusinessRejection => CreateFault::Rejected,
                FaultKind::FindTimeout => {
                    plan.hanging_probes.push(f.nth);
                    continue;
                }
                FaultKind::WorkerCrashAfterSend => {
                    plan.crash_after_resend = Some(plan.crash_after_resend.map_or(f.nth, |n| n.min(f.nth)));
                    continue;
                }
                FaultKind::ReplicaPause => {
                    plan.pauses.push(f.nth);
                    continue;
                }
                FaultKind::TieFlipped => {
                    plan.flipped_ties.push(f.nth);
                    continue;
                }
                FaultKind::CallDelayed => {
                    plan.delayed_calls.push(f.nth);
                    continue;
                }
                FaultKind::DuplicateDelivery => {
                    plan.duplicated.push(f.nth);
                    continue;
                }
                FaultKind::ForgedOrder => {
                    plan.forged.push(f.nth);
                    continue;
                }
                FaultKind::ClaimedUser => {
                    plan.claimed.push(f.nth);
                    continue;
                }
                FaultKind::ExtraArgument => {
                    plan.extra_arguments.push(f.nth);
                    continue;
                }
                FaultKind::LongReason => {
                    plan.long_reasons.push(f.nth);
                    continue;
                }
            };
            let i = f.nth as usize - 1;
            if plan.creates.len() <= i {
                plan.creates.resize(i + 1, CreateFault::None);
            }
            plan.creates[i] = fate;
        }
        plan
    }

    /// The plan as an aimed-fault list, in the order the list is written.
    pub fn aimed(&self) -> Vec<AimedFault> {
        let kind = |k: FaultKind| FaultKind::ALL.iter().position(|&x| x == k).unwrap_or(0);
        let mut out: Vec<AimedFault> = self
            .creates
            .iter()
            .enumerate()
            .filter_map(|(i, fate)| {
                let k = match fate {
                    CreateFault::None => return None,
                    CreateFault::ResponseLost => FaultKind::CreateResponseLost,
                    CreateFault::RequestLost => FaultKind::CreateRequestLost,
                    CreateFault::ServerError => FaultKind::Downstream5xx,
                    CreateFault::Slow => FaultKind::DownstreamSlow,
                    CreateFault::Reset => FaultKind::CreateReset,
                    CreateFault::Rejected => FaultKind::BusinessRejection,
                };
                Some(AimedFault { kind: kind(k), nth: i as u32 + 1 })
            })
            .collect();
        out.extend(self.hanging_probes.iter().map(|&nth| AimedFault { kind: kind(FaultKind::FindTimeout), nth }));
        out.extend(self.crash_after_resend.map(|nth| AimedFault { kind: kind(FaultKind::WorkerCrashAfterSend), nth }));
        out.extend(self.pauses.iter().map(|&nth| AimedFault { kind: kind(FaultKind::ReplicaPause), nth }));
        out.extend(self.flipped_ties.iter().map(|&nth| AimedFault { kind: kind(FaultKind::TieFlipped), nth }));
        out.extend(self.delayed_calls.iter().map(|&nth| AimedFault { kind: kind(FaultKind::CallDelayed), nth }));
        out.extend(self.duplicated.iter().map(|&nth| AimedFault { kind: kind(FaultKind::DuplicateDelivery), nth }));
        out.extend(self.forged.iter().map(|&nth| AimedFault { kind: kind(FaultKind::ForgedOrder), nth }));
        out.extend(self.claimed.iter().map(|&nth| AimedFault { kind: kind(FaultKind::ClaimedUser), nth }));
        out.extend(self.extra_arguments.iter().map(|&nth| AimedFault { kind: kind(FaultKind::ExtraArgument), nth }));
        out.extend(self.long_reasons.iter().map(|&nth| AimedFault { kind: kind(FaultKind::LongReason), nth }));
        out.sort_unstable();
        out
    }
}

/// The faults a run of `settings` plays (the aimed list, or the preset's
/// own), as `KIND@N`.
pub fn fault_list(settings: &Settings) -> Vec<String> {
    Scenario::of(settings)
        .faults
        .aimed()
        .iter()
        .map(|f| format!("{}@{}", FaultKind::ALL[f.kind].value(), f.nth))
        .collect()
}

/// An intent: one user click or agent command.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct IntentSpec {
    pub order: OrderId,
    pub request_key: RequestKey,
}

/// The agent invokes an intent (again, for a scripted retry, with the same
/// request_key).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Invocation {
    pub at: Millis,
    pub intent: IntentId,
    /// The duplicate-delivery fault: also delivered to the other replica.
    pub duplicate: bool,
    pub shape: CallShape,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Scenario {
    /// Intent n (from 1) at index n - 1.
    pub intents: Vec<IntentSpec>,
    /// In time order.
    pub invocations: Vec<Invocation>,
    pub faults: FaultPlan,
}

fn intent(n: u32, order: u32) -> IntentSpec {
    IntentSpec { order: OrderId(order), request_key: RequestKey(n) }
}

fn invoke(at: u64, n: u32) -> Invocation {
    Invocation { at: Millis(at), intent: IntentId(n), duplicate: false, shape: CallShape::Valid }
}

impl Scenario {
    /// The preset's script, with the aimed faults of the settings in place
    /// of the preset's own where they are given.
    pub fn of(settings: &Settings) -> Scenario {
        let mut scenario = Scenario::preset(settings);
        if let Aimed::List(faults) = &settings.faults {
            // The preset's slowing Risk API is not a fault: it stays.
            scenario.faults = FaultPlan { ramp: scenario.faults.ramp, ..FaultPlan::of(faults) };
            // Aimed inputs change the agent's script.
            for &n in &scenario.faults.duplicated {
                if let Some(invocation) = scenario.invocations.get_mut(n as usize - 1) {
                    invocation.duplicate = true;
                }
            }
            for &n in &scenario.faults.forged {
                if let Some(intent) = scenario.intents.get_mut(n as usize - 1) {
                    intent.order = FORGED_ORDER;
                }
            }
            scenario.shape_inputs();
        }
        scenario
    }

    /// The aimed inputs that change what a call's arguments say. One call
    /// carries one shape: a later kind in this order replaces an earlier.
    fn shape_inputs(&mut self) {
        for &n in &self.faults.claimed {
            let Some(intent) = self.intents.get_mut(n as usize - 1) else { continue };
            intent.order = FORGED_ORDER;
            for invocation in self.invocations.iter_mut().filter(|inv| inv.intent == IntentId(n)) {
                invocation.shape = CallShape::ClaimedUser;
            }
        }
        let inputs = [
            (&self.faults.extra_arguments, CallShape::ExtraArgument),
            (&self.faults.long_reasons, CallShape::LongReason),
        ];
        for (list, shape) in inputs {
            for &n in list {
                if let Some(invocation) = self.invocations.get_mut(n as usize - 1) {
                    invocation.shape = shape;
                }
            }
        }
    }

    /// `n` calls at once, one intent and one order per call, skipping
    /// another user's O20260728999.
    fn burst(n: u32) -> Scenario {
        let order = |i: u32| if i >= FORGED_ORDER.0 { i + 1 } else { i };
        Scenario {
            intents: (1..=n).map(|i| intent(i, order(i))).collect(),
            invocations: (1..=n).map(|i| invoke(0, i)).collect(),
            faults: FaultPlan::default(),
        }
    }

    /// The preset's own script and faults.
    pub fn preset(settings: &Settings) -> Scenario {
        let plain = |intents: Vec<IntentSpec>, invocations: Vec<Invocation>, creates: Vec<CreateFault>| Scenario {
            intents,
            invocations,
            faults: FaultPlan { creates, ..FaultPlan::default() },
        };
        match settings.preset {
            Preset::Incident => plain(
                vec![intent(1, 1)],
                vec![invoke(0, 1), invoke(INCIDENT_RETRY_AT.ms(), 1)],
                vec![CreateFault::ResponseLost],
            ),
            Preset::SameRequestKey => {
                plain(vec![intent(1, 1)], vec![Invocation { duplicate: true, ..invoke(0, 1) }], vec![])
            }
            Preset::SameBusinessKey => {
                plain(vec![intent(1, 1), intent(2, 1)], vec![invoke(0, 1), invoke(SECOND_CLICK_AT.ms(), 2)], vec![])
            }
            Preset::LostCreateResponse => {
                plain(vec![intent(1, 1)], vec![invoke(0, 1)], vec![CreateFault::ResponseLost])
            }
            Preset::NotFoundResend => plain(vec![intent(1, 1)], vec![invoke(0, 1)], vec![CreateFault::RequestLost]),
            Preset::ForgedOrder => plain(vec![intent(1, FORGED_ORDER.0)], vec![invoke(0, 1)], vec![]),
            Preset::SlowFleet => {
                let mut scenario = Scenario::burst(settings.burst_calls);
                for (i, invocation) in scenario.invocations.iter_mut().enumerate() {
                    invocation.at = Millis(SLOW_FLEET_EVERY.ms() * i as u64);
                }
                scenario.faults.ramp = Some(SLOW_FLEET);
                scenario
            }
            Preset::Overload | Preset::WideFleet => Scenario::burst(settings.burst_calls),
            Preset::WorkerCrash => Scenario {
                intents: vec![intent(1, 1)],
                invocations: vec![invoke(0, 1)],
                faults: FaultPlan {
                    creates: vec![CreateFault::RequestLost],
                    crash_after_resend: Some(1),
                    ..FaultPlan::default()
                },
            },
            // The first create lands 0.5 s after its caller's timeout: the
            // probe says "not found" while it is still in flight.
            Preset::ProbeRacesCreate => plain(vec![intent(1, 1)], vec![invoke(0, 1)], vec![CreateFault::Slow]),
            // Two clicks for one order at the same instant, one per replica:
            // a check by business key sees nothing on both.
            Preset::CheckThenInsertRace => {
                plain(vec![intent(1, 1), intent(2, 1)], vec![invoke(0, 1), invoke(0, 2)], vec![])
            }
            // The same two clicks; the first replica to reach its insert
            // pauses past any lease it holds.
            // One call; its replica pauses 6 s before the insert, a second
            // past the agent's 5 s deadline.
            Preset::ReplicaPause => Scenario {
                intents: vec![intent(1, 1)],
                invocations: vec![invoke(0, 1)],
                faults: FaultPlan { pauses: vec![1], ..FaultPlan::default() },
            },
            Preset::PausePastLease => Scenario {
                intents: vec![intent(1, 1), intent(2, 1)],
                invocations: vec![invoke(0, 1), invoke(0, 2)],
                faults: FaultPlan { pauses: vec![1], ..FaultPlan::default() },
            },
            // The first request is rejected (FAILED closes generation 1); a
            // new request opens generation 2, and a second click comes while
            // its create is under way.
            Preset::NewGeneration => plain(
                vec![intent(1, 1), intent(2, 1), intent(3, 1)],
                vec![
                    invoke(0, 1),
                    invoke(NEW_REQUEST_AT.ms(), 2),
                    invoke(NEW_REQUEST_AT.ms() + SECOND_CLICK_AT.ms(), 3),
                ],
                vec![CreateFault::Rejected],
            ),
            // The agent's bearer token was issued for another server.
            Preset::WrongAudience => {
                plain(vec![intent(1, 1)], vec![Invocation { shape: CallShape::WrongAudience, ..invoke(0, 1) }], vec![])
            }
            // The agent asks for u-2002's order and names u-2002 as user_id;
            // its verified token is u-1001's.
            Preset::UserInArguments => plain(
                vec![intent(1, FORGED_ORDER.0)],
                vec![Invocation { shape: CallShape::ClaimedUser, ..invoke(0, 1) }],
                vec![],
            ),
            Preset::ExtraArgument => {
                plain(vec![intent(1, 1)], vec![Invocation { shape: CallShape::ExtraArgument, ..invoke(0, 1) }], vec![])
            }
            Preset::LongReason => {
                plain(vec![intent(1, 1)], vec![Invocation { shape: CallShape::LongReason, ..invoke(0, 1) }], vec![])
            }
            Preset::SlowingDownstream => Scenario {
                intents: (1..=STEADY_CALLS).map(|i| intent(i, i)).collect(),
                invocations: (1..=STEADY_CALLS).map(|i| invoke(STEADY_EVERY.ms() * u64::from(i - 1), i)).collect(),
                faults: FaultPlan { ramp: Some(RAMP), ..FaultPlan::default() },
            },
            Preset::RandomFaults => random(settings.seed),
        }
    }
}

/// Faults drawn from the seed: one to four intents (some for the same
/// order, some forged, some duplicated or malformed, some retried by the
/// script), the fates of the first six creates, hanging probes and perhaps a
/// worker crash. Every fault is finite, so with the patterns on every row
/// can settle.
fn random(seed: u64) -> Scenario {
    let mut rng = Rng::new(seed);
    let n = 1 + rng.below(4) as u32;
    let mut intents: Vec<IntentSpec> = Vec::new();
    let mut invocations = Vec::new();
    for i in 1..=n {
        let order = if i > 1 && rng.below(4) == 0 {
            // A second click: a new request_key for the first intent's order.
            intents[0usize].order
        } else if rng.below(6) == 0 {
            FORGED_ORDER
        } else {
            OrderId(i)
        };
        intents.push(IntentSpec { order, request_key: RequestKey(i) });
        let at = rng.below(3_000);
        let shape = match rng.below(20) {
            0 => CallShape::Malformed,
            1 => CallShape::UnknownTool,
            2 => CallShape::InvalidArgument,
            3 => CallShape::NoSubject,
            _ => CallShape::Valid,
        };
        let duplicate = rng.below(5) == 0;
        invocations.push(Invocation { at: Millis(at), intent: IntentId(i), duplicate, shape });
        if rng.below(5) < 2 {
            invocations.push(invoke(at + 1_000 + rng.below(6_000), i));
        }
    }
    // Stable: equal times keep the order they were drawn in.
    invocations.sort_by_key(|inv| inv.at);
    let creates = (0..6)
        .map(|_| match rng.below(100) {
            0..40 => CreateFault::None,
            40..55 => CreateFault::ResponseLost,
            55..70 => CreateFault::RequestLost,
            70..80 => CreateFault::ServerError,
            80..90 => CreateFault::Slow,
            90..95 => CreateFault::Reset,
            _ => CreateFault::Rejected,
        })
        .collect();
    let hanging = rng.below(4) as u32;
    let crash = rng.below(10) < 3;
    let faults = FaultPlan {
        creates,
        hanging_probes: (1..=hanging).collect(),
        crash_after_resend: crash.then_some(1),
        pauses: Vec::new(),
        flipped_ties: Vec::new(),
        ramp: None,
        delayed_calls: Vec::new(),
        duplicated: Vec::new(),
        forged: Vec::new(),
        claimed: Vec::new(),
        extra_arguments: Vec::new(),
        long_reasons: Vec::new(),
    };
    Scenario { intents, invocations, faults }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::risk::settings::{Mode, PRESET, SEED};

    #[test]
    fn random_faults_depend_only_on_the_seed() {
        let of =
            |seed: &str| Scenario::of(&Settings::from_pairs(&[(&PRESET, "random-faults"), (&SEED, seed)]).unwrap());
        assert_eq!(of("7"), of("7"));
        let distinct: std::collections::HashSet<_> = (0..40).map(|s| of(&s.to_string())).collect();
        assert!(distinct.len() > 30, "seeds give different scenarios");
        for seed in 0..200 {
            let s = of(&seed.to_string());
            assert!(s.invocations.windows(2).all(|w| w[0].at <= w[1].at));
            assert!(s.invocations.iter().all(|inv| (inv.intent.0 as usize) <= s.intents.len()));
        }
    }

    #[test]
    fn the_burst_has_one_intent_and_one_order_per_call() {
        let s = Scenario::of(&Settings::preset(Preset::Overload, Mode::Patterns));
        assert_eq!(s.intents.len(), 200);
        assert_eq!(s.intents[199], IntentSpec { order: OrderId(200), request_key: RequestKey(200) });
        assert!(s.invocations.iter().all(|inv| inv.at == Millis::ZERO));
    }
}
