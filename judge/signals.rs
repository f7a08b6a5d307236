//! Ctrl-C and SIGTERM, for the commands that run long work: they cancel one token, which
//! kills the running submissions and starts no new work; the command then says how far it
//! got (exit 2). The handler is installed by the first call only: a command that never asks
//! (`judge solve` reading its input, `judge bench`) keeps the default, and dies at once.

use std::sync::OnceLock;

use judge_core::cancel::Cancel;

/// The token Ctrl-C and SIGTERM cancel.
pub fn interrupt() -> Cancel {
    static SIGNALLED: OnceLock<Cancel> = OnceLock::new();
    SIGNALLED
        .get_or_init(|| {
            let token = Cancel::new();
            let handler = token.clone();
            // Fails only if another handler is installed, which this program never does.
            let _ = ctrlc::set_handler(move || handler.cancel());
            token
        })
        .clone()
}
