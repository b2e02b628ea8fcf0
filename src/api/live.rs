//! Live runs started from a host (the app or `baton serve`): each run streams `LiveEvent`s to
//! its subscribers, is saved to the store as it goes, and can be paused, resumed or cancelled.

use crate::engine::{Gate, RunEvent};
use crate::providers::Usage;
use crate::trace::{Outcome, StepBrief, TransferBrief};
use serde::{Deserialize, Serialize};
use std::sync::{Arc, Mutex};
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

/// What a host's UI receives while a run goes on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum LiveEvent {
    Started {
        run_id: String,
        topology: String,
        scenario: String,
        started_at: String,
    },
    Step {
        step: StepBrief,
    },
    Transfer {
        transfer: TransferBrief,
    },
    Paused {
        step: u32,
        edge: String,
    },
    Resumed,
    Finished {
        outcome: Outcome,
        usage: Usage,
        ended_at: String,
    },
    /// The store could not record the run (the run itself went on).
    StoreError {
        message: String,
    },
}

/// Turns engine events into live events (items stay in the store).
pub(crate) struct Translator {
    run_id: String,
    transfers: u32,
}

impl Translator {
    pub fn new(run_id: &str) -> Translator {
        Translator { run_id: run_id.to_owned(), transfers: 0 }
    }

    pub fn translate(&mut self, e: &RunEvent) -> Option<LiveEvent> {
        Some(match e {
            RunEvent::Started { topology, scenario, started_at } => LiveEvent::Started {
                run_id: self.run_id.clone(),
                topology: topology.clone(),
                scenario: scenario.clone(),
                started_at: started_at.clone(),
            },
            RunEvent::Item(_) => return None,
            RunEvent::Step(s) => LiveEvent::Step { step: StepBrief::from(s) },
            RunEvent::Transfer(t) => {
                let b = TransferBrief::new(self.transfers, t);
                self.transfers += 1;
                LiveEvent::Transfer { transfer: b }
            }
            RunEvent::Returned { .. } => return None,
            RunEvent::Paused { step, edge } => LiveEvent::Paused { step: *step, edge: edge.clone() },
            RunEvent::Finished { outcome, usage, ended_at } => {
                LiveEvent::Finished { outcome: outcome.clone(), usage: *usage, ended_at: ended_at.clone() }
            }
        })
    }
}

/// One live run: its event log (replayed to late subscribers), and its controls.
pub struct LiveRun {
    pub id: String,
    pub cancel: CancellationToken,
    pub gate: Arc<Gate>,
    log: Mutex<(Vec<LiveEvent>, bool)>,
    notify: Notify,
}

impl LiveRun {
    pub fn new(id: &str, cancel: CancellationToken, gate: Arc<Gate>) -> LiveRun {
        LiveRun { id: id.to_owned(), cancel, gate, log: Mutex::new((vec![], false)), notify: Notify::new() }
    }

    pub fn push(&self, e: LiveEvent) {
        let mut log = self.log.lock().expect("log lock");
        if matches!(e, LiveEvent::Finished { .. }) {
            log.1 = true;
        }
        log.0.push(e);
        drop(log);
        self.notify.notify_waiters();
    }

    /// Events from `from` on, and whether the run has finished; waits when there are none yet.
    pub async fn events_since(&self, from: usize) -> (Vec<LiveEvent>, bool) {
        loop {
            let notified = self.notify.notified();
            {
                let log = self.log.lock().expect("log lock");
                if log.0.len() > from || log.1 {
                    return (log.0[from.min(log.0.len())..].to_vec(), log.1);
                }
            }
            notified.await;
        }
    }

    pub fn finished(&self) -> bool {
        self.log.lock().expect("log lock").1
    }
}
