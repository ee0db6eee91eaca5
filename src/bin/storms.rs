//! The storm lab's bundle: the page that hosts every lab mounts it; its
//! engine runs in the storm worker (src/bin/storm-worker.rs).
idempotency_lab::lab_bundle!(idempotency_lab::view::storm::StormLab, idempotency_lab::ui::storm::StormsApp);
