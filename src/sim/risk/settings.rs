//! The risk-review lab's parameters (RISK-MODEL.md), each defined once, and
//! the validated settings they become: one configuration per actor.
//!
//! The mode sets all sixteen pattern switches; each switch is a three-valued
//! choice, `auto` (follow the mode, the default), `on` or `off`, so a switch
//! given on its own overrides the mode whatever order they come in.
//!
//! The timing defaults reproduce the incident report's six log lines with
//! the naive server (model time 0 is 10:31:08.120):
//! - the call reaches a replica after the 20 ms transit, the auth and policy
//!   steps take 100 ms, and the 1 ms INSERT completes at 121 (08.241);
//! - the create goes out at once; the 2.5 s timeout fires at 2621 (10.741)
//!   and the 1 ms UPDATE to FAILED lets the replica answer at 2622 (10.742);
//! - the scripted retry is made at 3880 (12.000), reaches replica B at 3900,
//!   is inserted at 4001, and the Risk API, whose create takes 410 ms,
//!   creates the second review at 4411 (12.531).

use crate::sim::Surely;
use crate::sim::params::{Aimed, FieldError, Kind, Param, ParamDef, Problem, Raw, Schema, choice, params};
use crate::sim::time::Millis;

/// The largest duration that is not a horizon, deadline or lease.
pub const MAX_SPAN_MS: u64 = 600_000;
/// The longest horizon, deadline or lease: one hour.
pub const MAX_LONG_MS: u64 = 3_600_000;
/// The most calls in the overload burst. The burst's orders skip 999,
/// which belongs to another user.
pub const MAX_BURST_CALLS: u64 = 2_000;
/// The most replicas behind the load balancer.
pub const MAX_REPLICAS: u64 = 20;
/// Seeds fit in 32 bits so links and JSON carry them exactly.
pub const MAX_SEED: u64 = u32::MAX as u64;
/// The shortest scan interval; it bounds the workers' wakes per run.
pub const MIN_SCAN_MS: u64 = 100;

choice! {
    /// A pattern switch: follow the mode, or on or off whatever the mode.
    pub enum Switch {
        Auto("auto", "As the mode says"),
        On("on", "On"),
        Off("off", "Off"),
    }
}

const SWITCH: Kind = Kind::Choice(Switch::OPTIONS);

choice! {
    /// How a key is kept to one row: the unique constraint (the pattern), or
    /// one of the incident report's wrong designs. The first three values
    /// are a switch's, so `on` and `off` keep their meaning.
    pub enum KeyDesign {
        Auto("auto", "As the mode says"),
        On("on", "On: a unique constraint"),
        Off("off", "Off: nothing"),
        CheckThenInsert("check-then-insert", "Check, then insert (two statements)"),
        Lock("lock", "A lock with a lease"),
    }
}

choice! {
    /// What a replica makes of a create's timeout: the pattern (UNKNOWN),
    /// the naive FAILED, or catching it and calling again.
    pub enum OnTimeout {
        Auto("auto", "As the mode says"),
        On("on", "On: UNKNOWN"),
        Off("off", "Off: FAILED"),
        Resend("resend", "Catch it and call the Risk API again at once"),
    }
}

choice! {
    /// How the global gate keeps its places: held until the Risk API is
    /// done with the call (the pattern), or freed when the replica stops
    /// waiting, while the Risk API may still be working on it.
    pub enum GateDesign {
        Auto("auto", "As the mode says"),
        On("on", "On: a place is held until the Risk API answers"),
        Off("off", "Off: no quota across replicas"),
        Leaky("leaky", "Leaky: a place frees when the replica stops waiting"),
    }
}

choice! {
    /// How the workers recover unfinished rows.
    pub enum Recovery {
        StateMachine("state-machine", "The state machine: probe, claim, resend"),
        RetryCount("retry-count", "Resend every row not SUCCEEDED while retry_count < 3"),
    }
}

choice! {
    /// What the agent does when its script retries an intent (the
    /// incident's retry at 10:31:12.000): the pattern polls the review it
    /// was given; the incident's agent calls the tool again at once; the
    /// middle way calls again only a tool that declares itself idempotent.
    pub enum RetryDesign {
        Auto("auto", "As the mode says"),
        On("on", "On: poll get_risk_review_status with the review_id"),
        Off("off", "Off: call request_risk_review again at once"),
        IdempotentHint("idempotent-hint", "Call again only a tool that declares idempotentHint"),
    }
}

choice! {
    /// Who goes first when both workers wake at the same instant, and
    /// which of two calls reaching the replicas at the same instant does.
    pub enum WorkerOrder {
        W1First("w1-first", "Worker 1 (and the first call) first"),
        W2First("w2-first", "Worker 2 (and the second call) first"),
        Seeded("seeded", "Drawn from the seed at each tie"),
    }
}

