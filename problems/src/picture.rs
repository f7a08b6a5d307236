//! A problem-neutral picture of an input, for the judge to draw in a terminal or as SVG
//! without knowing any board: a grid of inks, an optional marked point, and the cells an
//! answer names.

/// What a cell shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ink {
    Empty,
    Black,
    White,
    /// Attack 25's panel colours.
    Red,
    Blue,
    Green,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picture {
    pub rows: usize,
    pub cols: usize,
    /// Row-major.
    pub cells: Vec<Ink>,
    /// The point to play, if the problem has one.
    pub point: Option<(usize, usize)>,
}

impl Picture {
    pub fn new(rows: usize, cols: usize, ink: impl Fn(usize, usize) -> Ink) -> Picture {
        let cells = (0..rows)
            .flat_map(|r| (0..cols).map(move |c| (r, c)))
            .map(|(r, c)| ink(r, c))
            .collect();
        Picture {
            rows,
            cols,
            cells,
            point: None,
        }
    }

    pub fn ink(&self, r: usize, c: usize) -> Ink {
        self.cells[r * self.cols + c]
    }
}
