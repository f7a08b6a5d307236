//! Drawing a problem's [`Picture`] in a terminal and as SVG: labels in the problem's own
//! coordinates, a legend, the point to play, and the cells where the expected and the received
//! answers differ. An answer's cells come in layers (one for most problems — the flipped
//! discs, the start of the five —, one per colour for attack25); a picture with several layers
//! draws the board once and then one small grid per layer.

use std::collections::BTreeSet;
use std::fmt::Write;

use judge_core::registry::ProblemEntry;
use solutions::picture::{Ink, Layer, Picture, Style};

use crate::escape;

type Cell = (usize, usize);

/// One layer's cells: named by both answers, only by the expected one (`missing` from the
/// output), only by the output (`extra`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LayerDiff {
    pub name: String,
    pub both: BTreeSet<Cell>,
    pub missing: BTreeSet<Cell>,
    pub extra: BTreeSet<Cell>,
}

impl LayerDiff {
    fn mark(&self, cell: Cell) -> Mark {
        if self.missing.contains(&cell) {
            Mark::Missing
        } else if self.extra.contains(&cell) {
            Mark::Extra
        } else if self.both.contains(&cell) {
            Mark::Both
        } else {
            Mark::None
        }
    }

    fn is_empty(&self) -> bool {
        self.both.is_empty() && self.missing.is_empty() && self.extra.is_empty()
    }
}

/// The expected answer's layers against the output's (`None`: the output does not read as an
/// answer, so everything expected is missing).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Difference {
    pub layers: Vec<LayerDiff>,
}

impl Difference {
    pub fn between(expected: &[Layer], got: Option<&[Layer]>) -> Difference {
        let layers = expected
            .iter()
            .enumerate()
            .map(|(i, layer)| {
                let e: BTreeSet<Cell> = layer.cells.iter().copied().collect();
                let g: BTreeSet<Cell> = got
                    .and_then(|g| g.get(i))
                    .map(|l| l.cells.iter().copied().collect())
                    .unwrap_or_default();
                LayerDiff {
                    name: layer.name.clone(),
                    both: e.intersection(&g).copied().collect(),
                    missing: e.difference(&g).copied().collect(),
                    extra: g.difference(&e).copied().collect(),
                }
            })
            .collect();
        Difference { layers }
    }

    /// Does any layer name any cell (in either answer)?
    pub fn has_marks(&self) -> bool {
        self.layers.iter().any(|l| !l.is_empty())
    }

    /// Do the answers name different cells?
    pub fn differs(&self) -> bool {
        self.layers
            .iter()
            .any(|l| !l.missing.is_empty() || !l.extra.is_empty())
    }

    /// The board itself carries the marks when there is one layer; with several, each gets
    /// its own small grid.
    fn on_board(&self) -> Option<&LayerDiff> {
        match self.layers.as_slice() {
            [only] if !only.is_empty() => Some(only),
            _ => None,
        }
    }