/// A switch's value as its raw number: 0 follows the mode, 1 is on, 2 off,
/// and anything after is one of the wrong designs (so not the pattern).
fn switch_raw(raw: u64, mode_on: bool) -> bool {
    match raw {
        0 => mode_on,
        1 => true,
        _ => false,
    }
}

params! {
    /// Every parameter, in the order they are validated, listed and written.
    pub static PARAMS: [&ParamDef; PARAM_COUNT] = [
        // static: type                  name                     flag                       link             label
        //  kind                                                             default                        group
        PRESET: Preset                 = "preset",                "--preset",                "preset",        "Preset",
            Kind::Choice(Preset::OPTIONS),                                   Preset::Incident as u64,       Basics;
        MODE: Mode                     = "mode",                  "--mode",                  "mode",          "Mode",
            Kind::Choice(Mode::OPTIONS),                                     Mode::Naive as u64,            Basics;
        UNIQUE_REQUEST_KEY: KeyDesign  = "unique_request_key",    "--unique-request-key",    "urk",           "Unique request_key",
            Kind::Choice(KeyDesign::OPTIONS),                                KeyDesign::Auto as u64,        Basics;
        UNIQUE_BUSINESS_KEY: KeyDesign = "unique_business_key",   "--unique-business-key",   "ubk",           "Unique business_key",
            Kind::Choice(KeyDesign::OPTIONS),                                KeyDesign::Auto as u64,        Basics;
        TIMEOUT_IS_UNKNOWN: OnTimeout  = "timeout_is_unknown",    "--timeout-is-unknown",    "unknown",       "Timeout is UNKNOWN",
            Kind::Choice(OnTimeout::OPTIONS),                                OnTimeout::Auto as u64,        Basics;
        IDEMPOTENT_CREATE: Switch      = "idempotent_create",     "--idempotent-create",     "idem",          "Idempotent create",
            SWITCH,                                                          Switch::Auto as u64,           Basics;
        FIND_BY_KEY: Switch            = "find_by_key",           "--find-by-key",           "find",          "FindByRequestKey",
            SWITCH,                                                          Switch::Auto as u64,           Basics;
        CAS: Switch                    = "cas",                   "--cas",                   "cas",           "Compare-and-set claims",
            SWITCH,                                                          Switch::Auto as u64,           Basics;
        AUTHORIZE: Switch              = "authorize",             "--authorize",             "authz",         "Authorization on the server",
            SWITCH,                                                          Switch::Auto as u64,           Basics;
        GATES: Switch                  = "gates",                 "--gates",                 "gates",         "Concurrency gates",
            SWITCH,                                                          Switch::Auto as u64,           Basics;
        GLOBAL_GATE: GateDesign        = "global_gate",           "--global-gate",           "ggate",         "Global concurrency gate",
            Kind::Choice(GateDesign::OPTIONS),                               GateDesign::Auto as u64,       Basics;
        DOWNSTREAM_LIMIT: Switch       = "downstream_limit",      "--downstream-limit",      "apilimit",      "Risk API admission limit",
            SWITCH,                                                          Switch::Auto as u64,           Basics;
        DEADLINE_PROPAGATION: Switch   = "deadline_propagation",  "--deadline-propagation",  "deadline-prop", "Deadline propagation",
            SWITCH,                                                          Switch::Auto as u64,           Basics;
        ERROR_RESULTS: Switch          = "error_results",         "--error-results",         "errres",        "Business errors as Tool Results",
            SWITCH,                                                          Switch::Auto as u64,           Basics;
        SUBJECT_FROM_TOKEN: Switch     = "subject_from_token",    "--subject-from-token",    "subject",       "End user from the verified token",
            SWITCH,                                                          Switch::Auto as u64,           Basics;
        STRICT_SCHEMA: Switch          = "strict_schema",         "--strict-schema",         "schema",        "Strict input schema",
            SWITCH,                                                          Switch::Auto as u64,           Basics;
        OWN_CREDENTIAL: Switch         = "own_credential",        "--own-credential",        "cred",          "Own credential downstream",
            SWITCH,                                                          Switch::Auto as u64,           Basics;
        RETRY_POLICY: RetryDesign      = "retry_policy",          "--retry-policy",          "retry",         "Agent polls the review_id",
            Kind::Choice(RetryDesign::OPTIONS),                              RetryDesign::Auto as u64,      Basics;
        RECOVERY: Recovery             = "recovery",              "--recovery",              "recovery",      "Worker recovery",
            Kind::Choice(Recovery::OPTIONS),                                 Recovery::StateMachine as u64, Basics;
        SEED: u64                      = "seed",                  "--seed",                  "seed",          "Seed",
            Kind::Count { min: 0, max: MAX_SEED },                           1,                             Faults;
        WORKER_ORDER: WorkerOrder      = "worker_order",          "--worker-order",          "order",         "Race order",
            Kind::Choice(WorkerOrder::OPTIONS),                              WorkerOrder::W1First as u64,   Faults;
        FAULTS: u64                    = "faults",                "--fault",                 "fault",         "Aimed faults",
            Kind::Aimed { kinds: FaultKind::OPTIONS, max_n: MAX_AIMED_NTH }, 0,                             Faults;
        BURST_CALLS: u64               = "burst_calls",           "--burst-calls",           "burst",         "Calls in the burst",
            Kind::CountOrAuto { min: 1, max: MAX_BURST_CALLS },              0,                             Faults;
        /// Workers wake forever, so runs end at a horizon. 30 s lets every preset
        /// settle with room to spare: the slowest, worker-crash with the patterns,
        /// is done at 11.77 s (its claim lease ends at 10 s), the overload burst at
        /// 6.7 s.
        HORIZON: Millis                = "horizon_ms",            "--horizon-ms",            "horizon",       "Horizon",
            Kind::Millis { min: 1_000, max: MAX_LONG_MS },                   30_000,                        Advanced;
        CALL_TRANSIT: Millis           = "call_transit_ms",       "--call-transit-ms",       "transit",       "Agent to replica transit",
            Kind::Millis { min: 0, max: 60_000 },                            20,                            Advanced;
        AUTH_POLICY: Millis            = "auth_policy_ms",        "--auth-policy-ms",        "auth",          "Auth and policy steps",
            Kind::Millis { min: 0, max: 60_000 },                            100,                           Advanced;
        DB_STATEMENT: Millis           = "db_statement_ms",       "--db-statement-ms",       "db",            "Database statement",
            Kind::Millis { min: 0, max: 60_000 },                            1,                             Advanced;
        CREATE: Millis                 = "create_ms",             "--create-ms",             "create",        "Risk API create latency",
            Kind::Millis { min: 1, max: MAX_SPAN_MS },                       410,                           Advanced;
        FIND: Millis                   = "find_ms",               "--find-ms",               "findms",        "FindByRequestKey latency",
            Kind::Millis { min: 1, max: MAX_SPAN_MS },                       100,                           Advanced;
        DOWNSTREAM_TIMEOUT: Millis     = "downstream_timeout_ms", "--downstream-timeout-ms", "dtimeout",      "Risk API call timeout",
            Kind::Millis { min: 1, max: MAX_SPAN_MS },                       2_500,                         Advanced;
        CLIENT_DEADLINE: Millis        = "client_deadline_ms",    "--client-deadline-ms",    "deadline",      "Client deadline per tool call",
            Kind::Millis { min: 1, max: MAX_LONG_MS },                       5_000,                         Advanced;
        POLL_INTERVAL: Millis          = "poll_interval_ms",      "--poll-interval-ms",      "poll",          "Agent poll interval",
            Kind::Millis { min: 1, max: MAX_SPAN_MS },                       1_000,                         Advanced;
        SCAN_INTERVAL: Millis          = "scan_interval_ms",      "--scan-interval-ms",      "scan",          "Worker scan interval",
            Kind::Millis { min: MIN_SCAN_MS, max: MAX_SPAN_MS },             1_000,                         Advanced;
        WORKER_OFFSET: Millis          = "worker_offset_ms",      "--worker-offset-ms",      "offset",        "Worker W2's offset",
            Kind::Millis { min: 0, max: MAX_SPAN_MS },                       0,                             Advanced;
        BACKOFF: Millis                = "backoff_ms",            "--backoff-ms",            "backoff",       "Backoff",
            Kind::Millis { min: 1, max: MAX_SPAN_MS },                       1_000,                         Advanced;
        CLAIM_LEASE: Millis            = "claim_lease_ms",        "--claim-lease-ms",        "lease",         "Claim lease",
            Kind::Millis { min: 1, max: MAX_LONG_MS },                       5_000,                         Advanced;
        CONCURRENCY_CAP: u64           = "concurrency_cap",       "--concurrency-cap",       "cap",           "Concurrency cap per replica",
            Kind::CountOrAuto { min: 1, max: 1_000 },                        0,                             Advanced;
        QUEUE_CAPACITY: u64            = "queue_capacity",        "--queue-capacity",        "queue",         "Queue capacity per replica",
            Kind::Count { min: 0, max: 1_000 },                              16,                            Advanced;
        API_SAFE_CONCURRENCY: u64      = "api_safe_concurrency",  "--api-safe-concurrency",  "apisafe",       "Risk API safe concurrency",
            Kind::CountOrAuto { min: 1, max: 10_000 },                       0,                             Advanced;
        REPLICAS: u64                  = "replicas",              "--replicas",              "replicas",      "Replicas",
            Kind::CountOrAuto { min: 1, max: MAX_REPLICAS },                 0,                             Advanced;
    ];
}

