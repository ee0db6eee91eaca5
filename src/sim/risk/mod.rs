//! The risk-review lab (RISK-MODEL.md).
