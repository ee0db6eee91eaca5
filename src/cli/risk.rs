//! `idempotency-lab risk`: the risk-review lab on the command line.

use super::args::UsageError;

pub fn command(_args: &[String]) -> Result<String, UsageError> {
    Err(UsageError("the risk lab is not available yet".to_owned()))
}

pub fn bench() -> String {
    String::new()
}
