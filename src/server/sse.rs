//! `/api/solve` as server-sent events: `started` with the solve's id, then `solution` and
//! `bound` as the search improves, then `done` with the whole answer (or `error`).
//!
//! The stream holds the solve's [`Cancel`] guard: when the client goes away, the body is
//! dropped and the guard stops the search. A client that has gone away is noticed at the
//! next write, so the stream writes a comment every [`KEEP_ALIVE`] even while the search
//! is silent.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::future::{select, Either};
use serde_json::{json, Value};
use tokio::sync::mpsc;

use super::answer::progress_event;
use super::queue::{Cancel, Ticket};
use super::request::SolveRequest;
use super::State;

/// How often the stream writes while the search is silent.
pub const KEEP_ALIVE: Duration = Duration::from_millis(250);

/// One event with JSON data.
fn event(name: &str, data: &Value) -> Event {
    Event::default().event(name).data(data.to_string())
}

/// The event stream of a solve admitted with `ticket` and registered as `cancel`.
pub fn stream(
    state: Arc<State>,
    ticket: Ticket,
    request: SolveRequest,
    cancel: Cancel,
) -> Response {
    let (tx, rx) = mpsc::unbounded_channel::<Event>();
    let _ = tx.send(event("started", &json!({"id": cancel.id()})));
    let stop = cancel.flag();
    tokio::spawn(async move {
        let (progress_tx, mut progress_rx) = mpsc::unbounded_channel();
        let events = tx.clone();
        let forward = tokio::spawn(async move {
            while let Some(p) = progress_rx.recv().await {
                let (name, data) = progress_event(&p);
                let _ = events.send(event(name, &data));
            }
        });
        let run = std::pin::pin!(super::solve::run(
            &state,
            ticket,
            request,
            stop,
            Some(progress_tx)
        ));
        // A client gone while its solve waits for a slot gives its place back at once.
        let gone = std::pin::pin!(tx.closed());
        let result = match select(run, gone).await {
            Either::Left((result, _)) => result,
            Either::Right(_) => return,
        };
        // Every improvement is sent before the answer: the forwarder ends when the search
        // has dropped its sender.
        let _ = forward.await;
        let _ = tx.send(match result {
            Ok(answer) => event("done", &answer),
            Err(e) => event("error", &e.body()),
        });
    });
    let body = futures_util::stream::unfold((rx, cancel), |(mut rx, cancel)| async move {
        rx.recv()
            .await
            .map(|e| (Ok::<_, Infallible>(e), (rx, cancel)))
    });
    Sse::new(body)
        .keep_alive(KeepAlive::new().interval(KEEP_ALIVE))
        .into_response()
}
