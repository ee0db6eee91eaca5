//! The lost-acknowledgement lab's parameters (docs/model.md), each
//! defined once, and the validated settings they become: one configuration
//! per actor (client, network, server, store).

use crate::sim::Surely;
use serde::Serialize;

use crate::sim::params::{AIMED_NONE, Aimed, FieldError, Kind, ParamDef, Raw, Schema, choice, params};
use crate::sim::time::Millis;

/// The longest a stored result may be kept, and the longest lease: one day.
pub const MAX_RETENTION_MS: u64 = 86_400_000;
/// The largest duration that is not a retention, lease or deadline: ten minutes.
pub const MAX_DURATION_MS: u64 = 600_000;
/// The longest one-way transit: one minute.
pub const MAX_TRANSIT_MS: u64 = 60_000;
/// The most attempts a client may make for one intent.
pub const MAX_ATTEMPTS: u32 = 10;
/// The longest overall deadline: one hour.
pub const MAX_DEADLINE_MS: u64 = 3_600_000;

params! {
    /// Every parameter, v1's twelve first, in the order they are validated,
    /// listed and written.
    pub static PARAMS: [&ParamDef; PARAM_COUNT] = [
        // static: type            name                   flag                     link         label
        //  kind                                                                   default                     group
        FAULT: Fault             = "fault",               "--fault",               "fault",     "Response fault",
            Kind::Choice(Fault::OPTIONS),                                          Fault::LoseFirst as u64,    Basics;
        DEDUP: bool              = "dedup",               "--dedup",               "dedup",     "Server deduplicates operation keys (idempotency keys)",
            Kind::Switch { off: "off", on: "on" },                                 1,                          Basics;
        KEY: KeyMode             = "key",                 "--key",                 "key",       "Retry key",
            Kind::Choice(KeyMode::OPTIONS),                                        KeyMode::Stable as u64,     Basics;
        RETENTION: Millis        = "retention_ms",        "--retention-ms",        "retention", "Stored-result retention",
            Kind::Millis { min: 0, max: MAX_RETENTION_MS },                        60_000,                     Basics;
        TIMEOUT: Millis          = "timeout_ms",          "--timeout-ms",          "timeout",   "Timeout per attempt",
            Kind::Millis { min: 1, max: MAX_DURATION_MS },                         3_000,                      Basics;
        EXEC: Millis             = "exec_ms",             "--exec-ms",             "exec",      "Server execution time",
            Kind::Millis { min: 0, max: MAX_DURATION_MS },                         2_000,                      Basics;
        MAX_ATTEMPTS_PARAM: u64  = "max_attempts",        "--max-attempts",        "attempts",  "Maximum total attempts",
            Kind::Count { min: 1, max: MAX_ATTEMPTS as u64 },                      3,                          Basics;
        INITIAL_DELAY: Millis    = "initial_delay_ms",    "--initial-delay-ms",    "delay",     "Initial retry delay",
            Kind::Millis { min: 0, max: MAX_DURATION_MS },                         1_000,                      Basics;
        BACKOFF_CAP: Millis      = "backoff_cap_ms",      "--backoff-cap-ms",      "cap",       "Backoff cap",
            Kind::Millis { min: 0, max: MAX_DURATION_MS },                         8_000,                      Advanced;
        JITTER: bool             = "jitter",              "--jitter",              "jitter",    "Deterministic full-jitter example",
            Kind::Switch { off: "off", on: "full" },                               0,                          Basics;
        REQUEST_TRANSIT: Millis  = "request_transit_ms",  "--request-transit-ms",  "req",       "Request transit",
            Kind::Millis { min: 0, max: MAX_TRANSIT_MS },                          0,                          Advanced;
        RESPONSE_TRANSIT: Millis = "response_transit_ms", "--response-transit-ms", "resp",      "Response transit",
            Kind::Millis { min: 0, max: MAX_TRANSIT_MS },                          50,                         Advanced;
        IN_FLIGHT: InFlight      = "in_flight",           "--in-flight",           "inflight",  "Duplicate of an operation in flight",
            Kind::Choice(InFlight::OPTIONS),                                       InFlight::Join as u64,      Faults;
        PAYLOAD: PayloadMode     = "payload",             "--payload",             "payload",   "Retry payload",
            Kind::Choice(PayloadMode::OPTIONS),                                    PayloadMode::Same as u64,   Faults;
        FINGERPRINT: bool        = "fingerprint",         "--fingerprint",         "fp",        "Server checks the payload fingerprint",
            Kind::Switch { off: "off", on: "on" },                                 1,                          Faults;
        CRASH: CrashPoint        = "crash",               "--crash",               "crash",     "Server crash",
            Kind::Choice(CrashPoint::OPTIONS),                                     CrashPoint::None as u64,    Faults;
        RESTART: Millis          = "restart_ms",          "--restart-ms",          "restart",   "Restart time",
            Kind::Millis { min: 0, max: MAX_DURATION_MS },                         1_000,                      Faults;
        STORE: StoreKind         = "store",               "--store",               "store",     "Deduplication store",
            Kind::Choice(StoreKind::OPTIONS),                                      StoreKind::InMemory as u64, Faults;
        LEASE: Millis            = "lease_ms",            "--lease-ms",            "lease",     "Reservation lease",
            Kind::Millis { min: 1, max: MAX_RETENTION_MS },                        MAX_RETENTION_MS,           Faults;
        DEADLINE: Option<Millis> = "deadline_ms",         "--deadline-ms",         "deadline",  "Overall deadline",
            Kind::MillisOrOff { min: 1, max: MAX_DEADLINE_MS },                    0,                          Faults;
        FAULTS: u64              = "faults",              "--faults",              "faults",    "Aimed faults",
            Kind::Aimed { kinds: FaultKind::OPTIONS, max_n: MAX_ATTEMPTS as u64 }, AIMED_NONE,                 Faults;
    ];
}

