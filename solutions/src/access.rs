//! How a solver reads the cell at a signed coordinate, as a type parameter.
//!
//! Every reference solver reads neighbouring cells through one [`BoardAccess`]. With
//! [`Exact`] (a zero-sized type whose methods are `#[inline(always)]` bounds checks) it is the
//! reference; with any other model it is a known-wrong solution that stores or scans the board
//! the way real contestants do: Python's negative indices, a row-major flat array, a pad one
//! cell too thin, clamped coordinates, a bounds test with `&&` and `||` mixed up, stray memory
//! outside the board, scans that skip the first or last window, a scan that never looks at the
//! 5-cell corner diagonals, an "is it really a six?" check on the parallel line.
//!
//! [`models!`] lists every model once; each problem turns the list into named wrong solvers
//! (`access-…`, `scan-…`, `six-check-…`), except the ones it documents as equivalent (see
//! [`Equivalent`]).

/// What a read at a signed coordinate finds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Read {
    /// The board cell (row, column): the one asked for, or another one it aliases to.
    Cell(usize, usize),
    /// Nothing: the edge, a pad, a sentinel or zeroed memory — an empty cell.
    Nothing,
    /// Stray memory that happens to hold a stone of the first colour (black) or the second
    /// (white). Each problem maps these to its own cell values.
    Stray(Colour),
}

/// The two colours stray memory may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Colour {
    First,
    Second,
}

/// A line or ray direction (row step, column step), each step -1, 0 or 1.
pub type Dir = (i32, i32);

/// How a solver reads cells and which windows its scans look at. Every method has the correct
/// behaviour as its default except [`BoardAccess::read`].
pub trait BoardAccess: 'static {
    /// The name of the wrong solution this model makes (unused for [`Exact`]).
    const NAME: &'static str;
    /// What the contestant did, in a sentence.
    const DOES: &'static str;

    /// What reading (r, c) on an `n`×`n` board finds.
    fn read(r: i32, c: i32, n: i32) -> Read;

    /// Does the scan look at the run or window of `len` cells starting at `start` along `d`?
    #[inline(always)]
    fn scans(_start: (i32, i32), _d: Dir, _len: i32, _n: i32) -> bool {
        true
    }

    /// The cell actually read when a solver looks at `cell`, the cell just beyond the end of a
    /// run along `d` ("is the run longer?", "what closes the ray?").
    #[inline(always)]
    fn beyond(cell: (i32, i32), _d: Dir) -> (i32, i32) {
        cell
    }
}

#[inline(always)]
fn inside(r: i32, c: i32, n: i32) -> bool {
    (0..n).contains(&r) && (0..n).contains(&c)
}

#[inline(always)]
fn cell_or_nothing(r: i32, c: i32, n: i32) -> Read {
    if inside(r, c, n) {
        Read::Cell(r as usize, c as usize)
    } else {
        Read::Nothing
    }
}

/// Row-major flat index `i` of an `n`×`n` array, or what lies outside the array.
#[inline(always)]
fn flat(i: i32, n: i32, outside: Read) -> Read {
    if (0..n * n).contains(&i) {
        Read::Cell((i / n) as usize, (i % n) as usize)
    } else {
        outside
    }
}

/// The correct accessor: cells outside the board are empty.
#[derive(Clone, Copy, Debug, Default)]
pub struct Exact;

impl BoardAccess for Exact {
    const NAME: &'static str = "reference";
    const DOES: &'static str = "reads the board with bounds checks";
    #[inline(always)]
    fn read(r: i32, c: i32, n: i32) -> Read {
        cell_or_nothing(r, c, n)
    }
}

/// Declares a model: a zero-sized type with its name, description and methods.
macro_rules! model {
    ($(#[$doc:meta])* $ty:ident, $name:literal, $does:literal,
     read($r:ident, $c:ident, $n:ident) $read:block
     $(, scans($s:pat, $d:pat, $len:pat, $sn:pat) $scans:block)?
     $(, beyond($cell:pat, $bd:pat) $beyond:block)?) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default)]
        pub struct $ty;
        impl BoardAccess for $ty {
            const NAME: &'static str = $name;
            const DOES: &'static str = $does;
            #[inline(always)]
            fn read($r: i32, $c: i32, $n: i32) -> Read $read
            $(#[inline(always)]
            fn scans($s: (i32, i32), $d: Dir, $len: i32, $sn: i32) -> bool $scans)?
            $(#[inline(always)]
            fn beyond($cell: (i32, i32), $bd: Dir) -> (i32, i32) $beyond)?
        }
    };
}

