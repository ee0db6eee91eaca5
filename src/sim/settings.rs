//! Settings: the only input the core accepts.
//!
//! Every boundary (command-line flags, URL parameters, form fields, settings
//! files) collects raw text into [`RawSettings`]; [`Settings::try_from`] turns
//! it into validated [`Settings`] or a [`FieldError`] that names the
//! parameter, the value and what is allowed. Each boundary names parameters
//! its own way (a flag, a URL parameter, a label), so errors carry a [`Param`]
//! and the boundary picks the name when it shows the message.

use std::fmt;

use serde::Serialize;

use super::time::Millis;

/// Which response fault the run injects.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Fault {
    None,
    LoseFirst,
    LoseAll,
    #[serde(rename = "first-503")]
    First503,
    #[serde(rename = "reject-400")]
    Reject400,
}

/// How the client chooses the operation key of each attempt.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum KeyMode {
    /// Every attempt reuses the logical intent's key.
    Stable,
    /// Every attempt gets a fresh key.
    PerAttempt,
}

/// Whether retry delays are spread by the deterministic jitter sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Jitter {
    Off,
    Full,
}

/// Names and parses the values of a choice-valued setting.
pub trait Choice: Sized + Copy + 'static {
    const ALL: &'static [Self];
    fn name(self) -> &'static str;
    fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|c| c.name() == name)
    }
}

impl Choice for Fault {
    const ALL: &'static [Fault] = &[Fault::None, Fault::LoseFirst, Fault::LoseAll, Fault::First503, Fault::Reject400];
    fn name(self) -> &'static str {
        match self {
            Fault::None => "none",
            Fault::LoseFirst => "lose-first",
            Fault::LoseAll => "lose-all",
            Fault::First503 => "first-503",
            Fault::Reject400 => "reject-400",
        }
    }
}

impl Choice for KeyMode {
    const ALL: &'static [KeyMode] = &[KeyMode::Stable, KeyMode::PerAttempt];
    fn name(self) -> &'static str {
        match self {
            KeyMode::Stable => "stable",
            KeyMode::PerAttempt => "per-attempt",
        }
    }
}

impl Choice for Jitter {
    const ALL: &'static [Jitter] = &[Jitter::Off, Jitter::Full];
    fn name(self) -> &'static str {
        match self {
            Jitter::Off => "off",
            Jitter::Full => "full",
        }
    }
}

/// One named parameter of a run. The order of [`Param::ALL`] is the order in
/// which settings are validated, listed and serialised.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Param {
    Fault,
    Dedup,
    Key,
    RetentionMs,
    TimeoutMs,
    ExecMs,
    MaxAttempts,
    InitialDelayMs,
    BackoffCapMs,
    Jitter,
    RequestTransitMs,
    ResponseTransitMs,
}

/// What a parameter accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Allowed {
    Choice(&'static [&'static str]),
    /// A whole number of milliseconds in `min ..= max`.
    Millis {
        min: u64,
        max: u64,
    },
    /// A plain whole number in `min ..= max`.
    Count {
        min: u64,
        max: u64,
    },
}

impl Allowed {
    pub fn range(self) -> Option<(u64, u64)> {
        match self {
            Allowed::Millis { min, max } | Allowed::Count { min, max } => Some((min, max)),
            Allowed::Choice(_) => None,
        }
    }
}

impl fmt::Display for Allowed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Allowed::Choice(names) => write!(f, "one of {}", names.join(", ")),
            Allowed::Millis { min, max } => {
                write!(f, "a whole number of milliseconds from {min} to {max}")
            }
            Allowed::Count { min, max } => write!(f, "a whole number from {min} to {max}"),
        }
    }
}

const FAULT_NAMES: &[&str] = &["none", "lose-first", "lose-all", "first-503", "reject-400"];
const ON_OFF: &[&str] = &["on", "off"];
const KEY_NAMES: &[&str] = &["stable", "per-attempt"];
const JITTER_NAMES: &[&str] = &["off", "full"];

