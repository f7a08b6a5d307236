//! Runs of five on a row-bitboard, in all four line directions at once per row; shared by the
//! fast solvers of omok and gomoku-checker.
//!
//! A "start" is the cell a five-cell window begins at: its leftmost cell for `-`, `\` and `/`
//! (for `/` that is the bottom-left end) and its topmost for `|`. Bit `c` of `starts[d][r]`
//! is the window of direction `d` starting at row `r`, column `c`:
//! `-` covers (r, c+k), `|` (r+k, c), `\` (r+k, c+k), `/` (r-k, c+k), for k in 0..5.

/// Rows with five empty rows of padding on each side, so neighbours need no bounds checks.
struct Padded<const N: usize> {
    rows: [u32; 32],
}

impl<const N: usize> Padded<N> {
    #[inline(always)]
    fn new(rows: &[u32; N]) -> Self {
        let mut padded = [0u32; 32];
        padded[5..5 + N].copy_from_slice(rows);
        Padded { rows: padded }
    }

    /// Row `r` (may be -5..N+5).
    #[inline(always)]
    fn at(&self, r: usize) -> u32 {
        self.rows[r]
    }
}

/// Direction indices of [`Starts`].
pub const HORIZONTAL: usize = 0;
pub const VERTICAL: usize = 1;
pub const DIAGONAL: usize = 2; // `\`
pub const ANTI_DIAGONAL: usize = 3; // `/`

/// Window starts per direction and row.
pub type Starts<const N: usize> = [[u32; N]; 4];

/// Starts of five-cell windows all of one colour. With `exact`, only windows that are whole
/// runs (the cells just before and after are not of that colour): the exact fives.
///
/// Runs are built by doubling: pairs of a cell and its neighbour along the direction, then
/// two pairs two apart (four cells), then the fifth cell.
#[inline(always)]
pub fn five_starts<const N: usize>(rows: &[u32; N], exact: bool) -> Starts<N> {
    let p = Padded::<N>::new(rows);
    let full = (1u32 << N) - 1;
    let (vertical2, diagonal2, anti2) = pairs(&p);
    let mut starts = [[0u32; N]; 4];
    // `r` indexes the padded rows at several offsets and the four outputs: a range is clearer.
    #[allow(clippy::needless_range_loop)]
    for r in 0..N {
        let i = r + 5; // index of row r in the padded array
        let x = p.at(i);
        let h2 = x & x >> 1;
        let mut h = h2 & h2 >> 2 & x >> 4;
        let mut v = vertical2[i] & vertical2[i + 2] & p.at(i + 4);
        let mut d = diagonal2[i] & diagonal2[i + 2] >> 2 & p.at(i + 4) >> 4;
        // `/` from its bottom-left end (r, c) up-right: pairs (r-1, c+1)-(r, c) are stored at
        // row r-1 as "cell and its down-left neighbour", shifted to column c.
        let mut a = (anti2[i - 1] >> 1) & (anti2[i - 3] >> 3) & p.at(i - 4) >> 4;
        if exact {
            h &= !(x << 1) & !(x >> 5);
            v &= !p.at(i - 1) & !p.at(i + 5);
            d &= !(p.at(i - 1) << 1) & !(p.at(i + 5) >> 5);
            a &= !(p.at(i + 1) << 1) & !(p.at(i - 5) >> 5);
        }
        starts[HORIZONTAL][r] = h & full;
        starts[VERTICAL][r] = v & full;
        starts[DIAGONAL][r] = d & full;
        starts[ANTI_DIAGONAL][r] = a & full;
    }
    starts
}

/// Per padded row `i`: cell (r, c) and the cell below it (`|`), below-right (`\`, at bit c),
/// and below-left (`/`, at bit c).
#[inline(always)]
fn pairs<const N: usize>(p: &Padded<N>) -> ([u32; 32], [u32; 32], [u32; 32]) {
    let (mut vertical2, mut diagonal2, mut anti2) = ([0u32; 32], [0u32; 32], [0u32; 32]);
    for i in 1..5 + N + 4 {
        let (x, below) = (p.at(i), p.at(i + 1));
        vertical2[i] = x & below;
        diagonal2[i] = x & below >> 1;
        anti2[i] = x & below << 1;
    }
    (vertical2, diagonal2, anti2)
}

/// Does `rows` hold five (or more) in a row anywhere? Faster than [`five_starts`] when only
/// the yes/no is needed: runs are built by doubling (pairs, then fours, then fives) and
/// OR-ed together with no stores.
#[inline(always)]
pub fn any_five<const N: usize>(rows: &[u32; N]) -> bool {
    if rows.iter().map(|r| r.count_ones()).sum::<u32>() < 5 {
        return false;
    }
    let p = Padded::<N>::new(rows);
    let (vertical2, diagonal2, anti2) = pairs(&p);
    let mut found = 0u32;
    for i in 5..5 + N {
        let x = p.at(i);
        let h2 = x & x >> 1;
        found |= h2 & h2 >> 2 & x >> 4;
        found |= vertical2[i] & vertical2[i + 2] & p.at(i + 4);
        found |= diagonal2[i] & diagonal2[i + 2] >> 2 & p.at(i + 4) >> 4;
        found |= anti2[i] & anti2[i + 2] << 2 & p.at(i + 4) << 4;
    }
    found != 0
}
