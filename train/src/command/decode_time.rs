//! `train decode-time`: how long the compiled weights take to decode.

use othello::eval::pattern;
use std::time::Instant;

/// `train decode-time`: decodes the compiled weights once and says how
/// long it took.
pub fn run() -> Result<(), String> {
    let start = Instant::now();
    pattern::tables();
    println!(
        "decoded the weights in {:.1} ms",
        start.elapsed().as_secs_f64() * 1e3
    );
    Ok(())
}
