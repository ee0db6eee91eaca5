//! The storm lab's parameters (STORMS.md), each defined once, and the
//! validated settings they become.

use crate::sim::Surely;
use serde::Serialize;

use crate::sim::params::{FieldError, Group, InOrder, Kind, Opt, ParamDef, Problem, Raw, Schema};

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

const fn opt(value: &'static str, label: &'static str) -> Opt {
    Opt { value, label }
}

const fn param(
    name: &'static str,
    flag: &'static str,
    link: &'static str,
    label: &'static str,
    kind: Kind,
    default: u64,
    group: Group,
) -> ParamDef {
    ParamDef { name, flag, link, label, kind, default, group }
}

pub static WORKLOAD: ParamDef = param(
    "workload",
    "--workload",
    "workload",
    "Workload",
    Kind::Choice(&[
        opt("overload", "Overloaded server with timeouts"),
        opt("occ", "Optimistic concurrency (the AWS experiment)"),
    ]),
    0,
    Group::Basics,
);
pub static CLIENTS: ParamDef =
    param("clients", "--clients", "clients", "Clients", Kind::Count { min: 1, max: MAX_CLIENTS }, 4_000, Group::Basics);
pub static ALGORITHM: ParamDef = param(
    "algorithm",
    "--algorithm",
    "algo",
    "Backoff algorithm",
    Kind::Choice(&[
        opt("none", "No backoff"),
        opt("exponential", "Exponential, no jitter"),
        opt("full", "Exponential, full jitter"),
        opt("equal", "Exponential, equal jitter"),
        opt("decorrelated", "Decorrelated jitter"),
    ]),
    0,
    Group::Basics,
);
pub static BASE: ParamDef =
    param("base_ms", "--base-ms", "base", "Backoff base", Kind::Millis { min: 1, max: 60_000 }, 5, Group::Basics);
pub static CAP: ParamDef =
    param("cap_ms", "--cap-ms", "cap", "Backoff cap", Kind::Millis { min: 1, max: 600_000 }, 2_000, Group::Basics);
pub static SEED: ParamDef =
    param("seed", "--seed", "seed", "Seed", Kind::Count { min: 0, max: MAX_SEED }, 1, Group::Basics);
pub static NET_MEAN: ParamDef = param(
    "net_mean_us",
    "--net-mean-us",
    "netmean",
    "Network delay, mean (µs)",
    Kind::Count { min: 0, max: 10_000_000 },
    10_000,
    Group::Advanced,
);
pub static NET_SD: ParamDef = param(
    "net_sd_us",
    "--net-sd-us",
    "netsd",
    "Network delay, standard deviation (µs)",
    Kind::Count { min: 0, max: 10_000_000 },
    2_000,
    Group::Advanced,
);
pub static ARRIVALS: ParamDef = param(
    "arrivals",
    "--arrivals",
    "arrivals",
    "Arrivals",
    Kind::Choice(&[
        opt("poisson", "Poisson at a rate"),
        opt("uniform", "Uniform over a window"),
        opt("all-at-once", "All at once"),
    ]),
    0,
    Group::Basics,
);
pub static RATE: ParamDef = param(
    "rate_per_s",
    "--rate",
    "rate",
    "Arrival rate (intents per second)",
    Kind::Count { min: 1, max: 1_000_000 },
    400,
    Group::Basics,
);
pub static WINDOW: ParamDef = param(
    "window_ms",
    "--window-ms",
    "window",
    "Arrival window",
    Kind::Millis { min: 0, max: 3_600_000 },
    10_000,
    Group::Basics,
);
pub static SPIKE: ParamDef =
    param("spike", "--spike", "spike", "Spike multiplier", Kind::Count { min: 1, max: 100 }, 3, Group::Basics);
pub static SPIKE_START: ParamDef = param(
    "spike_start_ms",
    "--spike-start-ms",
    "spikeat",
    "Spike starts",
    Kind::Millis { min: 0, max: 3_600_000 },
    2_000,
    Group::Basics,
);
pub static SPIKE_LENGTH: ParamDef = param(
    "spike_ms",
    "--spike-ms",
    "spikelen",
    "Spike length",
    Kind::Millis { min: 0, max: 3_600_000 },
    1_000,
    Group::Basics,
);
pub static CONCURRENCY: ParamDef = param(
    "concurrency",
    "--concurrency",
    "conc",
    "Concurrency cap",
    Kind::Count { min: 1, max: 10_000 },
    10,
    Group::Basics,
);
pub static QUEUE: ParamDef =
    param("queue", "--queue", "queue", "Queue capacity", Kind::Count { min: 0, max: MAX_QUEUE }, 2_000, Group::Basics);
