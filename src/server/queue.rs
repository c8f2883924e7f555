//! Bounded work: a [`Queue`] of slots (at most `max_running` jobs at once, at most
//! `max_queued` waiting, the rest refused with 429), and the register of running solves
//! ([`Solves`]) through which a solve is stopped by id or by its client going away.
//!
//! A place in the queue is a [`Ticket`], taken before any answer starts (so a refusal is a
//! plain 429); it becomes a [`Slot`] when a slot frees. Both give their place back when
//! dropped, wherever that happens: the handler of a client that went away, or the blocking
//! task of a solve that has ended. The count of admitted jobs never exceeds
//! `max_running + max_queued`, which bounds the memory the jobs hold.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use rustc_hash::FxHashMap;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::errors::ApiError;

/// Slots for one kind of job.
#[derive(Debug)]
pub struct Queue {
    /// What the jobs are, for the busy message ("solves").
    what: &'static str,
    slots: Arc<Semaphore>,
    max_running: usize,
    max_queued: usize,
    /// Tickets alive: running plus waiting.
    admitted: AtomicUsize,
}

/// A place in a [`Queue`]: waiting, until [`Ticket::start`] gives it a slot.
#[derive(Debug)]
pub struct Ticket {
    queue: Arc<Queue>,
}

/// A running job's slot; the slot and the place free when it is dropped.
#[derive(Debug)]
pub struct Slot {
    _permit: OwnedSemaphorePermit,
    _ticket: Ticket,
}

impl Queue {
    /// A queue running at most `max_running` (at least 1) jobs and holding at most
    /// `max_queued` more.
    pub fn new(what: &'static str, max_running: usize, max_queued: usize) -> Arc<Queue> {
        let max_running = max_running.max(1);
        Arc::new(Queue {
            what,
            slots: Arc::new(Semaphore::new(max_running)),
            max_running,
            max_queued,
            admitted: AtomicUsize::new(0),
        })
    }

    /// A place in the queue, or 429 when all `max_running + max_queued` are taken.
    pub fn enter(self: &Arc<Self>) -> Result<Ticket, ApiError> {
        let cap = self.max_running + self.max_queued;
        self.admitted
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                (n < cap).then_some(n + 1)
            })
            .map_err(|_| ApiError::busy(self.what, self.running(), self.queued()))?;
        Ok(Ticket {
            queue: self.clone(),
        })
    }

    /// Jobs holding a slot now.
    pub fn running(&self) -> usize {
        self.max_running - self.slots.available_permits().min(self.max_running)
    }

    /// Jobs waiting for a slot now.
    pub fn queued(&self) -> usize {
        self.admitted
            .load(Ordering::SeqCst)
            .saturating_sub(self.running())
    }

    /// The most jobs running at once.
    pub fn max_running(&self) -> usize {
        self.max_running
    }

    /// The most jobs waiting.
    pub fn max_queued(&self) -> usize {
        self.max_queued
    }
}

impl Ticket {
    /// Waits for a free slot (first come, first served).
    pub async fn start(self) -> Slot {
        let permit = self
            .queue
            .slots
            .clone()
            .acquire_owned()
            .await
            .expect("the semaphore is never closed");
        Slot {
            _permit: permit,
            _ticket: self,
        }
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        self.queue.admitted.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The solves admitted and not yet ended, by id, each with its stop flag.
#[derive(Debug, Default)]
pub struct Solves {
    flags: Mutex<FxHashMap<String, Arc<AtomicBool>>>,
    next: AtomicU64,
}

/// Stops its solve when dropped (the client went away, or the answer was sent), and takes
/// it out of the register.
#[derive(Debug)]
pub struct Cancel {
    id: String,
    stop: Arc<AtomicBool>,
    solves: Arc<Solves>,
}

impl Solves {
    /// Registers a new solve: its id, its stop flag, and the guard that stops it on drop.
    pub fn register(self: &Arc<Self>) -> Cancel {
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        // A counter keeps ids unique; the random part keeps them from being guessed.
        let id = format!("{n:x}-{:08x}", fastrand::u32(..));
        let stop = Arc::new(AtomicBool::new(false));
        self.lock().insert(id.clone(), stop.clone());
        Cancel {
            id,
            stop,
            solves: self.clone(),
        }
    }

    /// Stops the solve `id`: false when there is none.
    pub fn stop(&self, id: &str) -> bool {
        match self.lock().get(id) {
            Some(flag) => {
                flag.store(true, Ordering::SeqCst);
                true
            }
            None => false,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, FxHashMap<String, Arc<AtomicBool>>> {
        // The map stays consistent even if a holder panicked: every change is one call.
        self.flags.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Cancel {
    /// The solve's id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The solve's stop flag, for its [`crate::search::SearchOptions::stop`].
    pub fn flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }
}

impl Drop for Cancel {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        self.solves.lock().remove(&self.id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_queue_refuses_and_frees_places_on_drop() {
        let q = Queue::new("solves", 1, 2);
        let a = q.enter().unwrap();
        let b = q.enter().unwrap();
        let c = q.enter().unwrap();
        let e = q.enter().unwrap_err();
        assert_eq!(e.status, 429);
        assert_eq!(q.queued(), 3);
        drop(b);
        let d = q.enter().unwrap();
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let slot = rt.block_on(a.start());
        assert_eq!((q.running(), q.queued()), (1, 2));
        drop(slot);
        assert_eq!((q.running(), q.queued()), (0, 2));
        drop((c, d));
        assert_eq!((q.running(), q.queued()), (0, 0));
    }

    #[test]
    fn a_cancel_guard_stops_and_forgets_its_solve() {
        let solves = Arc::new(Solves::default());
        let c = solves.register();
        let (id, flag) = (c.id().to_string(), c.flag());
        assert!(!flag.load(Ordering::SeqCst));
        assert!(solves.stop(&id));
        assert!(flag.load(Ordering::SeqCst));
        drop(c);
        assert!(!solves.stop(&id), "an ended solve is unknown");
        assert!(!solves.stop("nope"));
    }
}
