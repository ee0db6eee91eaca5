//! The storm lab's parameters (docs/storms.md), each defined once, and the
//! validated settings they become.

use crate::sim::Surely;
use serde::Serialize;

use crate::sim::params::{FieldError, Kind, Param, ParamDef, Problem, Raw, Schema, choice, params};

/// The most clients a run may have.
pub const MAX_CLIENTS: u64 = 100_000;
/// The most clients of the contention workload, whose work grows with the
/// square of the clients (without backoff every write races every other).
pub const MAX_OCC_CLIENTS: u64 = 1_000;
/// The largest queue a server may have.
pub const MAX_QUEUE: u64 = 100_000;
/// Seeds stay within what a browser's numbers hold exactly (2^53 - 1), so a
/// seed survives a link and a JSON file unchanged.
pub const MAX_SEED: u64 = (1 << 53) - 1;

params! {
    /// Every parameter, in the order they are validated, listed and written.
    pub static PARAMS: [&ParamDef; PARAM_COUNT] = [
        // static: type        name              flag                link         label
        //  kind                                          default    group
        WORKLOAD: Workload   = "workload",       "--workload",       "workload",  "Workload",
            Kind::Choice(Workload::OPTIONS),              0,         Basics;
        CLIENTS: u64         = "clients",        "--clients",        "clients",   "Clients",
            Kind::Count { min: 1, max: MAX_CLIENTS },     4_000,     Basics;
        ALGORITHM: Algorithm = "algorithm",      "--algorithm",      "algo",      "Backoff algorithm",
            Kind::Choice(Algorithm::OPTIONS),             0,         Basics;
        BASE: u64            = "base_ms",        "--base-ms",        "base",      "Backoff base",
            Kind::Millis { min: 1, max: 60_000 },         5,         Basics;
        CAP: u64             = "cap_ms",         "--cap-ms",         "cap",       "Backoff cap",
            Kind::Millis { min: 1, max: 600_000 },        2_000,     Basics;
        SEED: u64            = "seed",           "--seed",           "seed",      "Seed",
            Kind::Count { min: 0, max: MAX_SEED },        1,         Basics;
        NET_MEAN: u64        = "net_mean_us",    "--net-mean-us",    "netmean",   "Network delay, mean (µs)",
            Kind::Count { min: 0, max: 10_000_000 },      10_000,    Advanced;
        NET_SD: u64          = "net_sd_us",      "--net-sd-us",      "netsd",     "Network delay, standard deviation (µs)",
            Kind::Count { min: 0, max: 10_000_000 },      2_000,     Advanced;
        ARRIVALS: Arrivals   = "arrivals",       "--arrivals",       "arrivals",  "Arrivals",
            Kind::Choice(Arrivals::OPTIONS),              0,         Basics;
        RATE: u64            = "rate_per_s",     "--rate",           "rate",      "Arrival rate (intents per second)",
            Kind::Count { min: 1, max: 1_000_000 },       400,       Basics;
        WINDOW: u64          = "window_ms",      "--window-ms",      "window",    "Arrival window",
            Kind::Millis { min: 0, max: 3_600_000 },      10_000,    Basics;
        SPIKE: u64           = "spike",          "--spike",          "spike",     "Spike multiplier",
            Kind::Count { min: 1, max: 100 },             3,         Basics;
        SPIKE_START: u64     = "spike_start_ms", "--spike-start-ms", "spikeat",   "Spike starts",
            Kind::Millis { min: 0, max: 3_600_000 },      2_000,     Basics;
        SPIKE_LENGTH: u64    = "spike_ms",       "--spike-ms",       "spikelen",  "Spike length",
            Kind::Millis { min: 0, max: 3_600_000 },      1_000,     Basics;
        CONCURRENCY: u64     = "concurrency",    "--concurrency",    "conc",      "Concurrency cap",
            Kind::Count { min: 1, max: 10_000 },          10,        Basics;
        QUEUE: u64           = "queue",          "--queue",          "queue",     "Queue capacity",
            Kind::Count { min: 0, max: MAX_QUEUE },       2_000,     Basics;
        EXEC_DIST: ExecTime  = "exec",           "--exec",           "execdist",  "Execution time",
            Kind::Choice(ExecTime::OPTIONS),              1,         Basics;
        EXEC: u64            = "exec_ms",        "--exec-ms",        "exec",      "Execution time (mean)",
            Kind::Millis { min: 1, max: 600_000 },        20,        Basics;
        TIMEOUT: u64         = "timeout_ms",     "--timeout-ms",     "timeout",   "Timeout per attempt",
            Kind::Millis { min: 1, max: 600_000 },        500,       Basics;
        MAX_ATTEMPTS: u64    = "max_attempts",   "--max-attempts",   "attempts",  "Maximum total attempts",
            Kind::Count { min: 1, max: 10 },              4,         Basics;
        KEY: KeyMode         = "key",            "--key",            "key",       "Retry key",
            Kind::Choice(KeyMode::OPTIONS),               0,         Faults;
        DEDUP: bool          = "dedup",          "--dedup",          "dedup",     "Server deduplicates keys",
            Kind::Switch { off: "off", on: "on" },        0,         Faults;
        RETENTION: u64       = "retention_ms",   "--retention-ms",   "retention", "Stored-result retention",
            Kind::Millis { min: 0, max: 86_400_000 },     3_600_000, Faults;
        BUDGET: Budget       = "budget",         "--budget",         "budget",    "Retry budget",
            Kind::Choice(Budget::OPTIONS),                0,         Faults;
        TRANSIT: u64         = "transit_ms",     "--transit-ms",     "transit",   "One-way network transit",
            Kind::Millis { min: 0, max: 60_000 },         1,         Advanced;
        BUCKET: u64          = "bucket_ms",      "--bucket-ms",      "bucket",    "Chart bucket",
            Kind::Millis { min: 10, max: 600_000 },       250,       Advanced;
        HORIZON: u64         = "horizon_ms",     "--horizon-ms",     "horizon",   "Longest run",
            Kind::Millis { min: 1_000, max: 86_400_000 }, 3_600_000, Advanced;
    ];
}

