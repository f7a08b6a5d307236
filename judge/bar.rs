//! Progress as a person sees it: a bar on standard error when it is a terminal (and CI is
//! not set), nothing in pipes and CI. With a known total it shows the time left at the
//! current rate; with a time budget (`judge stress --time`), the time left of the budget. The
//! core reports progress through [`judge_core::progress::Progress`] and draws nothing.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use judge_core::progress::{Meter, Progress, left, rate};

pub struct Bar {
    bar: ProgressBar,
    what: String,
    total: bool,
}

impl Bar {
    /// A counter of `what` with an optional known total; hidden unless stderr is a terminal
    /// (and CI is not set).
    pub fn new(what: &str, total: Option<u64>) -> Bar {
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
        let progress = Bar {
            bar,
            what: what.to_string(),
            total: total.is_some(),
        };
        progress.style(None);
        progress
    }

    /// Shows the time left of a time budget (`--time`) rather than an estimate from the rate.
    pub fn with_time_budget(self, budget: Option<Duration>) -> Bar {
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

    /// The work is over: the bar goes (dropping it does the same).
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }

    /// Runs `write` (a line on standard output) with the bar out of the way.
    pub fn suspend<R>(&self, write: impl FnOnce() -> R) -> R {
        self.bar.suspend(write)
    }
}

impl Progress for Bar {
    fn set(&self, position: u64) {
        self.bar.set_position(position);
    }

    fn message(&self, message: &str) {
        // Often a submission's name: one line, shown, never sent raw to the terminal.
        self.bar.set_message(judge_report::escape::name(message));
    }
}

/// The bar goes when the work it counts is over, whichever way it ended.
impl Drop for Bar {
    fn drop(&mut self) {
        self.bar.finish_and_clear();
    }
}

/// Starts a [`Bar`] for each piece of work that asks for one.
pub struct Bars;

impl Meter for Bars {
    fn start(&self, what: &str, total: Option<u64>) -> Box<dyn Progress + '_> {
        Box::new(Bar::new(what, total))
    }
}