/// The most calls of one kind a fault can be aimed at.
pub const MAX_AIMED_NTH: u64 = 999;

choice! {
    /// What an aimed fault does to the call it hits (`KIND@N`: the N-th
    /// call of its kind).
    pub enum FaultKind {
        CreateResponseLost("create-response-lost", "the create is performed, its response lost"),
        CreateRequestLost("create-request-lost", "the create never reaches the Risk API"),
        Downstream5xx("downstream-5xx", "the create gets a 500, not performed"),
        DownstreamSlow("downstream-slow", "the create lands 0.5 s after its caller's timeout"),
        CreateReset("create-reset", "the create is performed, the connection resets"),
        BusinessRejection("business-rejection", "the Risk API rejects the create"),
        FindTimeout("find-timeout", "the probe hangs past its timeout"),
        WorkerCrashAfterSend("worker-crash-after-send", "the worker crashes after its resend"),
        ReplicaPause("replica-pause", "the replica pauses 6 s before its insert"),
        TieFlipped("tie-flipped", "the tie (between the workers or between two calls) goes the other way"),
        CallDelayed("call-delayed", "the tool call reaches its replica 2 s late"),
        DuplicateDelivery("duplicate-delivery", "the agent's invocation is delivered to two replicas"),
        ForgedOrder("forged-order", "the intent names O20260728999, another user's order"),
        ClaimedUser("claimed-user", "the intent names O20260728999 and gives its owner, u-2002, as user_id in the arguments"),
        ExtraArgument("extra-argument", "the call carries an argument the schema does not have, approved: true"),
        LongReason("long-reason", "the call's reason is 600 characters, past the schema's 500"),
    }
}

