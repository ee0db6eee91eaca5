//! Retry budgets shared by every client of a run (one SDK client or one
//! channel serving them all):
//! - the AWS SDK token bucket: 500 tokens; a retry costs 5, a retry after a
//!   timeout costs 10; a success returns 1 (up to 500); no tokens, no retry;
//! - gRPC retry throttling: at most 10 tokens, token ratio 0.1; a failure
//!   costs 1, a success returns 0.1; retries only while tokens > 5.
//!
//! Tokens are kept in tenths, so the gRPC ratio needs no floating point.

use super::settings::Budget;

/// Why an attempt failed, as far as the budget cares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    TimedOut,
    /// A 429 or a 503.
    Refused,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RetryBudget {
    kind: Budget,
    /// In tenths of a token.
    tenths: u32,
}

const BUCKET_MAX: u32 = 5_000;
const GRPC_MAX: u32 = 100;

impl RetryBudget {
    pub fn new(kind: Budget) -> RetryBudget {
        let tenths = match kind {
            Budget::None => 0,
            Budget::TokenBucket => BUCKET_MAX,
            Budget::Grpc => GRPC_MAX,
        };
        RetryBudget { kind, tenths }
    }

    /// Tokens left, for charts and the mirror.
    pub fn tokens(&self) -> f64 {
        f64::from(self.tenths) / 10.0
    }

    /// An attempt failed; may the client retry? Spends what the budget
    /// charges either way.
    pub fn on_failure(&mut self, failure: Failure) -> bool {
        match self.kind {
            Budget::None => true,
            Budget::TokenBucket => {
                let cost = match failure {
                    Failure::TimedOut => 100,
                    Failure::Refused => 50,
                };
                if self.tenths >= cost {
                    self.tenths -= cost;
                    true
                } else {
                    false
                }
            }
            Budget::Grpc => {
                self.tenths = self.tenths.saturating_sub(10);
                self.tenths > GRPC_MAX / 2
            }
        }
    }

    /// An attempt succeeded.
    pub fn on_success(&mut self) {
        match self.kind {
            Budget::None => {}
            Budget::TokenBucket => self.tenths = (self.tenths + 10).min(BUCKET_MAX),
            Budget::Grpc => self.tenths = (self.tenths + 1).min(GRPC_MAX),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_token_bucket_allows_fifty_timeout_retries_then_refills_by_one() {
        let mut b = RetryBudget::new(Budget::TokenBucket);
        // 500 tokens, 10 per retry after a timeout: 50 retries.
        assert!((0..50).all(|_| b.on_failure(Failure::TimedOut)));
        assert!(!b.on_failure(Failure::TimedOut));
        for _ in 0..5 {
            b.on_success();
        }
        // 5 tokens: one retry after a 429 (cost 5), none after a timeout.
        assert!(!b.on_failure(Failure::TimedOut));
        assert!(b.on_failure(Failure::Refused));
        assert_eq!(b.tokens(), 0.0);
    }

    #[test]
    fn grpc_throttling_retries_only_above_half() {
        let mut b = RetryBudget::new(Budget::Grpc);
        // 10 tokens; failures cost 1; retries while tokens > 5.
        let allowed: Vec<bool> = (0..6).map(|_| b.on_failure(Failure::Refused)).collect();
        assert_eq!(allowed, [true, true, true, true, false, false]);
        assert_eq!(b.tokens(), 4.0);
        // Ten successes give back one token.
        for _ in 0..10 {
            b.on_success();
        }
        assert_eq!(b.tokens(), 5.0);
    }
}
