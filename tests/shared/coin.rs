//! A fourth lab, written as a new lab's author would (README, "Growing
//! it"), but only here: its parameters, its run, its words and
//! `LabModel`. The native tests (tests/it/fourth_lab.rs) run it from the
//! command line beside the registry's labs; the browser tests
//! (tests/browser/fourth_lab.rs) mount it.

use idempotency_lab::sim::params::{FieldError, Group, Kind, Param, ParamDef, Schema, choice};
use idempotency_lab::sim::{Millis, Surely};
use idempotency_lab::view::compare::DiffLine;
use idempotency_lab::view::lab::{LabModel, Preset};
use idempotency_lab::view::labs::{Lab, LabEntry};

pub static COIN: LabEntry = LabEntry {
    id: "coin",
    aliases: &[],
    label: "Coin flips",
    title: "Idempotency Lab: coin flips",
    summary: "a coin flipped once a second",
    workers: &[],
};

choice! {
    /// The side the first flip lands on; the flips alternate after it.
    pub enum Side {
        Heads("heads", "Heads"),
        Tails("tails", "Tails"),
    }
}

pub static FLIPS: Param<u64> = Param::new(ParamDef {
    name: "flips",
    flag: "--flips",
    link: "flips",
    label: "Flips",
    kind: Kind::Count { min: 1, max: 10 },
    default: 3,
    group: Group::Basics,
});
pub static FIRST: Param<Side> = Param::new(ParamDef {
    name: "first",
    flag: "--first",
    link: "first",
    label: "First flip",
    kind: Kind::Choice(Side::OPTIONS),
    default: 0,
    group: Group::Basics,
});
static PARAMS: [&ParamDef; 2] = [FLIPS.def(), FIRST.def()];

#[derive(Clone, Debug, PartialEq)]
pub struct CoinSettings {
    values: [u64; 2],
}

impl Schema for CoinSettings {
    const PARAMS: &'static [&'static ParamDef] = &PARAMS;
    fn from_values(values: &[u64]) -> Result<CoinSettings, FieldError> {
        Ok(CoinSettings { values: values.try_into().surely("two values") })
    }
    fn values(&self) -> &[u64] {
        &self.values
    }
}

/// One flip a second, from 1 s: true for heads.
pub struct CoinRun {
    settings: CoinSettings,
    flips: Vec<bool>,
}

impl CoinRun {
    pub fn heads_until(&self, t: Millis) -> usize {
        self.flips.iter().enumerate().filter(|&(i, &h)| h && (i as u64 + 1) * 1000 <= t.ms()).count()
    }
}

pub struct CoinLab;

impl LabModel for CoinLab {
    const LAB: Lab = &COIN;
    type Settings = CoinSettings;
    type Run = CoinRun;
    type Diff = (usize, usize);
    const FIRST_CHANGE: &'static ParamDef = FLIPS.def();

    fn simulate(settings: &CoinSettings) -> Result<CoinRun, String> {
        let first = settings.get(&FIRST) == Side::Heads;
        let flips = (0..settings.get(&FLIPS)).map(|i| (i % 2 == 0) == first).collect();
        Ok(CoinRun { settings: settings.clone(), flips })
    }
    fn settings(run: &CoinRun) -> &CoinSettings {
        &run.settings
    }
    fn last_moment(run: &CoinRun) -> Millis {
        Millis(run.flips.len() as u64 * 1000)
    }
    fn text_mirror(run: &CoinRun, at: Millis) -> String {
        format!("Model time: {at}\nHeads so far: {}\n", run.heads_until(at))
    }
    fn event_lines(run: &CoinRun) -> String {
        run.flips
            .iter()
            .enumerate()
            .map(|(i, &h)| format!("{}  {}\n", Millis((i as u64 + 1) * 1000), if h { "heads" } else { "tails" }))
            .collect()
    }
    fn report(run: &CoinRun) -> String {
        format!("{{\"flips\": {}, \"heads\": {}}}", run.flips.len(), run.heads_until(Self::last_moment(run)))
    }
    fn compare(a: &CoinRun, b: &CoinRun) -> (usize, usize) {
        (a.heads_until(Self::last_moment(a)), b.heads_until(Self::last_moment(b)))
    }
    fn differences(_: &CoinRun, _: &CoinRun, diff: &(usize, usize), _: Option<Millis>) -> Vec<DiffLine> {
        vec![DiffLine { label: "Heads".to_owned(), text: format!("A: {}, B: {}", diff.0, diff.1) }]
    }
    fn presets() -> Vec<Preset> {
        vec![Preset { id: "fair", title: "Three flips, heads first" }]
    }
}
