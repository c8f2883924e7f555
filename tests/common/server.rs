//! A `tumble serve` started from a test, and a small HTTP/1.1 client over
//! `std::net::TcpStream` (plain and chunked bodies, server-sent events).
//!
//! The server is the real binary, `tumble serve --port 0 …`; its first line on stdout is
//! its address. It is killed when the [`Server`] is dropped.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::Value;

/// How long a test waits for any one answer before failing.
pub const TIMEOUT: Duration = Duration::from_secs(120);

/// A running `tumble serve`.
pub struct Server {
    child: Child,
    /// `http://127.0.0.1:PORT/`
    pub url: String,
    /// `127.0.0.1:PORT`
    pub addr: String,
}

impl Server {
    /// Starts `tumble serve --port 0 args…` and reads its address.
    pub fn start(args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tumble"))
            .args(["serve", "--port", "0"])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("tumble serve starts");
        let stdout = child.stdout.take().expect("stdout is piped");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = tx.send(line);
        });
        let line = rx
            .recv_timeout(Duration::from_secs(30))
            .expect("tumble serve prints its address");
        let url = line.trim().to_string();
        assert!(
            url.starts_with("http://127.0.0.1:") && url.ends_with('/'),
            "the first line is the page's address: {url:?}"
        );
        let addr = url["http://".len()..url.len() - 1].to_string();
        Server { child, url, addr }
    }

    /// The process id, for `/proc`.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Is the process still running?
    pub fn alive(&mut self) -> bool {
        self.child.try_wait().expect("try_wait works").is_none()
    }

    /// The peak resident memory of the server so far, in KiB (`VmHWM`).
    pub fn peak_rss_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid()))
            .expect("/proc/PID/status is readable");
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .expect("VmHWM in /proc/PID/status")
    }

    /// A connection to the server, with [`TIMEOUT`] on reads and writes.
    pub fn connect(&self) -> TcpStream {
        let s = TcpStream::connect(&self.addr).expect("the server accepts a connection");
        s.set_read_timeout(Some(TIMEOUT)).unwrap();
        s.set_write_timeout(Some(TIMEOUT)).unwrap();
        s
    }

    /// Sends a request (`Connection: close`) with `headers` and `body`, and reads the whole
    /// answer.
    pub fn request(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> Response {
        let mut s = self.connect();
        send(&mut s, method, path, headers, body);
        read_response(BufReader::new(s))
    }

    /// `GET path`.
    pub fn get(&self, path: &str) -> Response {
        self.request("GET", path, &[], b"")
    }

    /// `POST path` with a JSON body.
    pub fn post_json(&self, path: &str, body: &Value) -> Response {
        self.request(
            "POST",
            path,
            &[("Content-Type", "application/json")],
            body.to_string().as_bytes(),
        )
    }

    /// `POST path` with `body`, asking for server-sent events: the status and the stream.
    pub fn events(&self, path: &str, body: &Value) -> Events {
        let mut s = self.connect();
        send(
            &mut s,
            "POST",
            path,
            &[
                ("Content-Type", "application/json"),
                ("Accept", "text/event-stream"),
            ],
            body.to_string().as_bytes(),
        );
        let mut r = BufReader::new(s);
        let (status, headers) = read_head(&mut r);
        let chunked = header(&headers, "transfer-encoding").is_some_and(|v| v.contains("chunked"));
        Events {
            status,
            headers,
            lines: BufReader::new(Body {
                inner: r,
                chunked,
                left: 0,
                done: false,
            }),
        }
    }

    /// `GET /api/status`.
    pub fn status(&self) -> Value {
        let r = self.get("/api/status");
        assert_eq!(r.status, 200);
        r.json()
    }

    /// Waits until `/api/status` shows `running` and `queued` (failing after `limit`);
    /// returns how long it took.
    pub fn wait_for(&self, running: u64, queued: u64, limit: Duration) -> Duration {
        let start = Instant::now();
        loop {
            let s = self.status();
            if s["running"] == running && s["queued"] == queued {
                return start.elapsed();
            }
            assert!(
                start.elapsed() < limit,
                "status still {s} after {limit:?}, expected running {running}, queued {queued}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Writes a request.
pub fn send(s: &mut TcpStream, method: &str, path: &str, headers: &[(&str, &str)], body: &[u8]) {
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n");
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    if !headers
        .iter()
        .any(|(k, _)| k.eq_ignore_ascii_case("content-length"))
    {
        head.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    head.push_str("\r\n");
    s.write_all(head.as_bytes()).expect("the request is sent");
    s.write_all(body).expect("the body is sent");
    s.flush().unwrap();
}

/// An answer.
#[derive(Debug)]
pub struct Response {
    pub status: u16,
    /// Names in lower case.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Response {
    /// The body as JSON (failing the test if it is not).
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!(
                "the body is not JSON ({e}): {:?}",
                String::from_utf8_lossy(&self.body)
            )
        })
    }

    /// The body as text.
    pub fn text(&self) -> String {
        String::from_utf8(self.body.clone()).expect("the body is UTF-8")
    }

    /// A header's value.
    pub fn header(&self, name: &str) -> Option<&str> {
        header(&self.headers, name)
    }

    /// The `"error"` of a JSON error body (failing the test if there is none).
    pub fn error(&self) -> String {
        self.json()["error"]
            .as_str()
            .unwrap_or_else(|| panic!("no \"error\" in {}", self.text()))
            .to_string()
    }
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

/// Reads the status line and headers.
pub fn read_head(r: &mut impl BufRead) -> (u16, Vec<(String, String)>) {
    let mut line = String::new();
    r.read_line(&mut line).expect("a status line");
    let status = line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("a status line, not {line:?}"));
    let mut headers = Vec::new();
    loop {
        let mut h = String::new();
        r.read_line(&mut h).expect("a header line");
        let h = h.trim_end();
        if h.is_empty() {
            break;
        }
        let (k, v) = h.split_once(':').expect("a header is NAME: VALUE");
        headers.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
    }
    (status, headers)
}

/// Reads a whole answer (the connection closes after it).
pub fn read_response(mut r: BufReader<TcpStream>) -> Response {
    let (status, headers) = read_head(&mut r);
    let chunked = header(&headers, "transfer-encoding").is_some_and(|v| v.contains("chunked"));
    let mut body = Vec::new();
    Body {
        inner: r,
        chunked,
        left: 0,
        done: false,
    }
    .read_to_end(&mut body)
    .expect("the body is read");
    Response {
        status,
        headers,
        body,
    }
}

/// A body, plain (up to the end of the connection) or chunked.
pub struct Body<R> {
    inner: R,
    chunked: bool,
    /// Bytes left in the current chunk.
    left: usize,
    done: bool,
}

impl<R: BufRead> Read for Body<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if !self.chunked {
            return self.inner.read(buf);
        }
        if self.done {
            return Ok(0);
        }
        if self.left == 0 {
            let mut line = String::new();
            self.inner.read_line(&mut line)?;
            let size = line.trim();
            if size.is_empty() {
                // The blank line after a chunk's data.
                line.clear();
                self.inner.read_line(&mut line)?;
            }
            let size = line.trim().split(';').next().unwrap_or("");
            if size.is_empty() {
                self.done = true;
                return Ok(0);
            }
            self.left = usize::from_str_radix(size, 16).map_err(|e| {
                std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    format!("chunk {size:?}: {e}"),
                )
            })?;
            if self.left == 0 {
                self.done = true;
                return Ok(0);
            }
        }
        let n = buf.len().min(self.left);
        let n = self.inner.read(&mut buf[..n])?;
        self.left -= n;
        if self.left == 0 {
            let mut crlf = [0u8; 2];
            self.inner.read_exact(&mut crlf)?;
        }
        Ok(n)
    }
}

/// One server-sent event.
#[derive(Clone, Debug)]
pub struct Event {
    pub name: String,
    pub data: Value,
}

/// A stream of server-sent events.
pub struct Events {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    lines: BufReader<Body<BufReader<TcpStream>>>,
}

impl Events {
    /// The next event (comments skipped), or `None` at the end of the stream.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Option<Event> {
        let (mut name, mut data) = (String::new(), String::new());
        loop {
            let mut line = String::new();
            let n = self
                .lines
                .read_line(&mut line)
                .expect("the stream is readable");
            if n == 0 {
                return None;
            }
            let line = line.trim_end_matches(['\r', '\n']);
            if line.is_empty() {
                if name.is_empty() && data.is_empty() {
                    continue;
                }
                let data = serde_json::from_str(&data)
                    .unwrap_or_else(|e| panic!("event data is not JSON ({e}): {data:?}"));
                return Some(Event { name, data });
            }
            if let Some(v) = line.strip_prefix("event:") {
                name = v.trim().to_string();
            } else if let Some(v) = line.strip_prefix("data:") {
                data.push_str(v.strip_prefix(' ').unwrap_or(v));
            }
        }
    }
}