choice! {
    /// The scenario a run plays: RISK-MODEL.md's seven presets, plus a
    /// worker crash (the only way to see a claim lease end) and faults
    /// drawn from the seed.
    pub enum Preset {
        Incident("incident", "The incident: a lost response and a retry"),
        SameRequestKey("same-request-key", "Same request_key twice (duplicate delivery)"),
        SameBusinessKey("same-business-key", "Same order, new request_key (second click)"),
        LostCreateResponse("lost-create-response", "Lost create response"),
        NotFoundResend("not-found-resend", "Lost create request: probe, claim, resend"),
        ForgedOrder("forged-order", "Forged order (another user's)"),
        Overload("overload", "Burst of calls (overload)"),
        WorkerCrash("worker-crash", "Worker crashes after resending"),
        ProbeRacesCreate("probe-races-create", "A slow create races the probe"),
        CheckThenInsertRace("check-then-insert-race", "Two clicks at once race the check"),
        PausePastLease("pause-past-lease", "A replica pauses past its lease"),
        ReplicaPause("replica-pause", "A replica pauses past its caller's deadline"),
        NewGeneration("new-generation", "A rejected review, then a new generation"),
        WrongAudience("wrong-audience", "A token for another audience"),
        UserInArguments("user-in-arguments", "Another user named in the arguments"),
        ExtraArgument("extra-argument", "An extra argument: approved: true"),
        LongReason("long-reason", "A 600-character reason"),
        WideFleet("wide-fleet", "20 replicas against a Risk API verified for 100"),
        SlowFleet("slow-fleet", "The wide fleet, and a Risk API slower than the replicas' budget"),
        SlowingDownstream("slowing-downstream", "A steady stream while the Risk API slows"),
        RandomFaults("random-faults", "Random faults from the seed"),
    }
}

choice! {
    /// All patterns on, or all off.
    pub enum Mode {
        Naive("naive", "Naive"),
        Patterns("patterns", "Patterns"),
    }
}

/// One of the sixteen pattern switches: eleven of the server's state and
/// capacity, four of its protocol and identity, and the agent's retry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pattern {
    UniqueRequestKey,
    UniqueBusinessKey,
    TimeoutIsUnknown,
    IdempotentCreate,
    FindByKey,
    Cas,
    Authorize,
    Gates,
    GlobalGate,
    DownstreamLimit,
    DeadlinePropagation,
    ErrorResults,
    SubjectFromToken,
    StrictSchema,
    OwnCredential,
    RetryPolicy,
}

impl Pattern {
    pub const ALL: [Pattern; 16] = [
        Pattern::UniqueRequestKey,
        Pattern::UniqueBusinessKey,
        Pattern::TimeoutIsUnknown,
        Pattern::IdempotentCreate,
        Pattern::FindByKey,
        Pattern::Cas,
        Pattern::Authorize,
        Pattern::Gates,
        Pattern::GlobalGate,
        Pattern::DownstreamLimit,
        Pattern::DeadlinePropagation,
        Pattern::ErrorResults,
        Pattern::SubjectFromToken,
        Pattern::StrictSchema,
        Pattern::OwnCredential,
        Pattern::RetryPolicy,
    ];

