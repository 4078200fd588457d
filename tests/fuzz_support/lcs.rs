//! The line diff the edit properties check a result with, written independently of
//! the program's own: shared by the `edit_yaml` fuzz target and `tests/edit_corpus.rs`.

/// Indexes of the lines of `a` outside a longest common subsequence with `b` (common
/// head and tail trimmed, then dynamic programming over the middle).
pub fn removed_lines(a: &[&str], b: &[&str]) -> Vec<usize> {
    let head = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let tail = a[head..]
        .iter()
        .rev()
        .zip(b[head..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (a, b) = (&a[head..a.len() - tail], &b[head..b.len() - tail]);
    let mut lcs = vec![vec![0u32; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let (mut i, mut j, mut removed) = (0, 0, Vec::new());
    while i < a.len() {
        if j < b.len() && a[i] == b[j] {
            i += 1;
            j += 1;
        } else if j < b.len() && lcs[i][j + 1] > lcs[i + 1][j] {
            j += 1;
        } else {
            removed.push(head + i);
            i += 1;
        }
    }
    removed
}
