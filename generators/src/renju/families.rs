//! renju families: dense clusters around the point, real play, the shapes of every
//! classification laid along the lines through the point, threes whose straight-four point is
//! itself forbidden (nested), shapes cut by the edge, and classification-balanced samples.

use solutions::board::{Board, LINES, Stone};
use solutions::renju::{Answer, Input, Renju, SIZE};
use solutions::{Problem, renju::has_long_run};

use crate::gomoku_checker::families::pick_move;
use crate::invalid::format_families;
use crate::stones::{Cell, Placer, fill, is_empty, put, run_if_placed};
use crate::{Family, Generate, InvalidFamily, Rng};

type B = Board<SIZE>;

fn input(board: B, (r, c): Cell) -> Input {
    Input {
        board,
        row: r as u8,
        col: c as u8,
    }
}

fn random_point(rng: &mut Rng, margin: u32) -> Cell {
    (
        rng.range(margin, SIZE as u32 - 1 - margin) as i32,
        rng.range(margin, SIZE as u32 - 1 - margin) as i32,
    )
}

/// Black and white stones scattered densely within a small square around the point.
fn cluster(rng: &mut Rng) -> (Input, String) {
    let p = random_point(rng, 0);
    let radius = rng.range(2, 4) as i32;
    let (black, white) = (rng.range(2, 12), rng.range(0, 8));
    let mut board = B::empty();
    for (stone, count) in [(Stone::Black, black), (Stone::White, white)] {
        let mut placed = 0;
        for _ in 0..count * 4 {
            if placed == count {
                break;
            }
            let cell = (
                p.0 + rng.range(0, 2 * radius as u32) as i32 - radius,
                p.1 + rng.range(0, 2 * radius as u32) as i32 - radius,
            );
            if B::on_board(cell.0, cell.1)
                && cell != p
                && is_empty(&board, cell)
                && run_if_placed(&board, cell, stone) < 5
            {
                put(&mut board, &[cell], stone);
                placed += 1;
            }
        }
    }
    (
        input(board, p),
        format!("radius={radius} black={black} white={white}"),
    )
}

/// Alternating play near earlier stones, never making five; the point is an empty cell near
/// the stones.
fn random_game(rng: &mut Rng) -> (Input, String) {
    let moves = rng.range(3, 60);
    let mut placer = Placer::new(B::empty());
    let mut stone = Stone::Black;
    for _ in 0..moves {
        if let Some(cell) = pick_move(&placer, rng, stone)
            && run_if_placed(&placer.board, cell, stone) < 5
        {
            placer.put(cell, stone);
        }
        stone = stone.other();
    }
    let p = placer.random_empty(rng, 4).unwrap_or((7, 7));
    (input(placer.board, p), format!("moves={moves}"))
}

/// Line shapes around `P` (at the `P` of each pattern): every classification's ingredients.
const SHAPES: &[&str] = &[
    "XXP", ".XXP.", "X.XP", "XP.X", ".XP.X.", "XXXP", "XX.PX", "XXP.X", "OXXP.", "OXXXP", "XXXP.X",
    "X.XPX.X", "XXPX.XX", "XXXPXX", "XXPXX", "XXXXP", "XP.XX", ".X.XP.", "OXP.X.", "XX.P.XX",
    "X..P.XX", "XXX.P", "O.XXP.O", "XP..XX",
];

fn lay_shape(board: &mut B, p: Cell, dir: (i32, i32), shape: &str) {
    let at = shape.find('P').unwrap_or(0) as i32;
    for (i, ch) in shape.bytes().enumerate() {
        let k = i as i32 - at;
        let (r, c) = (p.0 + k * dir.0, p.1 + k * dir.1);
        if B::on_board(r, c) && (r, c) != p {
            let cell = match ch {
                b'X' => Some(Stone::Black),
                b'O' => Some(Stone::White),
                _ => None,
            };
            board.set(r as usize, c as usize, cell);
        }
    }
}

fn shapes_at(rng: &mut Rng, p: Cell) -> (Input, String) {
    let mut board = B::empty();
    let mut used = Vec::new();
    let mut dirs = LINES;
    rng.shuffle(&mut dirs);
    let count = rng.range(1, 3) as usize;
    for &dir in &dirs[..count] {
        let shape = rng.pick(SHAPES);
        let dir = if rng.chance(1, 2) {
            dir
        } else {
            (-dir.0, -dir.1)
        };
        lay_shape(&mut board, p, dir, shape);
        used.push(shape);
    }
    if rng.chance(1, 3) {
        let n = rng.range(1, 6) as usize;
        fill(&mut board, rng, Stone::White, n, 4);
        let n = rng.range(1, 4) as usize;
        fill(&mut board, rng, Stone::Black, n, 4);
    }
    board.set(p.0 as usize, p.1 as usize, None);
    (input(board, p), format!("shapes={}", used.join("|")))
}