choice! {
    /// What an aimed fault (`KIND@N`) does to attempt N, on top of the
    /// response fault and the crash the other settings choose.
    pub enum FaultKind {
        ResponseLost("response-lost", "every response to the attempt is lost"),
        RequestLost("request-lost", "the attempt's request never reaches the server"),
        Unavailable("503", "the server answers the attempt with 503"),
        CrashBeforeCommit("crash-before-commit", "the server crashes before the effect of the attempt's operation"),
        CrashAfterEffect("crash-after-effect", "the server crashes after that effect, before storing its result"),
        CrashAfterRecord("crash-after-record", "the server crashes after storing its result, before responding"),
    }
}

impl FaultKind {
    /// The crash point of a crash fault.
    pub fn crash_point(self) -> Option<CrashPoint> {
        match self {
            FaultKind::CrashBeforeCommit => Some(CrashPoint::BeforeCommit),
            FaultKind::CrashAfterEffect => Some(CrashPoint::AfterEffect),
            FaultKind::CrashAfterRecord => Some(CrashPoint::AfterRecord),
            _ => None,
        }
    }
}

/// Attempts as a set: bit N for attempt N (1 to [`MAX_ATTEMPTS`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Attempts(u16);

impl Attempts {
    pub fn has(self, attempt: u32) -> bool {
        attempt < 16 && self.0 & (1 << attempt) != 0
    }
    fn with(self, attempt: u32) -> Attempts {
        Attempts(self.0 | (1u16 << attempt.min(15)))
    }
}

/// The aimed faults, read once into the sets each actor consults.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct AimedSets {
    pub responses_lost: Attempts,
    pub requests_lost: Attempts,
    pub unavailable: Attempts,
    /// Where the server crashes in the commit of the operation attempt N
    /// started (index N - 1); two points aimed at one attempt keep the first.
    pub crashes: [Option<CrashPoint>; MAX_ATTEMPTS as usize],
}

impl AimedSets {
    fn of(aimed: &Aimed) -> AimedSets {
        let mut sets = AimedSets::default();
        let Aimed::List(list) = aimed else { return sets };
        for f in list {
            let Some(&kind) = FaultKind::ALL.get(f.kind) else { continue };
            match kind {
                FaultKind::ResponseLost => sets.responses_lost = sets.responses_lost.with(f.nth),
                FaultKind::RequestLost => sets.requests_lost = sets.requests_lost.with(f.nth),
                FaultKind::Unavailable => sets.unavailable = sets.unavailable.with(f.nth),
                _ => {
                    if let Some(slot) = sets.crashes.get_mut(f.nth as usize - 1) {
                        *slot = slot.or(kind.crash_point());
                    }
                }
            }
        }
        sets
    }

    /// The crash aimed at the operation attempt `attempt` started.
    pub fn crash_of(&self, attempt: u32) -> Option<CrashPoint> {
        self.crashes.get((attempt as usize).wrapping_sub(1)).copied().flatten()
    }
}

choice! {
    /// The `fault` parameter: which response fault the run injects.
    #[derive(Serialize)]
    pub enum Fault {
        None("none", "No response fault"),
        LoseFirst("lose-first", "Lose first success response"),
        LoseAll("lose-all", "Lose all success responses"),
        First503("first-503", "First attempt gets 503"),
        Reject400("reject-400", "Reject input with 400"),
    }
}

