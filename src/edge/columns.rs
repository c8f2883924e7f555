//! What a column of a slice can become, numbered: the digits of a slice's memo key.

use crate::grid::MAX_COLOURS;

/// A set of a column's starting tiles that no position can leave.
pub(super) const NONE: u16 = u16::MAX;

/// Numbers what each set of a column's starting tiles (a mask, bit `i` the `i`-th tile
/// from the bottom) leaves in the column: two sets leaving the same colours, bottom to
/// top, get the same number, so the relaxed optimum is remembered once for them. Only what
/// the column can become is numbered (the rest get [`NONE`]): a move takes from a column
/// some whole runs (same-colour tiles one above the other) of one colour, so that is what
/// the closure from the full column follows. Returns the numbers by mask and how many
/// there are (`None` if there are too many to number in 16 bits).
pub(super) fn column_classes(col: &[u8]) -> Option<(Vec<u16>, usize)> {
    let h = col.len();
    // the lowest set of starting tiles leaving what `m` leaves (the colours matched
    // bottom up, each to the first tile of its colour)
    let canon = |m: u32| -> u32 {
        let mut out = 0;
        let mut i = 0;
        for j in 0..h {
            if m >> j & 1 == 1 {
                while col[i] != col[j] {
                    i += 1;
                }
                out |= 1 << i;
                i += 1;
            }
        }
        out
    };
    let mut number = vec![NONE; 1 << h];
    let full = (1u32 << h) - 1;
    let mut seen = vec![full];
    number[full as usize] = 0;
    let mut next = 0;
    while next < seen.len() {
        let m = seen[next];
        next += 1;
        // the runs of what `m` leaves, as masks, with their colours
        let mut runs: Vec<(u8, u32)> = Vec::new();
        for (j, &cj) in col.iter().enumerate() {
            if m >> j & 1 == 1 {
                match runs.last_mut() {
                    Some((c, r)) if *c == cj => *r |= 1 << j,
                    _ => runs.push((cj, 1 << j)),
                }
            }
        }
        for colour in 0..MAX_COLOURS as u8 {
            let mine: Vec<u32> = runs.iter().filter(|r| r.0 == colour).map(|r| r.1).collect();
            for sub in 1u32..1 << mine.len() {
                let taken = (0..mine.len())
                    .filter(|&i| sub >> i & 1 == 1)
                    .fold(0, |a, i| a | mine[i]);
                let c = canon(m & !taken);
                if number[c as usize] == NONE {
                    if seen.len() >= NONE as usize {
                        return None; // too many to number
                    }
                    number[c as usize] = seen.len() as u16;
                    seen.push(c);
                }
            }
        }
    }
    let numbered = seen.len();
    let class = (0..1u32 << h).map(|m| number[canon(m) as usize]).collect();
    Some((class, numbered))
}
