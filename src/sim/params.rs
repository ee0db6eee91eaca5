//! Parameters, defined once each, and the one validation stage every
//! boundary goes through.
//!
//! A lab lists its parameters as a table of [`ParamDef`]s: name (JSON and
//! settings files), command-line flag, link name, label, what it allows and
//! its default. Every boundary (flags, links, files, the form) collects raw
//! text into a [`Raw`]; [`Schema::validate`] turns that into the lab's
//! immutable settings, with the cross-field checks in one place, or into a
//! [`FieldError`] that names the parameter, the value and what is allowed.
//! Each boundary names the parameter its own way (a flag, a link name, a
//! label) when it shows the message.

use super::Surely;
use std::fmt;
use std::marker::PhantomData;

use super::json::Json;

/// One named choice of a choice-valued parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opt {
    /// The value as flags, links and files spell it.
    pub value: &'static str,
    /// The visible label in the form.
    pub label: &'static str,
}

/// What a parameter accepts. Every value is held as a `u64`: a choice as the
/// index of its option, a switch as 0 (off) or 1 (on), "off" as 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Choice(&'static [Opt]),
    /// Two values; the form shows a checkbox that is ticked for `on`.
    Switch {
        off: &'static str,
        on: &'static str,
    },
    /// Whole milliseconds in `min ..= max` (links and the form use seconds).
    Millis {
        min: u64,
        max: u64,
    },
    /// "off" or whole milliseconds in `min ..= max`, `min >= 1`.
    MillisOrOff {
        min: u64,
        max: u64,
    },
    /// A plain whole number in `min ..= max`.
    Count {
        min: u64,
        max: u64,
    },
    /// "auto" (the preset's own value, held as 0) or a whole number in
    /// `min ..= max`, `min >= 1`.
    CountOrAuto {
        min: u64,
        max: u64,
    },
    /// A link's flag: `1` or `0` (`true` and `false` too).
    Flag,
    /// A colour as three or six hex digits (`#` allowed before them): held
    /// as `0x1000000 | rgb`, 0 for none.
    Colour,
    /// A model time (in links, seconds with at most three decimals), or
    /// none: held as milliseconds, [`NO_MOMENT`] for none.
    Moment,
    /// Aimed faults: up to [`MAX_AIMED`] of `KIND@N` (one of `kinds`, hitting
    /// the N-th call of its kind, N from 1 to `max_n`), separated by commas.
    /// Empty means "the preset's own"; `none` means none at all.
    Aimed {
        kinds: &'static [Opt],
        max_n: u64,
    },
}

/// The most aimed faults one value holds.
pub const MAX_AIMED: usize = 4;
/// An aimed-faults value that says "none at all" (not the preset's).
pub const AIMED_NONE: u64 = 0xF000;
/// Each aimed fault takes 16 bits of the value: its kind (plus one) in the
/// top six, the call it hits in the low ten.
const NTH_BITS: u32 = 10;
const NTH_MASK: u64 = (1 << NTH_BITS) - 1;
/// The most kinds an aimed-faults parameter may have: one more would make
/// [`AIMED_NONE`] a fault.
pub const MAX_AIMED_KINDS: usize = (AIMED_NONE >> NTH_BITS) as usize - 1;

/// One aimed fault: the index of its kind and the call it hits (from 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AimedFault {
    pub kind: usize,
    pub nth: u32,
}

/// A value of [`Kind::Aimed`]: none given (the preset's faults), none at
/// all, or a list.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Aimed {
    #[default]
    Preset,
    List(Vec<AimedFault>),
}

impl Aimed {
    pub fn from_raw(raw: u64) -> Aimed {
        if raw == 0 {
            return Aimed::Preset;
        }
        let list = (0..MAX_AIMED)
            .map(|i| (raw >> (16 * i)) & 0xFFFF)
            .filter(|&e| e != 0 && e != AIMED_NONE)
            .map(|e| AimedFault { kind: (e >> NTH_BITS) as usize - 1, nth: (e & NTH_MASK) as u32 })
            .collect();
        Aimed::List(list)
    }

    /// The value for `faults` (at most [`MAX_AIMED`], each kind below
    /// [`MAX_AIMED_KINDS`] and N below 1024, as parsing guarantees).
    pub fn raw_of(faults: &[AimedFault]) -> u64 {
        if faults.is_empty() {
            return AIMED_NONE;
        }
        faults.iter().take(MAX_AIMED).enumerate().fold(0, |raw, (i, f)| {
            raw | ((((f.kind as u64 + 1) << NTH_BITS) | (u64::from(f.nth) & NTH_MASK)) << (16 * i))
        })
    }
}

fn parse_aimed(text: &str, kinds: &[Opt], max_n: u64) -> Result<u64, Problem> {
    match text {
        "" => return Ok(0),
        "none" => return Ok(AIMED_NONE),
        _ => {}
    }
    let mut faults = Vec::new();
    for item in text.split(',').map(str::trim) {
        let (kind, n) = item.split_once('@').ok_or(Problem::Malformed)?;
        let kind = kinds.iter().position(|o| o.value == kind).ok_or(Problem::Malformed)?;
        let nth = whole_number(n).map_err(|_| Problem::Malformed)?;
        if !(1..=max_n.min(NTH_MASK)).contains(&nth) || faults.len() == MAX_AIMED || kind >= MAX_AIMED_KINDS {
            return Err(Problem::OutOfRange);
        }
        faults.push(AimedFault { kind, nth: nth as u32 });
    }
    faults.sort_unstable();
    faults.dedup();
    Ok(Aimed::raw_of(&faults))
}

