//! Events a run emits as it happens: the CLI prints progress from them, the store writes them,
//! the app streams them to the UI.

use crate::context::Item;
use crate::providers::Usage;
use crate::trace::{Outcome, Step, Transfer};

#[derive(Debug, Clone)]
pub enum RunEvent {
    Started {
        topology: String,
        scenario: String,
        started_at: String,
    },
    /// A new item (emitted before the step that references it).
    Item(Item),
    Step(Step),
    /// A transfer (emitted before its step).
    Transfer(Transfer),
    /// A delegation returned: what came back to the caller and what the worker kept.
    Returned {
        transfer: u32,
        back: crate::trace::Back,
    },
    /// The run waits before a transfer on a breakpoint edge until resumed (or cancelled).
    Paused {
        step: u32,
        edge: String,
    },
    Finished {
        outcome: Outcome,
        usage: Usage,
        ended_at: String,
    },
}