choice! {
    /// How the client chooses the operation key of each attempt.
    pub enum KeyMode {
        /// Every attempt reuses the logical intent's key.
        Stable("stable", "Reuse logical intent key"),
        /// Every attempt gets a fresh key.
        PerAttempt("per-attempt", "New key for every attempt"),
    }
}

/// Whether retry delays are spread by the deterministic jitter sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Jitter {
    Off,
    Full,
}

choice! {
    /// What a retry carries: the same body, or one the client rebuilt (a bug).
    pub enum PayloadMode {
        Same("same", "Same payload (A)"),
        Changed("changed", "Changed payload (B)"),
    }
}

choice! {
    /// What the server does with a duplicate of an operation still running.
    pub enum InFlight {
        Join("join", "Joins the operation"),
        Reject409("reject-409", "Gets 409 Conflict"),
    }
}

choice! {
    /// Where in the first operation's commit the server crashes.
    pub enum CrashPoint {
        None("none", "No crash"),
        BeforeCommit("before-commit", "Before the commit"),
        AfterEffect("after-effect", "After the effect, before the result is stored"),
        AfterRecord("after-record", "After the result is stored, before responding"),
    }
}

choice! {
    /// Where reservations and stored results live.
    pub enum StoreKind {
        InMemory("in-memory", "In memory (lost in a crash)"),
        DurableSeparate("durable-separate", "Durable, separate from the effect"),
        DurableAtomic("durable-atomic", "Durable, atomic with the effect"),
    }
}

impl StoreKind {
    pub fn is_durable(self) -> bool {
        self != StoreKind::InMemory
    }
}

/// Which success responses the network drops.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Drops {
    None,
    FirstSuccess,
    EverySuccess,
}

