//! The AWS experiment's published sweep: clients 10 to 190 in steps of 10,
//! the five algorithms, and a number of runs per cell.

use crate::sim::SimError;
use crate::sim::rng::Rng;

use super::occ::{OccRun, OccRunner};
use super::settings::{Algorithm, Backoff, OccConfig};

/// The sweep's client counts.
pub const SWEEP_CLIENTS: [u32; 19] =
    [10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150, 160, 170, 180, 190];

/// One cell's means.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cell {
    pub clients: u32,
    pub algorithm: Algorithm,
    pub mean_calls: f64,
    pub mean_time_ms: f64,
    /// Events handled over all the cell's runs.
    pub events: u64,
}

/// The generator of run `rep` of a cell: each run has its own stream, so a
/// cell's figures do not depend on which other cells ran.
pub fn run_rng(seed: u64, clients: u32, algorithm: Algorithm, rep: u32) -> Rng {
    let stream = (u64::from(clients) << 40) | ((algorithm as u64) << 32) | u64::from(rep);
    Rng::stream(seed, stream)
}

/// The AWS experiment's settings for a cell: |N(10 ms, 2 ms)| messages,
/// backoff base 5 ms and cap 2000 ms.
pub fn aws_config(clients: u32, algorithm: Algorithm) -> OccConfig {
    OccConfig {
        clients,
        backoff: Backoff { algorithm, base_us: 5_000, cap_us: 2_000_000 },
        net_mean_us: 10_000,
        net_sd_us: 2_000,
    }
}

/// Means over `reps` runs of `config`.
pub fn cell(runner: &mut OccRunner, config: OccConfig, seed: u64, reps: u32) -> Result<Cell, SimError> {
    let (mut calls, mut time, mut events) = (0u64, 0u64, 0u64);
    for rep in 0..reps {
        let OccRun { calls: c, completion_us, events: e, .. } =
            runner.run(config, run_rng(seed, config.clients, config.backoff.algorithm, rep))?;
        calls += c;
        time += completion_us;
        events += e;
    }
    let reps = f64::from(reps.max(1));
    Ok(Cell {
        clients: config.clients,
        algorithm: config.backoff.algorithm,
        mean_calls: calls as f64 / reps,
        mean_time_ms: time as f64 / reps / 1000.0,
        events,
    })
}

/// The whole published sweep, cell by cell; `progress` hears each one.
pub fn aws_sweep(seed: u64, reps: u32, mut progress: impl FnMut(&Cell)) -> Result<Vec<Cell>, SimError> {
    let mut runner = OccRunner::default();
    let mut cells = Vec::with_capacity(SWEEP_CLIENTS.len() * Algorithm::ALL.len());
    for clients in SWEEP_CLIENTS {
        for algorithm in Algorithm::ALL {
            let c = cell(&mut runner, aws_config(clients, algorithm), seed, reps)?;
            progress(&c);
            cells.push(c);
        }
    }
    Ok(cells)
}

/// The whole sweep on `threads` threads (natively; the browser runs it in a
/// worker instead). Cells are independent runs with their own streams, so
/// the figures are the same whatever the number of threads; thread k takes
/// cells k, k + threads, ... so cheap and dear cells are shared out evenly.
#[cfg(not(target_arch = "wasm32"))]
pub fn aws_sweep_parallel(seed: u64, reps: u32, threads: usize) -> Result<Vec<Cell>, SimError> {
    let configs: Vec<OccConfig> =
        SWEEP_CLIENTS.iter().flat_map(|&c| Algorithm::ALL.into_iter().map(move |a| aws_config(c, a))).collect();
    let threads = threads.clamp(1, configs.len());
    let configs = &configs;
    let mut cells: Vec<Option<Result<Cell, SimError>>> = vec![None; configs.len()];
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|k| {
                scope.spawn(move || {
                    let mut runner = OccRunner::default();
                    (k..configs.len())
                        .step_by(threads)
                        .map(|i| (i, cell(&mut runner, configs[i], seed, reps)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for worker in workers {
            // A worker that panicked would be a bug; its cells stay empty and
            // are reported as an error below.
            if let Ok(done) = worker.join() {
                for (i, c) in done {
                    cells[i] = Some(c);
                }
            }
        }
    });
    cells.into_iter().map(|c| c.unwrap_or(Err(SimError::Stalled { at: 0 }))).collect()
}
