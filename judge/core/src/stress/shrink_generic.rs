//! The shrinker of a problem the judge knows nothing of (a package's): the input is text, so
//! the steps are text's. Delta debugging over lines (chunks of lines removed, halves first,
//! down to single lines), then over the tokens of each line, then each integer toward small
//! values (0, 1, half, one less). A step that removes lines or tokens is also tried with a
//! count adjusted to match (an integer of the first line, of the line before the removed
//! lines, or earlier on the same line, less by the number removed): inputs often say how many
//! items follow, and the validator rejects a count that no longer matches.
//!
//! Which variant is kept is the caller's question ([`shrink`]'s `first_failing`): for a package
//! a variant must pass the package's input validators and still make the submission disagree
//! with the reference. Variants are asked in batches (one per job) and the first failing one
//! in order wins, so the result is what asking one at a time would give, whatever the batch.
//! The result is 1-minimal for these steps: no single step of the last variant list keeps the
//! disagreement (unless the time budget ran out first).

use std::collections::HashSet;
use std::time::{Duration, Instant};

/// One line of the input: its bytes without the line break.
type Line<'a> = &'a [u8];

/// Shrinks `input` while `first_failing` (given a batch of at most `batch` variants, in order)
/// says which of them still fails, if any (`None` also when it stops: an error, Ctrl-C).
/// Returns the smallest failing input found, the steps taken and whether it is 1-minimal
/// (`false`: the `budget` ran out). `on_step` hears the step count after every step.
pub fn shrink(
    input: &[u8],
    mut first_failing: impl FnMut(&[Vec<u8>]) -> Option<usize>,
    batch: usize,
    budget: Duration,
    mut on_step: impl FnMut(usize),
) -> (Vec<u8>, usize, bool) {
    let started = Instant::now();
    let batch = batch.max(1);
    let mut current = input.to_vec();
    let mut steps = 0;
    // As the built-in shrinker does: after a step the next pass starts where that step was
    // found, so each variant is tried about once per pass; a whole pass without a step ends it.
    let mut start = 0;
    loop {
        let list = variants(&current);
        let n = list.len();
        let mut order = (0..n).map(|k| (start + k) % n);
        let mut progressed = false;
        loop {
            if started.elapsed() > budget {
                return (current, steps, false);
            }
            let chunk: Vec<usize> = order.by_ref().take(batch).collect();
            if chunk.is_empty() {
                break;
            }
            let inputs: Vec<Vec<u8>> = chunk.iter().map(|&i| list[i].clone()).collect();
            if let Some(k) = first_failing(&inputs) {
                current = inputs[k].clone();
                steps += 1;
                on_step(steps);
                start = chunk[k];
                progressed = true;
                break;
            }
        }
        if !progressed {
            return (current, steps, true);
        }
    }
}

/// Every one-step variant of `input`, each different from it and from the others, in the
/// order they are tried: line chunks (largest first), tokens, numbers.
pub fn variants(input: &[u8]) -> Vec<Vec<u8>> {
    let text = Text::split(input);
    let mut out = Vec::new();
    let mut seen: HashSet<Vec<u8>> = HashSet::new();
    seen.insert(input.to_vec());
    let mut push = |v: Vec<u8>, out: &mut Vec<Vec<u8>>| {
        if seen.insert(v.clone()) {
            out.push(v);
        }
    };
    // Lines: remove `size` consecutive lines at every multiple of `size`, halves first.
    let n = text.lines.len();
    let mut size = n.div_ceil(2).max(1);
    loop {
        let mut first = 0;
        while first < n {
            let end = (first + size).min(n);
            let removed = (end - first) as i128;
            let kept: Vec<Line> = text.lines[..first]
                .iter()
                .chain(&text.lines[end..])
                .copied()
                .collect();
            push(text.join(&kept), &mut out);
            // With a count less by what was removed: of the first line, or of the line just
            // before the removed ones (a block's own header).
            let mut counted: Vec<usize> = Vec::new();
            if first > 0 {
                counted.push(0);
                if first - 1 != 0 {
                    counted.push(first - 1);
                }
            }
            for &line in &counted {
                for (span, value) in integers(text.lines[line]) {
                    if value >= removed {
                        let mut lines: Vec<Vec<u8>> =
                            text.lines.iter().map(|l| l.to_vec()).collect();
                        lines[line] = replaced(text.lines[line], span, value - removed);
                        let kept: Vec<Line> = lines[..first]
                            .iter()
                            .chain(&lines[end..])
                            .map(Vec::as_slice)
                            .collect();
                        push(text.join(&kept), &mut out);
                    }
                }
            }
            first = end;
        }
        if size == 1 {
            break;
        }
        size = size.div_ceil(2);
    }
    // Tokens: on each line, remove `size` consecutive tokens, halves first; also with a count
    // earlier on the line, or on the first line, less by what was removed.
    for (index, line) in text.lines.iter().enumerate() {
        let tokens = tokens(line);
        let count = tokens.len();
        if count < 2 {
            // A line's only token goes with the line (above).
            continue;
        }
        let mut size = count.div_ceil(2);
        loop {
            let mut first = 0;
            while first < count {
                let end = (first + size).min(count);
                let removed = (end - first) as i128;
                let shorter = without_tokens(line, &tokens, first, end);
                let mut lines: Vec<Vec<u8>> = text.lines.iter().map(|l| l.to_vec()).collect();
                lines[index] = shorter.clone();
                push(text.join_owned(&lines), &mut out);
                // A count earlier on this line (its positions are unchanged by the removal).
                for (span, value) in integers(line) {
                    if span.1 <= tokens[first].0 && value >= removed {
                        let mut adjusted = lines.clone();
                        adjusted[index] = replaced(&shorter, span, value - removed);
                        push(text.join_owned(&adjusted), &mut out);
                    }
                }
                if index > 0 {
                    for (span, value) in integers(text.lines[0]) {
                        if value >= removed {
                            let mut adjusted = lines.clone();
                            adjusted[0] = replaced(text.lines[0], span, value - removed);
                            push(text.join_owned(&adjusted), &mut out);
                        }
                    }
                }
                first = end;
            }
            if size == 1 {
                break;
            }
            size = size.div_ceil(2);
        }
    }
    // Numbers: each integer toward 0 (0, 1, half, one less; negative ones toward 0 too).
    for (index, line) in text.lines.iter().enumerate() {
        for (span, value) in integers(line) {
            for smaller in smaller_values(value) {
                let mut lines: Vec<Vec<u8>> = text.lines.iter().map(|l| l.to_vec()).collect();
                lines[index] = replaced(line, span, smaller);
                push(text.join_owned(&lines), &mut out);
            }
        }
    }
    out
}

