//! Settings files: a JSON object of parameters under their JSON names, or a
//! whole exported run (whose `settings` object is used). Missing fields take
//! the defaults; anything unknown or out of range is refused with a message,
//! never guessed at.

use std::fmt;

use serde_json::Value;

use super::settings::{FieldError, Param, RawSettings, Settings, shorten};

/// Files larger than this are refused before parsing.
pub const MAX_FILE_BYTES: usize = 1 << 20;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileError {
    TooLarge { bytes: usize },
    NotUtf8,
    NotJson { detail: String },
    NotAnObject,
    UnknownField { name: String },
    WrongType { param: Param, found: &'static str },
    Field(FieldError),
}

fn allowed_fields() -> String {
    Param::ALL.iter().map(|p| p.json_name()).collect::<Vec<_>>().join(", ")
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileError::TooLarge { bytes } => {
                write!(f, "settings file is {bytes} bytes; allowed: at most {MAX_FILE_BYTES} bytes")
            }
            FileError::NotUtf8 => f.write_str("settings file is not UTF-8 text; allowed: a JSON object"),
            FileError::NotJson { detail } => {
                write!(f, "settings file is not valid JSON ({detail}); allowed: a JSON object")
            }
            FileError::NotAnObject => {
                f.write_str("settings file is valid JSON but not an object; allowed: a JSON object of settings")
            }
            FileError::UnknownField { name } => {
                write!(f, "settings file has an unknown field \"{}\"; allowed: {}", shorten(name), allowed_fields())
            }
            FileError::WrongType { param, found } => {
                write!(f, "settings file field {} is {found}; allowed: {}", param.json_name(), param.allowed())
            }
            FileError::Field(e) => {
                write!(f, "settings file field {}", e.message(e.param.json_name()))
            }
        }
    }
}

impl std::error::Error for FileError {}

fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Parses settings from the bytes of a file.
pub fn parse_settings_file(bytes: &[u8]) -> Result<Settings, FileError> {
    if bytes.len() > MAX_FILE_BYTES {
        return Err(FileError::TooLarge { bytes: bytes.len() });
    }
    let text = std::str::from_utf8(bytes).map_err(|_| FileError::NotUtf8)?;
    parse_settings_json(text)
}

/// Parses settings from JSON text.
pub fn parse_settings_json(text: &str) -> Result<Settings, FileError> {
    if text.len() > MAX_FILE_BYTES {
        return Err(FileError::TooLarge { bytes: text.len() });
    }
    let doc: Value = serde_json::from_str(text).map_err(|e| FileError::NotJson { detail: e.to_string() })?;
    let Value::Object(top) = doc else {
        return Err(FileError::NotAnObject);
    };
    // An exported run carries its settings under "settings"; everything else
    // in it is output, not input.
    let fields = match top.get("settings") {
        Some(Value::Object(inner)) => inner.clone(),
        Some(_) => return Err(FileError::NotAnObject),
        None => top,
    };
    let mut raw = RawSettings::default();
    for (name, value) in &fields {
        let Some(param) = Param::from_json_name(name) else {
            return Err(FileError::UnknownField { name: name.clone() });
        };
        let text = match value {
            Value::String(s) => s.clone(),
            Value::Number(n) => n.to_string(),
            Value::Bool(b) if param == Param::Dedup => if *b { "on" } else { "off" }.to_owned(),
            other => {
                return Err(FileError::WrongType { param, found: type_name(other) });
            }
        };
        raw.set(param, text);
    }
    Settings::try_from(&raw).map_err(FileError::Field)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::settings::Problem;
    use crate::sim::time::Millis;

    #[test]
    fn reads_a_settings_object_and_keeps_defaults_for_the_rest() {
        let s = parse_settings_json(r#"{"dedup": "off", "exec_ms": 500, "fault": "none"}"#).unwrap();
        assert!(!s.dedup());
        assert_eq!(s.exec(), Millis(500));
        assert_eq!(s.timeout(), Settings::default().timeout());
    }

    #[test]
    fn reads_the_settings_of_an_exported_run() {
        let s = parse_settings_json(r#"{"outcome": "succeeded", "settings": {"dedup": false}}"#).unwrap();
        assert!(!s.dedup());
    }

    #[test]
    fn refuses_what_it_does_not_understand() {
        assert!(matches!(parse_settings_json("{"), Err(FileError::NotJson { .. })));
        assert_eq!(parse_settings_json("[1]"), Err(FileError::NotAnObject));
        assert!(matches!(parse_settings_json(r#"{"timeout": 5}"#), Err(FileError::UnknownField { .. })));
        assert!(matches!(
            parse_settings_json(r#"{"exec_ms": 1.5}"#),
            Err(FileError::Field(FieldError { problem: Problem::NotANumber, .. }))
        ));
        assert!(matches!(parse_settings_json(r#"{"exec_ms": [1]}"#), Err(FileError::WrongType { .. })));
        let msg = parse_settings_json(r#"{"max_attempts": 11}"#).unwrap_err().to_string();
        assert_eq!(msg, "settings file field max_attempts: 11 is out of range; allowed: a whole number from 1 to 10");
        assert_eq!(parse_settings_file(&[0xff, 0xfe]), Err(FileError::NotUtf8));
    }
}
