//! Pausing a live run at a breakpoint: the runner waits on the gate until the user resumes
//! (or cancels) it.

use std::sync::atomic::{AtomicBool, Ordering};
use tokio::sync::Notify;

#[derive(Default)]
pub struct Gate {
    paused: AtomicBool,
    notify: Notify,
}

impl Gate {
    pub fn is_paused(&self) -> bool {
        self.paused.load(Ordering::SeqCst)
    }

    /// Lets a paused run go on.
    pub fn resume(&self) {
        self.paused.store(false, Ordering::SeqCst);
        self.notify.notify_waiters();
    }

    /// Waits until resumed.
    pub(crate) async fn wait(&self) {
        self.paused.store(true, Ordering::SeqCst);
        while self.is_paused() {
            let n = self.notify.notified();
            if !self.is_paused() {
                break;
            }
            n.await;
        }
    }
}
