//! The time axis: piecewise linear. Every event time gets a stop, and the
//! gap between two stops grows with the time between them but never below
//! what a label needs nor above a screenful (a compressed gap is marked
//! "≈"). The labels on the axis give the true times.

use crate::sim::Millis;

use super::LEFT;

pub const MIN_GAP: f64 = 72.0;
pub const MAX_GAP: f64 = 320.0;
const PX_PER_MS: f64 = 0.08;

fn gap(dt_ms: u64) -> f64 {
    (dt_ms as f64 * PX_PER_MS).clamp(MIN_GAP, MAX_GAP)
}

/// (model time, x) for every stop of the axis.
pub type Stops = Vec<(Millis, f64)>;

/// The stops for `times` (any order, duplicates allowed), and the middle of
/// every compressed gap with the time after it.
pub fn stops(mut times: Vec<Millis>) -> (Stops, Vec<(f64, Millis)>) {
    times.push(Millis::ZERO);
    times.sort_unstable();
    times.dedup();
    let mut stops = Vec::with_capacity(times.len());
    let mut compressed = Vec::new();
    let mut x = LEFT;
    for (i, &t) in times.iter().enumerate() {
        if i > 0 {
            let dt = t.ms() - times[i - 1].ms();
            x += gap(dt);
            if dt as f64 * PX_PER_MS > MAX_GAP {
                compressed.push((x - MAX_GAP / 2.0, t));
            }
        }
        stops.push((t, x));
    }
    (stops, compressed)
}

/// Interpolates between stops; before the first stop is the first x.
pub fn x_at(stops: &[(Millis, f64)], t: Millis) -> f64 {
    let i = stops.partition_point(|&(st, _)| st <= t);
    match (i.checked_sub(1).map(|j| stops[j]), stops.get(i)) {
        (None, _) => stops.first().map_or(LEFT, |s| s.1),
        (Some((_, x)), None) => x,
        (Some((t0, x0)), Some(&(t1, x1))) => {
            let span = (t1.ms() - t0.ms()) as f64;
            x0 + (x1 - x0) * ((t.ms() - t0.ms()) as f64) / span
        }
    }
}
