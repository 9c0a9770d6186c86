//! The benchmarks are separate binaries; this one only says how to run them.
fn main() {
    eprintln!(
        "clc-bench: run a benchmark binary instead, e.g.\n  \
         cargo build --release -p clc && cargo run --release -p clc-bench --bin frontend -- [--lines N] [--reps N] [--clc PATH] [--json]\n  \
         cargo build --release -p clc && cargo run --release -p clc-bench --bin codegen -- [--reps N] [--units N] [--clc PATH] [--json]\n\
         See bench/README.md."
    );
}