    /// The switch's parameter. Its values 0, 1 and 2 are auto, on and off;
    /// five switches go on with the report's wrong designs.
    pub fn param(self) -> &'static ParamDef {
        match self {
            Pattern::UniqueRequestKey => UNIQUE_REQUEST_KEY.def(),
            Pattern::UniqueBusinessKey => UNIQUE_BUSINESS_KEY.def(),
            Pattern::TimeoutIsUnknown => TIMEOUT_IS_UNKNOWN.def(),
            Pattern::IdempotentCreate => IDEMPOTENT_CREATE.def(),
            Pattern::FindByKey => FIND_BY_KEY.def(),
            Pattern::Cas => CAS.def(),
            Pattern::Authorize => AUTHORIZE.def(),
            Pattern::Gates => GATES.def(),
            Pattern::GlobalGate => GLOBAL_GATE.def(),
            Pattern::DownstreamLimit => DOWNSTREAM_LIMIT.def(),
            Pattern::DeadlinePropagation => DEADLINE_PROPAGATION.def(),
            Pattern::ErrorResults => ERROR_RESULTS.def(),
            Pattern::SubjectFromToken => SUBJECT_FROM_TOKEN.def(),
            Pattern::StrictSchema => STRICT_SCHEMA.def(),
            Pattern::OwnCredential => OWN_CREDENTIAL.def(),
            Pattern::RetryPolicy => RETRY_POLICY.def(),
        }
    }

    /// Whether the switch offers more than on and off.
    pub fn has_designs(self) -> bool {
        matches!(self.param().kind, Kind::Choice(options) if options.len() > 3)
    }

    /// The switch's name in JSON, e.g. "unique_request_key".
    pub fn name(self) -> &'static str {
        self.param().name
    }
}

/// The effective pattern switches of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Switches {
    pub unique_request_key: bool,
    pub unique_business_key: bool,
    pub timeout_is_unknown: bool,
    pub idempotent_create: bool,
    pub find_by_key: bool,
    pub cas: bool,
    pub authorize: bool,
    pub gates: bool,
    pub global_gate: bool,
    pub downstream_limit: bool,
    pub deadline_propagation: bool,
    pub error_results: bool,
    pub subject_from_token: bool,
    pub strict_schema: bool,
    pub own_credential: bool,
    pub retry_policy: bool,
}

impl Switches {
    pub fn all(on: bool) -> Switches {
        Switches {
            unique_request_key: on,
            unique_business_key: on,
            timeout_is_unknown: on,
            idempotent_create: on,
            find_by_key: on,
            cas: on,
            authorize: on,
            gates: on,
            global_gate: on,
            downstream_limit: on,
            deadline_propagation: on,
            error_results: on,
            subject_from_token: on,
            strict_schema: on,
            own_credential: on,
            retry_policy: on,
        }
    }

    pub fn get(&self, pattern: Pattern) -> bool {
        match pattern {
            Pattern::UniqueRequestKey => self.unique_request_key,
            Pattern::UniqueBusinessKey => self.unique_business_key,
            Pattern::TimeoutIsUnknown => self.timeout_is_unknown,
            Pattern::IdempotentCreate => self.idempotent_create,
            Pattern::FindByKey => self.find_by_key,
            Pattern::Cas => self.cas,
            Pattern::Authorize => self.authorize,
            Pattern::Gates => self.gates,
            Pattern::GlobalGate => self.global_gate,
            Pattern::DownstreamLimit => self.downstream_limit,
            Pattern::DeadlinePropagation => self.deadline_propagation,
            Pattern::ErrorResults => self.error_results,
            Pattern::SubjectFromToken => self.subject_from_token,
            Pattern::StrictSchema => self.strict_schema,
            Pattern::OwnCredential => self.own_credential,
            Pattern::RetryPolicy => self.retry_policy,
        }
    }

    fn set(&mut self, pattern: Pattern, on: bool) {
        let slot = match pattern {
            Pattern::UniqueRequestKey => &mut self.unique_request_key,
            Pattern::UniqueBusinessKey => &mut self.unique_business_key,
            Pattern::TimeoutIsUnknown => &mut self.timeout_is_unknown,
            Pattern::IdempotentCreate => &mut self.idempotent_create,
            Pattern::FindByKey => &mut self.find_by_key,
            Pattern::Cas => &mut self.cas,
            Pattern::Authorize => &mut self.authorize,
            Pattern::Gates => &mut self.gates,
            Pattern::GlobalGate => &mut self.global_gate,
            Pattern::DownstreamLimit => &mut self.downstream_limit,
            Pattern::DeadlinePropagation => &mut self.deadline_propagation,
            Pattern::ErrorResults => &mut self.error_results,
            Pattern::SubjectFromToken => &mut self.subject_from_token,
            Pattern::StrictSchema => &mut self.strict_schema,
            Pattern::OwnCredential => &mut self.own_credential,
            Pattern::RetryPolicy => &mut self.retry_policy,
        };
        *slot = on;
    }
}

/// The sizes a preset runs with where a parameter is left at `auto`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Fleet {
    pub replicas: u64,
    pub cap: u64,
    pub burst: u64,
    pub safe: u64,
}