/// The longest a stored result may be kept: one day.
pub const MAX_RETENTION_MS: u64 = 86_400_000;
/// The largest whole-number setting that is not a retention: ten minutes.
pub const MAX_DURATION_MS: u64 = 600_000;
/// The longest one-way transit: one minute.
pub const MAX_TRANSIT_MS: u64 = 60_000;
/// The most attempts a client may make for one intent.
pub const MAX_ATTEMPTS: u32 = 10;

impl Param {
    pub const ALL: [Param; 12] = [
        Param::Fault,
        Param::Dedup,
        Param::Key,
        Param::RetentionMs,
        Param::TimeoutMs,
        Param::ExecMs,
        Param::MaxAttempts,
        Param::InitialDelayMs,
        Param::BackoffCapMs,
        Param::Jitter,
        Param::RequestTransitMs,
        Param::ResponseTransitMs,
    ];

    fn index(self) -> usize {
        self as usize
    }

    /// The field name in JSON output and settings files, e.g. `retention_ms`.
    pub fn json_name(self) -> &'static str {
        match self {
            Param::Fault => "fault",
            Param::Dedup => "dedup",
            Param::Key => "key",
            Param::RetentionMs => "retention_ms",
            Param::TimeoutMs => "timeout_ms",
            Param::ExecMs => "exec_ms",
            Param::MaxAttempts => "max_attempts",
            Param::InitialDelayMs => "initial_delay_ms",
            Param::BackoffCapMs => "backoff_cap_ms",
            Param::Jitter => "jitter",
            Param::RequestTransitMs => "request_transit_ms",
            Param::ResponseTransitMs => "response_transit_ms",
        }
    }

    /// The command-line flag, e.g. `--retention-ms`.
    pub fn flag(self) -> &'static str {
        match self {
            Param::Fault => "--fault",
            Param::Dedup => "--dedup",
            Param::Key => "--key",
            Param::RetentionMs => "--retention-ms",
            Param::TimeoutMs => "--timeout-ms",
            Param::ExecMs => "--exec-ms",
            Param::MaxAttempts => "--max-attempts",
            Param::InitialDelayMs => "--initial-delay-ms",
            Param::BackoffCapMs => "--backoff-cap-ms",
            Param::Jitter => "--jitter",
            Param::RequestTransitMs => "--request-transit-ms",
            Param::ResponseTransitMs => "--response-transit-ms",
        }
    }

    pub fn from_flag(flag: &str) -> Option<Param> {
        Param::ALL.into_iter().find(|p| p.flag() == flag)
    }

    pub fn from_json_name(name: &str) -> Option<Param> {
        Param::ALL.into_iter().find(|p| p.json_name() == name)
    }

    pub fn allowed(self) -> Allowed {
        match self {
            Param::Fault => Allowed::Choice(FAULT_NAMES),
            Param::Dedup => Allowed::Choice(ON_OFF),
            Param::Key => Allowed::Choice(KEY_NAMES),
            Param::Jitter => Allowed::Choice(JITTER_NAMES),
            Param::RetentionMs => Allowed::Millis { min: 0, max: MAX_RETENTION_MS },
            Param::TimeoutMs => Allowed::Millis { min: 1, max: MAX_DURATION_MS },
            Param::ExecMs | Param::InitialDelayMs | Param::BackoffCapMs => {
                Allowed::Millis { min: 0, max: MAX_DURATION_MS }
            }
            Param::MaxAttempts => Allowed::Count { min: 1, max: u64::from(MAX_ATTEMPTS) },
            Param::RequestTransitMs | Param::ResponseTransitMs => Allowed::Millis { min: 0, max: MAX_TRANSIT_MS },
        }
    }
}

/// Why a value was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Problem {
    /// Not one of the parameter's named choices.
    UnknownChoice,
    /// Not a whole number written in decimal digits.
    NotANumber,
    /// A whole number, but outside the allowed range.
    OutOfRange,
    /// No value was given at all.
    Missing,
}

