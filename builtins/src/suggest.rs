//! "Did you mean …?": the edit distance every suggestion in clc uses, for
//! builtin names, options and identifiers alike. It lives here because this
//! crate depends on nothing and everything depends on it.

/// Optimal-string-alignment distance: insertions, deletions,
/// substitutions and transpositions of neighbours (`sta` → `sat`) cost 1.
pub fn edit_distance(a: &str, b: &str) -> usize {
    distance(a, b, true)
}

/// Levenshtein distance: insertions, deletions and substitutions cost 1
/// (LLVM's `StringRef::edit_distance`, which clang's suggestions use).
pub fn levenshtein(a: &str, b: &str) -> usize {
    distance(a, b, false)
}

fn distance(a: &str, b: &str, transpositions: bool) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            d[i][j] = (d[i - 1][j] + 1).min(d[i][j - 1] + 1).min(d[i - 1][j - 1] + cost);
            if transpositions && i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
            }
        }
    }
    d[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::{edit_distance, levenshtein};

    #[test]
    fn transpositions_cost_one() {
        assert_eq!(edit_distance("sta", "sat"), 1);
        assert_eq!(edit_distance("get_globl_id", "get_global_id"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }

    #[test]
    fn levenshtein_counts_a_transposition_as_two() {
        assert_eq!(levenshtein("sta", "sat"), 2);
        assert_eq!(levenshtein("kitten", "sitting"), 3);
        assert_eq!(levenshtein("ed=", "odr"), 2);
    }
}
