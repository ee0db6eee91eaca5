//! `idempotency-lab storm`: retry storms on the command line.

use super::args::UsageError;

pub fn command(_args: &[String]) -> Result<String, UsageError> {
    Err(UsageError("the storm lab is not available yet".to_owned()))
}

pub fn bench(_runs: u64) -> String {
    String::new()
}
