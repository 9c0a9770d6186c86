//! Reference values for the math accuracy test (`tests/math_accuracy.rs`):
//! glibc's x87 `long double` functions, through `math/reference.c`
//! (compiled by `build.rs`).

unsafe extern "C" {
    fn clc_math_reference(op: i32, count: usize, x: *const f64, y: *const f64, n: *const i32, hi: *mut f64, lo: *mut f64);
}

/// `op` (an index into `reference.c`'s enum) of `x[i]` (and `y[i]`,
/// `n[i]`) computed in `long double`, as pairs `(hi, lo)`: the double
/// nearest the result and the remainder.
pub fn long_double(op: i32, x: &[f64], y: &[f64], n: &[i32]) -> Vec<(f64, f64)> {
    assert!(y.len() == x.len() && n.len() == x.len(), "one y and one n per x");
    let mut hi = vec![0.0; x.len()];
    let mut lo = vec![0.0; x.len()];
    // SAFETY: every slice holds `x.len()` elements; the function reads and
    // writes `count` elements of each.
    unsafe { clc_math_reference(op, x.len(), x.as_ptr(), y.as_ptr(), n.as_ptr(), hi.as_mut_ptr(), lo.as_mut_ptr()) };
    hi.into_iter().zip(lo).collect()
}