/// A refused value: which parameter, what was given, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldError {
    pub param: Param,
    pub value: String,
    pub problem: Problem,
}

impl FieldError {
    /// The message a boundary shows, naming the parameter its own way
    /// (`--timeout-ms`, `timeout`, "Timeout per attempt"...).
    pub fn message(&self, name: &str) -> String {
        self.message_with(name, &self.param.allowed().to_string())
    }

    /// Like [`FieldError::message`], with the allowed values described by the
    /// boundary (the browser speaks in seconds, the core in milliseconds).
    pub fn message_with(&self, name: &str, allowed: &str) -> String {
        let value = shorten(&self.value);
        match self.problem {
            Problem::Missing => format!("{name} needs a value; allowed: {allowed}"),
            Problem::UnknownChoice => {
                format!("{name}: \"{value}\" is not a known option; allowed: {allowed}")
            }
            Problem::NotANumber => {
                format!("{name}: \"{value}\" is not a whole number; allowed: {allowed}")
            }
            Problem::OutOfRange => format!("{name}: {value} is out of range; allowed: {allowed}"),
        }
    }
}

/// Keeps hostile or accidental megabyte values out of one-line messages.
pub fn shorten(value: &str) -> String {
    const LIMIT: usize = 40;
    let cleaned: String = value.chars().map(|c| if c.is_control() { '\u{fffd}' } else { c }).collect();
    if cleaned.chars().count() <= LIMIT {
        cleaned
    } else {
        let head: String = cleaned.chars().take(LIMIT).collect();
        format!("{head}…")
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(self.param.json_name()))
    }
}

impl std::error::Error for FieldError {}

/// Unvalidated text for some or all parameters, as a boundary collected it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RawSettings {
    values: [Option<String>; Param::ALL.len()],
}

impl RawSettings {
    pub fn set(&mut self, param: Param, value: impl Into<String>) {
        self.values[param.index()] = Some(value.into());
    }

    pub fn get(&self, param: Param) -> Option<&str> {
        self.values[param.index()].as_deref()
    }
}

/// Validated settings of one run. Fields are private: the only ways in are
/// [`Settings::default`] (MODEL.md's opening settings), [`Settings::set`] and
/// [`Settings::try_from`], all of which check every value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Settings {
    fault: Fault,
    dedup: bool,
    key: KeyMode,
    retention: Millis,
    timeout: Millis,
    exec: Millis,
    max_attempts: u32,
    initial_delay: Millis,
    backoff_cap: Millis,
    jitter: Jitter,
    request_transit: Millis,
    response_transit: Millis,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            fault: Fault::LoseFirst,
            dedup: true,
            key: KeyMode::Stable,
            retention: Millis(60_000),
            timeout: Millis(3_000),
            exec: Millis(2_000),
            max_attempts: 3,
            initial_delay: Millis(1_000),
            backoff_cap: Millis(8_000),
            jitter: Jitter::Off,
            request_transit: Millis(0),
            response_transit: Millis(50),
        }
    }
}

fn parse_choice<C: Choice>(param: Param, text: &str) -> Result<C, FieldError> {
    C::from_name(text).ok_or_else(|| FieldError { param, value: text.to_owned(), problem: Problem::UnknownChoice })
}

fn parse_number(param: Param, text: &str) -> Result<u64, FieldError> {
    let refuse = |problem| FieldError { param, value: text.to_owned(), problem };
    if text.is_empty() {
        return Err(refuse(Problem::Missing));
    }
    if !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(refuse(Problem::NotANumber));
    }
    // All digits: the only way parsing fails now is overflow, which is out of range.
    let value = text.parse::<u64>().map_err(|_| refuse(Problem::OutOfRange))?;
    let (min, max) = param.allowed().range().expect("numeric parameter has a range");
    if (min..=max).contains(&value) { Ok(value) } else { Err(refuse(Problem::OutOfRange)) }
}