fn format_aimed(value: u64, kinds: &[Opt]) -> String {
    match Aimed::from_raw(value) {
        Aimed::Preset => String::new(),
        Aimed::List(list) if list.is_empty() => "none".to_owned(),
        Aimed::List(list) => {
            list.iter().map(|f| format!("{}@{}", kinds[f.kind].value, f.nth)).collect::<Vec<_>>().join(",")
        }
    }
}

/// A [`Kind::Moment`] parameter's value when the link gives none.
pub const NO_MOMENT: u64 = u64::MAX;

/// Declares a choice parameter's enum together with its options: each
/// variant with its spelling in flags, links and files and its label in the
/// form, in the order the form lists them. The options' table and the enum
/// are the same list, so nothing maps one onto the other by position.
///
/// ```ignore
/// choice! {
///     /// What the server does with a duplicate of an operation in flight.
///     pub enum InFlight {
///         Join("join", "Joins the operation"),
///         Reject409("reject-409", "Gets 409 Conflict"),
///     }
/// }
/// ```
#[macro_export]
macro_rules! choice {
    ($(#[$meta:meta])* $vis:vis enum $name:ident {
        $($(#[$vmeta:meta])* $variant:ident($value:literal, $label:literal)),+ $(,)?
    }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        $vis enum $name {
            $($(#[$vmeta])* $variant),+
        }

        impl $name {
            /// How many variants there are.
            pub const COUNT: usize = [$(stringify!($variant)),+].len();
            /// Every variant, in the order of the options.
            pub const ALL: [$name; Self::COUNT] = [$($name::$variant),+];
            /// The options a parameter of this choice offers.
            pub const OPTIONS: &'static [$crate::sim::params::Opt] =
                &[$($crate::sim::params::Opt { value: $value, label: $label }),+];

            /// The value as flags, links and files spell it.
            pub fn value(self) -> &'static str {
                match self {
                    $($name::$variant => $value),+
                }
            }

            /// The label the form shows for it.
            pub fn label(self) -> &'static str {
                match self {
                    $($name::$variant => $label),+
                }
            }
        }

        impl $crate::sim::params::Value for $name {
            fn from_raw(raw: u64) -> $name {
                // Validated values are always an option's index.
                Self::ALL.get(raw as usize).copied().unwrap_or(Self::ALL[0])
            }

            fn to_raw(self) -> u64 {
                self as u64
            }
        }
    };
}
pub use crate::choice;

/// Declares a lab's parameters as one table: each row defines a typed
/// static [`Param`] once, and the table's order is the order of the lab's
/// `PARAMS` (validated, listed and written in that order), whose length is
/// the named count. A row gives the static and the type its value reads as,
/// the parameter's name, flag, link name and label (on its first line, by
/// convention), then its kind, its default as held (a `u64`) and its group
/// (a [`Group`] variant) on the second. Doc comments on a row document its
/// static.
///
/// ```ignore
/// params! {
///     /// Every parameter, in the order they are validated, listed and written.
///     pub static PARAMS: [&ParamDef; PARAM_COUNT] = [
///         // static: type      name           flag             link        label
///         //  kind                                   default                 group
///         TIMEOUT: Millis    = "timeout_ms",  "--timeout-ms",  "timeout",  "Timeout per attempt",
///             Kind::Millis { min: 1, max: 600_000 }, 3_000,                  Basics;
///         KEY: KeyMode       = "key",         "--key",         "key",      "Retry key",
///             Kind::Choice(KeyMode::OPTIONS),        KeyMode::Stable as u64, Basics;
///     ];
/// }
/// ```
#[macro_export]
macro_rules! params {
    ($(#[$meta:meta])* $vis:vis static $params:ident: [&ParamDef; $count:ident] = [
        $($(#[$pmeta:meta])* $param:ident: $ty:ty = $name:literal, $flag:literal, $link:literal, $label:literal,
            $kind:expr, $default:expr, $group:ident;)+
    ];) => {
        $(
            $(#[$pmeta])*
            $vis static $param: $crate::sim::params::Param<$ty> =
                $crate::sim::params::Param::new($crate::sim::params::ParamDef {
                    name: $name,
                    flag: $flag,
                    link: $link,
                    label: $label,
                    kind: $kind,
                    default: $default,
                    group: $crate::sim::params::Group::$group,
                });
        )+

        /// How many parameters the lab has.
        $vis const $count: usize = [$(stringify!($param)),+].len();

        $(#[$meta])*
        $vis static $params: [&$crate::sim::params::ParamDef; $count] = [$($param.def()),+];
    };
}
pub use crate::params;

/// The type of a parameter's value as settings read it, and how it is held
/// (every value is held as a `u64`).
pub trait Value: Copy {
    fn from_raw(raw: u64) -> Self;
    fn to_raw(self) -> u64;
}

impl Value for u64 {
    fn from_raw(raw: u64) -> u64 {
        raw
    }
    fn to_raw(self) -> u64 {
        self
    }
}

impl Value for bool {
    fn from_raw(raw: u64) -> bool {
        raw != 0
    }
    fn to_raw(self) -> u64 {
        u64::from(self)
    }
}

impl Value for super::time::Millis {
    fn from_raw(raw: u64) -> Self {
        super::time::Millis(raw)
    }
    fn to_raw(self) -> u64 {
        self.ms()
    }
}

/// "off" (0) or a duration.
impl Value for Option<super::time::Millis> {
    fn from_raw(raw: u64) -> Self {
        (raw != 0).then_some(super::time::Millis(raw))
    }
    fn to_raw(self) -> u64 {
        self.map_or(0, |t| t.ms())
    }
}

/// A model time or none ([`Kind::Moment`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Moment(pub Option<super::time::Millis>);

impl Value for Moment {
    fn from_raw(raw: u64) -> Moment {
        Moment((raw != NO_MOMENT).then_some(super::time::Millis(raw)))
    }
    fn to_raw(self) -> u64 {
        self.0.map_or(NO_MOMENT, |t| t.ms())
    }
}

/// A colour or none ([`Kind::Colour`]): 24 bits of colour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Colour(pub Option<u32>);

impl Colour {
    /// Six lowercase hex digits.
    pub fn hex(self) -> Option<String> {
        self.0.map(|rgb| format!("{rgb:06x}"))
    }
}

impl Value for Colour {
    fn from_raw(raw: u64) -> Colour {
        Colour((raw & COLOUR_SET != 0).then_some((raw & 0xff_ffff) as u32))
    }
    fn to_raw(self) -> u64 {
        self.0.map_or(0, |rgb| COLOUR_SET | u64::from(rgb))
    }
}

/// A parameter whose value has a type: `settings.get(&FAULT)` is a
/// `Fault`, `settings.get(&TIMEOUT)` a `Millis`. It is its definition
/// everywhere a [`ParamDef`] is asked for.
pub struct Param<T> {
    def: ParamDef,
    value: PhantomData<fn() -> T>,
}

impl<T> Param<T> {
    pub const fn new(def: ParamDef) -> Param<T> {
        Param { def, value: PhantomData }
    }

    /// The definition, where a table of them is built at compile time
    /// (elsewhere a `&Param` is a `&ParamDef` already).
    pub const fn def(&self) -> &ParamDef {
        &self.def
    }
}

impl<T> std::ops::Deref for Param<T> {
    type Target = ParamDef;
    fn deref(&self) -> &ParamDef {
        &self.def
    }
}

/// What [`Schema::get`] reads: a typed parameter gives its type, a bare
/// definition the held number.
pub trait Read {
    type Value;
    fn def(&self) -> &ParamDef;
    fn read(raw: u64) -> Self::Value;
}

impl Read for ParamDef {
    type Value = u64;
    fn def(&self) -> &ParamDef {
        self
    }
    fn read(raw: u64) -> u64 {
        raw
    }
}

impl<T: Value> Read for Param<T> {
    type Value = T;
    fn def(&self) -> &ParamDef {
        &self.def
    }
    fn read(raw: u64) -> T {
        T::from_raw(raw)
    }
}

/// Which part of the form a parameter belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    Basics,
    /// Behind the "Advanced" disclosure.
    Advanced,
    /// The "Faults and storage" group.
    Faults,
}

/// One parameter: everything any boundary needs to know about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamDef {
    /// The field name in JSON output and settings files, e.g. `retention_ms`.
    pub name: &'static str,
    /// The command-line flag, e.g. `--retention-ms`.
    pub flag: &'static str,
    /// The short name in shared links, e.g. `retention`.
    pub link: &'static str,
    /// The form's visible label, which is also the accessible name.
    pub label: &'static str,
    pub kind: Kind,
    pub default: u64,
    pub group: Group,
}

/// Why a value was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// Not one of the parameter's named choices.
    UnknownChoice,
    /// Not a whole number written in decimal digits.
    NotANumber,
    /// A whole number, but outside the allowed range.
    OutOfRange,
    /// No value was given at all.
    Missing,
    /// Allowed on its own, but not together with the other settings; the
    /// text says what would be allowed.
    Conflict(String),
    /// Not written as the parameter's kind is (a colour, a model time).
    Malformed,
}

/// A refused value: which parameter, what was given, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldError {
    pub param: &'static ParamDef,
    pub value: String,
    pub problem: Problem,
}

impl FieldError {
    pub fn new(param: &'static ParamDef, value: impl Into<String>, problem: Problem) -> FieldError {
        FieldError { param, value: value.into(), problem }
    }

    /// The message a boundary shows, naming the parameter its own way
    /// (`--timeout-ms`, `timeout`, "Timeout per attempt"...).
    pub fn message(&self, name: &str) -> String {
        self.message_with(name, &self.param.allowed())
    }

    /// The message for links and the form, whose durations are seconds.
    pub fn human_message(&self, name: &str) -> String {
        let allowed = self.param.allowed_human();
        if self.param.is_duration() && self.problem == Problem::NotANumber {
            let value = shorten(&self.value);
            return format!(
                "{name}: \"{value}\" is not a number of seconds with at most three decimals; allowed: {allowed}"
            );
        }
        self.message_with(name, &allowed)
    }

    /// Like [`FieldError::message`], with the allowed values described by
    /// the boundary.
    pub fn message_with(&self, name: &str, allowed: &str) -> String {
        let value = shorten(&self.value);
        match &self.problem {
            Problem::Missing => format!("{name} needs a value; allowed: {allowed}"),
            Problem::UnknownChoice => format!("{name}: \"{value}\" is not a known option; allowed: {allowed}"),
            Problem::NotANumber => format!("{name}: \"{value}\" is not a whole number; allowed: {allowed}"),
            Problem::OutOfRange => format!("{name}: {value} is out of range; allowed: {allowed}"),
            Problem::Conflict(detail) => {
                format!("{name}: {value} does not fit the other settings; allowed: {detail}")
            }
            Problem::Malformed => {
                let what = match self.param.kind {
                    Kind::Colour => "a colour",
                    Kind::Moment => "a number of seconds with at most three decimals",
                    Kind::Aimed { .. } => "a list of aimed faults",
                    _ => "allowed",
                };
                format!("{name}: \"{value}\" is not {what}; allowed: {allowed}")
            }
        }
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(self.param.name))
    }
}

