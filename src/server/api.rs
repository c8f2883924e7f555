//! The handlers of the JSON API (see the README's "Web page and API"): each reads its
//! request with [`super::request`], calls the library, and answers with
//! [`super::answer`]'s JSON or an [`ApiError`].

use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, RawQuery, State};
use axum::http::{header, HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::Json;
use futures_util::StreamExt;
use serde_json::{json, Value};
use tokio::sync::OwnedSemaphorePermit;

use super::answer::{self, games as games_answer};
use super::errors::ApiError;
use super::request::{self, ApplyRequest, GenerateRequest, RenderRequest, SolveRequest};
use super::{State as AppState, BODY_LIMIT};
use crate::input::{game_from_size, gen_board};

/// A request body read whole, with its place among the bodies in memory (given back when
/// it is dropped).
pub struct Received {
    pub bytes: Bytes,
    _place: OwnedSemaphorePermit,
}

impl std::ops::Deref for Received {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.bytes
    }
}

/// The request body, at most [`BODY_LIMIT`] bytes (413 beyond, told by `Content-Length`
/// before anything is read when the client gives it). At most [`BODIES_IN_MEMORY`](super::BODIES_IN_MEMORY) bodies
/// are read and held at once; more wait for a place.
pub async fn read_body(
    state: &AppState,
    headers: &HeaderMap,
    body: Body,
) -> Result<Received, ApiError> {
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if declared.is_some_and(|n| n > BODY_LIMIT as u64) {
        return Err(ApiError::too_large(BODY_LIMIT));
    }
    let place = state
        .bodies
        .clone()
        .acquire_owned()
        .await
        .map_err(|_| ApiError::internal("the server is shutting down"))?;
    let mut stream = body.into_data_stream();
    let mut out = Vec::new();
    while let Some(chunk) = stream.next().await {
        let chunk = chunk
            .map_err(|e| ApiError::bad_request(format!("cannot read the request body: {e}")))?;
        if out.len() + chunk.len() > BODY_LIMIT {
            return Err(ApiError::too_large(BODY_LIMIT));
        }
        out.extend_from_slice(&chunk);
    }
    Ok(Received {
        bytes: out.into(),
        _place: place,
    })
}

/// Does the client ask for server-sent events?
fn wants_events(headers: &HeaderMap) -> bool {
    headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("text/event-stream"))
}

/// `GET /api/games`.
pub async fn games() -> Json<Value> {
    Json(games_answer())
}

/// `GET /api/status`: solves running and waiting, and the limits.
pub async fn status(State(state): State<Arc<AppState>>) -> Json<Value> {
    let q = &state.solves;
    Json(json!({
        "running": q.running(),
        "queued": q.queued(),
        "max_running": q.max_running(),
        "max_queued": q.max_queued(),
        "max_time": state.config.max_time,
    }))
}

/// `GET /api/generate?game=G&width=W&height=H&colours=K&seed=S`: a board of `tumble gen`
/// (a fresh random seed when none is given).
pub async fn generate(RawQuery(query): RawQuery) -> Result<Json<Value>, ApiError> {
    let r = GenerateRequest::parse(query.as_deref().unwrap_or(""))?;
    let seed = r.seed.unwrap_or_else(|| fastrand::u64(..));
    let grid = gen_board(r.game, r.width, r.height, r.colours, seed)?;
    Ok(Json(json!({
        "game": r.game.name(),
        "board": grid.to_inline(),
        "width": grid.width(),
        "height": grid.height(),
        "seed": seed,
    })))
}

/// `GET /api/former/{date}` (`YYYY-MM-DD` or `today`): NRK Former's board of the day.
pub async fn former(date: Result<Path<String>, PathRejection>) -> Result<Json<Value>, ApiError> {
    let Path(date) = date.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let (date, grid) = request::former_board(&date)?;
    Ok(Json(
        json!({"date": date, "board": grid.to_inline(), "game": "former"}),
    ))
}

/// `POST /api/apply`: a move list replayed as `tumble check` does.
pub async fn apply(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
    body: Body,
) -> Result<Json<Value>, ApiError> {
    let body = read_body(&state, &headers, body).await?;
    Ok(Json(answer::apply(&ApplyRequest::parse(&body)?)?))
}

/// `POST /api/read?game=G&width=W&height=H&colours=K`: the board in a screenshot, read as
/// `tumble read` does, on the blocking pool and in a slot of its own queue.
pub async fn read(
    State(state): State<Arc<AppState>>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    body: Body,
) -> Result<Json<Value>, ApiError> {
    let options = request::read_options(query.as_deref().unwrap_or(""))?;
    let body = read_body(&state, &headers, body).await?;
    let game = options.game;
    let reading = picture_work(&state, "read", move || {
        Ok(crate::picture::read(&body.bytes, &options)?)
    })
    .await?;
    let grid = reading.grid;
    let game = game.or_else(|| game_from_size(grid.width(), grid.height()));
    Ok(Json(json!({
        "board": grid.to_inline(),
        "game": game.map(|g| g.name()),
        "width": grid.width(),
        "height": grid.height(),
        "colours": grid.colours(),
    })))
}

/// Runs `work` (reading or drawing a picture: `what`) on the blocking pool, in a slot of the
/// picture queue (a 429 when its queue is full).
async fn picture_work<T: Send + 'static>(
    state: &AppState,
    what: &str,
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let slot = state.pictures.enter()?.start().await;
    tokio::task::spawn_blocking(move || {
        let _slot = slot;
        work()
    })
    .await
    .map_err(|e| ApiError::internal(format!("the {what} failed: {e}")))?
}

/// `POST /api/render`: a board, or an answer's steps, as a PNG (or SVG) picture
/// ([`super::picture::draw`]), drawn on the blocking pool in a slot of the picture queue.
pub async fn render(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let body = read_body(&state, &headers, body).await?;
    let request = RenderRequest::parse(&body)?;
    drop(body);
    let picture = picture_work(&state, "drawing", move || super::picture::draw(&request)).await?;
    Ok((
        [(header::CONTENT_TYPE, picture.content_type)],
        picture.bytes,
    )
        .into_response())
}

/// `POST /api/solve`: JSON once done, or server-sent events with
/// `Accept: text/event-stream`. Bad input is a 400 and a full queue a 429, both before
/// any stream starts.
pub async fn solve(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let body = read_body(&state, &headers, body).await?;
    let request = SolveRequest::parse(&body)?;
    drop(body);
    let ticket = state.solves.enter()?;
    let cancel = state.register.register();
    if wants_events(&headers) {
        return Ok(super::sse::stream(state, ticket, request, cancel));
    }
    let id = cancel.id().to_string();
    // `cancel` lives as long as this handler: a client that goes away drops it, which
    // stops the search.
    let answer = super::solve::run(&state, ticket, request, cancel.flag(), None).await?;
    drop(cancel);
    Ok(([("x-solve-id", id)], Json(answer)).into_response())
}

/// `POST /api/solve/{id}/stop`: 204, or 404 for an unknown id.
pub async fn stop(
    State(state): State<Arc<AppState>>,
    id: Result<Path<String>, PathRejection>,
) -> Result<StatusCode, ApiError> {
    let Path(id) = id.map_err(|e| ApiError::bad_request(e.body_text()))?;
    if state.register.stop(&id) {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::not_found(format!(
            "no solve running with id {id:?}"
        )))
    }
}

/// Any other path: 404.
pub async fn not_found(uri: Uri) -> ApiError {
    ApiError::not_found(format!("not found: {}", uri.path()))
}