model!(WrapNegative, "access-wrap-negative",
"Python's board[r][c] guarded only by r < n and c < n: index -1 is the last row or column",
read(r, c, n) {
    let wrap = |x: i32| if (-n..0).contains(&x) { x + n } else { x };
    cell_or_nothing(wrap(r), wrap(c), n)
});

model!(Flat, "access-flat",
    "a row-major flat array b[r*n+c] guarded by 0 <= i < n*n: column n is column 0 of the next row",
    read(r, c, n) { flat(r * n + c, n, Read::Nothing) });

model!(FlatStrayBlack, "access-flat-stray-black",
    "an unguarded row-major flat array; the memory before and after it holds black stones",
    read(r, c, n) { flat(r * n + c, n, Read::Stray(Colour::First)) });

model!(FlatStrayWhite, "access-flat-stray-white",
    "an unguarded row-major flat array; the memory before and after it holds white stones",
    read(r, c, n) { flat(r * n + c, n, Read::Stray(Colour::Second)) });

model!(FlatSentinelStrayBlack, "access-flat-sentinel-stray-black",
"a flat array of rows n+1 wide ending in an empty sentinel; reads above or below it find black",
read(r, c, n) {
    let w = n + 1;
    let i = r * w + c;
    if !(0..n * w).contains(&i) {
        Read::Stray(Colour::First)
    } else if i % w == n {
        Read::Nothing
    } else {
        Read::Cell((i / w) as usize, (i % w) as usize)
    }
});

model!(FlatSentinelStrayWhite, "access-flat-sentinel-stray-white",
"a flat array of rows n+1 wide ending in an empty sentinel; reads above or below it find white",
read(r, c, n) {
    let w = n + 1;
    let i = r * w + c;
    if !(0..n * w).contains(&i) {
        Read::Stray(Colour::Second)
    } else if i % w == n {
        Read::Nothing
    } else {
        Read::Cell((i / w) as usize, (i % w) as usize)
    }
});

/// A padded board whose pad is one cell too thin on one side: the read just past that side
/// finds what lies beyond the array there (the neighbouring row's far end for left and right,
/// stray memory for top and bottom), modelled as a stone of the given colour.
macro_rules! pad_thin {
    ($ty:ident, $name:literal, $does:literal, $side:expr, $colour:expr) => {
        model!($ty, $name, $does, read(r, c, n) {
            let (top, bottom, left, right) = $side;
            let past = (top && r == -1) || (bottom && r == n) || (left && c == -1) || (right && c == n);
            if past {
                Read::Stray($colour)
            } else {
                cell_or_nothing(r, c, n)
            }
        });
    };
}

pad_thin!(
    PadThinTopBlack,
    "access-pad-thin-top-black",
    "pad one cell too thin above the board: the row above finds black",
    (true, false, false, false),
    Colour::First
);
pad_thin!(
    PadThinTopWhite,
    "access-pad-thin-top-white",
    "pad one cell too thin above the board: the row above finds white",
    (true, false, false, false),
    Colour::Second
);
pad_thin!(
    PadThinBottomBlack,
    "access-pad-thin-bottom-black",
    "pad one cell too thin below the board: the row below finds black",
    (false, true, false, false),
    Colour::First
);
pad_thin!(
    PadThinBottomWhite,
    "access-pad-thin-bottom-white",
    "pad one cell too thin below the board: the row below finds white",
    (false, true, false, false),
    Colour::Second
);
pad_thin!(
    PadThinLeftBlack,
    "access-pad-thin-left-black",
    "pad one cell too thin left of the board: the column left of it finds black",
    (false, false, true, false),
    Colour::First
);
pad_thin!(
    PadThinLeftWhite,
    "access-pad-thin-left-white",
    "pad one cell too thin left of the board: the column left of it finds white",
    (false, false, true, false),
    Colour::Second
);
pad_thin!(
    PadThinRightBlack,
    "access-pad-thin-right-black",
    "pad one cell too thin right of the board: the column right of it finds black",
    (false, false, false, true),
    Colour::First
);
pad_thin!(
    PadThinRightWhite,
    "access-pad-thin-right-white",
    "pad one cell too thin right of the board: the column right of it finds white",
    (false, false, false, true),
    Colour::Second
);

