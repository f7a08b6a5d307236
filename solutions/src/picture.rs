//! A problem-neutral picture of an input, for the judge to draw in a terminal or as SVG
//! without knowing any board: a grid of inks, an optional marked point, labels in the
//! problem's own coordinates, a legend in the problem's own letters, and (from an answer) the
//! cells it names, grouped into named layers.

/// What a cell shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ink {
    Empty,
    Black,
    White,
    /// Attack 25's panel colours (its `W` is [`Ink::White`]).
    Red,
    Blue,
    Green,
}

/// How the board is drawn as SVG.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// A wooden gomoku board, stones as circles.
    Wood,
    /// A green othello board, discs as circles.
    Othello,
    /// Coloured square panels (attack25).
    Panels,
}

/// One entry of the legend: how something is written in the picture (the problem's own
/// letter where it has one) and what it means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Key {
    pub ink: Ink,
    pub glyph: char,
    pub meaning: &'static str,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picture {
    pub rows: usize,
    pub cols: usize,
    /// Row-major.
    pub cells: Vec<Ink>,
    /// The point to play, if the problem has one.
    pub point: Option<(usize, usize)>,
    /// The glyph of the point and what it means (`P`: "black plays here").
    pub point_key: Option<Key>,
    /// Row labels, top to bottom, and column labels, left to right, in the problem's own
    /// coordinates (empty when the cells carry their own names, as attack25's panels do).
    pub row_labels: Vec<String>,
    pub col_labels: Vec<String>,
    /// A name per cell, shown in empty cells (attack25: the panel number); empty for none.
    pub cell_names: Vec<String>,
    /// What every ink looks like and means.
    pub legend: Vec<Key>,
    pub style: Style,
}

impl Picture {
    /// A picture numbered 1.. down and across, with a generic legend; problems refine it with
    /// [`Picture::with_legend`] and the other builders.
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
            point_key: None,
            row_labels: (1..=rows).map(|r| r.to_string()).collect(),
            col_labels: (1..=cols).map(|c| c.to_string()).collect(),
            cell_names: Vec::new(),
            legend: vec![
                Key {
                    ink: Ink::Black,
                    glyph: 'X',
                    meaning: "black",
                },
                Key {
                    ink: Ink::White,
                    glyph: 'O',
                    meaning: "white",
                },
                Key {
                    ink: Ink::Empty,
                    glyph: '.',
                    meaning: "empty",
                },
            ],
            style: Style::Wood,
        }
    }

    pub fn with_legend(mut self, legend: Vec<Key>) -> Picture {
        self.legend = legend;
        self
    }

    pub fn with_point(mut self, point: (usize, usize), key: Key) -> Picture {
        self.point = Some(point);
        self.point_key = Some(key);
        self
    }

    pub fn with_style(mut self, style: Style) -> Picture {
        self.style = style;
        self
    }

    /// Names every cell (shown in empty ones) and drops the row and column labels.
    pub fn with_cell_names(mut self, name: impl Fn(usize, usize) -> String) -> Picture {
        self.cell_names = (0..self.rows)
            .flat_map(|r| (0..self.cols).map(move |c| (r, c)))
            .map(|(r, c)| name(r, c))
            .collect();
        self.row_labels.clear();
        self.col_labels.clear();
        self
    }

    pub fn ink(&self, r: usize, c: usize) -> Ink {
        self.cells[r * self.cols + c]
    }

    /// The legend entry of an ink.
    pub fn key(&self, ink: Ink) -> Option<&Key> {
        self.legend.iter().find(|k| k.ink == ink)
    }

    /// The glyph of an ink (`?` if the legend does not name it).
    pub fn glyph(&self, ink: Ink) -> char {
        self.key(ink).map_or('?', |k| k.glyph)
    }

    /// The name of a cell, if the picture names cells.
    pub fn cell_name(&self, r: usize, c: usize) -> Option<&str> {
        self.cell_names.get(r * self.cols + c).map(String::as_str)
    }

    /// Where a cell is, in the problem's own words (`row 3, column 5`; `panel 13`).
    pub fn locate(&self, r: usize, c: usize) -> String {
        match self.cell_name(r, c) {
            Some(name) => format!("panel {name}"),
            None => format!(
                "row {}, column {}",
                self.row_labels.get(r).map_or("?", String::as_str),
                self.col_labels.get(c).map_or("?", String::as_str)
            ),
        }
    }
}

/// Cells an answer names, with what naming them means (`flipped`, `R may take`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layer {
    pub name: String,
    /// (row, column) of the picture.
    pub cells: Vec<(usize, usize)>,
}

/// An input's picture with the cells two answers name: what the judge draws for a failing
/// test or a stress finding (the expected answer against what a program printed).
#[derive(Clone, Debug)]
pub struct Comparison {
    pub picture: Picture,
    pub expected: Vec<Layer>,
    /// `None` when the program's output does not read as an answer.
    pub got: Option<Vec<Layer>>,
}
