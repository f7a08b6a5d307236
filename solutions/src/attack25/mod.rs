//! attack25: which panels of the 5×5 Attack 25 board may each of the four colours take next?
//! Spec: `shared/problems/attack25.md`.

mod fast;
mod reference;

mod decoy;
mod wrong;

use crate::error::{AnswerError, ParseError};
use crate::picture::{Ink, Key, Layer, Picture, Style};
use crate::problem::{Problem, shorten};
use crate::scan::Scanner;

/// The colours in input and output order.
pub const COLOURS: [u8; 4] = *b"RBWG";
const COLOUR_NAMES: [&str; 4] = ["red", "blue", "white", "green"];

/// The panel every game starts on (1-based number 13 is bit 12).
pub const CENTRE: usize = 12;

/// A position: bit `p - 1` of `panels[k]` is panel `p` held by colour `COLOURS[k]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Input {
    pub panels: [u32; 4],
}

impl Input {
    /// Which colour (index into [`COLOURS`]) holds the 0-based panel, if any.
    pub fn owner(&self, panel: usize) -> Option<usize> {
        (0..4).find(|&k| self.panels[k] >> panel & 1 == 1)
    }

    pub fn taken(&self) -> u32 {
        self.panels.iter().fold(0, |a, m| a | m)
    }
}

/// Per colour (in [`COLOURS`] order), the mask of panels it may take.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Answer(pub [u32; 4]);

pub const ALL_PANELS: u32 = (1 << 25) - 1;

/// The 0-based panel at signed grid coordinates, `None` off the grid.
pub fn panel_at(r: i32, c: i32) -> Option<usize> {
    ((0..5).contains(&r) && (0..5).contains(&c)).then(|| (r * 5 + c) as usize)
}

pub struct Attack25;

impl Problem for Attack25 {
    const ID: &'static str = "attack25";
    const SUMMARY: &'static str =
        "which panels each of the four colours may take next in Attack 25";
    const CORPUS: &'static str = include_str!("../../../tests/data/attack25/corpus.toml");
    type Input = Input;
    type Answer = Answer;

    fn parse(text: &[u8]) -> Result<Input, ParseError> {
        let mut sc = Scanner::new(text);
        let mut input = Input::default();
        // Where each panel number was written, to point at it in a semantic error.
        let mut written_at = [(0u32, 0u32); 25];
        for (k, &letter) in COLOURS.iter().enumerate() {
            let expected_letter = format!(
                "'{}' (line {} lists {}'s panels)",
                letter as char,
                k + 1,
                COLOUR_NAMES[k]
            );
            sc.byte(letter, &expected_letter)?;
            let mut previous = 0;
            while sc.peek() == Some(b',') {
                sc.byte(b',', "','")?;
                let at = (sc.line(), sc.col());
                let number = sc.number(1, 25, "a panel number")?;
                if number <= previous {
                    return Err(ParseError::at(
                        at.0,
                        at.1,
                        format!(
                            "expected panel numbers in ascending order, found {number} after {previous}"
                        ),
                    ));
                }
                let panel = number as usize - 1;
                if let Some(holder) = input.owner(panel) {
                    return Err(ParseError::at(
                        at.0,
                        at.1,
                        format!(
                            "panel {number} is already listed for {}; no panel may appear twice",
                            COLOURS[holder] as char
                        ),
                    ));
                }
                input.panels[k] |= 1 << panel;
                written_at[panel] = at;
                previous = number;
            }
            sc.byte(b'\n', "',' and a panel number, or end of line ('\\n')")?;
        }
        sc.end("end of input after 4 lines")?;
        check_reachable(&input, &written_at)?;
        Ok(input)
    }

    fn valid(input: &Input) -> bool {
        let disjoint = (0..4).all(|a| (a + 1..4).all(|b| input.panels[a] & input.panels[b] == 0));
        disjoint
            && input.taken() & !ALL_PANELS == 0
            && check_reachable(input, &[(1, 1); 25]).is_ok()
    }

    fn write_input(input: &Input) -> String {
        write_lines(&input.panels)
    }

    fn write_answer(answer: &Answer) -> String {
        write_lines(&answer.0)
    }

    fn read_answer(text: &str) -> Result<Answer, AnswerError> {
        // Whitespace is ignored entirely: the colour letters delimit the four lists.
        let compact: Vec<u8> = text.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
        let mut at = 0;
        let mut answer = Answer::default();
        for (k, &letter) in COLOURS.iter().enumerate() {
            if compact.get(at) != Some(&letter) {
                return Err(AnswerError(format!(
                    "expected the line of colour {} next",
                    letter as char
                )));
            }
            at += 1;
            let mut previous = 0;
            while compact.get(at) == Some(&b',') {
                at += 1;
                let start = at;
                while compact.get(at).is_some_and(u8::is_ascii_digit) {
                    at += 1;
                }
                let digits = std::str::from_utf8(&compact[start..at]).unwrap_or("");
                let number = match digits.parse::<u32>() {
                    Ok(n)
                        if (1..=25).contains(&n)
                            && !(digits.len() > 1 && digits.starts_with('0')) =>
                    {
                        n
                    }
                    _ => {
                        return Err(AnswerError(format!(
                            "expected a panel number from 1 to 25 for {}, found '{}'",
                            letter as char,
                            shorten(&String::from_utf8_lossy(
                                &compact[start..(start + 8).min(compact.len())]
                            ))
                        )));
                    }
                };
                if number <= previous {
                    return Err(AnswerError(format!(
                        "panels of {} are not in ascending order ({number} after {previous})",
                        letter as char
                    )));
                }
                answer.0[k] |= 1 << (number - 1);
                previous = number;
            }
        }
        if at != compact.len() {
            return Err(AnswerError(
                "expected end of output after the line of G".to_string(),
            ));
        }
        Ok(answer)
    }