impl std::error::Error for FieldError {}

/// The known name nearest to `name` (a misspelling's likely meaning): the
/// fewest single-character insertions, deletions or substitutions, case
/// aside; the first listed wins a tie. `None` when nothing is known.
pub fn nearest<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    // Hostile names cost no more than a name of this length.
    let name: Vec<char> = name.to_lowercase().chars().take(64).collect();
    known.into_iter().min_by_key(|k| edit_distance(&name, &k.to_lowercase().chars().collect::<Vec<_>>()))
}

/// Levenshtein's distance between `a` and `b`, one row at a time.
fn edit_distance(a: &[char], b: &[char]) -> usize {
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substituted = diagonal + usize::from(ca != cb);
            diagonal = row[j + 1];
            row[j + 1] = substituted.min(row[j] + 1).min(diagonal + 1);
        }
    }
    row[b.len()]
}

/// `text` with every control and format character (a bidirectional
/// override or isolate, a zero-width joiner, a line separator) shown as
/// U+FFFD: quoted in a message, a value can neither reverse the words
/// around it nor hide part of itself.
pub fn neutral(text: &str) -> String {
    text.chars().map(|c| if is_control_or_format(c) { '\u{fffd}' } else { c }).collect()
}

/// Unicode's control characters (Cc), format characters (Cf) and the line
/// and paragraph separators (Zl, Zp).
pub fn is_control_or_format(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{ad}'
            | '\u{600}'..='\u{605}'
            | '\u{61c}'
            | '\u{6dd}'
            | '\u{70f}'
            | '\u{890}'..='\u{891}'
            | '\u{8e2}'
            | '\u{180e}'
            | '\u{200b}'..='\u{200f}'
            | '\u{2028}'..='\u{202e}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{206f}'
            | '\u{feff}'
            | '\u{fff9}'..='\u{fffb}'
            | '\u{110bd}'
            | '\u{110cd}'
            | '\u{13430}'..='\u{1343f}'
            | '\u{1bca0}'..='\u{1bca3}'
            | '\u{1d173}'..='\u{1d17a}'
            | '\u{e0001}'
            | '\u{e0020}'..='\u{e007f}')
}

