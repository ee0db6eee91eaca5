//! Retry storms in words and pictures.