impl Settings {
    /// Validates `text` for `param` and, if it is allowed, applies it.
    /// Surrounding whitespace is ignored; nothing else is forgiven.
    pub fn set(&mut self, param: Param, text: &str) -> Result<(), FieldError> {
        let text = text.trim();
        match param {
            Param::Fault => self.fault = parse_choice(param, text)?,
            Param::Key => self.key = parse_choice(param, text)?,
            Param::Jitter => self.jitter = parse_choice(param, text)?,
            Param::Dedup => {
                self.dedup = match text {
                    "on" => true,
                    "off" => false,
                    _ => {
                        return Err(FieldError { param, value: text.to_owned(), problem: Problem::UnknownChoice });
                    }
                }
            }
            Param::MaxAttempts => {
                self.max_attempts = u32::try_from(parse_number(param, text)?).expect("bounded by MAX_ATTEMPTS")
            }
            Param::RetentionMs => self.retention = Millis(parse_number(param, text)?),
            Param::TimeoutMs => self.timeout = Millis(parse_number(param, text)?),
            Param::ExecMs => self.exec = Millis(parse_number(param, text)?),
            Param::InitialDelayMs => self.initial_delay = Millis(parse_number(param, text)?),
            Param::BackoffCapMs => self.backoff_cap = Millis(parse_number(param, text)?),
            Param::RequestTransitMs => self.request_transit = Millis(parse_number(param, text)?),
            Param::ResponseTransitMs => self.response_transit = Millis(parse_number(param, text)?),
        }
        Ok(())
    }

    /// The canonical text of one parameter, as `set` accepts it back.
    pub fn get(&self, param: Param) -> String {
        match param {
            Param::Fault => self.fault.name().to_owned(),
            Param::Dedup => if self.dedup { "on" } else { "off" }.to_owned(),
            Param::Key => self.key.name().to_owned(),
            Param::Jitter => self.jitter.name().to_owned(),
            Param::MaxAttempts => self.max_attempts.to_string(),
            Param::RetentionMs => self.retention.ms().to_string(),
            Param::TimeoutMs => self.timeout.ms().to_string(),
            Param::ExecMs => self.exec.ms().to_string(),
            Param::InitialDelayMs => self.initial_delay.ms().to_string(),
            Param::BackoffCapMs => self.backoff_cap.ms().to_string(),
            Param::RequestTransitMs => self.request_transit.ms().to_string(),
            Param::ResponseTransitMs => self.response_transit.ms().to_string(),
        }
    }

    /// Applies every value that is allowed and reports the others; used where
    /// one bad value must not cost the user the rest (a shared link).
    pub fn from_raw_lenient(raw: &RawSettings) -> (Settings, Vec<FieldError>) {
        let mut settings = Settings::default();
        let mut errors = Vec::new();
        for param in Param::ALL {
            if let Some(text) = raw.get(param)
                && let Err(e) = settings.set(param, text)
            {
                errors.push(e);
            }
        }
        (settings, errors)
    }

    /// Convenience for tests and scripts: the defaults with some values set.
    pub fn from_pairs(pairs: &[(Param, &str)]) -> Result<Settings, FieldError> {
        let mut raw = RawSettings::default();
        for (param, value) in pairs {
            raw.set(*param, *value);
        }
        Settings::try_from(&raw)
    }

    pub fn fault(&self) -> Fault {
        self.fault
    }
    pub fn dedup(&self) -> bool {
        self.dedup
    }
    pub fn key(&self) -> KeyMode {
        self.key
    }
    pub fn retention(&self) -> Millis {
        self.retention
    }
    pub fn timeout(&self) -> Millis {
        self.timeout
    }
    pub fn exec(&self) -> Millis {
        self.exec
    }
    pub fn max_attempts(&self) -> u32 {
        self.max_attempts
    }
    pub fn initial_delay(&self) -> Millis {
        self.initial_delay
    }
    pub fn backoff_cap(&self) -> Millis {
        self.backoff_cap
    }
    pub fn jitter(&self) -> Jitter {
        self.jitter
    }
    pub fn request_transit(&self) -> Millis {
        self.request_transit
    }
    pub fn response_transit(&self) -> Millis {
        self.response_transit
    }
}

