//! The CPU runtime for kernels compiled by clc.
//!
//! It launches compiled kernel entry points over an ND-range and must never
//! depend on LLVM or on the compiler crate, so that a program whose kernels
//! were compiled ahead of time stays small. The launcher, barriers and
//! local memory arrive with the runtime issue; until then this crate only
//! fixes its place in the workspace and the ND-range description the
//! launcher will take.

/// The shape of a launch: 1 to 3 dimensions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NdRange {
    pub dims: u32,
    pub global: [usize; 3],
    pub offset: [usize; 3],
    pub local: Option<[usize; 3]>,
}

impl NdRange {
    /// A 1-dimensional range of `n` work-items with no offset.
    pub fn linear(n: usize) -> NdRange {
        NdRange { dims: 1, global: [n, 1, 1], offset: [0; 3], local: None }
    }

    /// Total number of work-items.
    pub fn len(&self) -> usize {
        self.global.iter().product()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_range_counts_items() {
        let r = NdRange::linear(7);
        assert_eq!(r.len(), 7);
        assert!(!r.is_empty());
        assert!(NdRange::linear(0).is_empty());
    }
}
