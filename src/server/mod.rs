//! `tumble serve`: the web page and its JSON API, on axum and tokio.
//!
//! The page's files are inside the binary ([`files`]); every rule, board and answer comes
//! from the library, through the same functions as the command line, so the page never
//! plays a game itself and the API's error messages are the command line's.
//!
//! | file | what it does |
//! |---|---|
//! | [`request`] | requests parsed and checked as plain values (no server needed) |
//! | [`answer`] | answers as JSON: reports with boards and removed cells, replays, games |
//! | [`errors`] | [`ApiError`]: one line of words and its status code, as `{"error": …}` |
//! | [`queue`] | slots and queue (429 beyond), solves by id with their stop flags |
//! | [`solve`] | one solve on the blocking pool, with progress through a channel |
//! | [`sse`] | a solve as server-sent events |
//! | [`api`] | the handlers |
//! | [`files`] | the page's static files |
//!
//! Limits keep the server's memory bounded under any sequence of requests: bodies of at
//! most [`BODY_LIMIT`], at most [`BODIES_IN_MEMORY`] of them held at once; at most `jobs` solves running, each with one search thread, a
//! time limit of at most `max_time` and a table of at most [`Config::memory_per_solve`];
//! at most `2 × jobs` waiting, the rest refused with 429; screenshots read in a queue of
//! their own of the same size. A client that goes away stops its solve. A panic in a
//! handler is answered with 500 and the server goes on.

pub mod answer;
pub mod api;
pub mod errors;
pub mod files;
pub mod picture;
pub mod queue;
pub mod request;
pub mod solve;
pub mod sse;

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::panic::AssertUnwindSafe;
use std::sync::Arc;

use axum::extract::Request;
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use futures_util::FutureExt;

pub use errors::ApiError;
use queue::{Queue, Solves};

/// The largest request body, in bytes (413 beyond).
pub const BODY_LIMIT: usize = 10 << 20;
/// The most request bodies read and held at once (more wait): at most 320 MiB of bodies.
pub const BODIES_IN_MEMORY: usize = 32;
/// The memory for the tables of all running solves together, in bytes.
pub const TABLES_MEMORY: usize = 1 << 30;
/// The most memory one solve's table may take, in bytes.
pub const MAX_SOLVE_MEMORY: usize = 256 << 20;

/// How the server runs.
#[derive(Clone, Debug)]
pub struct Config {
    /// The address to listen on (loopback by default).
    pub bind: IpAddr,
    /// The port (0: a free one, chosen by the system).
    pub port: u16,
    /// The longest solve, in seconds: every request's time limit is capped at it.
    pub max_time: f64,
    /// Solves running at once (each with one search thread).
    pub jobs: usize,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            bind: IpAddr::V4(Ipv4Addr::LOCALHOST),
            port: 8017,
            max_time: 60.0,
            jobs: crate::machine::cores(),
        }
    }
}

impl Config {
    /// Checks the numbers, in the words of the command line's options.
    pub fn check(&self) -> Result<(), String> {
        if !(self.max_time.is_finite() && self.max_time > 0.0) {
            return Err(format!(
                "--max-time must be a number of seconds > 0, not {}",
                self.max_time
            ));
        }
        crate::input::check_jobs(self.jobs).map_err(|e| e.to_string())
    }

    /// The table memory of one solve: [`TABLES_MEMORY`] shared by the `jobs` running
    /// solves, at most [`MAX_SOLVE_MEMORY`] and at least 16 MiB.
    pub fn memory_per_solve(&self) -> usize {
        (TABLES_MEMORY / self.jobs.max(1)).clamp(16 << 20, MAX_SOLVE_MEMORY)
    }
}

/// What the handlers share.
#[derive(Debug)]
pub struct State {
    pub config: Config,
    /// The solve slots and queue.
    pub solves: Arc<Queue>,
    /// The slots and queue of the picture work: screenshots read, answers drawn.
    pub pictures: Arc<Queue>,
    /// The solves admitted, by id.
    pub register: Arc<Solves>,
    /// The table memory of each solve, in bytes.
    pub memory_per_solve: usize,
    /// Places for request bodies in memory ([`BODIES_IN_MEMORY`]).
    pub bodies: Arc<tokio::sync::Semaphore>,
}

impl State {
    /// The state for `config`.
    pub fn new(config: Config) -> State {
        let jobs = config.jobs.max(1);
        State {
            solves: Queue::new("solves", jobs, 2 * jobs),
            pictures: Queue::new("pictures", jobs, 2 * jobs),
            register: Arc::new(Solves::default()),
            memory_per_solve: config.memory_per_solve(),
            bodies: Arc::new(tokio::sync::Semaphore::new(BODIES_IN_MEMORY)),
            config,
        }
    }
}

