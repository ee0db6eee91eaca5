//! The risk-review lab: scenarios, checks, properties and the real database.
