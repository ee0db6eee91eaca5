//! Settings files: a JSON object of parameters under their names, or a whole
//! exported run (whose `settings` object is used). Missing fields take the
//! defaults; anything unknown or out of range is refused with a message,
//! never guessed at. Every lab's files go through here.

use std::fmt;

use super::json::{self, Json};

use super::params::{FieldError, Kind, ParamDef, Raw, Schema, shorten};
use super::time::Millis;

/// Files larger than this are refused before parsing.
pub const MAX_FILE_BYTES: usize = 1 << 20;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileError {
    TooLarge {
        bytes: usize,
    },
    NotUtf8,
    /// UTF-16 text (it starts with a UTF-16 byte-order mark).
    Utf16,
    NotJson {
        detail: String,
    },
    NotAnObject,
    /// An object names the same field twice (which one counts would be a
    /// guess).
    DuplicateField {
        name: String,
    },
    UnknownField {
        name: String,
        allowed: String,
    },
    WrongType {
        param: &'static ParamDef,
        found: &'static str,
    },
    Field(FieldError),
    /// Run B's settings in an exported comparison.
    InRunB(Box<FileError>),
    /// An exported comparison's fork point that is not a moment.
    Fork {
        value: String,
    },
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileError::TooLarge { bytes } => {
                write!(f, "settings file is {bytes} bytes; allowed: at most {MAX_FILE_BYTES} bytes")
            }
            FileError::NotUtf8 => f.write_str("settings file is not UTF-8 text; allowed: a JSON object"),
            FileError::Utf16 => {
                f.write_str("settings file is UTF-16 text; allowed: UTF-8 text (with or without a byte-order mark)")
            }
            FileError::DuplicateField { name } => {
                write!(f, "settings file has the field \"{}\" more than once; allowed: each field once", shorten(name))
            }
            FileError::NotJson { detail } => {
                write!(f, "settings file is not valid JSON ({detail}); allowed: a JSON object")
            }
            FileError::NotAnObject => {
                f.write_str("settings file is valid JSON but not an object; allowed: a JSON object of settings")
            }
            FileError::UnknownField { name, allowed } => {
                write!(f, "settings file has an unknown field \"{}\"; allowed: {allowed}", shorten(name))
            }
            FileError::WrongType { param, found } => {
                write!(f, "settings file field {} is {found}; allowed: {}", param.name, param.allowed())
            }
            FileError::Field(e) => write!(f, "settings file field {}", e.message(e.param.name)),
            FileError::InRunB(e) => write!(f, "run B: {e}"),
            FileError::Fork { value } => write!(
                f,
                "settings file field fork_ms is {}; allowed: a whole number of milliseconds within the run",
                shorten(value)
            ),
        }
    }
}

impl std::error::Error for FileError {}

/// Parses settings from the bytes of a file.
pub fn parse_settings_file<S: Schema>(bytes: &[u8]) -> Result<S, FileError> {
    parse_settings_json(file_text(bytes)?)
}

/// The text of a file the command line or the page reads, by one rule for
/// both: at most [`MAX_FILE_BYTES`], UTF-8, and a UTF-8 byte-order mark at
/// its start (as some editors write) is no part of the text.
pub fn file_text(bytes: &[u8]) -> Result<&str, FileError> {
    if bytes.len() > MAX_FILE_BYTES {
        return Err(FileError::TooLarge { bytes: bytes.len() });
    }
    if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) {
        return Err(FileError::Utf16);
    }
    let text = std::str::from_utf8(bytes).map_err(|_| FileError::NotUtf8)?;
    Ok(text.strip_prefix('\u{feff}').unwrap_or(text))
}

/// Parses settings from JSON text.
pub fn parse_settings_json<S: Schema>(text: &str) -> Result<S, FileError> {
    settings_from_value(&parse_document(text)?)
}

fn parse_document(text: &str) -> Result<Json, FileError> {
    if text.len() > MAX_FILE_BYTES {
        return Err(FileError::TooLarge { bytes: text.len() });
    }
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let doc = json::parse(text).map_err(|e| FileError::NotJson { detail: e.to_string() })?;
    match first_duplicate(&doc) {
        Some(name) => Err(FileError::DuplicateField { name: name.to_owned() }),
        None => Ok(doc),
    }
}

/// The first field any object of `doc` names twice, depth first.
fn first_duplicate(doc: &Json) -> Option<&str> {
    match doc {
        Json::Obj(fields) => {
            let mut seen = std::collections::HashSet::with_capacity(fields.len());
            fields
                .iter()
                .find(|(name, _)| !seen.insert(name.as_str()))
                .map(|(name, _)| name.as_str())
                .or_else(|| fields.iter().find_map(|(_, value)| first_duplicate(value)))
        }
        Json::Arr(items) => items.iter().find_map(first_duplicate),
        _ => None,
    }
}

/// What "Import settings" reads from a file: the settings, and from an
/// exported comparison also run B's settings and the moment B was forked
/// at.
#[derive(Clone, Debug, PartialEq)]
pub struct Imported<S> {
    pub settings: S,
    pub b: Option<S>,
    pub fork: Option<Millis>,
}

/// Parses a file for "Import settings": settings, an exported run, or an
/// exported comparison (`{"a": run, "b": run, "fork_ms"?, ...}`). A
/// comparison whose run B carries settings that are refused is refused
/// whole, with the field that was wrong.
pub fn parse_import<S: Schema>(text: &str) -> Result<Imported<S>, FileError> {
    let doc = parse_document(text)?;
    let settings = settings_from_value(&doc)?;
    let b = match (doc.get("a"), doc.get("b")) {
        (Some(_), Some(b)) => Some(settings_from_value(b).map_err(|e| FileError::InRunB(Box::new(e)))?),
        _ => None,
    };
    // Checked against the run where the run is known, as a link's is.
    let fork = match doc.get("fork_ms") {
        None | Some(Json::Null) => None,
        Some(Json::Num(ms)) => Some(Millis(ms.parse().map_err(|_| FileError::Fork { value: ms.clone() })?)),
        Some(other) => return Err(FileError::Fork { value: other.type_name().to_owned() }),
    };
    Ok(Imported { settings, b, fork })
}

/// Reads settings from a parsed document: an object of settings, an
/// exported run carrying them under `settings`, or an exported comparison
/// (run A's settings, under `a`).
pub fn settings_from_value<S: Schema>(doc: &Json) -> Result<S, FileError> {
    let Json::Obj(top) = doc else {
        return Err(FileError::NotAnObject);
    };
    // An exported run carries its settings under "settings", and a
    // comparison carries two runs, A's first; everything else in them is
    // output, not input.
    let fields = match doc.get("settings").or_else(|| doc.get("a").and_then(|a| a.get("settings"))) {
        Some(Json::Obj(inner)) => inner,
        Some(_) => return Err(FileError::NotAnObject),
        None => top,
    };
    let mut raw = Raw::<S>::core();
    for (name, value) in fields {
        let Some(param) = S::by_name(name) else {
            let allowed = S::PARAMS.iter().map(|p| p.name).collect::<Vec<_>>().join(", ");
            return Err(FileError::UnknownField { name: name.clone(), allowed });
        };
        let text = match (value, param.kind) {
            (Json::Str(s) | Json::Num(s), _) => s.clone(),
            (Json::Bool(b), Kind::Switch { off, on }) => if *b { on } else { off }.to_owned(),
            (other, _) => return Err(FileError::WrongType { param, found: other.type_name() }),
        };
        raw.set(param, text);
    }
    raw.validate().map_err(FileError::Field)
}
