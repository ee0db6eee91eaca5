//! The risk-review lab in words and pictures.
