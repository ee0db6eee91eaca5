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

/// The narrowest a gap between two stops gets when a diagram is squeezed
/// to fit: room for the marks on either side.
pub const FIT_GAP: f64 = 26.0;

/// A gap squeezed behind a break mark: where the mark goes, and how long
/// the idle stretch is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Squeezed {
    pub x: f64,
    pub gap: f64,
    pub idle: Millis,
    /// When the stretch ends.
    pub until: Millis,
}

/// The stops for `times` (any order, duplicates allowed), and every gap
/// drawn much shorter than its time would make it. With `span`, the gaps
/// are squeezed (long ones first, none below [`FIT_GAP`]) so the last stop
/// lies at most `span` right of the first.
pub fn stops(mut times: Vec<Millis>, span: Option<f64>) -> (Stops, Vec<Squeezed>) {
    times.push(Millis::ZERO);
    times.sort_unstable();
    times.dedup();
    let dts: Vec<u64> = times.windows(2).map(|w| w[1].ms() - w[0].ms()).collect();
    let natural: Vec<f64> = dts.iter().map(|&dt| gap(dt)).collect();
    let gaps = match span {
        Some(span) if natural.iter().sum::<f64>() > span => squeeze(&natural, span),
        _ => natural,
    };
    let mut stops = Vec::with_capacity(times.len());
    let mut squeezed = Vec::new();
    let mut x = LEFT;
    for (i, &t) in times.iter().enumerate() {
        if i > 0 {
            let (dt, g) = (dts[i - 1], gaps[i - 1]);
            x += g;
            // An idle stretch of more than a second drawn at under half its
            // natural length (or at the cap) is a break the axis names.
            if dt >= 1_000 && (dt as f64 * PX_PER_MS > MAX_GAP || g * 2.0 < gap(dt)) {
                squeezed.push(Squeezed { x: x - g / 2.0, gap: g, idle: Millis(dt), until: t });
            }
        }
        stops.push((t, x));
    }
    (stops, squeezed)
}

/// Gaps as close to `natural` as fits in `span`: every gap is cut to at
/// most a common cap, chosen (by bisection) so the sum fits, and none goes
/// below [`FIT_GAP`]. Long idle stretches give way first; short steps
/// between close events keep their room.
fn squeeze(natural: &[f64], span: f64) -> Vec<f64> {
    let total = |cap: f64| natural.iter().map(|&g| g.min(cap).max(FIT_GAP)).sum::<f64>();
    let (mut lo, mut hi) = (FIT_GAP, natural.iter().copied().fold(FIT_GAP, f64::max));
    for _ in 0..40 {
        let mid = (lo + hi) / 2.0;
        if total(mid) > span { hi = mid } else { lo = mid }
    }
    natural.iter().map(|&g| g.min(lo).max(FIT_GAP)).collect()
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