choice! {
    pub enum Workload {
        Overload("overload", "Overloaded server with timeouts"),
        Occ("occ", "Optimistic concurrency (the AWS experiment)"),
    }
}

choice! {
    /// The five backoff algorithms of the AWS experiment.
    pub enum Algorithm {
        None("none", "No backoff"),
        Exponential("exponential", "Exponential, no jitter"),
        Full("full", "Exponential, full jitter"),
        Equal("equal", "Exponential, equal jitter"),
        Decorrelated("decorrelated", "Decorrelated jitter"),
    }
}

impl Algorithm {
    pub fn name(self) -> &'static str {
        self.value()
    }
}

choice! {
    pub enum Arrivals {
        Poisson("poisson", "Poisson at a rate"),
        Uniform("uniform", "Uniform over a window"),
        AllAtOnce("all-at-once", "All at once"),
    }
}

choice! {
    pub enum ExecTime {
        Fixed("fixed", "Fixed"),
        Exponential("exponential", "Exponential"),
    }
}

choice! {
    /// Whether a retry reuses its intent's key.
    pub enum KeyMode {
        PerAttempt("per-attempt", "New key for every attempt"),
        Stable("stable", "Reuse the intent's key"),
    }
}

choice! {
    pub enum Budget {
        None("none", "None"),
        TokenBucket("token-bucket", "AWS SDK token bucket"),
        Grpc("grpc", "gRPC retry throttling"),
    }
}

