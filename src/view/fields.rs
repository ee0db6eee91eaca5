//! How each parameter appears in the form: its control, its element id, the
//! text it shows, and the one way a typed value is checked and applied.
//! Everything comes from the parameter's [`ParamDef`]; nothing is listed
//! twice.

use crate::sim::params::{Kind, Opt, ParamDef, Schema};

/// The form control for a parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    /// A select over the parameter's options.
    Select(&'static [Opt]),
    /// A checkbox, ticked for `on`.
    Checkbox { on: &'static str, off: &'static str },
    /// A number of seconds, converted exactly to milliseconds ("off" too,
    /// where the parameter allows it).
    Seconds,
    /// A plain whole number.
    Count,
    /// Free text the parameter parses (a list of aimed faults).
    Text,
}

pub fn control(param: &ParamDef) -> Control {
    match param.kind {
        Kind::Choice(options) => Control::Select(options),
        Kind::Switch { on, off } => Control::Checkbox { on, off },
        Kind::Millis { .. } | Kind::MillisOrOff { .. } | Kind::Moment => Control::Seconds,
        // A page's own link parameters never appear in a form.
        Kind::Count { .. } | Kind::CountOrAuto { .. } | Kind::Flag | Kind::Colour => Control::Count,
        Kind::Aimed { .. } => Control::Text,
    }
}

/// The keyboard a text field asks a phone for: numbers, unless the
/// parameter takes words (a list of faults, `auto`).
pub fn input_mode(param: &ParamDef) -> &'static str {
    let words = control(param) == Control::Text || matches!(param.kind, Kind::CountOrAuto { .. });
    if words { "text" } else { "decimal" }
}

/// The element id of a parameter's control.
pub fn element_id(param: &ParamDef) -> String {
    format!("f-{}", param.link)
}

/// The control's text for `settings`: seconds for durations, the value's
/// name for choices and switches.
pub fn value<S: Schema>(param: &ParamDef, settings: &S) -> String {
    param.format_human(settings.get(param))
}

/// What the control accepts, in the control's own units, for its hint.
pub fn hint(param: &ParamDef) -> String {
    match param.kind {
        Kind::Millis { .. } => format!("seconds; {}", param.allowed_human()),
        Kind::MillisOrOff { .. } => format!("seconds or off; {}", param.allowed_human()),
        Kind::Count { min, max } => format!("a whole number from {min} to {max}"),
        Kind::CountOrAuto { min, max } => format!("auto (the preset's) or a whole number from {min} to {max}"),
        Kind::Choice(options) => {
            format!("one of {}", options.iter().map(|o| o.label).collect::<Vec<_>>().join(", "))
        }
        Kind::Switch { on, off } => format!("{on} or {off}"),
        Kind::Flag | Kind::Colour | Kind::Moment | Kind::Aimed { .. } => param.allowed(),
    }
}

/// A value in words, as a sentence names it: the option's label for a
/// choice, "on"/"off" for a switch, "2.5 s" for a duration.
pub fn value_words(param: &ParamDef, value: u64) -> String {
    match param.kind {
        Kind::Choice(options) => options.get(value as usize).map_or_else(|| value.to_string(), |o| o.label.to_owned()),
        Kind::MillisOrOff { .. } if value == 0 => "off".to_owned(),
        Kind::Millis { .. } | Kind::MillisOrOff { .. } => format!("{} s", param.format_human(value)),
        Kind::Aimed { .. } if value == 0 => "the preset's own".to_owned(),
        _ => param.format_human(value),
    }
}

/// Every setting that differs between `a` and `b`, as
/// "Retry key: Reuse logical intent key → New key for every attempt".
pub fn changes<S: Schema>(a: &S, b: &S) -> Vec<String> {
    S::PARAMS
        .iter()
        .zip(a.values().iter().zip(b.values()))
        .filter(|(_, (x, y))| x != y)
        .map(|(param, (&x, &y))| format!("{}: {} → {}", param.label, value_words(param, x), value_words(param, y)))
        .collect()
}

/// Validates `text` as typed into the control (or given in a link under
/// `name`) and returns `settings` with it applied. On refusal the message
/// names `name`, the value and what is allowed.
pub fn apply<S: Schema>(param: &'static ParamDef, settings: &S, text: &str, name: &str) -> Result<S, String> {
    let value = param.parse_human(text).map_err(|e| e.human_message(name))?;
    // A cross-field check may refuse another parameter's value: name that one.
    settings.with(param, value).map_err(|e| {
        let name = if e.param.name == param.name { name } else { e.param.label };
        e.human_message(name)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::ack::Settings;
    use crate::sim::ack::settings::{DEADLINE, FAULT, MAX_ATTEMPTS_PARAM, PARAMS, RETENTION, TIMEOUT};

    #[test]
    fn seconds_fields_show_and_take_seconds() {
        let s = Settings::default();
        assert_eq!(value(&TIMEOUT, &s), "3");
        let s = apply(&TIMEOUT, &s, "2.5", TIMEOUT.label).unwrap();
        assert_eq!(s.timeout().ms(), 2500);
        assert_eq!(hint(&TIMEOUT), "seconds; 0.001 to 600 seconds");
        let s = apply(&DEADLINE, &s, "5", DEADLINE.label).unwrap();
        assert_eq!(value(&DEADLINE, &s), "5");
        let s = apply(&DEADLINE, &s, "off", DEADLINE.label).unwrap();
        assert_eq!(s.client.deadline, None);
    }

    #[test]
    fn refusals_say_what_is_allowed() {
        let s = Settings::default();
        let err = apply(&RETENTION, &s, "86401", RETENTION.label).unwrap_err();
        assert_eq!(err, "Stored-result retention: 86401 is out of range; allowed: 0 to 86400 seconds");
        let err = apply(&RETENTION, &s, "1e3", "retention").unwrap_err();
        assert!(err.starts_with("retention: \"1e3\" is not a number of seconds"), "{err}");
        let err = apply(&RETENTION, &s, "", RETENTION.label).unwrap_err();
        assert!(err.contains("needs a value"), "{err}");
        let err = apply(&MAX_ATTEMPTS_PARAM, &s, "0", "Maximum total attempts").unwrap_err();
        assert_eq!(err, "Maximum total attempts: 0 is out of range; allowed: a whole number from 1 to 10");
        let err = apply(&FAULT, &s, "<b>x</b>", "fault").unwrap_err();
        assert!(err.contains("one of none, lose-first"), "{err}");
    }

    #[test]
    fn changes_name_each_differing_setting_in_words() {
        use crate::sim::ack::settings::{DEDUP, KEY};
        let a = Settings::default();
        let b = apply(&KEY, &apply(&DEDUP, &a, "off", "dedup").unwrap(), "per-attempt", "key").unwrap();
        assert_eq!(
            changes(&a, &b),
            [
                "Server deduplicates operation keys (idempotency keys): on → off",
                "Retry key: Reuse logical intent key → New key for every attempt"
            ]
        );
        let c = apply(&TIMEOUT, &a, "2.5", "timeout").unwrap();
        assert_eq!(changes(&a, &c), ["Timeout per attempt: 3 s → 2.5 s"]);
        assert!(changes(&a, &a).is_empty());
    }

    #[test]
    fn every_parameter_has_a_unique_element_id() {
        let mut ids: Vec<String> = PARAMS.iter().map(|p| element_id(p)).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), PARAMS.len());
    }
}
