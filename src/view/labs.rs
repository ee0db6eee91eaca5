//! The labs, each defined once. Whatever lists the labs reads this table:
//! the Lab switcher, a link's `lab=`, the command line's subcommands and
//! help, and `make bench` (through `idempotency-lab labs`). What cannot
//! read it (the host page's script, the Makefile, the pages Trunk builds)
//! is checked against it by a test (tests/it/labs.rs).
//!
//! A lab's id is its one name: `lab=<id>` in links, `idempotency-lab <id>`
//! on the command line, and its folder. By that name Trunk builds the page
//! `<id>/index.html` from the Cargo binary `<id>` (src/bin/<id>.rs) into
//! `dist/<id>/`, with the module `<id>.js`, its WebAssembly and the lab's
//! own stylesheet `<id>.css` (from styles/<id>.css); the page that hosts
//! every lab (host/index.html) loads them from there.

use crate::sim::params::{Group, Kind, Opt, Param, ParamDef};

/// One lab.
#[derive(Debug)]
pub struct LabEntry {
    /// The one name (see the module's documentation).
    pub id: &'static str,
    /// Older names the command line still accepts for its subcommand.
    pub aliases: &'static [&'static str],
    /// Its choice in the Lab switcher.
    pub label: &'static str,
    /// The page's title while it is shown.
    pub title: &'static str,
    /// One line for the command line's help.
    pub summary: &'static str,
}

impl PartialEq for LabEntry {
    fn eq(&self, other: &LabEntry) -> bool {
        self.id == other.id
    }
}

impl Eq for LabEntry {}

/// A lab, as everything else names it.
pub type Lab = &'static LabEntry;

/// Every lab, the opening one first.
pub const LABS: [LabEntry; 3] = [
    LabEntry {
        id: "ack",
        aliases: &["run"],
        label: "Lost acknowledgement",
        title: "Idempotency Lab: retries, lost acknowledgements and idempotency keys",
        summary: "one client, a lost acknowledgement and a retry (MODEL.md)",
    },
    LabEntry {
        id: "risk",
        aliases: &[],
        label: "Risk review",
        title: "Idempotency Lab: the risk-review incident",
        summary: "the risk-review incident and the patterns that prevent it (RISK-MODEL.md)",
    },
    LabEntry {
        id: "storms",
        aliases: &["storm"],
        label: "Storms",
        title: "Idempotency Lab: retry storms",
        summary: "retry storms with many clients (STORMS.md)",
    },
];

pub static ACK: Lab = &LABS[0];
pub static RISK: Lab = &LABS[1];
pub static STORMS: Lab = &LABS[2];

/// The lab a link without `lab=` opens.
pub fn opening() -> Lab {
    &LABS[0]
}

/// The lab called `name` by its id.
pub fn by_id(name: &str) -> Option<Lab> {
    LABS.iter().find(|l| l.id == name)
}

/// The lab a command names: its id or an older alias.
pub fn by_command(name: &str) -> Option<Lab> {
    LABS.iter().find(|l| l.id == name || l.aliases.contains(&name))
}

/// The labs' ids and labels as a choice's options (the `lab` link
/// parameter and the Lab switcher).
pub static LAB_OPTIONS: [Opt; LABS.len()] = {
    let mut out = [Opt { value: "", label: "" }; LABS.len()];
    let mut i = 0;
    while i < LABS.len() {
        out[i] = Opt { value: LABS[i].id, label: LABS[i].label };
        i += 1;
    }
    out
};

/// The `lab` link parameter: which lab a link opens.
pub static LAB: Param<u64> = Param::new(ParamDef {
    name: "lab",
    flag: "--lab",
    link: "lab",
    label: "Lab",
    kind: Kind::Choice(&LAB_OPTIONS),
    default: 0,
    group: Group::Basics,
});

/// The lab a `lab` parameter's value names.
pub fn of_value(value: u64) -> Lab {
    LABS.get(value as usize).unwrap_or(&LABS[0])
}

/// The `lab` parameter's value for `lab`.
pub fn value_of(lab: Lab) -> u64 {
    LABS.iter().position(|l| l == lab).unwrap_or(0) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_lowercase_words_and_aliases_name_no_other_lab() {
        let mut names: Vec<&str> =
            LABS.iter().flat_map(|l| std::iter::once(l.id).chain(l.aliases.iter().copied())).collect();
        assert!(LABS.iter().all(|l| !l.id.is_empty() && l.id.bytes().all(|b| b.is_ascii_lowercase())));
        names.sort_unstable();
        let before = names.len();
        names.dedup();
        assert_eq!(names.len(), before, "a name belongs to one lab");
        assert_eq!(by_command("storm"), Some(STORMS));
        assert_eq!(by_command("run"), Some(ACK));
        assert_eq!(by_id("run"), None, "links use ids only");
    }

    #[test]
    fn the_lab_parameter_offers_every_lab_by_id() {
        assert_eq!(LAB.parse("risk"), Ok(1));
        assert_eq!(of_value(LAB.parse("storms").unwrap()), STORMS);
        assert_eq!(value_of(RISK), 1);
        assert_eq!(LAB.allowed(), "one of ack, risk, storms");
        assert_eq!(opening(), ACK);
    }
}
