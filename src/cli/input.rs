//! Every file the command line reads, and its standard input, is read
//! here: at most a limit's worth of bytes, so an endless or huge source
//! (`/dev/zero`, a sparse file of gigabytes) costs the limit and no more,
//! and is refused with the limit in the message.

use std::fmt;
use std::io::Read;

/// Why a source could not be read whole.
#[derive(Debug)]
pub enum InputError {
    /// It could not be opened or read.
    Unreadable(std::io::Error),
    /// It holds more than `limit` bytes (reading stopped there).
    TooLong { limit: usize },
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::Unreadable(e) => write!(f, "cannot be read ({e})"),
            InputError::TooLong { limit } => write!(f, "is longer than {limit} bytes (the limit), so it was not read"),
        }
    }
}

/// Reads the file at `source` (`-`: standard input) whole, if it holds at
/// most `limit` bytes; never more than `limit + 1` bytes are read.
pub fn read_bounded(source: &str, limit: usize) -> Result<Vec<u8>, InputError> {
    if source == "-" {
        return read_at_most(std::io::stdin().lock(), limit);
    }
    let file = std::fs::File::open(source).map_err(InputError::Unreadable)?;
    read_at_most(file, limit)
}

fn read_at_most(reader: impl Read, limit: usize) -> Result<Vec<u8>, InputError> {
    let mut bytes = Vec::new();
    // One byte past the limit tells a source of exactly `limit` bytes from
    // a longer one.
    reader.take(limit as u64 + 1).read_to_end(&mut bytes).map_err(InputError::Unreadable)?;
    if bytes.len() > limit {
        return Err(InputError::TooLong { limit });
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_endless_source_is_read_to_the_limit_and_refused() {
        let endless = std::io::repeat(b'{');
        let err = read_at_most(endless, 1_000).unwrap_err();
        assert_eq!(err.to_string(), "is longer than 1000 bytes (the limit), so it was not read");
    }

    #[test]
    fn a_source_of_exactly_the_limit_is_read_whole() {
        assert_eq!(read_at_most(&b"abc"[..], 3).unwrap(), b"abc");
        assert!(matches!(read_at_most(&b"abcd"[..], 3), Err(InputError::TooLong { limit: 3 })));
    }

    #[test]
    fn a_missing_file_says_why() {
        let err = read_bounded("/nonexistent/settings.json", 10).unwrap_err();
        assert!(err.to_string().starts_with("cannot be read ("), "{err}");
    }
}