/// The values an integer is shrunk toward, simplest first: each closer to 0 than `value`.
fn smaller_values(value: i128) -> Vec<i128> {
    let magnitude = value.unsigned_abs();
    let sign = if value < 0 { -1 } else { 1 };
    let mut out = Vec::new();
    for m in [0, 1, magnitude / 2, magnitude.saturating_sub(1)] {
        if m < magnitude && !out.contains(&(sign * m as i128)) {
            out.push(sign * m as i128);
        }
    }
    // A negative number is also tried as its positive self (often the simpler case).
    if value < 0 && magnitude <= i128::MAX as u128 {
        out.push(magnitude as i128);
    }
    out
}

/// The input as lines, and whether it ended with a line break (kept so).
struct Text<'a> {
    lines: Vec<Line<'a>>,
    trailing_newline: bool,
}

impl<'a> Text<'a> {
    fn split(input: &'a [u8]) -> Text<'a> {
        let trailing_newline = input.ends_with(b"\n");
        let body = if trailing_newline {
            &input[..input.len() - 1]
        } else {
            input
        };
        let lines = if input.is_empty() {
            Vec::new()
        } else {
            body.split(|&b| b == b'\n').collect()
        };
        Text {
            lines,
            trailing_newline,
        }
    }

    fn join(&self, lines: &[Line]) -> Vec<u8> {
        let mut out = lines.join(&b'\n');
        if self.trailing_newline && !lines.is_empty() {
            out.push(b'\n');
        }
        out
    }

    fn join_owned(&self, lines: &[Vec<u8>]) -> Vec<u8> {
        let lines: Vec<Line> = lines.iter().map(Vec::as_slice).collect();
        self.join(&lines)
    }
}

/// The tokens of a line: (start, end) of each run of bytes other than blanks.
fn tokens(line: &[u8]) -> Vec<(usize, usize)> {
    let blank = |b: u8| b == b' ' || b == b'\t' || b == b'\r';
    let mut out = Vec::new();
    let mut i = 0;
    while i < line.len() {
        if blank(line[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < line.len() && !blank(line[i]) {
            i += 1;
        }
        out.push((start, i));
    }
    out
}

/// The line without its tokens `first..end` and the blanks that separated them: the blanks
/// before the first removed token go (or, removing from the start, those after the last).
fn without_tokens(line: &[u8], tokens: &[(usize, usize)], first: usize, end: usize) -> Vec<u8> {
    let (cut_from, cut_to) = if first > 0 {
        (tokens[first - 1].1, tokens[end - 1].1)
    } else if end < tokens.len() {
        (tokens[0].0, tokens[end].0)
    } else {
        (tokens[0].0, tokens[end - 1].1)
    };
    let mut out = line[..cut_from].to_vec();
    out.extend_from_slice(&line[cut_to..]);
    out
}

/// The integer tokens of a line (an optional `-` then digits, nothing else): span and value.
fn integers(line: &[u8]) -> Vec<((usize, usize), i128)> {
    tokens(line)
        .into_iter()
        .filter_map(|(start, end)| {
            let token = &line[start..end];
            let digits = token.strip_prefix(b"-").unwrap_or(token);
            if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
                return None;
            }
            let value: i128 = std::str::from_utf8(token).ok()?.parse().ok()?;
            Some(((start, end), value))
        })
        .collect()
}

/// The line with the bytes of `span` replaced by `value` in decimal.
fn replaced(line: &[u8], span: (usize, usize), value: i128) -> Vec<u8> {
    let mut out = line[..span.0].to_vec();
    out.extend_from_slice(value.to_string().as_bytes());
    out.extend_from_slice(&line[span.1..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A sum-of-list input: `n` then `n` numbers, one a line.
    fn valid(input: &[u8]) -> bool {
        let text = std::str::from_utf8(input).unwrap();
        let mut lines = text.lines();
        let Some(Ok(n)) = lines.next().map(str::parse::<usize>) else {
            return false;
        };
        let rest: Vec<&str> = lines.collect();
        text.ends_with('\n')
            && n >= 1
            && rest.len() == n
            && rest
                .iter()
                .all(|l| l.parse::<i64>().is_ok_and(|v| (0..=1000).contains(&v)))
    }

    /// A bug that needs two numbers of at least 10 next to each other.
    fn fails(input: &[u8]) -> bool {
        let text = std::str::from_utf8(input).unwrap();
        let values: Vec<i64> = text.lines().skip(1).map(|l| l.parse().unwrap()).collect();
        values.windows(2).any(|w| w[0] >= 10 && w[1] >= 10)
    }

    fn run(input: &[u8], batch: usize) -> (Vec<u8>, usize, bool, usize) {
        let mut asked = 0;
        let (shrunk, steps, complete) = shrink(
            input,
            |batch| {
                asked += batch.len();
                batch.iter().position(|v| valid(v) && fails(v))
            },
            batch,
            Duration::from_secs(60),
            |_| {},
        );
        (shrunk, steps, complete, asked)
    }

    #[test]
    fn a_list_shrinks_to_its_minimal_shape_with_the_count_kept_right() {
        let mut input = String::from("12\n");
        for v in [3, 500, 7, 8, 0, 13, 977, 400, 2, 1, 60, 5] {
            input.push_str(&format!("{v}\n"));
        }
        assert!(valid(input.as_bytes()) && fails(input.as_bytes()));
        let (shrunk, steps, complete, _) = run(input.as_bytes(), 1);
        assert!(complete);
        assert!(steps > 0);
        assert_eq!(String::from_utf8(shrunk.clone()).unwrap(), "2\n10\n10\n");
        // The same for any batch size: the first failing variant in order wins.
        for batch in [2, 3, 8, 64] {
            assert_eq!(run(input.as_bytes(), batch).0, shrunk, "batch {batch}");
        }
    }

    #[test]
    fn the_result_is_one_minimal_for_the_steps() {
        let input = b"5\n1\n20\n30\n40\n9\n";
        let (shrunk, _, complete, _) = run(input, 4);
        assert!(complete);
        assert!(
            variants(&shrunk).iter().all(|v| !(valid(v) && fails(v))),
            "a variant of {:?} still fails",
            String::from_utf8_lossy(&shrunk)
        );
    }

    #[test]
    fn tokens_and_numbers_on_one_line_shrink_with_the_count_before_them() {
        // `n a1 … an` on one line; the bug: some value above 5.
        let valid = |v: &[u8]| {
            let t = std::str::from_utf8(v).unwrap();
            let words: Vec<i64> = match t.split_whitespace().map(str::parse).collect() {
                Ok(w) => w,
                Err(_) => return false,
            };
            t.ends_with('\n')
                && t.lines().count() == 1
                && !words.is_empty()
                && words[0] >= 1
                && words.len() as i64 == words[0] + 1
        };
        let fails = |v: &[u8]| {
            let t = std::str::from_utf8(v).unwrap();
            t.split_whitespace()
                .skip(1)
                .any(|w| w.parse::<i64>().unwrap() > 5)
        };
        let (shrunk, _, complete) = shrink(
            b"4 1 2 900 3\n",
            |batch| batch.iter().position(|v| valid(v) && fails(v)),
            3,
            Duration::from_secs(60),
            |_| {},
        );
        assert!(complete);
        assert_eq!(shrunk, b"1 6\n");
    }

    #[test]
    fn odd_inputs_give_no_panic_and_keep_their_bytes() {
        assert!(variants(b"").is_empty());
        // The only step of a lone word: no input at all.
        assert_eq!(variants(b"x"), [Vec::<u8>::new()]);
        let v = variants(b"\xff\xfe 12\r\n-3\n");
        assert!(v.contains(&b"\xff\xfe 12\r\n".to_vec()));
        assert!(v.contains(&b"\xff\xfe 12\r\n0\n".to_vec()));
        assert!(v.contains(&b"\xff\xfe 12\r\n3\n".to_vec()));
        assert!(v.contains(&b"\xff\xfe 6\r\n-3\n".to_vec()));
        // A number too long for any integer type is left as it is.
        let big = b"123456789012345678901234567890123456789012345678901234567890\n";
        assert_eq!(variants(big), [Vec::<u8>::new()]);
        assert!(smaller_values(0).is_empty());
        assert_eq!(smaller_values(1), [0]);
        assert_eq!(smaller_values(-4), [0, -1, -2, -3, 4]);
    }
}
