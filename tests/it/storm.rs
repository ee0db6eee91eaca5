//! Retry storms: the AWS table against the published simulator's rules,
//! invariants, metastability and the command line.

mod aws;
mod cli;
mod growth;
mod properties;
