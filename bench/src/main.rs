//! Benchmarks arrive with the front-end throughput measurement.
fn main() {}