fn line_shapes(rng: &mut Rng) -> (Input, String) {
    let p = random_point(rng, 2);
    shapes_at(rng, p)
}

/// Shapes with the point on or next to the edge, so lines are cut short.
fn edge_shapes(rng: &mut Rng) -> (Input, String) {
    let depth = rng.range(0, 2) as i32;
    let along = rng.range(0, SIZE as u32 - 1) as i32;
    let p = match rng.below(4) {
        0 => (depth, along),
        1 => (SIZE as i32 - 1 - depth, along),
        2 => (along, depth),
        _ => (along, SIZE as i32 - 1 - depth),
    };
    shapes_at(rng, p)
}

/// A split three `X.XP` whose gap `Q` is, through another line, an overline point, a
/// double-four point, a double-three point (nested threes), a five point, or a four-three
/// point (allowed): whether the three is real depends on `Q`'s own classification.
fn forbidden_point_threes(rng: &mut Rng) -> (Input, String) {
    // Relative to P = (0, 0) with the three along the row: X at (0,-3) and (0,-1), Q = (0,-2).
    const KINDS: [(&str, &[(i32, i32)]); 6] = [
        (
            "overline",
            &[(-3, -2), (-2, -2), (-1, -2), (1, -2), (2, -2)],
        ),
        ("double-four", &[(-3, -2), (-2, -2), (-1, -2)]),
        ("double-three", &[(-2, -2), (-1, -2), (1, -3), (2, -4)]),
        ("five", &[(-2, -2), (-1, -2), (1, -2), (2, -2)]),
        ("four-three", &[(-2, -2), (-1, -2)]),
        ("plain", &[]),
    ];
    let (kind, extra) = rng.pick(&KINDS);
    let k = rng.below(8);
    // Apply a symmetry to the relative offsets, then translate to a point that fits.
    let sym = |(dr, dc): (i32, i32)| {
        let (dr, dc) = if k & 4 != 0 { (dc, dr) } else { (dr, dc) };
        (
            if k & 1 != 0 { -dr } else { dr },
            if k & 2 != 0 { -dc } else { dc },
        )
    };
    let p = random_point(rng, 4);
    let mut board = B::empty();
    let cells: Vec<Cell> = [(0, -3), (0, -1)]
        .iter()
        .chain(extra.iter())
        .map(|&o| sym(o))
        .map(|(dr, dc)| (p.0 + dr, p.1 + dc))
        .collect();
    put(&mut board, &cells, Stone::Black);
    if rng.chance(1, 3) {
        let n = rng.range(1, 4) as usize;
        fill(&mut board, rng, Stone::White, n, 4);
    }
    board.set(p.0 as usize, p.1 as usize, None);
    (input(board, p), format!("gap_point={kind} symmetry={k}"))
}

/// Samples of the shape families until the answer is `want`, so that every classification
/// is well represented (a family per classification).
fn of_class(rng: &mut Rng, want: Answer) -> (Input, String) {
    let mut last = line_shapes(rng);
    for attempt in 0..400 {
        let candidate = match attempt % 4 {
            0 | 1 => line_shapes(rng),
            2 => cluster(rng),
            _ => forbidden_point_threes(rng),
        };
        if !has_long_run(&candidate.0.board) && Renju::fast(&candidate.0) == want {
            return (
                candidate.0,
                format!("class={} {}", want.name(), candidate.1),
            );
        }
        last = candidate;
    }
    (
        last.0,
        format!("class={} (not reached) {}", want.name(), last.1),
    )
}

macro_rules! class_families {
    ($($fn_name:ident => $class:expr),* $(,)?) => {
        $(fn $fn_name(rng: &mut Rng) -> (Input, String) { of_class(rng, $class) })*
    };
}

class_families! {
    class_five => Answer::Five,
    class_overline => Answer::Overline,
    class_double_four => Answer::DoubleFour,
    class_double_three => Answer::DoubleThree,
    class_four_three => Answer::FourThree,
    class_four => Answer::Four,
    class_three => Answer::Three,
    class_none => Answer::None,
}

