//! The page's static files, inside the binary: `web/index.html`, `web/app.js` and
//! `web/style.css`, each served with its content type.

use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};

/// `web/index.html`, served at `/`.
pub const INDEX_HTML: &str = include_str!("../../web/index.html");
/// `web/app.js`, served at `/app.js`.
pub const APP_JS: &str = include_str!("../../web/app.js");
/// `web/style.css`, served at `/style.css`.
pub const STYLE_CSS: &str = include_str!("../../web/style.css");

/// A static file with its content type. `no-cache` makes a browser ask again (the files
/// change with the binary, and the answer is small).
fn file(content_type: &'static str, body: &'static str) -> Response {
    (
        [(CONTENT_TYPE, content_type), (CACHE_CONTROL, "no-cache")],
        body,
    )
        .into_response()
}

/// `GET /`.
pub async fn index() -> Response {
    file("text/html; charset=utf-8", INDEX_HTML)
}

/// `GET /app.js`.
pub async fn app_js() -> Response {
    file("text/javascript; charset=utf-8", APP_JS)
}

/// `GET /style.css`.
pub async fn style_css() -> Response {
    file("text/css; charset=utf-8", STYLE_CSS)
}
