//! How each parameter appears in the browser: its label, its control, its
//! URL name, and the conversion between what a person types (seconds) and
//! what the core takes (milliseconds).

use crate::sim::settings::{FieldError, Param, Problem, Settings, ms_to_seconds_text, seconds_to_ms};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    /// A select; each option is (core value, visible label).
    Select(&'static [(&'static str, &'static str)]),
    /// A checkbox; the core values when checked and unchecked.
    Checkbox { on: &'static str, off: &'static str },
    /// A number of seconds, converted exactly to milliseconds.
    Seconds,
    /// A plain whole number.
    Count,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    pub param: Param,
    /// The visible label, which is also the accessible name.
    pub label: &'static str,
    pub control: Control,
    /// Shown under the "Advanced" disclosure.
    pub advanced: bool,
    /// The short name in shared links.
    pub url: &'static str,
    /// The element id of the control.
    pub id: &'static str,
}

pub const FAULT_OPTIONS: &[(&str, &str)] = &[
    ("none", "No response fault"),
    ("lose-first", "Lose first success response"),
    ("lose-all", "Lose all success responses"),
    ("first-503", "First attempt gets 503"),
    ("reject-400", "Reject input with 400"),
];

pub const KEY_OPTIONS: &[(&str, &str)] =
    &[("stable", "Reuse logical intent key"), ("per-attempt", "New key for every attempt")];

/// Every parameter, in the order the form shows them.
pub const FIELDS: [Field; 12] = [
    Field {
        param: Param::Fault,
        label: "Response fault",
        control: Control::Select(FAULT_OPTIONS),
        advanced: false,
        url: "fault",
        id: "f-fault",
    },
    Field {
        param: Param::Dedup,
        label: "Server deduplicates operation keys",
        control: Control::Checkbox { on: "on", off: "off" },
        advanced: false,
        url: "dedup",
        id: "f-dedup",
    },
    Field {
        param: Param::Key,
        label: "Retry key",
        control: Control::Select(KEY_OPTIONS),
        advanced: false,
        url: "key",
        id: "f-key",
    },
    Field {
        param: Param::RetentionMs,
        label: "Stored-result retention",
        control: Control::Seconds,
        advanced: false,
        url: "retention",
        id: "f-retention",
    },
    Field {
        param: Param::TimeoutMs,
        label: "Timeout per attempt",
        control: Control::Seconds,
        advanced: false,
        url: "timeout",
        id: "f-timeout",
    },
    Field {
        param: Param::ExecMs,
        label: "Server execution time",
        control: Control::Seconds,
        advanced: false,
        url: "exec",
        id: "f-exec",
    },
    Field {
        param: Param::MaxAttempts,
        label: "Maximum total attempts",
        control: Control::Count,
        advanced: false,
        url: "attempts",
        id: "f-attempts",
    },
    Field {
        param: Param::InitialDelayMs,
        label: "Initial retry delay",
        control: Control::Seconds,
        advanced: false,
        url: "delay",
        id: "f-delay",
    },
    Field {
        param: Param::Jitter,
        label: "Deterministic full-jitter example",
        control: Control::Checkbox { on: "full", off: "off" },
        advanced: false,
        url: "jitter",
        id: "f-jitter",
    },
    Field {
        param: Param::BackoffCapMs,
        label: "Backoff cap",
        control: Control::Seconds,
        advanced: true,
        url: "cap",
        id: "f-cap",
    },
    Field {
        param: Param::RequestTransitMs,
        label: "Request transit",
        control: Control::Seconds,
        advanced: true,
        url: "req",
        id: "f-req",
    },
    Field {
        param: Param::ResponseTransitMs,
        label: "Response transit",
        control: Control::Seconds,
        advanced: true,
        url: "resp",
        id: "f-resp",
    },
];

pub fn field(param: Param) -> &'static Field {
    FIELDS.iter().find(|f| f.param == param).expect("every parameter has a field")
}

impl Field {
    /// The control's value for `settings`: seconds for durations, the core
    /// value for selects and checkboxes.
    pub fn value(&self, settings: &Settings) -> String {
        let core = settings.get(self.param);
        match self.control {
            Control::Seconds => ms_to_seconds_text(core.parse().expect("durations print digits")),
            _ => core,
        }
    }

