//! The API's requests as plain values: each is parsed and checked from the raw JSON body
//! (`body.rs`) or query string (`query.rs`) by a plain function (no server needed, so a
//! fuzz target can call them), and every mistake is an [`ApiError`] of status 400 in the
//! command line's words, its options named as the API's fields
//! ([`api_words`](super::errors::api_words)). A field or parameter an endpoint does not
//! know is a mistake too.
//!
//! The board and its rules go through [`setup_from`](crate::input::setup_from), the same
//! function `tumble solve` and `tumble check` use, so a board the command line refuses is
//! refused here with the same message. A board is also checked against the engines' size
//! limits before it is accepted, so that a solve never fails after its stream has begun.

mod body;
mod query;

pub use body::{fits, ApplyRequest, RenderRequest, SolveRequest};
pub use query::{former_board, query_pairs, read_options, GenerateRequest};

use super::errors::ApiError;
use crate::rules::Game;

/// A game by name, in `Game`'s own words for an unknown one.
fn game(name: &str) -> Result<Game, ApiError> {
    name.parse().map_err(ApiError::bad_request)
}