    fn picture(input: &Input) -> Picture {
        Picture::new(5, 5, |r, c| match input.owner(r * 5 + c) {
            Some(0) => Ink::Red,
            Some(1) => Ink::Blue,
            Some(2) => Ink::White,
            Some(_) => Ink::Green,
            None => Ink::Empty,
        })
        .with_style(Style::Panels)
        .with_cell_names(|r, c| (r * 5 + c + 1).to_string())
        .with_legend(vec![
            Key {
                ink: Ink::Red,
                glyph: 'R',
                meaning: "panel held by R",
            },
            Key {
                ink: Ink::Blue,
                glyph: 'B',
                meaning: "panel held by B",
            },
            Key {
                ink: Ink::White,
                glyph: 'W',
                meaning: "panel held by W",
            },
            Key {
                ink: Ink::Green,
                glyph: 'G',
                meaning: "panel held by G",
            },
        ])
    }

    /// One layer per colour: the panels it may take.
    fn layers(answer: &Answer) -> Vec<Layer> {
        COLOURS
            .iter()
            .zip(answer.0)
            .map(|(&letter, mask)| Layer {
                name: format!("{} may take", letter as char),
                cells: (0..25)
                    .filter(|p| mask >> p & 1 == 1)
                    .map(|p| (p / 5, p % 5))
                    .collect(),
            })
            .collect()
    }

    /// Every panel some colour may take.
    fn marks(answer: &Answer) -> Vec<(usize, usize)> {
        let any = answer.0.iter().fold(0, |a, m| a | m);
        (0..25)
            .filter(|p| any >> p & 1 == 1)
            .map(|p| (p / 5, p % 5))
            .collect()
    }

    fn reference(input: &Input) -> Answer {
        reference::solve(input)
    }

    fn reference_with<A: crate::access::BoardAccess>(input: &Input) -> Answer {
        reference::solve_with::<A>(input)
    }

    fn fast(input: &Input) -> Answer {
        fast::solve(input)
    }

    fn known_wrong() -> Vec<crate::problem::Solver<Self>> {
        let mut solvers = wrong::solvers();
        solvers.extend(decoy::solvers());
        solvers
    }

    const EQUIVALENT_MODELS: &'static [crate::access::Equivalent] = wrong::EQUIVALENT_MODELS;
}

fn write_lines(masks: &[u32; 4]) -> String {
    let mut out = String::new();
    for (k, &letter) in COLOURS.iter().enumerate() {
        out.push(letter as char);
        for panel in 0..25 {
            if masks[k] >> panel & 1 == 1 {
                out.push_str(&format!(",{}", panel + 1));
            }
        }
        out.push('\n');
    }
    out
}

/// The spec's reachability rule: empty, or panel 13 taken and all taken panels 8-connected.
fn check_reachable(input: &Input, written_at: &[(u32, u32); 25]) -> Result<(), ParseError> {
    let taken = input.taken();
    if taken == 0 {
        return Ok(());
    }
    // Point at the panel written first: it is the one a reader would look at.
    let first_written = |mask: u32| {
        (0..25)
            .filter(|&p| mask >> p & 1 == 1)
            .min_by_key(|&p| written_at[p])
            .unwrap_or(0)
    };
    if taken >> CENTRE & 1 == 0 {
        let p = first_written(taken);
        return Err(ParseError::at(
            written_at[p].0,
            written_at[p].1,
            format!(
                "panel {} is taken but panel 13 is not; every game starts on panel 13",
                p + 1
            ),
        ));
    }
    let mut reached = 1u32 << CENTRE;
    let mut frontier = vec![CENTRE];
    while let Some(p) = frontier.pop() {
        let (r, c) = ((p / 5) as i32, (p % 5) as i32);
        for (dr, dc) in crate::board::DIRECTIONS {
            let next =
                panel_at(r + dr, c + dc).filter(|&q| taken >> q & 1 == 1 && reached >> q & 1 == 0);
            if let Some(q) = next {
                reached |= 1 << q;
                frontier.push(q);
            }
        }
    }
    let stranded = taken & !reached;
    if stranded != 0 {
        let p = first_written(stranded);
        return Err(ParseError::at(
            written_at[p].0,
            written_at[p].1,
            format!(
                "panel {} is not connected to panel 13 through taken panels (in 8 directions)",
                p + 1
            ),
        ));
    }
    Ok(())
}
