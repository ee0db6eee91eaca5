//! Retry storms: the AWS table, invariants and the command line.