    fn grids(&self) -> &[LayerDiff] {
        if self.layers.len() > 1 {
            &self.layers
        } else {
            &[]
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mark {
    None,
    Both,
    Missing,
    Extra,
}

/// What a cell shows as text: the point's glyph, an empty cell's name, or its ink's glyph.
fn content(picture: &Picture, r: usize, c: usize) -> String {
    let ink = picture.ink(r, c);
    if let (true, Some(key)) = (picture.point == Some((r, c)), picture.point_key) {
        return key.glyph.to_string();
    }
    match picture.cell_name(r, c) {
        Some(name) if ink == Ink::Empty => name.to_string(),
        _ => picture.glyph(ink).to_string(),
    }
}

fn cell_width(picture: &Picture) -> usize {
    let widest = (0..picture.rows)
        .flat_map(|r| (0..picture.cols).map(move |c| (r, c)))
        .map(|(r, c)| content(picture, r, c).chars().count())
        .max()
        .unwrap_or(1);
    widest + 2
}

/// One grid as lines of text, marks from `layer`.
fn grid_lines(picture: &Picture, layer: Option<&LayerDiff>, colour: bool) -> Vec<String> {
    let width = cell_width(picture);
    let label_width = picture
        .row_labels
        .iter()
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(0);
    let indent = if label_width > 0 { label_width + 1 } else { 0 };
    let mut lines = Vec::new();
    if !picture.col_labels.is_empty() {
        let mut header = " ".repeat(indent);
        for label in &picture.col_labels {
            let _ = write!(header, "{label:>w$} ", w = width - 1);
        }
        lines.push(header.trim_end().to_string());
    }
    for r in 0..picture.rows {
        let mut line = String::new();
        if label_width > 0 {
            let label = picture.row_labels.get(r).map_or("", String::as_str);
            let _ = write!(line, "{label:>label_width$} ");
        }
        for c in 0..picture.cols {
            let text = content(picture, r, c);
            let mark = layer.map_or(Mark::None, |l| l.mark((r, c)));
            let (open, close) = match mark {
                Mark::None => (' ', ' '),
                Mark::Both => ('(', ')'),
                Mark::Missing => ('[', ']'),
                Mark::Extra => ('<', '>'),
            };
            let cell = format!("{open}{text:>w$}{close}", w = width - 2);
            let style = match mark {
                Mark::Missing => Some("42;30"),
                Mark::Extra => Some("41;30"),
                Mark::Both => Some("1;4"),
                Mark::None if picture.point == Some((r, c)) => Some("1;35"),
                Mark::None => None,
            };
            match (colour, style) {
                (true, Some(style)) => {
                    let _ = write!(line, "\x1b[{style}m{cell}\x1b[0m");
                }
                _ => line.push_str(&cell),
            }
        }
        lines.push(line.trim_end().to_string());
    }
    lines
}

/// The board as text, in the problem's own letters and coordinates, with a legend. Cells
/// named by both answers are shown `(x)`, expected but missing from the output `[x]` (green
/// on a colour terminal), in the output but not expected `<x>` (red).
pub fn terminal(picture: &Picture, diff: &Difference, colour: bool) -> String {
    let mut out = String::new();
    for line in grid_lines(picture, diff.on_board(), colour) {
        out.push_str(&line);
        out.push('\n');
    }
    let grids = diff.grids();
    if !grids.is_empty() {
        out.push('\n');
        let drawn: Vec<Vec<String>> = grids
            .iter()
            .map(|layer| grid_lines(picture, Some(layer), false))
            .collect();
        let coloured: Vec<Vec<String>> = grids
            .iter()
            .map(|layer| grid_lines(picture, Some(layer), colour))
            .collect();
        let widths: Vec<usize> = drawn
            .iter()
            .zip(grids)
            .map(|(lines, layer)| {
                lines
                    .iter()
                    .map(|l| l.chars().count())
                    .chain([layer.name.chars().count()])
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let mut titles = String::new();
        for (layer, width) in grids.iter().zip(&widths) {
            let _ = write!(titles, "{:<width$}   ", layer.name);
        }
        out.push_str(titles.trim_end());
        out.push('\n');
        let height = drawn.iter().map(Vec::len).max().unwrap_or(0);
        for row in 0..height {
            let mut line = String::new();
            for (k, width) in widths.iter().enumerate() {
                let plain = drawn[k].get(row).map_or("", String::as_str);
                let shown = coloured[k].get(row).map_or("", String::as_str);
                line.push_str(shown);
                line.push_str(&" ".repeat(width - plain.chars().count() + 3));
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
    }
    out.push_str(&legend_text(picture, diff));
    out
}

/// The legend and the list of differing cells, as text.
pub fn legend_text(picture: &Picture, diff: &Difference) -> String {
    let mut keys: Vec<String> = picture
        .legend
        .iter()
        .map(|k| format!("{} {}", k.glyph, k.meaning))
        .collect();
    if !picture.cell_names.is_empty() {
        keys.push("a number: that empty panel".to_string());
    }
    if let Some(key) = picture.point_key {
        keys.push(format!("{} {}", key.glyph, key.meaning));
    }
    let mut out = format!("legend: {}\n", keys.join(", "));
    if diff.has_marks() {
        let names: Vec<&str> = diff
            .layers
            .iter()
            .filter(|l| !l.name.is_empty())
            .map(|l| l.name.as_str())
            .collect();
        let _ = writeln!(
            out,
            "marks ({}): (x) named by both answers, [x] expected but missing from the output, <x> in the output but not expected",
            names.join("; ")
        );
    }
    let cells = |set: &BTreeSet<Cell>| {
        set.iter()
            .map(|&(r, c)| picture.locate(r, c))
            .collect::<Vec<_>>()
            .join("; ")
    };
    for layer in &diff.layers {
        if !layer.missing.is_empty() {
            let _ = writeln!(
                out,
                "{}: expected but missing: {}",
                layer.name,
                cells(&layer.missing)
            );
        }
        if !layer.extra.is_empty() {
            let _ = writeln!(
                out,
                "{}: in the output but not expected: {}",
                layer.name,
                cells(&layer.extra)
            );
        }
    }
    out
}

// ---- SVG ----------------------------------------------------------------------------------

const FONT: &str = "DejaVu Sans Mono, Menlo, Consolas, monospace";
/// Width of one character of 13 px monospace text, rounded up, for sizing the picture so no
/// title is clipped.
const CHAR_WIDTH: f64 = 8.0;
const PAD: usize = 12;

struct Palette {
    board: &'static str,
    line: &'static str,
    label: &'static str,
}

fn palette(style: Style) -> Palette {
    match style {
        Style::Wood => Palette {
            board: "#e6c27a",
            line: "#8a6a35",
            label: "#333",
        },
        Style::Othello => Palette {
            board: "#2e7d4f",
            line: "#174d2e",
            label: "#333",
        },
        Style::Panels => Palette {
            board: "#cfd4da",
            line: "#8a939c",
            label: "#333",
        },
    }
}

fn ink_colour(ink: Ink) -> Option<&'static str> {
    match ink {
        Ink::Empty => None,
        Ink::Black => Some("#151515"),
        Ink::White => Some("#f7f7f7"),
        Ink::Red => Some("#d83a34"),
        Ink::Blue => Some("#2f6fd0"),
        Ink::Green => Some("#2e9d46"),
    }
}

const MISSING: &str = "#00a651";
const EXTRA: &str = "#e0142b";
const BOTH: &str = "#2f7bff";
const POINT: &str = "#c218c9";

fn text_width(text: &str) -> usize {
    (text.chars().count() as f64 * CHAR_WIDTH).ceil() as usize
}

/// One grid at (`x0`, `y0`) with cells of `cell` pixels; returns (width, height) drawn.
fn svg_grid(
    out: &mut String,
    picture: &Picture,
    layer: Option<&LayerDiff>,
    x0: usize,
    y0: usize,
    cell: usize,
    faint: bool,
) -> (usize, usize) {
    let colours = palette(picture.style);
    let labels = !picture.row_labels.is_empty();
    let (left, top) = if labels { (26, 18) } else { (0, 0) };
    let (bx, by) = (x0 + left, y0 + top);
    let (bw, bh) = (picture.cols * cell, picture.rows * cell);
    let _ = writeln!(
        out,
        r#"<rect x="{bx}" y="{by}" width="{bw}" height="{bh}" fill="{}"/>"#,
        colours.board
    );
    if labels {
        for (c, label) in picture.col_labels.iter().enumerate() {
            let _ = writeln!(
                out,
                r#"<text x="{}" y="{}" text-anchor="middle" font-size="11" fill="{}">{}</text>"#,
                bx + c * cell + cell / 2,
                by - 5,
                colours.label,
                escape::html(label)
            );
        }
        for (r, label) in picture.row_labels.iter().enumerate() {
            let _ = writeln!(
                out,
                r#"<text x="{}" y="{}" text-anchor="end" font-size="11" fill="{}">{}</text>"#,
                bx - 5,
                by + r * cell + cell / 2 + 4,
                colours.label,
                escape::html(label)
            );
        }
    }
    if picture.style != Style::Panels {
        // The cell borders as one path: a 19 x 19 board stays a few kilobytes.
        let mut path = String::new();
        for r in 0..=picture.rows {
            let _ = write!(path, "M{bx} {}h{bw}", by + r * cell);
        }
        for c in 0..=picture.cols {
            let _ = write!(path, "M{} {by}v{bh}", bx + c * cell);
        }
        let _ = writeln!(
            out,
            r#"<path d="{path}" stroke="{}" stroke-width="0.8" fill="none"/>"#,
            colours.line
        );
    }
    for r in 0..picture.rows {
        for c in 0..picture.cols {
            let (x, y) = (bx + c * cell, by + r * cell);
            let (cx, cy) = (x + cell / 2, y + cell / 2);
            let ink = picture.ink(r, c);
            let fill = ink_colour(ink);
            let opacity = if faint { r#" opacity="0.35""# } else { "" };
            match (picture.style, fill) {
                (Style::Panels, fill) => {
                    let _ = writeln!(
                        out,
                        r#"<rect x="{}" y="{}" width="{}" height="{}" rx="3" fill="{}" stroke="{}"{opacity}/>"#,
                        x + 1,
                        y + 1,
                        cell - 2,
                        cell - 2,
                        fill.unwrap_or("#ffffff"),
                        if ink == Ink::White {
                            "#555"
                        } else {
                            colours.line
                        }
                    );
                    if fill.is_some() {
                        // The holder's letter, so a white panel is told from an empty one.
                        let _ = writeln!(
                            out,
                            r#"<text x="{cx}" y="{}" text-anchor="middle" font-size="{}" font-weight="bold" fill="{}"{opacity}>{}</text>"#,
                            cy + 5,
                            if faint { 11 } else { 13 },
                            if ink == Ink::White { "#333" } else { "#fff" },
                            picture.glyph(ink)
                        );
                    }
                }
                (_, fill) => {
                    if let Some(fill) = fill {
                        let _ = writeln!(
                            out,
                            r##"<circle cx="{cx}" cy="{cy}" r="{}" fill="{fill}" stroke="#222" stroke-width="0.8"{opacity}/>"##,
                            cell / 2 - 3
                        );
                    }
                }
            }
            let mark = layer.map_or(Mark::None, |l| l.mark((r, c)));
            let named = picture.cell_name(r, c).filter(|_| ink == Ink::Empty);
            if let Some(name) = named.filter(|_| !faint || mark != Mark::None) {
                let _ = writeln!(
                    out,
                    r##"<text x="{cx}" y="{}" text-anchor="middle" font-size="{}" fill="#444">{}</text>"##,
                    cy + 4,
                    if cell >= 26 { 12 } else { 10 },
                    escape::html(name)
                );
            }
            if picture.point == Some((r, c)) {
                let _ = writeln!(
                    out,
                    r#"<circle cx="{cx}" cy="{cy}" r="{}" fill="none" stroke="{POINT}" stroke-width="2.5"/><circle cx="{cx}" cy="{cy}" r="3" fill="{POINT}"/>"#,
                    cell / 2 - 5
                );
            }
            svg_mark(out, mark, x, y, cell);
        }
    }
    (left + bw, top + bh)
}

fn svg_mark(out: &mut String, mark: Mark, x: usize, y: usize, cell: usize) {
    let (inset, size) = (x + 2, cell - 4);
    match mark {
        Mark::None => {}
        Mark::Both => {
            let _ = writeln!(
                out,
                r#"<rect x="{inset}" y="{}" width="{size}" height="{size}" fill="none" stroke="{BOTH}" stroke-width="2"/>"#,
                y + 2
            );
        }
        Mark::Missing => {
            let _ = writeln!(
                out,
                r#"<rect x="{inset}" y="{}" width="{size}" height="{size}" fill="none" stroke="{MISSING}" stroke-width="3.5" stroke-dasharray="5 2"/>"#,
                y + 2
            );
        }
        Mark::Extra => {
            let _ = writeln!(
                out,
                r#"<rect x="{inset}" y="{}" width="{size}" height="{size}" fill="none" stroke="{EXTRA}" stroke-width="3.5"/>"#,
                y + 2
            );
            if cell >= 28 {
                // A cross in the corner, for readers who do not tell red from green.
                let _ = writeln!(
                    out,
                    r#"<path d="M{} {}l5 5m0 -5l-5 5" stroke="{EXTRA}" stroke-width="2"/>"#,
                    x + cell - 11,
                    y + 5
                );
            }
        }
    }
}

/// A legend swatch for an ink, a mark or the point, at (x, y) (its centre line).
fn svg_swatch(out: &mut String, picture: &Picture, what: Swatch, x: usize, y: usize) {
    match what {
        Swatch::Ink(ink) => {
            let fill = ink_colour(ink).unwrap_or(if picture.style == Style::Panels {
                "#ffffff"
            } else {
                palette(picture.style).board
            });
            if picture.style == Style::Panels || ink == Ink::Empty {
                let _ = writeln!(
                    out,
                    r##"<rect x="{x}" y="{}" width="14" height="14" fill="{fill}" stroke="#555"/>"##,
                    y - 7
                );
            } else {
                let _ = writeln!(
                    out,
                    r##"<circle cx="{}" cy="{y}" r="7" fill="{fill}" stroke="#222"/>"##,
                    x + 7
                );
            }
        }
        Swatch::Point => {
            let _ = writeln!(
                out,
                r#"<circle cx="{}" cy="{y}" r="6" fill="none" stroke="{POINT}" stroke-width="2.5"/><circle cx="{}" cy="{y}" r="2" fill="{POINT}"/>"#,
                x + 7,
                x + 7
            );
        }
        Swatch::Mark(mark) => svg_mark(out, mark, x - 2, y - 9, 18),
    }
}

#[derive(Clone, Copy)]
enum Swatch {
    Ink(Ink),
    Point,
    Mark(Mark),
}

/// The board as a self-contained SVG picture: `title` lines above (the picture grows to fit
/// them), coordinates, the point, the marks, and a legend below.
pub fn svg(picture: &Picture, diff: &Difference, title: &[String]) -> String {
    let cell = if picture.rows.max(picture.cols) > 10 {
        24
    } else {
        36
    };
    let mut body = String::new();
    let title_height = title.len() * 18;
    let mut y = PAD + title_height + if title.is_empty() { 0 } else { 6 };
    let (board_w, board_h) = svg_grid(&mut body, picture, diff.on_board(), PAD, y, cell, false);
    let mut width = board_w;
    y += board_h + 14;

    // Small grids, one per layer (attack25: what each colour may take).
    let grids = diff.grids();
    if !grids.is_empty() {
        let small = 28;
        let mut x = PAD;
        let mut tallest = 0;
        for layer in grids {
            let _ = writeln!(
                body,
                r##"<text x="{x}" y="{}" font-size="13" font-weight="bold" fill="#222">{}</text>"##,
                y + 12,
                escape::html(&layer.name)
            );
            let (w, h) = svg_grid(&mut body, picture, Some(layer), x, y + 20, small, true);
            x += w.max(text_width(&layer.name)) + 18;
            tallest = tallest.max(h + 20);
        }
        width = width.max(x - PAD);
        y += tallest + 14;
    }

    // The legend: the inks and the point in one group, the marks in another; side by side
    // when both fit in the board's width, else one under the other.
    let mut inks: Vec<(Option<Swatch>, String)> = picture
        .legend
        .iter()
        .map(|k| {
            (
                Some(Swatch::Ink(k.ink)),
                format!("{}  {}", k.glyph, k.meaning),
            )
        })
        .collect();
    if let (Some(name), Style::Panels) = (picture.cell_names.first(), picture.style) {
        inks.push((
            Some(Swatch::Ink(Ink::Empty)),
            format!("{name}  an empty panel, by its number"),
        ));
    }
    if let Some(key) = picture.point_key {
        inks.push((
            Some(Swatch::Point),
            format!("{}  {}", key.glyph, key.meaning),
        ));
    }
    let mut marks: Vec<(Option<Swatch>, String)> = Vec::new();
    if diff.has_marks() {
        let heading = match diff.layers.as_slice() {
            [only] => format!("{}:", only.name),
            _ => "panels a colour may take:".to_string(),
        };
        marks.push((None, heading));
        marks.push((
            Some(Swatch::Mark(Mark::Both)),
            "in both answers".to_string(),
        ));
        marks.push((
            Some(Swatch::Mark(Mark::Missing)),
            "expected, missing from the output".to_string(),
        ));
        marks.push((
            Some(Swatch::Mark(Mark::Extra)),
            "in the output, not expected".to_string(),
        ));
    }
    let group_width = |group: &[(Option<Swatch>, String)]| {
        group
            .iter()
            .map(|(swatch, t)| text_width(t) + if swatch.is_some() { 22 } else { 0 })
            .max()
            .unwrap_or(0)
    };
    let (inks_w, marks_w) = (group_width(&inks), group_width(&marks));
    let side_by_side = !marks.is_empty() && inks_w + 24 + marks_w <= width.max(560);
    let marks_x = if side_by_side { PAD + inks_w + 24 } else { PAD };
    let marks_y = if side_by_side {
        y
    } else {
        y + inks.len() * 20 + 6
    };
    for (group, x0, y0) in [(&inks, PAD, y), (&marks, marks_x, marks_y)] {
        for (row, (swatch, text)) in group.iter().enumerate() {
            let ey = y0 + row * 20 + 8;
            let tx = match swatch {
                Some(swatch) => {
                    svg_swatch(&mut body, picture, *swatch, x0, ey);
                    x0 + 22
                }
                None => x0,
            };
            let _ = writeln!(
                body,
                r##"<text x="{tx}" y="{}" font-size="12" fill="#222">{}</text>"##,
                ey + 4,
                escape::html(text)
            );
        }
    }
    width = width.max(if side_by_side {
        inks_w + 24 + marks_w
    } else {
        inks_w.max(marks_w)
    });
    y = if marks.is_empty() {
        y + inks.len() * 20
    } else {
        marks_y + marks.len() * 20
    } + 4;

    let mut out = String::new();
    for line in title {
        width = width.max(text_width(line));
    }
    let (w, h) = (width + 2 * PAD, y + PAD);
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="{FONT}">"#
    );
    let _ = writeln!(out, r##"<rect width="{w}" height="{h}" fill="#ffffff"/>"##);
    for (i, line) in title.iter().enumerate() {
        let _ = writeln!(
            out,
            r##"<text x="{PAD}" y="{}" font-size="13" fill="#111"{}>{}</text>"##,
            PAD + 13 + i * 18,
            if i == 0 { r#" font-weight="bold""# } else { "" },
            escape::html(line)
        );
    }
    out.push_str(&body);
    out.push_str("</svg>\n");
    out
}

/// A board with the difference between two answers, ready to draw.
pub struct Drawing {
    pub picture: Picture,
    pub diff: Difference,
    /// Does the output read as an answer at all?
    pub got_reads: bool,
}

impl Drawing {
    /// Draws `input` with `expected` against `got` (a program's output); `None` if the input
    /// or the expected answer does not read.
    pub fn of(
        problem: &dyn ProblemEntry,
        input: &str,
        expected: &str,
        got: &str,
    ) -> Option<Drawing> {
        let comparison = problem.comparison(input, expected, got)?;
        Some(Drawing {
            diff: Difference::between(&comparison.expected, comparison.got.as_deref()),
            got_reads: comparison.got.is_some(),
            picture: comparison.picture,
        })
    }

    pub fn terminal(&self, colour: bool) -> String {
        terminal(&self.picture, &self.diff, colour)
    }

    pub fn svg(&self, title: &[String]) -> String {
        svg(&self.picture, &self.diff, title)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use solutions::picture::Key;

    fn three_by_two() -> Picture {
        Picture::new(2, 3, |r, c| match (r, c) {
            (0, 0) => Ink::Black,
            (1, 2) => Ink::White,
            _ => Ink::Empty,
        })
        .with_point(
            (1, 0),
            Key {
                ink: Ink::Empty,
                glyph: 'P',
                meaning: "plays here",
            },
        )
    }

    fn layer(name: &str, cells: &[Cell]) -> Layer {
        Layer {
            name: name.to_string(),
            cells: cells.to_vec(),
        }
    }

    #[test]
    fn difference_splits_cells_into_both_missing_and_extra() {
        let expected = [layer("flipped", &[(0, 0), (0, 1)])];
        let got = [layer("flipped", &[(0, 1), (1, 2)])];
        let diff = Difference::between(&expected, Some(&got));
        let only = &diff.layers[0];
        assert_eq!(only.both, BTreeSet::from([(0, 1)]));
        assert_eq!(only.missing, BTreeSet::from([(0, 0)]));
        assert_eq!(only.extra, BTreeSet::from([(1, 2)]));
        assert!(diff.differs());
        // An output that does not read: everything expected is missing.
        let diff = Difference::between(&expected, None);
        assert_eq!(diff.layers[0].missing.len(), 2);
        assert!(Difference::between(&expected, Some(&expected)).has_marks());
        assert!(!Difference::between(&expected, Some(&expected)).differs());
    }

    #[test]
    fn terminal_picture_has_coordinates_the_point_marks_and_a_legend() {
        let expected = [layer("flipped", &[(0, 0), (0, 1)])];
        let got = [layer("flipped", &[(0, 1), (1, 2)])];
        let diff = Difference::between(&expected, Some(&got));
        let text = terminal(&three_by_two(), &diff, false);
        assert_eq!(
            text,
            "   1  2  3\n\
             1 [X](.) .\n\
             2  P  . <O>\n\
             legend: X black, O white, . empty, P plays here\n\
             marks (flipped): (x) named by both answers, [x] expected but missing from the output, <x> in the output but not expected\n\
             flipped: expected but missing: row 1, column 1\n\
             flipped: in the output but not expected: row 2, column 3\n"
        );
        // Colour only adds escape sequences around the marked cells.
        let coloured = terminal(&three_by_two(), &diff, true);
        assert!(coloured.contains("\x1b[42;30m[X]\x1b[0m"));
        assert!(coloured.contains("\x1b[41;30m<O>\x1b[0m"));
    }

    #[test]
    fn svg_grows_to_fit_its_title_and_escapes_it() {
        let diff = Difference::default();
        let long = "x".repeat(120);
        let svg = svg(&three_by_two(), &diff, &[long.clone(), "<b>&".to_string()]);
        let width: usize = svg
            .split("width=\"")
            .nth(1)
            .and_then(|s| s.split('"').next())
            .and_then(|s| s.parse().ok())
            .unwrap();
        assert!(width >= 120 * 8 + 2 * PAD, "{width}");
        assert!(svg.contains("&lt;b&gt;&amp;") && !svg.contains("<b>"));
    }
}