/// What the server answers at the door, before looking at keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Door {
    Open,
    /// 503 for attempt 1.
    First503,
    /// 400 for every attempt.
    Reject400,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClientConfig {
    pub timeout: Millis,
    pub max_attempts: u32,
    pub initial_delay: Millis,
    pub backoff_cap: Millis,
    pub jitter: Jitter,
    pub key: KeyMode,
    pub payload: PayloadMode,
    /// The overall deadline, measured from the first send.
    pub deadline: Option<Millis>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NetworkConfig {
    pub request_transit: Millis,
    pub response_transit: Millis,
    pub drops: Drops,
    pub responses_lost: Attempts,
    pub requests_lost: Attempts,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ServerConfig {
    pub door: Door,
    pub dedup: bool,
    pub retention: Millis,
    pub exec: Millis,
    pub in_flight: InFlight,
    pub fingerprint: bool,
    pub crash: CrashPoint,
    pub restart: Millis,
    pub lease: Millis,
    /// The aimed faults: 503s at the door and crashes in commits.
    pub aimed: AimedSets,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StoreConfig {
    pub kind: StoreKind,
}

/// Validated settings of one run: one configuration per actor. The only ways
/// in are [`Schema::opening`], [`Schema::with`] and [`Raw::validate`], all of
/// which check every value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Settings {
    values: [u64; PARAM_COUNT],
    pub client: ClientConfig,
    pub network: NetworkConfig,
    pub server: ServerConfig,
    pub store: StoreConfig,
}

/// The raw input type of this lab.
pub type RawSettings = Raw<Settings>;

impl Schema for Settings {
    const PARAMS: &'static [&'static ParamDef] = &PARAMS;

    fn from_values(values: &[u64]) -> Result<Settings, FieldError> {
        let v: [u64; PARAM_COUNT] = values.try_into().surely("one value per parameter");
        let fault = Self::read(&v, &FAULT);
        let aimed = AimedSets::of(&Aimed::from_raw(Self::read(&v, &FAULTS)));
        let client = ClientConfig {
            timeout: Self::read(&v, &TIMEOUT),
            max_attempts: Self::read(&v, &MAX_ATTEMPTS_PARAM) as u32,
            initial_delay: Self::read(&v, &INITIAL_DELAY),
            backoff_cap: Self::read(&v, &BACKOFF_CAP),
            jitter: if Self::read(&v, &JITTER) { Jitter::Full } else { Jitter::Off },
            key: Self::read(&v, &KEY),
            payload: Self::read(&v, &PAYLOAD),
            deadline: Self::read(&v, &DEADLINE),
        };
        let network = NetworkConfig {
            request_transit: Self::read(&v, &REQUEST_TRANSIT),
            response_transit: Self::read(&v, &RESPONSE_TRANSIT),
            drops: match fault {
                Fault::LoseFirst => Drops::FirstSuccess,
                Fault::LoseAll => Drops::EverySuccess,
                _ => Drops::None,
            },
            responses_lost: aimed.responses_lost,
            requests_lost: aimed.requests_lost,
        };
        let server = ServerConfig {
            door: match fault {
                Fault::First503 => Door::First503,
                Fault::Reject400 => Door::Reject400,
                _ => Door::Open,
            },
            dedup: Self::read(&v, &DEDUP),
            retention: Self::read(&v, &RETENTION),
            exec: Self::read(&v, &EXEC),
            in_flight: Self::read(&v, &IN_FLIGHT),
            fingerprint: Self::read(&v, &FINGERPRINT),
            crash: Self::read(&v, &CRASH),
            restart: Self::read(&v, &RESTART),
            lease: Self::read(&v, &LEASE),
            aimed,
        };
        let store = StoreConfig { kind: Self::read(&v, &STORE) };
        Ok(Settings { values: v, client, network, server, store })
    }

    fn values(&self) -> &[u64] {
        &self.values
    }
}

impl Default for Settings {
    /// docs/model.md's opening settings.
    fn default() -> Self {
        Settings::opening()
    }
}

impl Settings {
    /// The defaults with some values set, as flags spell them: for tests,
    /// experiments and scripts.
    pub fn from_pairs(pairs: &[(&'static ParamDef, &str)]) -> Result<Settings, FieldError> {
        let mut raw = RawSettings::core();
        for (param, value) in pairs {
            raw.set(param, *value);
        }
        raw.validate()
    }

    /// The canonical text of one parameter, as flags spell it.
    pub fn text(&self, param: &ParamDef) -> String {
        self.text_of(param)
    }

    pub fn fault(&self) -> Fault {
        self.get(&FAULT)
    }
    pub fn dedup(&self) -> bool {
        self.server.dedup
    }
    pub fn key(&self) -> KeyMode {
        self.client.key
    }
    pub fn retention(&self) -> Millis {
        self.server.retention
    }
    pub fn timeout(&self) -> Millis {
        self.client.timeout
    }
    pub fn exec(&self) -> Millis {
        self.server.exec
    }
    pub fn max_attempts(&self) -> u32 {
        self.client.max_attempts
    }
    pub fn lease(&self) -> Millis {
        self.server.lease
    }
    pub fn crash(&self) -> CrashPoint {
        self.server.crash
    }
    pub fn store_kind(&self) -> StoreKind {
        self.store.kind
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::params::Problem;

    #[test]
    fn defaults_are_the_opening_settings() {
        let s = Settings::default();
        assert_eq!(s.fault(), Fault::LoseFirst);
        assert!(s.dedup());
        assert_eq!(s.retention(), Millis(60_000));
        assert_eq!(s.network.response_transit, Millis(50));
        assert_eq!(s.server.crash, CrashPoint::None);
        assert_eq!(s.store.kind, StoreKind::InMemory);
        assert_eq!(s.server.lease, Millis(86_400_000));
        assert_eq!(s.client.deadline, None);
        assert!(s.server.fingerprint);
        assert_eq!(s.server.in_flight, InFlight::Join);
    }

    #[test]
    fn every_parameter_round_trips_through_its_text() {
        let s =
            Settings::from_pairs(&[(&DEDUP, "off"), (&JITTER, "full"), (&TIMEOUT, "1"), (&DEADLINE, "5000")]).unwrap();
        for param in PARAMS {
            let copy = Settings::default().with_text(param, &s.text(param)).unwrap();
            assert_eq!(copy.text(param), s.text(param), "{}", param.name);
        }
        assert_eq!(s.client.deadline, Some(Millis(5000)));
    }

    #[test]
    fn refusals_name_the_parameter_and_what_is_allowed() {
        let err = Settings::from_pairs(&[(&CRASH, "sometimes")]).unwrap_err();
        assert_eq!(err.problem, Problem::UnknownChoice);
        assert_eq!(
            err.message("--crash"),
            "--crash: \"sometimes\" is not a known option; allowed: one of none, before-commit, after-effect, after-record"
        );
        let err = Settings::from_pairs(&[(&LEASE, "0")]).unwrap_err();
        assert!(err.message("--lease-ms").starts_with("--lease-ms: 0 is out of range"));
        let err = Settings::from_pairs(&[(&DEADLINE, "never")]).unwrap_err();
        assert!(err.message("--deadline-ms").contains("off, or a whole number of milliseconds from 1 to 3600000"));
    }

    #[test]
    fn lenient_parsing_keeps_every_good_value() {
        let mut raw = RawSettings::core();
        raw.set(&TIMEOUT, "nope");
        raw.set(&EXEC, "500");
        let (s, errors) = raw.validate_lenient();
        assert_eq!(s.exec(), Millis(500));
        assert_eq!(s.timeout(), Settings::default().timeout());
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].param.name, "timeout_ms");
    }
}