/// A value as messages quote it: neutral (see [`neutral`]) and at most 40
/// characters, which keeps hostile or accidental megabyte values out of
/// one-line messages.
pub fn shorten(value: &str) -> String {
    const LIMIT: usize = 40;
    let cleaned = neutral(value);
    if cleaned.chars().count() <= LIMIT {
        cleaned
    } else {
        let head: String = cleaned.chars().take(LIMIT).collect();
        format!("{head}…")
    }
}

fn whole_number(text: &str) -> Result<u64, Problem> {
    if text.is_empty() {
        return Err(Problem::Missing);
    }
    // A negative whole number is a number, below every range a parameter has.
    if text.strip_prefix('-').is_some_and(|rest| !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit())) {
        return Err(Problem::OutOfRange);
    }
    if !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(Problem::NotANumber);
    }
    // All digits: the only way parsing fails now is overflow, which is out of range.
    text.parse::<u64>().map_err(|_| Problem::OutOfRange)
}

fn in_range(value: u64, min: u64, max: u64) -> Result<u64, Problem> {
    if (min..=max).contains(&value) { Ok(value) } else { Err(Problem::OutOfRange) }
}

/// The bit a [`Kind::Colour`] value sets beside its 24 bits of colour, so
/// black is not "no colour".
pub const COLOUR_SET: u64 = 1 << 24;

/// `1f56b3`, `#1F56B3` or `15b` (hex digits only) as 24 bits of colour.
pub fn parse_hex_colour(text: &str) -> Option<u64> {
    let hex = text.strip_prefix('#').unwrap_or(text);
    if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let six: String = match hex.len() {
        6 => hex.to_owned(),
        3 => hex.chars().flat_map(|c| [c, c]).collect(),
        _ => return None,
    };
    u64::from_str_radix(&six, 16).ok()
}

impl ParamDef {
    /// The allowed values, as flags and files spell them.
    pub fn allowed(&self) -> String {
        match self.kind {
            Kind::Choice(options) => {
                format!("one of {}", options.iter().map(|o| o.value).collect::<Vec<_>>().join(", "))
            }
            Kind::Switch { off, on } => format!("one of {on}, {off}"),
            Kind::Millis { min, max } => format!("a whole number of milliseconds from {min} to {max}"),
            Kind::MillisOrOff { min, max } => {
                format!("off, or a whole number of milliseconds from {min} to {max}")
            }
            Kind::Count { min, max } => format!("a whole number from {min} to {max}"),
            Kind::CountOrAuto { min, max } => format!("auto (the preset's), or a whole number from {min} to {max}"),
            Kind::Flag => "1 or 0".to_owned(),
            Kind::Colour => "three or six hex digits such as 1f56b3".to_owned(),
            Kind::Moment => "a model time in seconds such as 2.05".to_owned(),
            Kind::Aimed { kinds, max_n } => format!(
                "up to {MAX_AIMED} of KIND@N separated by commas, N from 1 to {max_n}, KIND one of {} (empty: the preset's own; none: no faults)",
                kinds.iter().map(|o| o.value).collect::<Vec<_>>().join(", ")
            ),
        }
    }

    /// The allowed values, as links and the form spell them (seconds).
    pub fn allowed_human(&self) -> String {
        match self.kind {
            Kind::Millis { min, max } => {
                format!("{} to {} seconds", ms_to_seconds_text(min), ms_to_seconds_text(max))
            }
            Kind::MillisOrOff { min, max } => {
                format!("off, or {} to {} seconds", ms_to_seconds_text(min), ms_to_seconds_text(max))
            }
            _ => self.allowed(),
        }
    }

