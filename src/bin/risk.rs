//! The risk-review lab's bundle: the page that hosts every lab mounts it.
idempotency_lab::lab_bundle!(idempotency_lab::view::risk::RiskLab, idempotency_lab::ui::risk::RiskApp);