impl Fleet {
    /// Two replicas of 8 slots and a Risk API safe at 32 for every preset
    /// but the wide fleets: the report's 20 pods of 64 against a Risk API
    /// verified for 100, taking a burst of 1 280 calls at once, or (the slow
    /// fleet) a stream of 150.
    pub fn of(preset: Preset) -> Fleet {
        match preset {
            Preset::WideFleet => Fleet { replicas: 20, cap: 64, burst: 1_280, safe: 100 },
            Preset::SlowFleet => Fleet { replicas: 20, cap: 64, burst: 150, safe: 100 },
            _ => Fleet { replicas: 2, cap: 8, burst: 200, safe: 32 },
        }
    }
}

/// How a replica keeps a key to one row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KeyGuard {
    /// The database's unique constraint: `INSERT ... ON CONFLICT DO NOTHING`.
    Unique,
    /// `SELECT` by the key, then `INSERT` if it found nothing: two
    /// statements, so two replicas can both find nothing.
    CheckThenInsert,
    /// A lock on the key with a lease, taken before the check and the
    /// insert and released when the replica answers.
    Lock,
    None,
}

impl KeyGuard {
    /// The guard a key's design chose (`on` is the pattern's constraint).
    fn of(design: KeyDesign, on: bool) -> KeyGuard {
        match design {
            KeyDesign::CheckThenInsert => KeyGuard::CheckThenInsert,
            KeyDesign::Lock => KeyGuard::Lock,
            _ if on => KeyGuard::Unique,
            _ => KeyGuard::None,
        }
    }
}

/// The designs the switches chose beyond on and off.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Designs {
    pub request_key: KeyGuard,
    pub business_key: KeyGuard,
    /// A replica that catches a create's timeout calls again at once.
    pub resend_on_timeout: bool,
    pub recovery: Recovery,
    pub retry: AgentRetry,
}

/// What the agent makes of a scripted retry of an intent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AgentRetry {
    /// Call request_risk_review again with the same request_key, whatever
    /// it heard (the incident's agent).
    AtOnce,
    /// Call again only if the tool declares `idempotentHint`; otherwise
    /// leave the intent as it ended.
    IfIdempotent,
    /// Poll get_risk_review_status with the review_id an answer gave it;
    /// call again with the same request_key only if no answer named one.
    PollReview,
}