model!(OffBlack, "access-off-board-black",
"no bounds check; every read outside the board finds a black stone",
read(r, c, n) {
    if inside(r, c, n) { Read::Cell(r as usize, c as usize) } else { Read::Stray(Colour::First) }
});

model!(OffWhite, "access-off-board-white",
"no bounds check; every read outside the board finds a white stone",
read(r, c, n) {
    if inside(r, c, n) { Read::Cell(r as usize, c as usize) } else { Read::Stray(Colour::Second) }
});

model!(Clamp, "access-clamp",
    "coordinates clamped to the board: a read past the edge reads the edge cell again",
    read(r, c, n) { Read::Cell(r.clamp(0, n - 1) as usize, c.clamp(0, n - 1) as usize) });

model!(OrForAnd, "access-or-for-and",
"bounds test (0<=r && r<n) || (0<=c && c<n) on a row-major array: one coordinate in range is enough",
read(r, c, n) {
    let ok_r = (0..n).contains(&r);
    let ok_c = (0..n).contains(&c);
    if ok_r || ok_c { flat(r * n + c, n, Read::Nothing) } else { Read::Nothing }
});

model!(RowUncheckedBlack, "access-row-unchecked-black",
"only the column is bounds-checked: rows above and below the board are memory holding black",
read(r, c, n) {
    if !(0..n).contains(&c) { Read::Nothing } else { flat(r * n + c, n, Read::Stray(Colour::First)) }
});

model!(RowUncheckedWhite, "access-row-unchecked-white",
"only the column is bounds-checked: rows above and below the board are memory holding white",
read(r, c, n) {
    if !(0..n).contains(&c) { Read::Nothing } else { flat(r * n + c, n, Read::Stray(Colour::Second)) }
});

model!(ColUnchecked, "access-col-unchecked",
"only the row is bounds-checked on a row-major array: column n is column 0 of the next row",
read(r, c, n) {
    if !(0..n).contains(&r) { Read::Nothing } else { flat(r * n + c, n, Read::Nothing) }
});

model!(SkipFirstWindow, "scan-skip-first-window",
    "the scan's start loop begins one cell in: a run or window starting at the edge it enters from is never looked at",
    read(r, c, n) { cell_or_nothing(r, c, n) },
    scans(s, d, _len, n) { inside(s.0 - d.0, s.1 - d.1, n) });

model!(SkipLastWindow, "scan-skip-last-window",
    "the scan's end bound is one short: a run or window ending on the edge it walks toward is never looked at",
    read(r, c, n) { cell_or_nothing(r, c, n) },
    scans(s, d, len, n) { inside(s.0 + len * d.0, s.1 + len * d.1, n) });

model!(NoCornerDiagonals, "scan-no-corner-diagonals",
    "diagonal scans start at rows and columns that leave out the four diagonals of exactly five cells",
    read(r, c, n) { cell_or_nothing(r, c, n) },
    scans(s, d, _len, n) { d.0 == 0 || d.1 == 0 || diagonal_length(s, d, n) != 5 });

model!(SixCheckParallel, "six-check-parallel-line",
    "the check of the cell just beyond a run reads the same place on the parallel line next to it",
    read(r, c, n) { cell_or_nothing(r, c, n) },
    beyond(cell, d) { (cell.0 + d.1, cell.1 - d.0) });

/// The number of cells of the diagonal line through `p` along `d` on an `n`×`n` board.
pub fn diagonal_length(p: (i32, i32), d: Dir, n: i32) -> i32 {
    let mut len = 0;
    let (mut r, mut c) = p;
    while inside(r - d.0, c - d.1, n) {
        r -= d.0;
        c -= d.1;
    }
    while inside(r, c, n) {
        len += 1;
        r += d.0;
        c += d.1;
    }
    len
}

/// A model that cannot make a problem's answer differ from the reference on any valid input,
/// with the reason; listed by the problem instead of a wrong solution.
pub struct Equivalent {
    pub model: &'static str,
    pub why: &'static str,
}

