//! One solve, as both kinds of `/api/solve` answer run it: wait for a slot, then solve on
//! tokio's blocking pool with one search thread, reporting progress through a channel.
//!
//! The slot moves into the blocking task, so it frees when the search has really ended,
//! not when the client stops listening. The search ends soon after its stop flag is set
//! (by `/api/solve/{id}/stop`, or by the client's [`super::queue::Cancel`] guard being
//! dropped): every search polls the flag between nodes.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use serde_json::Value;
use tokio::sync::mpsc::UnboundedSender;

use super::answer::solve_answer;
use super::errors::ApiError;
use super::queue::Ticket;
use super::request::SolveRequest;
use super::State;
use crate::report::Progress;

/// Runs `request` once `ticket` gets a slot, with stop flag `stop`, sending each improvement
/// to `progress` (when given); the answer is [`solve_answer`]'s object.
pub async fn run(
    state: &State,
    ticket: Ticket,
    request: SolveRequest,
    stop: Arc<AtomicBool>,
    progress: Option<UnboundedSender<Progress>>,
) -> Result<Value, ApiError> {
    let slot = ticket.start().await;
    let mut setup = request.setup(state.config.max_time, state.memory_per_solve);
    setup.search.stop = stop;
    let grid = request.prepared.grid;
    let job = tokio::task::spawn_blocking(move || {
        let _slot = slot;
        // The time limit counts from here, not from the request's arrival.
        setup.search.start = Instant::now();
        let mut on_progress = |p: Progress| {
            if let Some(tx) = &progress {
                // A client that has gone away no longer listens; the stop flag ends the
                // search.
                let _ = tx.send(p);
            }
        };
        let report = crate::solve::solve(&grid, &setup, &mut on_progress)?;
        Ok(solve_answer(&grid, &setup, &report))
    });
    job.await
        .unwrap_or_else(|e| Err(ApiError::internal(format!("the solve failed: {e}"))))
}