impl AgentRetry {
    fn of(design: RetryDesign, on: bool) -> AgentRetry {
        match design {
            RetryDesign::IdempotentHint => AgentRetry::IfIdempotent,
            _ if on => AgentRetry::PollReview,
            _ => AgentRetry::AtOnce,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AgentConfig {
    /// One way, agent to replica and back (through the load balancer).
    pub transit: Millis,
    /// Each call must be answered this long after it is made.
    pub deadline: Millis,
    pub poll_interval: Millis,
    /// The wait before retrying an OVERLOADED call.
    pub backoff: Millis,
    pub retry: AgentRetry,
    /// Whether the server's tool list declares request_risk_review
    /// idempotent (`idempotentHint: true`): it does when its request_key is
    /// unique, so that a call made again with the same key finds its row.
    pub idempotent_hint: bool,
}

/// A replica's gates: the configured numbers, and whether they apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Gates {
    pub on: bool,
    pub cap: u32,
    pub queue: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ReplicaConfig {
    pub auth_policy: Millis,
    pub downstream_timeout: Millis,
    pub gates: Gates,
    pub authorize: bool,
    pub timeout_is_unknown: bool,
    /// Whether UNKNOWN rows get a probe time (nobody can probe without
    /// FindByRequestKey).
    pub find_by_key: bool,
    pub request_key: KeyGuard,
    pub business_key: KeyGuard,
    pub resend_on_timeout: bool,
    /// How long a replica's lock on a key lasts.
    pub lock_lease: Millis,
    /// Deadline propagation: the replica knows each call's client deadline
    /// and spends no more than what is left of it.
    pub deadline_propagation: bool,
    /// The global gate: the most calls the whole fleet holds in its slots.
    pub fleet_quota: Option<u32>,
    /// Whether a slot (and the fleet's place) stays held until the Risk
    /// API is done with the call's create, rather than freeing when the
    /// replica stops waiting (the leaky gate).
    pub held: bool,
    /// Business errors go back as Tool Results with `isError`; without,
    /// the server's refusals are thrown as JSON-RPC errors.
    pub error_results: bool,
    /// The end user comes from the verified token; without, a `user_id`
    /// in the arguments names it (the tool's schema declares one).
    pub subject_from_token: bool,
    /// The input schema has `additionalProperties: false` and length
    /// limits; without, anything extra or too long reaches the handler.
    pub strict_schema: bool,
    /// Risk API calls carry the server's own credential; without, the
    /// caller's token is passed on.
    pub own_credential: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DatabaseConfig {
    pub statement: Millis,
    pub unique_request_key: bool,
    pub unique_business_key: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RiskApiConfig {
    pub create: Millis,
    pub find: Millis,
    /// Calls it admits at once; the excess gets 503 at once. Its safe
    /// concurrency with the admission limit, unbounded without.
    pub capacity: u32,
    /// The most calls under way at once that it was verified for.
    pub safe_concurrency: u32,
    pub idempotent_create: bool,
    /// Callers give up after this long (a slow create finishes this much
    /// after its create latency).
    pub caller_timeout: Millis,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WorkerConfig {
    pub scan_interval: Millis,
    /// W2 wakes this much after W1.
    pub offset: Millis,
    pub backoff: Millis,
    pub lease: Millis,
    pub cas: bool,
    pub find_by_key: bool,
    pub timeout_is_unknown: bool,
    pub recovery: Recovery,
}

/// Validated settings of one run: one configuration per actor. The only
/// ways in are [`Schema::opening`], [`Schema::with`] and [`Raw::validate`],
/// all of which check every value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Settings {
    values: [u64; PARAM_COUNT],
    pub preset: Preset,
    pub mode: Mode,
    pub switches: Switches,
    pub designs: Designs,
    pub seed: u64,
    pub worker_order: WorkerOrder,
    /// The aimed faults, or the preset's own.
    pub faults: Aimed,
    pub burst_calls: u32,
    pub replicas: usize,
    pub horizon: Millis,
    pub agent: AgentConfig,
    pub replica: ReplicaConfig,
    pub database: DatabaseConfig,
    pub risk_api: RiskApiConfig,
    pub worker: WorkerConfig,
}

/// The raw input type of this lab.
pub type RawSettings = Raw<Settings>;

/// W2's offset must stay within one scan interval.
fn check_offset(offset: Millis, scan: Millis) -> Result<(), FieldError> {
    if offset < scan {
        return Ok(());
    }
    Err(FieldError::new(
        &WORKER_OFFSET,
        offset.ms().to_string(),
        Problem::Conflict(format!(
            "less than the scan interval ({} ms), so both workers wake once per interval",
            scan.ms()
        )),
    ))
}

impl Schema for Settings {
    const PARAMS: &'static [&'static ParamDef] = &PARAMS;

    fn from_values(values: &[u64]) -> Result<Settings, FieldError> {
        let v: [u64; PARAM_COUNT] = values.try_into().surely("one value per parameter");
        let ms = |param: &Param<Millis>| Self::read(&v, param);
        let fleet = Fleet::of(Self::read(&v, &PRESET));
        // A size left at auto takes the preset's.
        let count = |param: &Param<u64>| match (Self::read(&v, param), param.name) {
            (0, "replicas") => fleet.replicas,
            (0, "concurrency_cap") => fleet.cap,
            (0, "burst_calls") => fleet.burst,
            (0, "api_safe_concurrency") => fleet.safe,
            (n, _) => n,
        };
        let mode = Self::read(&v, &MODE);
        let mut switches = Switches::all(mode == Mode::Patterns);
        for pattern in Pattern::ALL {
            switches.set(pattern, switch_raw(v[Self::index_of(pattern.param())], mode == Mode::Patterns));
        }
        let gate_design = Self::read(&v, &GLOBAL_GATE);
        let designs = Designs {
            request_key: KeyGuard::of(Self::read(&v, &UNIQUE_REQUEST_KEY), switches.unique_request_key),
            business_key: KeyGuard::of(Self::read(&v, &UNIQUE_BUSINESS_KEY), switches.unique_business_key),
            resend_on_timeout: Self::read(&v, &TIMEOUT_IS_UNKNOWN) == OnTimeout::Resend,
            recovery: Self::read(&v, &RECOVERY),
            retry: AgentRetry::of(Self::read(&v, &RETRY_POLICY), switches.retry_policy),
        };
        check_offset(ms(&WORKER_OFFSET), ms(&SCAN_INTERVAL))?;
        let agent = AgentConfig {
            transit: ms(&CALL_TRANSIT),
            deadline: ms(&CLIENT_DEADLINE),
            poll_interval: ms(&POLL_INTERVAL),
            backoff: ms(&BACKOFF),
            retry: designs.retry,
            idempotent_hint: switches.unique_request_key,
        };
        let replica = ReplicaConfig {
            auth_policy: ms(&AUTH_POLICY),
            downstream_timeout: ms(&DOWNSTREAM_TIMEOUT),
            gates: Gates {
                on: switches.gates,
                cap: count(&CONCURRENCY_CAP) as u32,
                queue: count(&QUEUE_CAPACITY) as u32,
            },
            authorize: switches.authorize,
            timeout_is_unknown: switches.timeout_is_unknown,
            find_by_key: switches.find_by_key,
            request_key: designs.request_key,
            business_key: designs.business_key,
            resend_on_timeout: designs.resend_on_timeout,
            lock_lease: ms(&CLAIM_LEASE),
            deadline_propagation: switches.deadline_propagation,
            // The gate counts the replicas' calls; the workers call the Risk
            // API on their own, which only its admission limit bounds.
            fleet_quota: (switches.global_gate || gate_design == GateDesign::Leaky)
                .then(|| count(&API_SAFE_CONCURRENCY) as u32),
            held: gate_design != GateDesign::Leaky,
            error_results: switches.error_results,
            subject_from_token: switches.subject_from_token,
            strict_schema: switches.strict_schema,
            own_credential: switches.own_credential,
        };
        let database = DatabaseConfig {
            statement: ms(&DB_STATEMENT),
            unique_request_key: switches.unique_request_key,
            unique_business_key: switches.unique_business_key,
        };
        let risk_api = RiskApiConfig {
            create: ms(&CREATE),
            find: ms(&FIND),
            capacity: if switches.downstream_limit { count(&API_SAFE_CONCURRENCY) as u32 } else { u32::MAX },
            safe_concurrency: count(&API_SAFE_CONCURRENCY) as u32,
            idempotent_create: switches.idempotent_create,
            caller_timeout: ms(&DOWNSTREAM_TIMEOUT),
        };
        let worker = WorkerConfig {
            scan_interval: ms(&SCAN_INTERVAL),
            offset: ms(&WORKER_OFFSET),
            backoff: ms(&BACKOFF),
            lease: ms(&CLAIM_LEASE),
            cas: switches.cas,
            find_by_key: switches.find_by_key,
            timeout_is_unknown: switches.timeout_is_unknown,
            recovery: designs.recovery,
        };
        Ok(Settings {
            values: v,
            preset: Self::read(&v, &PRESET),
            mode,
            switches,
            designs,
            seed: count(&SEED),
            worker_order: Self::read(&v, &WORKER_ORDER),
            faults: Aimed::from_raw(count(&FAULTS)),
            burst_calls: count(&BURST_CALLS) as u32,
            replicas: count(&REPLICAS) as usize,
            horizon: ms(&HORIZON),
            agent,
            replica,
            database,
            risk_api,
            worker,
        })
    }

    fn values(&self) -> &[u64] {
        &self.values
    }
}

impl Default for Settings {
    /// The opening: the incident with the naive server.
    fn default() -> Self {
        Settings::opening()
    }
}

impl Settings {
    /// The defaults with some values set, as flags spell them: for tests,
    /// scripts and the bench.
    pub fn from_pairs(pairs: &[(&'static ParamDef, &str)]) -> Result<Settings, FieldError> {
        let mut raw = RawSettings::core();
        for (param, value) in pairs {
            raw.set(param, *value);
        }
        raw.validate()
    }

    /// A preset in a mode, everything else at its default.
    pub fn preset(preset: Preset, mode: Mode) -> Settings {
        Settings::from_pairs(&[(&PRESET, preset.value()), (&MODE, mode.value())]).surely("presets and modes are valid")
    }

    /// The canonical text of one parameter, as flags spell it.
    pub fn text(&self, param: &ParamDef) -> String {
        self.text_of(param)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_opening_is_the_naive_incident() {
        let s = Settings::default();
        assert_eq!(s.preset, Preset::Incident);
        assert_eq!(s.mode, Mode::Naive);
        assert_eq!(s.switches, Switches::all(false));
        assert_eq!(s.horizon, Millis(30_000));
        assert_eq!(s.replica.gates, Gates { on: false, cap: 8, queue: 16 });
    }

    #[test]
    fn a_switch_overrides_the_mode_in_either_direction() {
        let s = Settings::from_pairs(&[(&MODE, "patterns"), (&CAS, "off")]).unwrap();
        assert!(!s.switches.cas && s.switches.gates && s.switches.idempotent_create);
        let s = Settings::from_pairs(&[(&CAS, "on"), (&MODE, "naive")]).unwrap();
        assert!(s.switches.cas && !s.switches.gates);
        assert!(s.worker.cas);
    }

    #[test]
    fn every_parameter_round_trips_through_its_text() {
        let s = Settings::from_pairs(&[(&PRESET, "overload"), (&GATES, "off"), (&SEED, "77"), (&HORIZON, "60000")])
            .unwrap();
        for param in PARAMS {
            let copy = Settings::default().with_text(param, &s.text(param)).unwrap();
            assert_eq!(copy.text(param), s.text(param), "{}", param.name);
        }
    }

    #[test]
    fn the_worker_offset_must_stay_within_one_scan_interval() {
        let err = Settings::from_pairs(&[(&WORKER_OFFSET, "1000")]).unwrap_err();
        assert_eq!(err.param.name, "worker_offset_ms");
        assert!(err.message("--worker-offset-ms").contains("less than the scan interval (1000 ms)"));
        assert!(Settings::from_pairs(&[(&WORKER_OFFSET, "999")]).is_ok());
    }
}