/// Calls `$m!(Type)` once per model, in a fixed order: a problem builds its wrong solvers and
/// its equivalence list from this one list, so no model is forgotten.
#[macro_export]
macro_rules! for_each_model {
    ($m:ident) => {
        $m!($crate::access::WrapNegative);
        $m!($crate::access::Flat);
        $m!($crate::access::FlatStrayBlack);
        $m!($crate::access::FlatStrayWhite);
        $m!($crate::access::FlatSentinelStrayBlack);
        $m!($crate::access::FlatSentinelStrayWhite);
        $m!($crate::access::PadThinTopBlack);
        $m!($crate::access::PadThinTopWhite);
        $m!($crate::access::PadThinBottomBlack);
        $m!($crate::access::PadThinBottomWhite);
        $m!($crate::access::PadThinLeftBlack);
        $m!($crate::access::PadThinLeftWhite);
        $m!($crate::access::PadThinRightBlack);
        $m!($crate::access::PadThinRightWhite);
        $m!($crate::access::OffBlack);
        $m!($crate::access::OffWhite);
        $m!($crate::access::Clamp);
        $m!($crate::access::OrForAnd);
        $m!($crate::access::RowUncheckedBlack);
        $m!($crate::access::RowUncheckedWhite);
        $m!($crate::access::ColUnchecked);
        $m!($crate::access::SkipFirstWindow);
        $m!($crate::access::SkipLastWindow);
        $m!($crate::access::NoCornerDiagonals);
        $m!($crate::access::SixCheckParallel);
    };
}

/// One model's name, description and methods, for listing and for checking equivalence
/// arguments.
#[derive(Clone, Copy)]
pub struct ModelFns {
    pub name: &'static str,
    pub does: &'static str,
    pub read: fn(i32, i32, i32) -> Read,
    pub scans: fn((i32, i32), Dir, i32, i32) -> bool,
    pub beyond: fn((i32, i32), Dir) -> (i32, i32),
}

/// Every model, in [`for_each_model`] order.
pub fn models() -> Vec<ModelFns> {
    let mut out = Vec::new();
    macro_rules! push {
        ($t:ty) => {
            out.push(ModelFns {
                name: <$t as BoardAccess>::NAME,
                does: <$t as BoardAccess>::DOES,
                read: <$t as BoardAccess>::read,
                scans: <$t as BoardAccess>::scans,
                beyond: <$t as BoardAccess>::beyond,
            });
        };
    }
    for_each_model!(push);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_reads_inside_only() {
        assert_eq!(Exact::read(0, 0, 19), Read::Cell(0, 0));
        assert_eq!(Exact::read(-1, 0, 19), Read::Nothing);
        assert_eq!(Exact::read(0, 19, 19), Read::Nothing);
    }

    #[test]
    fn models_alias_as_documented() {
        assert_eq!(WrapNegative::read(3, -1, 19), Read::Cell(3, 18));
        assert_eq!(WrapNegative::read(3, 19, 19), Read::Nothing);
        assert_eq!(Flat::read(3, 19, 19), Read::Cell(4, 0));
        assert_eq!(Flat::read(3, -1, 19), Read::Cell(2, 18));
        assert_eq!(Flat::read(-1, 0, 19), Read::Nothing);
        assert_eq!(FlatStrayBlack::read(-1, 3, 19), Read::Stray(Colour::First));
        assert_eq!(FlatSentinelStrayWhite::read(3, 19, 19), Read::Nothing);
        assert_eq!(FlatSentinelStrayWhite::read(3, -1, 19), Read::Nothing);
        assert_eq!(
            FlatSentinelStrayWhite::read(19, 0, 19),
            Read::Stray(Colour::Second)
        );
        assert_eq!(Clamp::read(-1, 20, 19), Read::Cell(0, 18));
        assert_eq!(OrForAnd::read(-1, 20, 19), Read::Nothing);
        assert_eq!(OrForAnd::read(2, 19, 19), Read::Cell(3, 0));
        assert_eq!(diagonal_length((0, 14), (1, 1), 19), 5);
        assert_eq!(diagonal_length((4, 0), (-1, 1), 19), 5);
        assert!(!NoCornerDiagonals::scans((14, 0), (1, 1), 5, 19));
        assert!(!SkipFirstWindow::scans((0, 3), (1, 0), 5, 19));
        assert!(SkipFirstWindow::scans((1, 3), (1, 0), 5, 19));
        assert!(!SkipLastWindow::scans((14, 3), (1, 0), 5, 19));
        assert_eq!(SixCheckParallel::beyond((5, 5), (0, 1)), (6, 5));
    }

    #[test]
    fn every_model_has_a_distinct_name() {
        let names: Vec<_> = models().into_iter().map(|m| m.name).collect();
        let mut sorted = names.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), names.len());
    }
}
