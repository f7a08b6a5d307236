//! Progress for long work: a bar on a terminal, nothing in pipes and CI. With a known total
//! it shows the time left at the current rate; with a time budget (`judge stress --time`), the
//! time left of the budget.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

pub struct Progress {
    bar: ProgressBar,
    what: String,
    total: bool,
}

impl Progress {
    /// A counter of `what` with an optional known total; hidden unless stderr is a terminal
    /// (and CI is not set).
    pub fn new(what: &str, total: Option<u64>) -> Progress {
        let visible = std::io::stderr().is_terminal() && std::env::var_os("CI").is_none();
        let bar = match total {
            Some(n) => ProgressBar::new(n),
            None => ProgressBar::no_length(),
        };
        if visible {
            bar.set_draw_target(ProgressDrawTarget::stderr_with_hz(8));
        } else {
            bar.set_draw_target(ProgressDrawTarget::hidden());
        }
        let progress = Progress {
            bar,
            what: what.to_string(),
            total: total.is_some(),
        };
        progress.style(None);
        progress
    }

    /// Shows the time left of a time budget (`--time`) rather than an estimate from the rate.
    pub fn with_time_budget(self, budget: Option<Duration>) -> Progress {
        if budget.is_some() {
            self.style(budget);
        }
        self
    }

    fn style(&self, budget: Option<Duration>) {
        let what = &self.what;
        let counted = if self.total {
            format!("[{{bar:30}}] {{human_pos}}/{{human_len}} {what}")
        } else {
            format!("{{human_pos}} {what}")
        };
        let template = format!("{{elapsed_precise}} {counted} ({{rate}}, {{left}}) {{msg}}");
        let total = self.total;
        self.bar.set_style(
            ProgressStyle::with_template(&template)
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .with_key(
                    "rate",
                    |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                        let _ = w.write_str(&rate(state.per_sec()));
                    },
                )
                .with_key(
                    "left",
                    move |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                        let text = match budget {
                            Some(budget) => left(budget.saturating_sub(state.elapsed())),
                            // An estimate only once there is a rate to go by.
                            None if total && state.pos() > 0 => left(state.eta()),
                            None => "time left unknown".to_string(),
                        };
                        let _ = w.write_str(&text);
                    },
                ),
        );
    }

    /// A counter that never shows (for work inside work that has its own bar).
    pub fn hidden() -> Progress {
        Progress {
            bar: ProgressBar::hidden(),
            what: String::new(),
            total: false,
        }
    }

    pub fn set(&self, position: u64) {
        self.bar.set_position(position);
    }

    pub fn message(&self, message: &str) {
        self.bar.set_message(message.to_string());
    }

    /// Prints a line on standard output, above the bar if there is one.
    pub fn println(&self, line: &str) {
        self.bar.suspend(|| println!("{line}"));
    }

    pub fn finish(&self) {
        self.bar.finish_and_clear();
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
    use super::{left, rate, thousands};
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
}