/// Strict validation: the first refused value, in [`Param::ALL`] order.
impl TryFrom<&RawSettings> for Settings {
    type Error = FieldError;

    fn try_from(raw: &RawSettings) -> Result<Settings, FieldError> {
        let mut settings = Settings::default();
        for param in Param::ALL {
            if let Some(text) = raw.get(param) {
                settings.set(param, text)?;
            }
        }
        Ok(settings)
    }
}

/// The effective settings as JSON: every parameter under its `json_name`,
/// choices as their names and durations as numbers of milliseconds.
impl Serialize for Settings {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(Param::ALL.len()))?;
        for param in Param::ALL {
            match param.allowed() {
                Allowed::Choice(_) => map.serialize_entry(param.json_name(), &self.get(param))?,
                Allowed::Millis { .. } | Allowed::Count { .. } => {
                    let number: u64 = self.get(param).parse().expect("numeric parameter prints digits");
                    map.serialize_entry(param.json_name(), &number)?
                }
            }
        }
        map.end()
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

    #[test]
    fn defaults_are_the_opening_settings() {
        let s = Settings::default();
        assert_eq!(s.fault(), Fault::LoseFirst);
        assert!(s.dedup());
        assert_eq!(s.retention(), Millis(60_000));
        assert_eq!(s.response_transit(), Millis(50));
    }

    #[test]
    fn every_parameter_round_trips_through_its_text() {
        let s =
            Settings::from_pairs(&[(Param::Dedup, "off"), (Param::Jitter, "full"), (Param::TimeoutMs, "1")]).unwrap();
        for param in Param::ALL {
            let mut copy = Settings::default();
            copy.set(param, &s.get(param)).unwrap();
            assert_eq!(copy.get(param), s.get(param), "{param:?}");
        }
    }

    #[test]
    fn refusals_name_the_parameter_value_and_allowed_range() {
        let err = Settings::from_pairs(&[(Param::TimeoutMs, "0")]).unwrap_err();
        assert_eq!(err.problem, Problem::OutOfRange);
        assert_eq!(
            err.message("--timeout-ms"),
            "--timeout-ms: 0 is out of range; allowed: a whole number of milliseconds from 1 to 600000"
        );
        let err = Settings::from_pairs(&[(Param::Fault, "lose-some")]).unwrap_err();
        assert!(err.message("--fault").contains("one of none, lose-first, lose-all, first-503, reject-400"));
        let err = Settings::from_pairs(&[(Param::MaxAttempts, "3.5")]).unwrap_err();
        assert_eq!(err.problem, Problem::NotANumber);
        let err = Settings::from_pairs(&[(Param::RetentionMs, "99999999999999999999999")]).unwrap_err();
        assert_eq!(err.problem, Problem::OutOfRange);
        let err = Settings::from_pairs(&[(Param::ExecMs, "-1")]).unwrap_err();
        assert_eq!(err.problem, Problem::NotANumber);
    }

    #[test]
    fn lenient_parsing_keeps_every_good_value() {
        let mut raw = RawSettings::default();
        raw.set(Param::TimeoutMs, "nope");
        raw.set(Param::ExecMs, "500");
        let (s, errors) = Settings::from_raw_lenient(&raw);
        assert_eq!(s.exec(), Millis(500));
        assert_eq!(s.timeout(), Settings::default().timeout());
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].param, Param::TimeoutMs);
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
    }

    #[test]
    fn long_values_are_shortened_in_messages() {
        let err = Settings::from_pairs(&[(Param::Key, &"x".repeat(10_000))]).unwrap_err();
        assert!(err.message("key").len() < 200);
    }
}