    /// Whether values are milliseconds (shown as seconds to people).
    pub fn is_duration(&self) -> bool {
        matches!(self.kind, Kind::Millis { .. } | Kind::MillisOrOff { .. } | Kind::Moment)
    }

    /// Validates text as flags and files give it. Surrounding whitespace is
    /// ignored; nothing else is forgiven.
    pub fn parse(&'static self, text: &str) -> Result<u64, FieldError> {
        let trimmed = text.trim();
        self.parse_core(trimmed).map_err(|problem| FieldError::new(self, text, problem))
    }

    fn parse_core(&self, text: &str) -> Result<u64, Problem> {
        match self.kind {
            Kind::Choice(options) => {
                options.iter().position(|o| o.value == text).map(|i| i as u64).ok_or(Problem::UnknownChoice)
            }
            Kind::Switch { off, on } => match text {
                t if t == off => Ok(0),
                t if t == on => Ok(1),
                _ => Err(Problem::UnknownChoice),
            },
            Kind::Millis { min, max } | Kind::Count { min, max } => in_range(whole_number(text)?, min, max),
            Kind::MillisOrOff { min, max } => {
                if text == "off" {
                    Ok(0)
                } else {
                    in_range(whole_number(text)?, min, max)
                }
            }
            Kind::CountOrAuto { min, max } => {
                if text == "auto" {
                    Ok(0)
                } else {
                    in_range(whole_number(text)?, min, max)
                }
            }
            Kind::Flag => match text {
                "1" | "true" => Ok(1),
                "0" | "false" => Ok(0),
                _ => Err(Problem::UnknownChoice),
            },
            Kind::Colour => parse_hex_colour(text).map(|rgb| COLOUR_SET | rgb).ok_or(Problem::Malformed),
            Kind::Moment => whole_number(text).map_err(|_| Problem::Malformed),
            Kind::Aimed { kinds, max_n } => parse_aimed(text, kinds, max_n),
        }
    }

    /// Validates text as links and the form give it: durations in seconds
    /// with at most three decimals.
    pub fn parse_human(&'static self, text: &str) -> Result<u64, FieldError> {
        let trimmed = text.trim();
        if !self.is_duration() || trimmed == "off" {
            return self.parse(text);
        }
        if trimmed.is_empty() {
            return Err(FieldError::new(self, text, Problem::Missing));
        }
        let (min, max, malformed) = match self.kind {
            Kind::Millis { min, max } | Kind::MillisOrOff { min, max } => (min, max, Problem::NotANumber),
            _ => (0, NO_MOMENT - 1, Problem::Malformed),
        };
        match seconds_to_ms(trimmed) {
            Some(ms) => in_range(ms, min, max).map_err(|p| FieldError::new(self, text, p)),
            // A negative duration is a number of seconds, below every range.
            None if malformed == Problem::NotANumber && trimmed.strip_prefix('-').and_then(seconds_to_ms).is_some() => {
                Err(FieldError::new(self, text, Problem::OutOfRange))
            }
            None => Err(FieldError::new(self, text, malformed)),
        }
    }

    /// The canonical text of a value, as [`ParamDef::parse`] accepts it back.
    pub fn format(&self, value: u64) -> String {
        match self.kind {
            Kind::Choice(options) => options[value as usize].value.to_owned(),
            Kind::Switch { off, on } => if value == 0 { off } else { on }.to_owned(),
            Kind::MillisOrOff { .. } if value == 0 => "off".to_owned(),
            Kind::CountOrAuto { .. } if value == 0 => "auto".to_owned(),
            Kind::Millis { .. } | Kind::MillisOrOff { .. } | Kind::Count { .. } | Kind::CountOrAuto { .. } => {
                value.to_string()
            }
            Kind::Flag => if value == 0 { "0" } else { "1" }.to_owned(),
            Kind::Colour if value == 0 => String::new(),
            Kind::Colour => format!("{:06x}", value & !COLOUR_SET),
            Kind::Moment if value == NO_MOMENT => String::new(),
            Kind::Moment => value.to_string(),
            Kind::Aimed { kinds, .. } => format_aimed(value, kinds),
        }
    }

    /// The text of a value for links and the form (durations in seconds).
    pub fn format_human(&self, value: u64) -> String {
        match self.kind {
            Kind::Millis { .. } => ms_to_seconds_text(value),
            Kind::Moment if value != NO_MOMENT => ms_to_seconds_text(value),
            Kind::MillisOrOff { .. } if value != 0 => ms_to_seconds_text(value),
            _ => self.format(value),
        }
    }

    /// The value as JSON: names for choices, numbers for numbers (the one
    /// way a value is written, in every lab's files and reports).
    pub fn to_json(&self, value: u64) -> Json {
        match self.kind {
            Kind::Millis { .. } | Kind::Count { .. } => Json::num(value),
            Kind::Moment if value != NO_MOMENT => Json::num(value),
            Kind::MillisOrOff { .. } | Kind::CountOrAuto { .. } if value != 0 => Json::num(value),
            _ => Json::Str(self.format(value)),
        }
    }
}

