//! How the risk lab names things: the incident's wall clock, and ids as the
//! incident report writes them (R10086, O20260728001, u-1001).

use crate::sim::Millis;
use crate::sim::risk::facts::{BusinessKey, CallId, LockName, OrderId, RequestKey, ReviewRef, RowId, UserId};

/// Model time 0 on the wall clock: 10:31:08.120, the first tool call of
/// the incident report, in milliseconds after midnight.
pub const CLOCK_ORIGIN_MS: u64 = ((10 * 60 + 31) * 60 + 8) * 1000 + 120;

const DAY_MS: u64 = 24 * 60 * 60 * 1000;

/// The wall clock at model time `t`, `HH:MM:SS.mmm` (past midnight it
/// wraps, as a clock does).
pub fn clock(t: Millis) -> String {
    let ms = (CLOCK_ORIGIN_MS + t.ms() % DAY_MS) % DAY_MS;
    let (h, m, s, milli) = (ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000);
    format!("{h:02}:{m:02}:{s:02}.{milli:03}")
}

/// Both readings of a moment: "10:31:10.742 (2.622 s)".
pub fn when(t: Millis) -> String {
    format!("{} ({t})", clock(t))
}

pub fn row(id: RowId) -> String {
    format!("R{}", id.0)
}

pub fn order(id: OrderId) -> String {
    format!("O20260728{:03}", id.0)
}

pub fn user(id: UserId) -> String {
    format!("u-{}", id.0)
}

pub fn request_key(key: RequestKey) -> String {
    format!("rk-{:04}", key.0)
}

/// order_id + review_type + active_generation.
pub fn business_key(key: BusinessKey) -> String {
    format!("{}:risk:{}", order(key.order), key.generation)
}

pub fn review(id: ReviewRef) -> String {
    format!("RV-{}", id.0)
}

pub fn call(id: CallId) -> String {
    format!("call {}", id.0)
}

/// A replica's lock, named after the key it guards.
pub fn lock(name: LockName) -> String {
    match name {
        LockName::BusinessKey(key) => format!("business_key:{}", business_key(key)),
        LockName::RequestKey(key) => format!("request_key:{}", request_key(key)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn model_time_zero_is_the_first_call_of_the_report() {
        assert_eq!(clock(Millis(0)), "10:31:08.120");
        assert_eq!(clock(Millis(121)), "10:31:08.241");
        assert_eq!(clock(Millis(3_880)), "10:31:12.000");
        assert_eq!(clock(Millis(4_411)), "10:31:12.531");
        assert_eq!(clock(Millis(DAY_MS)), "10:31:08.120");
        assert_eq!(when(Millis(2_622)), "10:31:10.742 (2.622 s)");
        assert_eq!(order(OrderId(1)), "O20260728001");
        assert_eq!(business_key(BusinessKey { order: OrderId(999), generation: 1 }), "O20260728999:risk:1");
        assert_eq!(business_key(BusinessKey { order: OrderId(1), generation: 2 }), "O20260728001:risk:2");
        assert_eq!(request_key(RequestKey(7)), "rk-0007");
    }
}