    /// What the control accepts, in the control's own units.
    pub fn allowed(&self) -> String {
        let (min, max) = self.param.allowed().range().unwrap_or((0, 0));
        match self.control {
            Control::Seconds => format!("{} to {} seconds", ms_to_seconds_text(min), ms_to_seconds_text(max)),
            Control::Count => format!("a whole number from {min} to {max}"),
            Control::Select(options) => {
                let labels: Vec<&str> = options.iter().map(|(_, label)| *label).collect();
                format!("one of {}", labels.join(", "))
            }
            Control::Checkbox { on, off } => format!("{on} or {off}"),
        }
    }

    /// Validates `text` as typed into this control (or given in a link under
    /// `name`) and applies it to `settings`. On refusal `settings` is
    /// untouched and the message names `name`, the value and what is allowed.
    pub fn apply(&self, settings: &mut Settings, text: &str, name: &str) -> Result<(), String> {
        let trimmed = text.trim();
        let core_text = match self.control {
            Control::Seconds => {
                if trimmed.is_empty() {
                    return Err(self.refusal(text, Problem::Missing, name));
                }
                match seconds_to_ms(trimmed) {
                    Some(ms) => ms.to_string(),
                    None => {
                        return Err(format!(
                            "{name}: \"{}\" is not a number of seconds with at most three decimals; allowed: {}",
                            crate::sim::settings::shorten(text),
                            self.allowed()
                        ));
                    }
                }
            }
            Control::Select(options) => {
                // Links and files may carry the core value; forms carry it too.
                match options.iter().find(|(value, _)| *value == trimmed) {
                    Some((value, _)) => (*value).to_owned(),
                    None => return Err(self.refusal(text, Problem::UnknownChoice, name)),
                }
            }
            Control::Checkbox { .. } | Control::Count => trimmed.to_owned(),
        };
        let mut candidate = settings.clone();
        match candidate.set(self.param, &core_text) {
            Ok(()) => {
                *settings = candidate;
                Ok(())
            }
            Err(e) => Err(self.refusal(text, e.problem, name)),
        }
    }

    fn refusal(&self, text: &str, problem: Problem, name: &str) -> String {
        let allowed = match self.control {
            // Links spell select values the core's way.
            Control::Select(options) => {
                let values: Vec<&str> = options.iter().map(|(v, _)| *v).collect();
                format!("one of {}", values.join(", "))
            }
            _ => self.allowed(),
        };
        FieldError { param: self.param, value: text.to_owned(), problem }.message_with(name, &allowed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_fields_show_and_take_seconds() {
        let f = field(Param::TimeoutMs);
        let mut s = Settings::default();
        assert_eq!(f.value(&s), "3");
        f.apply(&mut s, "2.5", f.label).unwrap();
        assert_eq!(s.timeout().ms(), 2500);
        assert_eq!(f.allowed(), "0.001 to 600 seconds");
    }

    #[test]
    fn refusals_leave_settings_alone_and_say_what_is_allowed() {
        let f = field(Param::RetentionMs);
        let mut s = Settings::default();
        let before = s.clone();
        let err = f.apply(&mut s, "86401", f.label).unwrap_err();
        assert_eq!(err, "Stored-result retention: 86401 is out of range; allowed: 0 to 86400 seconds");
        assert_eq!(s, before);
        let err = f.apply(&mut s, "1e3", "retention").unwrap_err();
        assert!(err.starts_with("retention: \"1e3\" is not a number of seconds"), "{err}");
        let err = f.apply(&mut s, "", f.label).unwrap_err();
        assert!(err.contains("needs a value"), "{err}");
        let err = field(Param::MaxAttempts).apply(&mut s, "0", "Maximum total attempts").unwrap_err();
        assert_eq!(err, "Maximum total attempts: 0 is out of range; allowed: a whole number from 1 to 10");
        let err = field(Param::Fault).apply(&mut s, "<b>x</b>", "fault").unwrap_err();
        assert!(err.contains("one of none, lose-first"), "{err}");
    }

    #[test]
    fn every_param_has_exactly_one_field_with_unique_names() {
        for p in Param::ALL {
            assert_eq!(FIELDS.iter().filter(|f| f.param == p).count(), 1);
        }
        let mut urls: Vec<&str> = FIELDS.iter().map(|f| f.url).collect();
        urls.sort_unstable();
        urls.dedup();
        assert_eq!(urls.len(), FIELDS.len());
    }
}
