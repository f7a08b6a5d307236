//! Progress of long work, as the core reports it: a position and a message. How it is shown
//! is the binary's business (a bar on a terminal, nothing in pipes and CI); the core draws
//! nothing and depends on no terminal library. The figures the bar shows (a rate, the time
//! left, thousands) are written here, so that reports say them the same way.

use std::time::Duration;

/// A counter of long work that someone may be watching.
pub trait Progress: Sync {
    /// How far the work got, in its units (tests, runs, cases).
    fn set(&self, position: u64);
    /// What is being done now (`building`, a submission's name, `shrinking case 12`).
    fn message(&self, message: &str);
}

/// Starts counters: for work that makes several in turn (`judge package` measures each
/// accepted solution on every test, with a counter of its own).
pub trait Meter: Sync {
    /// A counter of `what` with an optional known total, gone when it is dropped.
    fn start(&self, what: &str, total: Option<u64>) -> Box<dyn Progress + '_>;
}

/// Progress nobody sees: for work inside work that has its own counter, and for tests.
#[derive(Clone, Copy, Debug, Default)]
pub struct Hidden;

impl Progress for Hidden {
    fn set(&self, _: u64) {}
    fn message(&self, _: &str) {}
}

impl Meter for Hidden {
    fn start(&self, _: &str, _: Option<u64>) -> Box<dyn Progress + '_> {
        Box::new(Hidden)
    }
}

/// A rate as the progress line shows it: whole numbers with thousands separators
/// (`1,234,567/s`), never a long tail of decimals.
pub fn rate(per_second: f64) -> String {
    if !per_second.is_finite() || per_second < 0.5 {
        return if per_second > 0.0 && per_second.is_finite() {
            "<1/s".to_string()
        } else {
            "0/s".to_string()
        };
    }
    format!("{}/s", thousands(per_second.round() as u64))
}

/// The time left, to the second: `42 s left`, `3 min 05 s left`, `2 h 07 min left`.
pub fn left(time: Duration) -> String {
    let s = time.as_secs() + u64::from(time.subsec_nanos() > 0);
    match s {
        0..60 => format!("{s} s left"),
        60..3600 => format!("{} min {:02} s left", s / 60, s % 60),
        _ => format!("{} h {:02} min left", s / 3600, s % 3600 / 60),
    }
}

/// `n` things, as people write it: `1 test`, `0 tests`, `1,234 tests` (`noun` is the singular;
/// every noun the judge counts takes an `s`).
pub fn count(n: impl TryInto<u64>, noun: &str) -> String {
    let n = n.try_into().unwrap_or(u64::MAX);
    format!("{} {}", thousands(n), plural(n, noun))
}

/// `noun` or its plural, as `n` asks: `plural(1, "case")` is `case`. (For counts a script
/// reads, e.g. the stress outcome's `on 100000 cases of`, which keep their plain digits.)
pub fn plural(n: u64, noun: &str) -> String {
    if n == 1 {
        noun.to_string()
    } else {
        format!("{noun}s")
    }
}

/// `1234567` as `1,234,567`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{count, left, plural, rate, thousands};
    use std::time::Duration;

    #[test]
    fn time_left_reads_as_seconds_minutes_or_hours() {
        assert_eq!(left(Duration::from_millis(41_200)), "42 s left");
        assert_eq!(left(Duration::ZERO), "0 s left");
        assert_eq!(left(Duration::from_secs(185)), "3 min 05 s left");
        assert_eq!(
            left(Duration::from_secs(2 * 3600 + 7 * 60 + 9)),
            "2 h 07 min left"
        );
    }

    #[test]
    fn rates_are_whole_numbers_with_separators() {
        assert_eq!(rate(1234567.891), "1,234,568/s");
        assert_eq!(rate(12.4999), "12/s");
        assert_eq!(rate(999.5), "1,000/s");
        assert_eq!(rate(0.2), "<1/s");
        assert_eq!(rate(0.0), "0/s");
        assert_eq!(rate(f64::INFINITY), "0/s");
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(100), "100");
        assert_eq!(thousands(1000), "1,000");
    }

    #[test]
    fn counts_are_singular_for_one() {
        assert_eq!(count(1u64, "test"), "1 test");
        assert_eq!(count(0usize, "case"), "0 cases");
        assert_eq!(count(2u32, "submission"), "2 submissions");
        assert_eq!(count(12345u64, "input"), "12,345 inputs");
        assert_eq!(plural(1, "case"), "case");
        assert_eq!(plural(100000, "case"), "cases");
    }
}
