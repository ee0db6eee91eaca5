//! Retry storms: many clients (STORMS.md).
