//! The API's errors: one line of words (the command line's, from the same error types, with
//! its options named as the API's fields: [`api_words`]) and the HTTP status it stands
//! for, answered as `{"error": "…"}`.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{json, Map, Value};

use crate::daily::DailyError;
use crate::grid::BoardError;
use crate::input::InputError;
use crate::picture::PictureError;

/// Seconds a client told "busy" (429) should wait before asking again.
pub const RETRY_AFTER_SECS: u32 = 2;

/// A request that cannot be answered: its status and its one-line message.
#[derive(Clone, Debug, PartialEq)]
pub struct ApiError {
    /// The HTTP status code (400, 404, 405, 413, 429 or 500).
    pub status: u16,
    /// What went wrong, one line.
    pub message: String,
    /// More fields for the JSON body beside `"error"` (e.g. the number of an illegal move).
    pub extra: Map<String, Value>,
}

impl ApiError {
    fn new(status: u16, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
            extra: Map::new(),
        }
    }

    /// 400: the request's content is wrong.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(400, message)
    }

    /// 404: nothing here.
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(404, message)
    }

    /// 405: the path exists, the method does not.
    pub fn method_not_allowed(message: impl Into<String>) -> ApiError {
        ApiError::new(405, message)
    }

    /// 413: the body is over `limit` bytes.
    pub fn too_large(limit: usize) -> ApiError {
        ApiError::new(413, format!("the request body is over {} MiB", limit >> 20))
    }

    /// 429: every solve slot and queue place is taken (answered with `Retry-After`).
    pub fn busy(what: &str, running: usize, queued: usize) -> ApiError {
        ApiError::new(
            429,
            format!(
                "the server is busy: {running} {what} running and {queued} waiting; try again in {RETRY_AFTER_SECS} s"
            ),
        )
    }

    /// 500: a bug on our side (a panic caught, a task lost).
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError::new(500, message)
    }

    /// The same error with one more field in its JSON body.
    pub fn with(mut self, key: &str, value: Value) -> ApiError {
        self.extra.insert(key.to_string(), value);
        self
    }

    /// The JSON body: `{"error": message, …extra}`.
    pub fn body(&self) -> Value {
        let mut m = self.extra.clone();
        m.insert("error".into(), json!(self.message));
        Value::Object(m)
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.status, self.message)
    }
}

impl std::error::Error for ApiError {}

/// The command line's options that the API takes as fields of a body or parameters of a
/// query, each under the same name in snake case.
pub const OPTIONS: [&str; 14] = [
    "game",
    "date",
    "start",
    "min-group",
    "clickable",
    "sideways",
    "objective",
    "time-limit",
    "no-proof",
    "certify",
    "anytime",
    "width",
    "height",
    "colours",
];

/// An input error's words for an API client: each of the command line's [`OPTIONS`] it
/// names (`--min-group`) is named as the API's field (`"min_group"`); anything else is
/// left as it is, quoted text included. An option is `--` at the start or after a
/// character that neither ends a word nor opens a quote (a value the client sent is
/// echoed in quotes, and stays as sent), then a known name, then nothing that could go on
/// a word.
pub fn api_words(message: &str) -> String {
    let wordy = |c: char| c.is_alphanumeric() || c == '-' || c == '_';
    let before = |c: char| wordy(c) || c == '"' || c == '\'';
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(at) = rest.find("--") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        let len = after.find(|c: char| !wordy(c)).unwrap_or(after.len());
        let name = &after[..len];
        if !out.ends_with(before) && OPTIONS.contains(&name) {
            out.push('"');
            out.push_str(&name.replace('-', "_"));
            out.push('"');
            rest = &after[len..];
        } else {
            out.push_str("--");
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

/// Each error of the library's input checks is the client's: 400, in its own words with
/// the API's names ([`api_words`]).
macro_rules! bad_input {
    ($($error:ty),*) => {$(
        impl From<$error> for ApiError {
            fn from(e: $error) -> ApiError {
                ApiError::bad_request(api_words(&e.to_string()))
            }
        }
    )*};
}

bad_input!(InputError, BoardError, DailyError, PictureError);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let mut response = (status, axum::Json(self.body())).into_response();
        if status == StatusCode::TOO_MANY_REQUESTS {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(RETRY_AFTER_SECS));
        }
        response
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_body_holds_the_message_and_the_extra_fields() {
        let e = ApiError::bad_request("illegal move 2").with("move", json!(2));
        assert_eq!(e.body(), json!({"error": "illegal move 2", "move": 2}));
        let e: ApiError = BoardError::NoRows.into();
        assert_eq!(e.status, 400);
        assert_eq!(e.message, BoardError::NoRows.to_string());
    }

    #[test]
    fn the_command_lines_options_are_named_as_fields() {
        let mut checked = 0;
        for (cli, api) in [
            (
                "--time-limit must be a number of seconds ≥ 0, not -1",
                "\"time_limit\" must be a number of seconds ≥ 0, not -1",
            ),
            (
                "a 4×4 board is not the usual size of any game: say which with --game",
                "a 4×4 board is not the usual size of any game: say which with \"game\"",
            ),
            ("--start 5,5 is outside", "\"start\" 5,5 is outside"),
            ("--min-group must be", "\"min_group\" must be"),
            (
                "give --width and --height to set it",
                "give \"width\" and \"height\" to set it",
            ),
            ("; --colours 3 reads them", "; \"colours\" 3 reads them"),
            // not an option the API has, or not an option at all: as it was
            (
                "--memory must be at least 1 MiB",
                "--memory must be at least 1 MiB",
            ),
            ("row \"A--gameB\"", "row \"A--gameB\""),
            (
                "--start must be topleft, centre or X,Y, not \"--game\"",
                "\"start\" must be topleft, centre or X,Y, not \"--game\"",
            ),
            ("invalid value '--start'", "invalid value '--start'"),
            ("--games --game-x -- --", "--games --game-x -- --"),
            ("ends with --", "ends with --"),
        ] {
            assert_eq!(api_words(cli), api, "{cli:?}");
            checked += 1;
        }
        assert_eq!(checked, 12);
        let e: ApiError = crate::input::InputError::MinGroupZero.into();
        assert_eq!(e.message, "\"min_group\" must be at least 1");
    }

    #[test]
    fn busy_answers_carry_retry_after() {
        let r = ApiError::busy("solves", 2, 4).into_response();
        assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(r.headers()[header::RETRY_AFTER], "2");
        let r = ApiError::too_large(10 << 20).into_response();
        assert_eq!(r.status(), StatusCode::PAYLOAD_TOO_LARGE);
        assert!(r.headers().get(header::RETRY_AFTER).is_none());
    }
}
