//! Helpers shared by the data-driven tests in `tests/tests/`: each area
//! (`pp`, `parse`, `diagnostics`, `corpus`) has one `check` function that
//! runs the pipeline up to its stage and renders the result as text, so the
//! tests lock in behaviour, not internal APIs.