/// A lab's validated, immutable settings.
pub trait Schema: Sized + Clone {
    /// Every parameter, in the order they are validated, listed and written.
    const PARAMS: &'static [&'static ParamDef];

    /// Builds settings from one valid value per parameter (in
    /// [`Schema::PARAMS`] order). Cross-field checks live here and nowhere
    /// else.
    fn from_values(values: &[u64]) -> Result<Self, FieldError>;

    /// The value of every parameter, in [`Schema::PARAMS`] order.
    fn values(&self) -> &[u64];

    fn defaults() -> Vec<u64> {
        Self::PARAMS.iter().map(|p| p.default).collect()
    }

    /// The value of every parameter that `given` (what a boundary gave, by
    /// parameter) leaves out. Most labs' defaults are fixed; the storm lab's
    /// depend on the workload given.
    fn defaults_for(_given: &[Option<u64>]) -> Vec<u64> {
        Self::defaults()
    }

    /// The opening settings.
    fn opening() -> Self {
        Self::from_values(&Self::defaults()).surely("the defaults are valid")
    }

    /// The definition called `name` in flags, files or links.
    fn by_flag(flag: &str) -> Option<&'static ParamDef> {
        Self::PARAMS.iter().copied().find(|p| p.flag == flag)
    }
    fn by_name(name: &str) -> Option<&'static ParamDef> {
        Self::PARAMS.iter().copied().find(|p| p.name == name)
    }
    fn by_link(link: &str) -> Option<&'static ParamDef> {
        Self::PARAMS.iter().copied().find(|p| p.link == link)
    }

    fn index_of(param: &ParamDef) -> usize {
        Self::PARAMS.iter().position(|p| p.name == param.name).expect("the parameter belongs to this lab")
    }

    /// The value of one parameter: typed for a [`Param`], the held number
    /// for a bare [`ParamDef`].
    fn get<P: Read + ?Sized>(&self, param: &P) -> P::Value {
        P::read(self.values()[Self::index_of(param.def())])
    }

    /// The value of `param` among `values` (in [`Schema::PARAMS`] order),
    /// for [`Schema::from_values`].
    fn read<T: Value>(values: &[u64], param: &Param<T>) -> T {
        T::from_raw(values[Self::index_of(param)])
    }

    /// The canonical text of one parameter's value, as flags spell it.
    fn text_of(&self, param: &ParamDef) -> String {
        param.format(self.values()[Self::index_of(param)])
    }

    /// These settings with one value replaced, validated again.
    fn with(&self, param: &'static ParamDef, value: u64) -> Result<Self, FieldError> {
        let mut values = self.values().to_vec();
        values[Self::index_of(param)] = value;
        Self::from_values(&values)
    }

    /// These settings with one typed value replaced, validated again.
    fn set<T: Value>(&self, param: &'static Param<T>, value: T) -> Result<Self, FieldError> {
        self.with(param, value.to_raw())
    }

    /// These settings with one value given as text, validated.
    fn with_text(&self, param: &'static ParamDef, text: &str) -> Result<Self, FieldError> {
        self.with(param, param.parse(text)?)
    }

    /// Every parameter under its name, in parameter order (the order
    /// people read them in), choices as names and durations as
    /// milliseconds: the `settings` object of every lab's files and
    /// reports, written this one way.
    fn to_json(&self) -> Json {
        Json::Obj(
            Self::PARAMS
                .iter()
                .zip(self.values())
                .map(|(param, &value)| (param.name.to_owned(), param.to_json(value)))
                .collect(),
        )
    }
}

/// Unvalidated text for some or all of a lab's parameters, as a boundary
/// collected it, in the boundary's own spelling (`human` for links and the
/// form, whose durations are seconds).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Raw<S> {
    values: Vec<Option<String>>,
    human: bool,
    schema: PhantomData<S>,
}

impl<S: Schema> Raw<S> {
    /// Text as flags and files give it (durations in milliseconds).
    pub fn core() -> Raw<S> {
        Raw { values: vec![None; S::PARAMS.len()], human: false, schema: PhantomData }
    }

    /// Text as links and the form give it (durations in seconds).
    pub fn human() -> Raw<S> {
        Raw { values: vec![None; S::PARAMS.len()], human: true, schema: PhantomData }
    }

    pub fn set(&mut self, param: &ParamDef, text: impl Into<String>) {
        self.values[S::index_of(param)] = Some(text.into());
    }

    pub fn get(&self, param: &ParamDef) -> Option<&str> {
        self.values[S::index_of(param)].as_deref()
    }

    pub fn is_empty(&self) -> bool {
        self.values.iter().all(Option::is_none)
    }

    fn parse_one(&self, param: &'static ParamDef, text: &str) -> Result<u64, FieldError> {
        if self.human { param.parse_human(text) } else { param.parse(text) }
    }

    /// Strict validation on top of `base`: the first refused value in
    /// parameter order, or the settings.
    pub fn validate_over(&self, base: &S) -> Result<S, FieldError> {
        let mut values = base.values().to_vec();
        for (i, &param) in S::PARAMS.iter().enumerate() {
            if let Some(text) = &self.values[i] {
                values[i] = self.parse_one(param, text)?;
            }
        }
        S::from_values(&values)
    }

    /// Every value given, parsed (none where none is given or it is
    /// refused), and the refusals in parameter order.
    fn given(&self) -> (Vec<Option<u64>>, Vec<FieldError>) {
        let mut errors = Vec::new();
        let given = S::PARAMS
            .iter()
            .zip(&self.values)
            .map(|(&param, text)| {
                let text = text.as_deref()?;
                self.parse_one(param, text).map_err(|e| errors.push(e)).ok()
            })
            .collect();
        (given, errors)
    }

    /// Strict validation on top of the defaults for what is given: the
    /// first refused value in parameter order, or the settings.
    pub fn validate(&self) -> Result<S, FieldError> {
        let (given, errors) = self.given();
        if let Some(e) = errors.into_iter().next() {
            return Err(e);
        }
        let values: Vec<u64> = S::defaults_for(&given).into_iter().zip(&given).map(|(d, g)| g.unwrap_or(d)).collect();
        S::from_values(&values)
    }