pub static EXEC_DIST: ParamDef = param(
    "exec",
    "--exec",
    "execdist",
    "Execution time",
    Kind::Choice(&[opt("fixed", "Fixed"), opt("exponential", "Exponential")]),
    1,
    Group::Basics,
);
pub static EXEC: ParamDef = param(
    "exec_ms",
    "--exec-ms",
    "exec",
    "Execution time (mean)",
    Kind::Millis { min: 1, max: 600_000 },
    20,
    Group::Basics,
);
pub static TIMEOUT: ParamDef = param(
    "timeout_ms",
    "--timeout-ms",
    "timeout",
    "Timeout per attempt",
    Kind::Millis { min: 1, max: 600_000 },
    500,
    Group::Basics,
);
pub static MAX_ATTEMPTS: ParamDef = param(
    "max_attempts",
    "--max-attempts",
    "attempts",
    "Maximum total attempts",
    Kind::Count { min: 1, max: 10 },
    4,
    Group::Basics,
);
pub static KEY: ParamDef = param(
    "key",
    "--key",
    "key",
    "Retry key",
    Kind::Choice(&[opt("per-attempt", "New key for every attempt"), opt("stable", "Reuse the intent's key")]),
    0,
    Group::Faults,
);
pub static DEDUP: ParamDef = param(
    "dedup",
    "--dedup",
    "dedup",
    "Server deduplicates keys",
    Kind::Switch { off: "off", on: "on" },
    0,
    Group::Faults,
);
pub static RETENTION: ParamDef = param(
    "retention_ms",
    "--retention-ms",
    "retention",
    "Stored-result retention",
    Kind::Millis { min: 0, max: 86_400_000 },
    3_600_000,
    Group::Faults,
);
pub static BUDGET: ParamDef = param(
    "budget",
    "--budget",
    "budget",
    "Retry budget",
    Kind::Choice(&[
        opt("none", "None"),
        opt("token-bucket", "AWS SDK token bucket"),
        opt("grpc", "gRPC retry throttling"),
    ]),
    0,
    Group::Faults,
);
pub static TRANSIT: ParamDef = param(
    "transit_ms",
    "--transit-ms",
    "transit",
    "One-way network transit",
    Kind::Millis { min: 0, max: 60_000 },
    1,
    Group::Advanced,
);
pub static BUCKET: ParamDef = param(
    "bucket_ms",
    "--bucket-ms",
    "bucket",
    "Chart bucket",
    Kind::Millis { min: 10, max: 600_000 },
    250,
    Group::Advanced,
);
pub static HORIZON: ParamDef = param(
    "horizon_ms",
    "--horizon-ms",
    "horizon",
    "Longest run",
    Kind::Millis { min: 1_000, max: 86_400_000 },
    3_600_000,
    Group::Advanced,
);

pub static PARAMS: [&ParamDef; 27] = [
    &WORKLOAD,
    &CLIENTS,
    &ALGORITHM,
    &BASE,
    &CAP,
    &SEED,
    &NET_MEAN,
    &NET_SD,
    &ARRIVALS,
    &RATE,
    &WINDOW,
    &SPIKE,
    &SPIKE_START,
    &SPIKE_LENGTH,
    &CONCURRENCY,
    &QUEUE,
    &EXEC_DIST,
    &EXEC,
    &TIMEOUT,
    &MAX_ATTEMPTS,
    &KEY,
    &DEDUP,
    &RETENTION,
    &BUDGET,
    &TRANSIT,
    &BUCKET,
    &HORIZON,
];

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Workload {
    Overload,
    Occ,
}

/// The five backoff algorithms of the AWS experiment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    None,
    Exponential,
    Full,
    Equal,
    Decorrelated,
}

impl Algorithm {
    pub const ALL: [Algorithm; 5] =
        [Algorithm::None, Algorithm::Exponential, Algorithm::Full, Algorithm::Equal, Algorithm::Decorrelated];

    pub fn name(self) -> &'static str {
        match ALGORITHM.kind {
            Kind::Choice(options) => options[self as usize].value,
            _ => unreachable!("algorithm is a choice"),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Arrivals {
    Poisson,
    Uniform,
    AllAtOnce,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ExecTime {
    Fixed,
    Exponential,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Budget {
    None,
    TokenBucket,
    Grpc,
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
    values: [u64; 27],
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
        let v: [u64; 27] = values.try_into().surely("one value per parameter");
        let at = |p: &ParamDef| v[PARAMS.iter().position(|q| q.name == p.name).expect("listed")];
        let us = |p: &ParamDef| at(p).saturating_mul(1000);
        if at(&CAP) < at(&BASE) {
            return Err(FieldError::new(
                &CAP,
                at(&CAP).to_string(),
                Problem::Conflict(format!("at least the backoff base ({} ms)", at(&BASE))),
            ));
        }
        if at(&WORKLOAD) == 1 && at(&CLIENTS) > MAX_OCC_CLIENTS {
            return Err(FieldError::new(
                &CLIENTS,
                at(&CLIENTS).to_string(),
                Problem::Conflict(format!("at most {MAX_OCC_CLIENTS} clients with the occ workload")),
            ));
        }
        let backoff =
            Backoff { algorithm: Algorithm::ALL[at(&ALGORITHM) as usize], base_us: us(&BASE), cap_us: us(&CAP) };
        let clients = at(&CLIENTS) as u32;
        Ok(StormSettings {
            values: v,
            workload: if at(&WORKLOAD) == 0 { Workload::Overload } else { Workload::Occ },
            seed: at(&SEED),
            occ: OccConfig { clients, backoff, net_mean_us: at(&NET_MEAN), net_sd_us: at(&NET_SD) },
            arrivals: ArrivalConfig {
                clients,
                pattern: [Arrivals::Poisson, Arrivals::Uniform, Arrivals::AllAtOnce][at(&ARRIVALS) as usize],
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
                stable_key: at(&KEY) == 1,
                budget: [Budget::None, Budget::TokenBucket, Budget::Grpc][at(&BUDGET) as usize],
            },
            server: ServerConfig {
                concurrency: at(&CONCURRENCY) as u32,
                queue: at(&QUEUE) as u32,
                exec: if at(&EXEC_DIST) == 0 { ExecTime::Fixed } else { ExecTime::Exponential },
                exec_us: us(&EXEC),
                dedup: at(&DEDUP) == 1,
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
}

impl Default for StormSettings {
    fn default() -> Self {
        StormSettings::opening()
    }
}

impl Serialize for StormSettings {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        InOrder(self).serialize(serializer)
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