/// How a client retries: the algorithm with its base and cap, in µs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Backoff {
    pub algorithm: Algorithm,
    pub base_us: u64,
    pub cap_us: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OccConfig {
    pub clients: u32,
    pub backoff: Backoff,
    pub net_mean_us: u64,
    pub net_sd_us: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ArrivalConfig {
    pub clients: u32,
    pub pattern: Arrivals,
    pub rate_per_s: u64,
    pub window_us: u64,
    pub spike: u64,
    pub spike_start_us: u64,
    pub spike_len_us: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClientConfig {
    pub backoff: Backoff,
    pub timeout_us: u64,
    pub max_attempts: u32,
    pub stable_key: bool,
    pub budget: Budget,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ServerConfig {
    pub concurrency: u32,
    pub queue: u32,
    pub exec: ExecTime,
    pub exec_us: u64,
    pub dedup: bool,
    pub retention_us: u64,
}

/// Validated settings of one storm run: one configuration per actor.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StormSettings {
    values: [u64; PARAM_COUNT],
    pub workload: Workload,
    pub seed: u64,
    pub occ: OccConfig,
    pub arrivals: ArrivalConfig,
    pub client: ClientConfig,
    pub server: ServerConfig,
    pub transit_us: u64,
    pub bucket_us: u64,
    pub horizon_us: u64,
}

pub type RawStorm = Raw<StormSettings>;

impl Schema for StormSettings {
    const PARAMS: &'static [&'static ParamDef] = &PARAMS;

    fn from_values(values: &[u64]) -> Result<StormSettings, FieldError> {
        let v: [u64; PARAM_COUNT] = values.try_into().surely("one value per parameter");
        let at = |p: &Param<u64>| Self::read(&v, p);
        let us = |p: &Param<u64>| at(p).saturating_mul(1000);
        if at(&CAP) < at(&BASE) {
            return Err(FieldError::new(
                &CAP,
                at(&CAP).to_string(),
                Problem::Conflict(format!("at least the backoff base ({} ms)", at(&BASE))),
            ));
        }
        let workload = Self::read(&v, &WORKLOAD);
        if workload == Workload::Occ && at(&CLIENTS) > MAX_OCC_CLIENTS {
            return Err(FieldError::new(
                &CLIENTS,
                at(&CLIENTS).to_string(),
                Problem::Conflict(format!("at most {MAX_OCC_CLIENTS} clients with the occ workload")),
            ));
        }
        let backoff = Backoff { algorithm: Self::read(&v, &ALGORITHM), base_us: us(&BASE), cap_us: us(&CAP) };
        let clients = at(&CLIENTS) as u32;
        Ok(StormSettings {
            values: v,
            workload,
            seed: at(&SEED),
            occ: OccConfig { clients, backoff, net_mean_us: at(&NET_MEAN), net_sd_us: at(&NET_SD) },
            arrivals: ArrivalConfig {
                clients,
                pattern: Self::read(&v, &ARRIVALS),
                rate_per_s: at(&RATE),
                window_us: us(&WINDOW),
                spike: at(&SPIKE),
                spike_start_us: us(&SPIKE_START),
                spike_len_us: us(&SPIKE_LENGTH),
            },
            client: ClientConfig {
                backoff,
                timeout_us: us(&TIMEOUT),
                max_attempts: at(&MAX_ATTEMPTS) as u32,
                stable_key: Self::read(&v, &KEY) == KeyMode::Stable,
                budget: Self::read(&v, &BUDGET),
            },
            server: ServerConfig {
                concurrency: at(&CONCURRENCY) as u32,
                queue: at(&QUEUE) as u32,
                exec: Self::read(&v, &EXEC_DIST),
                exec_us: us(&EXEC),
                dedup: Self::read(&v, &DEDUP),
                retention_us: us(&RETENTION),
            },
            transit_us: us(&TRANSIT),
            bucket_us: us(&BUCKET),
            horizon_us: us(&HORIZON),
        })
    }

    fn values(&self) -> &[u64] {
        &self.values
    }

    /// The contention workload starts from the AWS experiment's own values
    /// where they differ from the overload's.
    fn defaults_for(given: &[Option<u64>]) -> Vec<u64> {
        let workload = given[Self::index_of(WORKLOAD.def())]
            .map_or(Workload::Overload, <Workload as crate::sim::params::Value>::from_raw);
        Self::defaults_of(workload)
    }
}

/// Where the contention workload's defaults differ from the overload's:
/// the AWS experiment's 100 clients with full jitter.
pub static OCC_DEFAULTS: [(&ParamDef, u64); 2] = [(CLIENTS.def(), 100), (ALGORITHM.def(), Algorithm::Full as u64)];

impl StormSettings {
    /// Every other parameter's default for `workload` (the workload's own
    /// is the overload, as links leave it out).
    pub fn defaults_of(workload: Workload) -> Vec<u64> {
        let mut values = Self::defaults();
        if workload == Workload::Occ {
            for (param, value) in OCC_DEFAULTS {
                values[Self::index_of(param)] = value;
            }
        }
        values
    }

    /// The settings a workload opens with.
    pub fn opening_of(workload: Workload) -> StormSettings {
        let mut values = Self::defaults_of(workload);
        values[Self::index_of(WORKLOAD.def())] = workload as u64;
        Self::from_values(&values).surely("each workload's defaults are valid")
    }
}

impl Default for StormSettings {
    fn default() -> Self {
        StormSettings::opening()
    }
}

impl Serialize for StormSettings {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.to_json().serialize(serializer)
    }
}

impl StormSettings {
    /// The defaults with some values set, as flags spell them.
    pub fn from_pairs(pairs: &[(&'static ParamDef, &str)]) -> Result<StormSettings, FieldError> {
        let mut raw = RawStorm::core();
        for (param, value) in pairs {
            raw.set(param, *value);
        }
        raw.validate()
    }

    /// The defaults with some values set, as links spell them (tests).
    #[cfg(test)]
    pub fn from_links(pairs: &[(&str, &str)]) -> StormSettings {
        use crate::sim::Schema;
        let pairs: Vec<_> = pairs.iter().map(|&(link, v)| (StormSettings::by_link(link).unwrap(), v)).collect();
        StormSettings::from_pairs(&pairs).unwrap()
    }

    /// What the server can execute per second: concurrency over mean
    /// execution time.
    pub fn capacity_per_s(&self) -> f64 {
        f64::from(self.server.concurrency) * 1e6 / self.server.exec_us as f64
    }
}
