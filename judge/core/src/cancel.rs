//! Cooperative cancellation. A [`Cancel`] token is handed to every long loop and to the
//! sandbox while a program runs; cancelling it kills the running submissions and starts no new
//! work. The binary hooks Ctrl-C and SIGTERM to one token (the core installs no signal
//! handler); a parallel run cancels a [`Cancel::child`] of it on its first error, so its own
//! workers stop, and cancels one run alone (a test after a known failure) through that run's
//! own child.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Weak};

#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<Node>);

#[derive(Debug, Default)]
struct Node {
    flag: AtomicBool,
    /// The children made by [`Cancel::child`] that are still alive: cancelled with this one.
    children: Mutex<Vec<Weak<Node>>>,
}

impl Node {
    fn cancel(&self) {
        self.flag.store(true, Ordering::SeqCst);
        let children =
            std::mem::take(&mut *self.children.lock().unwrap_or_else(|e| e.into_inner()));
        for child in children.iter().filter_map(Weak::upgrade) {
            child.cancel();
        }
    }
}

impl Cancel {
    /// A token nothing cancels but [`Cancel::cancel`].
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// A token cancelled with this one (now, if this one already is), and on its own without
    /// touching this one: one run of many, or one parallel run's workers.
    pub fn child(&self) -> Cancel {
        let child = Cancel::new();
        let mut children = self.0.children.lock().unwrap_or_else(|e| e.into_inner());
        // Checked under the lock `cancel` takes: a child is never missed by a cancel that
        // happens while it is made.
        if self.is_cancelled() {
            child.cancel();
        } else {
            // Children that are gone (finished runs) are dropped here, so the list stays as
            // long as the runs alive at once.
            children.retain(|c| c.strong_count() > 0);
            children.push(Arc::downgrade(&child.0));
        }
        child
    }

    pub fn cancel(&self) {
        self.0.cancel();
    }

    pub fn is_cancelled(&self) -> bool {
        self.0.flag.load(Ordering::Relaxed)
    }

    /// The flag itself, for the sandbox's wait loop.
    pub fn flag(&self) -> &AtomicBool {
        &self.0.flag
    }
}

#[cfg(test)]
mod tests {
    use super::Cancel;

    #[test]
    fn a_child_is_cancelled_with_its_parent_and_alone() {
        let parent = Cancel::new();
        let (a, b) = (parent.child(), parent.child());
        let grandchild = a.child();
        b.cancel();
        assert!(b.is_cancelled() && !parent.is_cancelled() && !a.is_cancelled());
        parent.cancel();
        assert!(a.is_cancelled() && grandchild.is_cancelled());
        // Made after the parent was cancelled: cancelled from the start.
        assert!(parent.child().is_cancelled());
    }

    #[test]
    fn children_that_are_gone_are_not_kept() {
        let parent = Cancel::new();
        for _ in 0..1000 {
            let _ = parent.child();
        }
        let kept = parent.child();
        assert!(parent.0.children.lock().unwrap().len() <= 2);
        parent.cancel();
        assert!(kept.is_cancelled());
    }
}