    /// Applies every value that is allowed and reports the others; used where
    /// one bad value must not cost the user the rest (a shared link). A value
    /// that fails a cross-field check falls back to its default.
    pub fn validate_lenient(&self) -> (S, Vec<FieldError>) {
        let (given, mut errors) = self.given();
        let defaults = S::defaults_for(&given);
        let mut values: Vec<u64> = defaults.iter().zip(&given).map(|(d, g)| g.unwrap_or(*d)).collect();
        // Each failed cross-field check resets one parameter, so this ends.
        for _ in 0..=S::PARAMS.len() {
            match S::from_values(&values) {
                Ok(settings) => return (settings, errors),
                Err(e) => {
                    let i = S::index_of(e.param);
                    values[i] = defaults[i];
                    errors.push(e);
                }
            }
        }
        (S::opening(), errors)
    }
}

/// Converts a number of seconds as a person types it ("2", "2.5", "0.050")
/// into whole milliseconds, without floating point. Returns `None` for text
/// that is not a plain non-negative decimal with at most three decimals.
pub fn seconds_to_ms(text: &str) -> Option<u64> {
    let text = text.trim();
    let (whole, frac) = match text.split_once('.') {
        Some((w, f)) => (w, f),
        None => (text, ""),
    };
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if (whole.is_empty() && frac.is_empty()) || !digits(whole) || !digits(frac) || frac.len() > 3 {
        return None;
    }
    let whole_ms = if whole.is_empty() { 0 } else { whole.parse::<u64>().ok()?.checked_mul(1000)? };
    let frac_ms = if frac.is_empty() { 0 } else { format!("{frac:0<3}").parse::<u64>().ok()? };
    whole_ms.checked_add(frac_ms)
}

