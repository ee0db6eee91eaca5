//! Figures over time, in buckets: counts of what happened in each bucket,
//! and time-weighted means of levels (queue length, operations in flight,
//! intents in the system) integrated exactly between events.

use crate::sim::time::Micros;

/// One bucket of a run's time series.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Bucket {
    /// Intents that arrived (first attempts).
    pub intents: u32,
    /// Requests that reached the server, retries included.
    pub requests: u32,
    /// Requests that needed an operation (not a join or a replay): the
    /// work offered to the server.
    pub work: u32,
    /// Retries the clients sent.
    pub retries: u32,
    /// Operations the server finished.
    pub completions: u32,
    /// Finished operations nobody was waiting for any more.
    pub wasted: u32,
    /// Intents acknowledged.
    pub acknowledged: u32,
    /// 429 answers.
    pub rejected: u32,
    /// Attempts that timed out.
    pub timeouts: u32,
    /// Mean queue length over the bucket.
    pub queue: f64,
    /// Mean operations executing over the bucket.
    pub in_flight: f64,
    /// Mean intents in the system (arrived, not yet done) over the bucket.
    pub in_system: f64,
}

/// A level that changes at events; its area is added to the buckets it
/// spans.
#[derive(Clone, Copy, Debug, Default)]
struct Level {
    value: u64,
    since: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gauge {
    Queue,
    InFlight,
    InSystem,
}

/// The series being collected during a run.
#[derive(Clone, Debug)]
pub struct Series {
    bucket_us: u64,
    buckets: Vec<Bucket>,
    levels: [Level; 3],
    /// The whole run's area under "intents in the system", in
    /// intent-microseconds (Little's L times the run's length).
    system_area: u128,
}

impl Series {
    pub fn new(bucket_us: u64) -> Series {
        Series { bucket_us: bucket_us.max(1), buckets: Vec::new(), levels: [Level::default(); 3], system_area: 0 }
    }

    pub fn bucket_us(&self) -> u64 {
        self.bucket_us
    }

    fn bucket(&mut self, t: Micros) -> &mut Bucket {
        let i = (t.us() / self.bucket_us) as usize;
        if self.buckets.len() <= i {
            self.buckets.resize(i + 1, Bucket::default());
        }
        &mut self.buckets[i]
    }

    /// Counts something that happened at `t`.
    pub fn count(&mut self, t: Micros, what: impl FnOnce(&mut Bucket)) {
        what(self.bucket(t));
    }

    /// A level changes to `value` at `t`.
    pub fn set(&mut self, t: Micros, gauge: Gauge, value: u64) {
        let level = self.levels[gauge as usize];
        self.integrate(gauge, level, t.us());
        self.levels[gauge as usize] = Level { value, since: t.us() };
    }

    pub fn level(&self, gauge: Gauge) -> u64 {
        self.levels[gauge as usize].value
    }

    /// Adds `level`'s area from its start up to `until` to the buckets.
    fn integrate(&mut self, gauge: Gauge, level: Level, until: u64) {
        if gauge == Gauge::InSystem {
            self.system_area += u128::from(level.value) * u128::from(until - level.since);
        }
        if level.value == 0 || until <= level.since {
            return;
        }
        let mut from = level.since;
        while from < until {
            let index = from / self.bucket_us;
            let end = ((index + 1) * self.bucket_us).min(until);
            let share = level.value as f64 * (end - from) as f64 / self.bucket_us as f64;
            let b = self.bucket(Micros(from));
            match gauge {
                Gauge::Queue => b.queue += share,
                Gauge::InFlight => b.in_flight += share,
                Gauge::InSystem => b.in_system += share,
            }
            from = end;
        }
    }

    /// Closes every level at `end` and returns the buckets and the area
    /// under "intents in the system".
    pub fn finish(mut self, end: Micros) -> (Vec<Bucket>, u128) {
        for gauge in [Gauge::Queue, Gauge::InFlight, Gauge::InSystem] {
            let level = self.levels[gauge as usize];
            self.integrate(gauge, level, end.us());
        }
        let last = (end.us() / self.bucket_us) as usize;
        if self.buckets.len() <= last {
            self.buckets.resize(last + 1, Bucket::default());
        }
        (self.buckets, self.system_area)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_averaged_over_the_buckets_they_span() {
        let mut s = Series::new(1000);
        s.set(Micros(500), Gauge::Queue, 4);
        s.set(Micros(2500), Gauge::Queue, 0);
        s.count(Micros(10), |b| b.intents += 1);
        let (buckets, _) = s.finish(Micros(3000));
        // Queue 4 from 500 to 2500: half of bucket 0, all of 1, half of 2.
        let queue: Vec<f64> = buckets.iter().map(|b| b.queue).collect();
        assert_eq!(queue, [2.0, 4.0, 2.0, 0.0]);
        assert_eq!(buckets[0].intents, 1);
    }

    #[test]
    fn the_area_in_the_system_is_exact() {
        let mut s = Series::new(7);
        s.set(Micros(3), Gauge::InSystem, 2);
        s.set(Micros(10), Gauge::InSystem, 1);
        s.set(Micros(15), Gauge::InSystem, 0);
        // 2 * 7 + 1 * 5
        assert_eq!(s.finish(Micros(20)).1, 19);
    }
}
