//! Cooperative cancellation. A [`Cancel`] token is handed to every long loop and to the
//! sandbox while a program runs; cancelling it kills the running submissions and starts no new
//! work. Ctrl-C and SIGTERM cancel the token that [`Cancel::on_interrupt`] returns; a parallel
//! run also cancels its token on its first error, so the other workers stop.

use std::sync::Arc;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// A token nothing cancels but [`Cancel::cancel`].
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// The token that Ctrl-C and SIGTERM cancel (the handler is installed on the first call;
    /// a process has one).
    pub fn on_interrupt() -> Cancel {
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

    pub fn cancel(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// The flag itself, for the sandbox's wait loop.
    pub fn flag(&self) -> &AtomicBool {
        &self.0
    }
}
