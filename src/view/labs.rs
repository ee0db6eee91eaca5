//! The registry: every lab, one line each. Whatever lists the labs is made
//! from it, at run time or at build time: the Lab switcher, a link's `lab=`,
//! the command line's commands, help and `explore` (src/cli), the explore
//! worker, the list the host page's scripts read and the page Trunk builds
//! each lab's bundle from (both written by `make dist` and `trunk serve`
//! through `idempotency-lab labs` and `idempotency-lab labs --pages`), and
//! `make bench`. `tests/it/labs.rs` checks that no other list exists.
//!
//! A lab is its modules (its `LabModel`, whose [`LabEntry`] says what it is
//! called, in `src/view/<lab>/`; its core and its page; its bundle,
//! `src/bin/<id>.rs`; its styles, `styles/<id>.css`) and its line here.
//!
//! A lab's id is its one name: `lab=<id>` in links, `idempotency-lab <id>`
//! on the command line, and its folder in the build. By that name Trunk
//! builds the lab's page (written by `idempotency-lab labs --pages`) from the
//! Cargo binary `<id>` (src/bin/<id>.rs) into `dist/<id>/`, with the module
//! `<id>.js`, its WebAssembly and the lab's own stylesheet `<id>.css`; the
//! page that hosts every lab loads them from there.

use crate::sim::params::{Group, Kind, Opt, Param, ParamDef};

use super::lab::LabModel;

/// Every lab, the opening one first, each by the type that implements it
/// (its `LabModel`): the lost acknowledgement, the risk-review incident
/// and retry storms. (A lab a line, as rustfmt would not keep them.)
#[rustfmt::skip]
pub type Registry = (
    crate::view::ack::AckLab,
    crate::view::risk::RiskLab,
    crate::view::storm::StormLab,
);

/// What a lab is called, and what its bundle brings with it.
#[derive(Debug)]
pub struct LabEntry {
    /// The one name (see the module's documentation).
    pub id: &'static str,
    /// Older names the command line still accepts for its command.
    pub aliases: &'static [&'static str],
    /// Its choice in the Lab switcher.
    pub label: &'static str,
    /// The page's title while it is shown.
    pub title: &'static str,
    /// One line for the command line's help.
    pub summary: &'static str,
    /// The Web Workers of its own its bundle brings (Cargo binaries in
    /// src/bin/), built into its folder beside it. (A lab that explores
    /// brings the explore worker as well.)
    pub workers: &'static [&'static str],
}

impl PartialEq for LabEntry {
    fn eq(&self, other: &LabEntry) -> bool {
        self.id == other.id
    }
}

impl Eq for LabEntry {}

/// A lab, as everything else names it.
pub type Lab = &'static LabEntry;

/// Something made once per lab of a list of labs, from the lab's type (the
/// command line's command, the explore worker's way in).
pub trait PerLab {
    type Item;
    fn of<L: LabModel>() -> Self::Item;
}

/// A list of labs: the [`Registry`], or (in a test) another.
pub trait Labs {
    /// Their entries, in order.
    const ENTRIES: &'static [Lab];
    /// `P` made for each, in order.
    fn each<P: PerLab>() -> Vec<P::Item>;
}

macro_rules! labs_of_tuples {
    ($($lab:ident),+) => {
        impl<$($lab: LabModel),+> Labs for ($($lab,)+) {
            const ENTRIES: &'static [Lab] = &[$($lab::LAB),+];
            fn each<P: PerLab>() -> Vec<P::Item> {
                vec![$(P::of::<$lab>()),+]
            }
        }
    };
}

labs_of_tuples!(A);
labs_of_tuples!(A, B);
labs_of_tuples!(A, B, C);
labs_of_tuples!(A, B, C, D);
labs_of_tuples!(A, B, C, D, E);
labs_of_tuples!(A, B, C, D, E, F);
labs_of_tuples!(A, B, C, D, E, F, G);
labs_of_tuples!(A, B, C, D, E, F, G, H);

/// Every lab in the registry, the opening one first.
pub const LABS: &[Lab] = <Registry as Labs>::ENTRIES;

/// The lab a link without `lab=` opens.
pub fn opening() -> Lab {
    LABS[0]
}

/// The lab called `name` by its id.
pub fn by_id(name: &str) -> Option<Lab> {
    LABS.iter().copied().find(|l| l.id == name)
}

/// The lab a command names in `labs`: its id or an older alias.
pub fn by_command(labs: &[Lab], name: &str) -> Option<Lab> {
    labs.iter().copied().find(|l| l.id == name || l.aliases.contains(&name))
}

/// The labs' ids, as a message's "allowed" says them.
pub fn ids(labs: &[Lab], separator: &str) -> String {
    labs.iter().map(|l| l.id).collect::<Vec<_>>().join(separator)
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
    LABS.get(value as usize).copied().unwrap_or(LABS[0])
}

/// The `lab` parameter's value for `lab`.
pub fn value_of(lab: Lab) -> u64 {
    LABS.iter().position(|&l| l == lab).unwrap_or(0) as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::ack::AckLab;
    use crate::view::risk::RiskLab;
    use crate::view::storm::StormLab;

    #[test]
    fn ids_are_unique_lowercase_words_and_aliases_name_no_other_lab() {
        let mut names: Vec<&str> =
            LABS.iter().flat_map(|l| std::iter::once(l.id).chain(l.aliases.iter().copied())).collect();
        assert!(LABS.iter().all(|l| !l.id.is_empty() && l.id.bytes().all(|b| b.is_ascii_lowercase())));
        names.sort_unstable();
        let before = names.len();
        names.dedup();
        assert_eq!(names.len(), before, "a name belongs to one lab");
        assert_eq!(by_command(LABS, "storm"), Some(StormLab::LAB));
        assert_eq!(by_command(LABS, "run"), Some(AckLab::LAB));
        assert_eq!(by_id("run"), None, "links use ids only");
    }

    #[test]
    fn the_lab_parameter_offers_every_lab_by_id() {
        assert_eq!(LAB.parse("risk"), Ok(1));
        assert_eq!(of_value(LAB.parse("storms").unwrap()), StormLab::LAB);
        assert_eq!(value_of(RiskLab::LAB), 1);
        assert_eq!(LAB.allowed(), "one of ack, risk, storms");
        assert_eq!(opening(), AckLab::LAB);
    }
}