/// Milliseconds written as the shortest exact number of seconds: 2500 is "2.5".
pub fn ms_to_seconds_text(ms: u64) -> String {
    let (whole, frac) = (ms / 1000, ms % 1000);
    if frac == 0 {
        whole.to_string()
    } else {
        let frac = format!("{frac:03}");
        format!("{whole}.{}", frac.trim_end_matches('0'))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static TIMEOUT: ParamDef = ParamDef {
        name: "timeout_ms",
        flag: "--timeout-ms",
        link: "timeout",
        label: "Timeout per attempt",
        kind: Kind::Millis { min: 1, max: 600_000 },
        default: 3000,
        group: Group::Basics,
    };
    static DEADLINE: ParamDef = ParamDef {
        name: "deadline_ms",
        flag: "--deadline-ms",
        link: "deadline",
        label: "Overall deadline",
        kind: Kind::MillisOrOff { min: 1, max: 3_600_000 },
        default: 0,
        group: Group::Faults,
    };

    #[test]
    fn refusals_name_the_parameter_value_and_allowed_range() {
        let err = TIMEOUT.parse("0").unwrap_err();
        assert_eq!(err.problem, Problem::OutOfRange);
        assert_eq!(
            err.message("--timeout-ms"),
            "--timeout-ms: 0 is out of range; allowed: a whole number of milliseconds from 1 to 600000"
        );
        assert_eq!(TIMEOUT.parse("3.5").unwrap_err().problem, Problem::NotANumber);
        // A negative number is below the range, at every boundary.
        assert_eq!(TIMEOUT.parse("-1").unwrap_err().problem, Problem::OutOfRange);
        assert_eq!(TIMEOUT.parse("99999999999999999999999").unwrap_err().problem, Problem::OutOfRange);
        assert_eq!(TIMEOUT.parse("").unwrap_err().problem, Problem::Missing);
        assert!(TIMEOUT.parse(&"x".repeat(10_000)).unwrap_err().message("t").len() < 200);
    }

    #[test]
    fn off_or_milliseconds() {
        assert_eq!(DEADLINE.parse("off"), Ok(0));
        assert_eq!(DEADLINE.parse("5000"), Ok(5000));
        assert_eq!(DEADLINE.parse("0").unwrap_err().problem, Problem::OutOfRange);
        assert_eq!(DEADLINE.format(0), "off");
        assert_eq!(DEADLINE.format_human(2500), "2.5");
        assert_eq!(DEADLINE.parse_human("2.5"), Ok(2500));
        assert_eq!(DEADLINE.parse_human("off"), Ok(0));
        assert_eq!(DEADLINE.to_json(0), Json::str("off"));
        assert_eq!(DEADLINE.to_json(7), Json::num(7));
    }

    #[test]
    fn seconds_text_converts_exactly() {
        assert_eq!(seconds_to_ms("2"), Some(2000));
        assert_eq!(seconds_to_ms("2.5"), Some(2500));
        assert_eq!(seconds_to_ms(".05"), Some(50));
        assert_eq!(seconds_to_ms("0.001"), Some(1));
        assert_eq!(seconds_to_ms("1.0001"), None);
        assert_eq!(seconds_to_ms("-1"), None);
        assert_eq!(seconds_to_ms("1e3"), None);
        assert_eq!(seconds_to_ms("."), None);
        assert_eq!(seconds_to_ms(""), None);
        assert_eq!(ms_to_seconds_text(2500), "2.5");
        assert_eq!(ms_to_seconds_text(50), "0.05");
        assert_eq!(ms_to_seconds_text(60_000), "60");
        assert_eq!(TIMEOUT.parse_human("0.0005").unwrap_err().problem, Problem::NotANumber);
        assert!(
            TIMEOUT
                .parse_human("1e3")
                .unwrap_err()
                .human_message("timeout")
                .starts_with("timeout: \"1e3\" is not a number of seconds")
        );
        assert_eq!(TIMEOUT.parse_human("soon").unwrap_err().problem, Problem::NotANumber);
        assert_eq!(
            TIMEOUT.parse_human("601").unwrap_err().human_message("timeout"),
            "timeout: 601 is out of range; allowed: 0.001 to 600 seconds"
        );
    }

    #[test]
    fn the_nearest_known_name_is_the_fewest_edits_away() {
        let known = ["dedup", "key", "retention", "delay", "deadline"];
        // dedupe → dedup: one deletion; delay is 4 edits away.
        assert_eq!(nearest("dedupe", known), Some("dedup"));
        // retension → retention: one substitution.
        assert_eq!(nearest("Retension", known), Some("retention"));
        // keys → key: one deletion.
        assert_eq!(nearest("keys", known), Some("key"));
        assert_eq!(edit_distance(&['a', 'b'], &[]), 2);
        assert_eq!(nearest("x", []), None);
    }

    /// Each lab's table names every parameter once in each spelling, and
    /// no link name is one the page itself uses in the same link.
    #[test]
    fn every_lab_names_each_parameter_once() {
        use crate::sim::{ack, risk, storm};
        let labs: [(&str, &[&ParamDef]); 3] =
            [("ack", &ack::settings::PARAMS), ("risk", &risk::settings::PARAMS), ("storms", &storm::settings::PARAMS)];
        type Spelling = fn(&ParamDef) -> &'static str;
        let spellings: [(&str, Spelling); 4] =
            [("name", |p| p.name), ("flag", |p| p.flag), ("link", |p| p.link), ("label", |p| p.label)];
        for (lab, params) in labs {
            for (spelling, of) in spellings {
                let mut seen = std::collections::HashSet::new();
                for param in params {
                    assert!(seen.insert(of(param)), "{lab}: two parameters have the {spelling} {}", of(param));
                }
            }
        }
    }

    #[test]
    fn a_negative_number_is_out_of_range_not_malformed() {
        // "-3" is a number a reader typed, below every range: the message
        // names the range instead of calling it "not a number".
        assert_eq!(
            TIMEOUT.parse_human("-3").unwrap_err().human_message("Timeout per attempt"),
            "Timeout per attempt: -3 is out of range; allowed: 0.001 to 600 seconds"
        );
        assert_eq!(TIMEOUT.parse_human("-0.5").unwrap_err().problem, Problem::OutOfRange);
        assert_eq!(DEADLINE.parse_human("-2").unwrap_err().problem, Problem::OutOfRange);
        static ATTEMPTS: ParamDef = ParamDef { kind: Kind::Count { min: 1, max: 10 }, ..TIMEOUT };
        let attempts = &ATTEMPTS;
        assert_eq!(attempts.parse("-3").unwrap_err().problem, Problem::OutOfRange);
        assert_eq!(attempts.parse("-").unwrap_err().problem, Problem::NotANumber);
        assert_eq!(attempts.parse("1e9").unwrap_err().problem, Problem::NotANumber);
        assert_eq!(TIMEOUT.parse_human("-x").unwrap_err().problem, Problem::NotANumber);
    }
}

#[cfg(test)]
mod aimed_tests {
    use super::*;

    const KINDS: &[Opt] = &[Opt { value: "lost", label: "Lost" }, Opt { value: "slow", label: "Slow" }];
    static FAULTS: ParamDef = ParamDef {
        name: "fault",
        flag: "--fault",
        link: "fault",
        label: "Aimed faults",
        kind: Kind::Aimed { kinds: KINDS, max_n: 50 },
        default: 0,
        group: Group::Faults,
    };

    #[test]
    fn aimed_faults_read_sorted_and_write_back() {
        let v = FAULTS.parse("slow@2, lost@1").unwrap();
        assert_eq!(
            Aimed::from_raw(v),
            Aimed::List(vec![AimedFault { kind: 0, nth: 1 }, AimedFault { kind: 1, nth: 2 }])
        );
        assert_eq!(FAULTS.format(v), "lost@1,slow@2");
        assert_eq!(FAULTS.parse(&FAULTS.format(v)).unwrap(), v);
        assert_eq!(Aimed::from_raw(FAULTS.parse("").unwrap()), Aimed::Preset);
        assert_eq!(Aimed::from_raw(FAULTS.parse("none").unwrap()), Aimed::List(vec![]));
        assert_eq!(FAULTS.format(FAULTS.parse("none").unwrap()), "none");
        assert_eq!(FAULTS.parse("lost@1,lost@1").unwrap(), FAULTS.parse("lost@1").unwrap(), "one fault once");
    }

    #[test]
    fn a_bad_list_says_what_is_allowed() {
        let e = FAULTS.parse("late@1").unwrap_err();
        assert_eq!(
            e.message("--fault"),
            "--fault: \"late@1\" is not a list of aimed faults; allowed: up to 4 of KIND@N separated by commas, N from 1 to 50, KIND one of lost, slow (empty: the preset's own; none: no faults)"
        );
        assert_eq!(FAULTS.parse("lost@0").unwrap_err().problem, Problem::OutOfRange);
        assert_eq!(FAULTS.parse("lost@51").unwrap_err().problem, Problem::OutOfRange);
        assert_eq!(FAULTS.parse("lost@1,lost@2,lost@3,lost@4,lost@5").unwrap_err().problem, Problem::OutOfRange);
        assert_eq!(FAULTS.parse("lost").unwrap_err().problem, Problem::Malformed);
    }
}
