//! Progress for long work: a bar on a terminal, nothing in pipes and CI.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

pub struct Progress {
    bar: ProgressBar,
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
        let template = if total.is_some() {
            format!(
                "{{elapsed_precise}} [{{bar:30}}] {{human_pos}}/{{human_len}} {what} ({{per_sec}}) {{msg}}"
            )
        } else {
            format!("{{elapsed_precise}} {{human_pos}} {what} ({{per_sec}}) {{msg}}")
        };
        bar.set_style(
            ProgressStyle::with_template(&template)
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        Progress { bar }
    }

    pub fn set(&self, position: u64) {
        self.bar.set_position(position);
    }

    pub fn message(&self, message: &str) {
        self.bar.set_message(message.to_string());
    }

    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