/// Answers a panic in a handler with 500 instead of dropping the connection, and gives
/// a 405 (which axum answers with no body) its JSON error.
async fn guard(request: Request, next: Next) -> Response {
    let (method, path) = (request.method().clone(), request.uri().path().to_string());
    let response = match AssertUnwindSafe(next.run(request)).catch_unwind().await {
        Ok(r) => r,
        Err(_) => {
            return ApiError::internal("internal error: the handler panicked").into_response()
        }
    };
    if response.status() == StatusCode::METHOD_NOT_ALLOWED {
        let (mut parts, _) = response.into_parts();
        let body =
            ApiError::method_not_allowed(format!("method {method} is not allowed on {path}"))
                .into_response();
        let (body_parts, body) = body.into_parts();
        parts.headers.extend(
            body_parts
                .headers
                .into_iter()
                .filter_map(|(k, v)| k.map(|k| (k, v))),
        );
        return Response::from_parts(parts, body);
    }
    response
}

/// The routes: the page's files and the API.
pub fn router(state: Arc<State>) -> Router {
    Router::new()
        .route("/", get(files::index))
        .route("/app.js", get(files::app_js))
        .route("/style.css", get(files::style_css))
        .route("/api/games", get(api::games))
        .route("/api/status", get(api::status))
        .route("/api/generate", get(api::generate))
        .route("/api/former/{date}", get(api::former))
        .route("/api/apply", post(api::apply))
        .route("/api/read", post(api::read))
        .route("/api/render", post(api::render))
        .route("/api/solve", post(api::solve))
        .route("/api/solve/{id}/stop", post(api::stop))
        .fallback(api::not_found)
        .layer(axum::middleware::from_fn(guard))
        .with_state(state)
}

/// A server bound to its address, not yet answering.
pub struct Server {
    listener: std::net::TcpListener,
    config: Config,
}

impl Server {
    /// Binds to `config`'s address and port (checked first).
    pub fn bind(config: Config) -> anyhow::Result<Server> {
        config.check().map_err(anyhow::Error::msg)?;
        let addr = SocketAddr::new(config.bind, config.port);
        let listener = std::net::TcpListener::bind(addr)
            .map_err(|e| anyhow::anyhow!("cannot listen on {addr}: {e}"))?;
        listener.set_nonblocking(true)?;
        Ok(Server { listener, config })
    }

    /// The address bound (with the real port when 0 was asked for).
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// The page's address: `http://127.0.0.1:8017/`.
    pub fn url(&self) -> std::io::Result<String> {
        Ok(format!("http://{}/", self.local_addr()?))
    }

    /// Answers requests until the process ends.
    pub fn run(self) -> anyhow::Result<()> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()?;
        let state = Arc::new(State::new(self.config));
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(self.listener)?;
            axum::serve(listener, router(state)).await
        })?;
        Ok(())
    }
}

/// Binds and serves `config` until the process ends.
pub fn serve(config: Config) -> anyhow::Result<()> {
    Server::bind(config)?.run()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};

    /// `GET path` over a fresh connection: the whole answer.
    fn ask(addr: SocketAddr, path: &str) -> String {
        let mut s = std::net::TcpStream::connect(addr).unwrap();
        s.set_read_timeout(Some(std::time::Duration::from_secs(30)))
            .unwrap();
        write!(
            s,
            "GET {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).unwrap();
        out
    }

    async fn boom() -> &'static str {
        panic!("a panic in a handler, on purpose")
    }

    async fn fine() -> &'static str {
        "fine"
    }

    #[test]
    fn a_panic_in_a_handler_is_a_500_and_the_server_goes_on() {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let app = Router::new()
            .route("/boom", get(boom))
            .route("/fine", post(fine))
            .layer(axum::middleware::from_fn(guard));
        let listener = rt
            .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
            .unwrap();
        let addr = listener.local_addr().unwrap();
        rt.spawn(async move { axum::serve(listener, app).await });
        let mut answered = 0;
        for _ in 0..3 {
            let a = ask(addr, "/boom");
            assert!(a.starts_with("HTTP/1.1 500"), "{a}");
            assert!(a.ends_with(r#"{"error":"internal error: the handler panicked"}"#));
            let a = ask(addr, "/fine");
            assert!(a.starts_with("HTTP/1.1 405"), "{a}");
            assert!(a.contains("allow: POST"), "{a}");
            assert!(a.ends_with(r#"{"error":"method GET is not allowed on /fine"}"#));
            answered += 2;
        }
        assert_eq!(answered, 6);
    }

    #[test]
    fn solves_share_the_table_memory() {
        let config = |jobs| Config {
            jobs,
            ..Config::default()
        };
        assert_eq!(config(1).memory_per_solve(), MAX_SOLVE_MEMORY);
        assert_eq!(config(8).memory_per_solve(), 128 << 20);
        assert_eq!(config(1000).memory_per_solve(), 16 << 20);
        assert!(config(0).check().is_err());
        // no more than eight solves per core run at once
        let most = crate::input::THREADS_PER_CORE * crate::machine::cores();
        assert!(config(most).check().is_ok());
        assert!(config(most + 1).check().unwrap_err().contains("per core"));
        let bad_time = Config {
            max_time: f64::NAN,
            ..Config::default()
        };
        assert!(bad_time.check().unwrap_err().contains("--max-time"));
    }
}
