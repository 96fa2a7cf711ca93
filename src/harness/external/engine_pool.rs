//! The external engines' processes of a run: one per worker, kept from search to search
//! (`ucinewgame` between them), instead of a process per position, which costs engines that
//! load a network dearly. A session whose search failed (a crash, a hang, an illegal move, a
//! bad counter line) is dropped, so the next search of that engine starts a fresh process with
//! its options sent again; the failed position keeps its reason in its record.

use std::collections::{BTreeMap, VecDeque};
use std::sync::Mutex;

use super::session::Session;
use super::{EngineSpec, Outcome};
use crate::engine::config::Limits;
use crate::harness::epd::EpdRecord;

/// Idle sessions by the variant they belong to, and the starts of each variant.
pub struct EnginePool {
    /// At most `keep` idle sessions in all, the least recently used first.
    idle: Mutex<VecDeque<(String, Session)>>,
    /// Processes used per variant label (the probe's, kept for the first search, included).
    starts: Mutex<BTreeMap<String, usize>>,
    /// How many idle sessions are kept: the number of workers, so that a run of one engine
    /// starts at most one process per worker (plus restarts), and a run of many engine
    /// variants (an ablation) keeps no more processes than workers.
    keep: usize,
}

impl EnginePool {
    pub fn new(workers: usize) -> EnginePool {
        EnginePool {
            idle: Mutex::new(VecDeque::new()),
            starts: Mutex::new(BTreeMap::new()),
            keep: workers.max(1),
        }
    }

    /// Search `record` with the variant `label`'s engine, in an idle session of it or a new
    /// one.
    pub fn search(
        &self,
        label: &str,
        engine: &EngineSpec,
        record: &EpdRecord,
        limits: &Limits,
    ) -> Outcome {
        let idle = {
            let mut idle = self.idle.lock().expect("no worker panics holding it");
            let at = idle.iter().position(|(l, _)| l == label);
            at.and_then(|at| idle.remove(at))
                .map(|(_, session)| session)
        };
        let mut session = match idle {
            Some(session) => session,
            None => {
                *self
                    .starts
                    .lock()
                    .expect("no worker panics holding it")
                    .entry(label.to_string())
                    .or_default() += 1;
                match Session::open(engine) {
                    Ok((session, _)) => session,
                    Err(reason) => {
                        return Outcome {
                            failure: Some(reason),
                            ..Outcome::default()
                        };
                    }
                }
            }
        };
        let outcome = session.search(record, limits);
        if outcome.failure.is_none() {
            let mut idle = self.idle.lock().expect("no worker panics holding it");
            idle.push_back((label.to_string(), session));
            if idle.len() > self.keep {
                // The least recently used goes (its process is told `quit`).
                idle.pop_front();
            }
        }
        outcome
    }

    /// Processes used per engine variant so far, the probe's included.
    pub fn starts(&self) -> BTreeMap<String, usize> {
        self.starts
            .lock()
            .expect("no worker panics holding it")
            .clone()
    }
}
