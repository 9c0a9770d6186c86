//! Long fuzzing runs: `cargo run --release -p clc-tests --bin fuzz -- [seconds] [seed]`.
//! Prints the number of executions; on a failure writes the input to
//! `fuzz-failure.cl` and exits 1. With `CLC_FUZZ_TRACE=FILE` each input is
//! written to FILE before it runs (for an abort, which leaves no report). An
//! input running over a minute is a hang: it goes to `fuzz-failure.cl`, exit 1.

use std::time::Duration;

fn main() {
    let mut args = std::env::args().skip(1);
    let seconds: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(60);
    let seed: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let seeds = clc_tests::fuzz::corpus_seeds();
    println!("fuzzing for {seconds} s from seed {seed} with {} corpus seeds", seeds.len());
    match clc_tests::fuzz::fuzz(seed, u64::MAX, Duration::from_secs(seconds), &seeds) {
        Ok(s) => println!(
            "{} executions, {} bytes, {} diagnostics, slowest case {:?}: no panic, no hang",
            s.cases, s.bytes, s.diagnostics, s.slowest
        ),
        Err((input, msg)) => {
            let _ = std::fs::write("fuzz-failure.cl", &input);
            eprintln!("panic: {msg}\ninput written to fuzz-failure.cl");
            std::process::exit(1);
        }
    }
}