impl Generate for Renju {
    fn families() -> Vec<Family<Self>> {
        vec![
            Family {
                name: "cluster",
                targets: "dense local clusters around the point",
                weight: 3,
                make: cluster,
            },
            Family {
                name: "random-game",
                targets: "positions of alternating play",
                weight: 2,
                make: random_game,
            },
            Family {
                name: "line-shapes",
                targets: "threes, fours, overline tries and blocks along the point's lines",
                weight: 3,
                make: line_shapes,
            },
            Family {
                name: "edge-shapes",
                targets: "shapes cut by the edge",
                weight: 2,
                make: edge_shapes,
            },
            Family {
                name: "forbidden-point-threes",
                targets: "threes whose straight-four point is forbidden, a five, or allowed (nested)",
                weight: 3,
                make: forbidden_point_threes,
            },
            Family {
                name: "class-five",
                targets: "FIVE, often with forbidden shapes beside it",
                weight: 1,
                make: class_five,
            },
            Family {
                name: "class-overline",
                targets: "OVERLINE",
                weight: 1,
                make: class_overline,
            },
            Family {
                name: "class-double-four",
                targets: "DOUBLE-FOUR, in two lines or one",
                weight: 1,
                make: class_double_four,
            },
            Family {
                name: "class-double-three",
                targets: "DOUBLE-THREE",
                weight: 1,
                make: class_double_three,
            },
            Family {
                name: "class-four-three",
                targets: "FOUR-THREE",
                weight: 1,
                make: class_four_three,
            },
            Family {
                name: "class-four",
                targets: "FOUR, including fours beside blocked or false threes",
                weight: 1,
                make: class_four,
            },
            Family {
                name: "class-three",
                targets: "THREE, including split threes",
                weight: 1,
                make: class_three,
            },
            Family {
                name: "class-none",
                targets: "NONE, including false threes",
                weight: 1,
                make: class_none,
            },
        ]
    }

    /// Remove stones, then move the point one step toward the board's centre (only toward it,
    /// so that shrinking always ends).
    fn shrink(case: &Input) -> Vec<Input> {
        let mut out: Vec<Input> = crate::stones::shrink_board(&case.board)
            .into_iter()
            .map(|board| Input { board, ..*case })
            .collect();
        let centre = (SIZE / 2) as i32;
        let distance = |r: i32, c: i32| (r - centre).abs() + (c - centre).abs();
        let (row, col) = (i32::from(case.row), i32::from(case.col));
        for (dr, dc) in solutions::board::DIRECTIONS {
            let (r, c) = (row + dr, col + dc);
            if B::on_board(r, c)
                && distance(r, c) < distance(row, col)
                && case.board.get(r as usize, c as usize).is_none()
            {
                out.push(Input {
                    row: r as u8,
                    col: c as u8,
                    ..*case
                });
            }
        }
        out
    }

    fn decode(u: &mut arbitrary::Unstructured<'_>) -> arbitrary::Result<Input> {
        let mut board = crate::fuzz_bodies::decode_stones::<SIZE>(u)?;
        let (row, col) = (u.int_in_range(0u8..=14)?, u.int_in_range(0u8..=14)?);
        board.set(row.into(), col.into(), None);
        Ok(Input { board, row, col })
    }

    /// Rotations and reflections keep every rule (lines, fives, fours, threes).
    const IMAGES: u32 = 8;

    fn image(input: &Input, k: u32) -> Input {
        let (row, col) =
            crate::stones::transform::<SIZE>(k, (i32::from(input.row), i32::from(input.col)));
        Input {
            board: crate::stones::transform_board::<SIZE>(k, &input.board),
            row: row as u8,
            col: col as u8,
        }
    }

    fn invalid_families() -> Vec<InvalidFamily> {
        let mut families = format_families::<Self>();
        families.extend([
            InvalidFamily {
                name: "occupied-point",
                targets: "the point holds a stone",
                make: occupied_point,
            },
            InvalidFamily {
                name: "existing-five",
                targets: "five or more of either colour already on the board",
                make: existing_five,
            },
            InvalidFamily {
                name: "point-out-of-range",
                targets: "row or column 0 or over 15",
                make: point_out_of_range,
            },
        ]);
        families
    }
}

fn occupied_point(rng: &mut Rng) -> (Vec<u8>, String) {
    let (mut case, _) = cluster(rng);
    let stone = rng.pick(&[Stone::Black, Stone::White]);
    case.board
        .set(case.row.into(), case.col.into(), Some(stone));
    (
        Renju::write_input(&case).into_bytes(),
        format!("point holds {stone:?}"),
    )
}

fn existing_five(rng: &mut Rng) -> (Vec<u8>, String) {
    let (mut case, _) = cluster(rng);
    let stone = rng.pick(&[Stone::Black, Stone::White]);
    let len = rng.range(5, 7) as i32;
    let p = (i32::from(case.row), i32::from(case.col));
    let cells = loop {
        let cells = crate::stones::random_line::<SIZE>(rng, len);
        if !cells.contains(&p) {
            break cells;
        }
    };
    put(&mut case.board, &cells, stone);
    (
        Renju::write_input(&case).into_bytes(),
        format!("{stone:?} run of {len}"),
    )
}

fn point_out_of_range(rng: &mut Rng) -> (Vec<u8>, String) {
    let (case, _) = cluster(rng);
    let text = Renju::write_input(&case);
    let grid = &text[..text.len() - text.lines().last().map_or(0, |l| l.len() + 1)];
    let (row, col) = if rng.chance(1, 2) {
        (rng.pick(&[0, 16, 99]), u32::from(case.col) + 1)
    } else {
        (u32::from(case.row) + 1, rng.pick(&[0, 16, 20]))
    };
    (
        format!("{grid}{row} {col}\n").into_bytes(),
        format!("point {row} {col}"),
    )
}
