//! A small client of the Chrome DevTools protocol for the browser tests: it starts a fresh
//! headless Chromium, attaches to one page over a plain websocket and sends commands one at a
//! time, waiting for each answer. Events are not needed except the page's console messages and
//! uncaught exceptions, which are kept so that a failing test can show them.

#![allow(dead_code)]

use std::io::ErrorKind;
use std::net::TcpStream;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use base64::Engine as _;
use serde_json::{json, Value};
use tungstenite::{Message, WebSocket};

use crate::common::scratch::Scratch;

/// How long one DevTools command may take before the test fails.
const COMMAND_TIMEOUT: Duration = Duration::from_secs(60);

/// The Chromium binary: `$CHROMIUM` if set, else the first of Debian's names on the PATH.
pub fn chromium_binary() -> PathBuf {
    if let Some(p) = std::env::var_os("CHROMIUM") {
        return PathBuf::from(p);
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    for name in ["chromium", "chromium-browser", "google-chrome"] {
        for dir in std::env::split_paths(&path) {
            let p = dir.join(name);
            if p.is_file() {
                return p;
            }
        }
    }
    panic!(
        "chromium not found: install Debian's chromium (`apt-get install chromium chromium-driver`), \
         or set CHROMIUM to its path; the browser tests are never skipped"
    );
}

/// One headless Chromium with one page attached. Dropping it ends the browser and removes its
/// profile directory.
pub struct Browser {
    process: Process,
    socket: WebSocket<TcpStream>,
    session: String,
    next_id: u64,
    /// Console messages and uncaught exceptions of the page, in order.
    pub log: Vec<String>,
}

impl Browser {
    /// Starts Chromium with a fresh profile and opens a blank page of `width`×`height` pixels.
    pub fn launch(width: u32, height: u32) -> Browser {
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let binary = chromium_binary();
        let profile = Scratch::new(&format!("browser-{}", COUNT.fetch_add(1, Ordering::SeqCst)));
        // In a process group of its own, so that the whole browser can be ended at once
        // (`Process`'s drop).
        let child = Command::new(&binary)
            .process_group(0)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--no-default-browser-check",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-extensions",
                "--disable-dev-shm-usage",
                "--hide-scrollbars",
                "--force-color-profile=srgb",
                "--remote-debugging-port=0",
                &format!("--window-size={width},{height}"),
            ])
            .arg(format!("--user-data-dir={}", profile.dir().display()))
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| {
                panic!(
                    "chromium not found: could not start {} ({e}); install Debian's chromium",
                    binary.display()
                )
            });
        let mut process = Process { child, profile };
        let (port, path) = process.devtools_port();
        let stream =
            TcpStream::connect(("127.0.0.1", port)).expect("connect to Chromium's DevTools port");
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .expect("set a read timeout");
        let url = format!("ws://127.0.0.1:{port}{path}");
        let (socket, _) = tungstenite::client(url.as_str(), stream)
            .unwrap_or_else(|e| panic!("websocket handshake with Chromium at {url} failed: {e}"));
        // Short reads from now on, so that a command's deadline is checked often.
        socket
            .get_ref()
            .set_read_timeout(Some(Duration::from_millis(200)))
            .expect("set a read timeout");
        let mut browser = Browser {
            process,
            socket,
            session: String::new(),
            next_id: 0,
            log: Vec::new(),
        };
        let targets = browser.call("Target.getTargets", json!({}));
        let target = targets["targetInfos"]
            .as_array()
            .and_then(|t| t.iter().find(|t| t["type"] == "page"))
            .map(|t| t["targetId"].as_str().unwrap_or_default().to_string());
        let target = match target {
            Some(t) => t,
            None => browser.call("Target.createTarget", json!({"url": "about:blank"}))["targetId"]
                .as_str()
                .expect("Target.createTarget gives a targetId")
                .to_string(),
        };
        let attached = browser.call(
            "Target.attachToTarget",
            json!({"targetId": target, "flatten": true}),
        );
        browser.session = attached["sessionId"]
            .as_str()
            .expect("Target.attachToTarget gives a sessionId")
            .to_string();
        browser.send("Page.enable", json!({}));
        browser.send("Runtime.enable", json!({}));
        browser.set_viewport(width, height, false);
        browser
    }

    /// Sends a command to the browser itself (no session).
    fn call(&mut self, method: &str, params: Value) -> Value {
        self.command(None, method, params)
            .unwrap_or_else(|e| panic!("DevTools {method} failed: {e}"))
    }

    /// Lets the page download files, into `dir`.
    pub fn allow_downloads(&mut self, dir: &std::path::Path) {
        self.call(
            "Browser.setDownloadBehavior",
            json!({"behavior": "allow", "downloadPath": dir.to_str().expect("a UTF-8 path")}),
        );
    }

    /// Sends a command to the page and returns its result; panics with the protocol's error.
    pub fn send(&mut self, method: &str, params: Value) -> Value {
        let session = self.session.clone();
        self.command(Some(&session), method, params)
            .unwrap_or_else(|e| panic!("DevTools {method} failed: {e}"))
    }

    fn command(
        &mut self,
        session: Option<&str>,
        method: &str,
        params: Value,
    ) -> Result<Value, String> {
        self.next_id += 1;
        let id = self.next_id;
        let mut msg = json!({"id": id, "method": method, "params": params});
        if let Some(s) = session {
            msg["sessionId"] = json!(s);
        }
        self.socket
            .send(Message::text(msg.to_string()))
            .map_err(|e| format!("sending: {e}"))?;
        let start = Instant::now();
        loop {
            if start.elapsed() > COMMAND_TIMEOUT {
                return Err(format!("no answer within {} s", COMMAND_TIMEOUT.as_secs()));
            }
            let text = match self.socket.read() {
                Ok(Message::Text(t)) => t.to_string(),
                Ok(Message::Close(_)) => return Err("Chromium closed the connection".into()),
                Ok(_) => continue,
                Err(tungstenite::Error::Io(e))
                    if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) =>
                {
                    continue
                }
                Err(e) => return Err(format!("reading: {e}")),
            };
            let v: Value = serde_json::from_str(&text).map_err(|e| format!("bad message: {e}"))?;
            if v["id"].as_u64() == Some(id) {
                if let Some(err) = v.get("error") {
                    return Err(err.to_string());
                }
                return Ok(v["result"].clone());
            }
            self.note_event(&v);
        }
    }

    fn note_event(&mut self, v: &Value) {
        match v["method"].as_str() {
            Some("Runtime.consoleAPICalled") => {
                let args: Vec<String> = v["params"]["args"]
                    .as_array()
                    .map(|a| {
                        a.iter()
                            .map(|x| {
                                x.get("value")
                                    .map(|v| v.to_string())
                                    .or_else(|| x["description"].as_str().map(str::to_string))
                                    .unwrap_or_default()
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                self.log.push(format!(
                    "console.{}: {}",
                    v["params"]["type"].as_str().unwrap_or("log"),
                    args.join(" ")
                ));
            }
            Some("Runtime.exceptionThrown") => {
                let d = &v["params"]["exceptionDetails"];
                let text = d["exception"]["description"]
                    .as_str()
                    .or_else(|| d["text"].as_str())
                    .unwrap_or("exception");
                self.log.push(format!("uncaught: {text}"));
            }
            _ => {}
        }
    }

    /// The page's console and exceptions so far, for failure messages.
    pub fn log_text(&self) -> String {
        if self.log.is_empty() {
            "(the page logged nothing)".into()
        } else {
            self.log.join("\n")
        }
    }

    /// Emulates a window of `width`×`height` CSS pixels (`mobile`: a phone's touch screen).
    pub fn set_viewport(&mut self, width: u32, height: u32, mobile: bool) {
        self.send(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": width, "height": height, "deviceScaleFactor": if mobile { 2 } else { 1 }, "mobile": mobile}),
        );
        self.send(
            "Emulation.setTouchEmulationEnabled",
            json!({"enabled": mobile}),
        );
    }

    /// Opens `url` and waits for the document to load.
    pub fn navigate(&mut self, url: &str) {
        let r = self.send("Page.navigate", json!({"url": url}));
        if let Some(e) = r.get("errorText") {
            panic!("opening {url} failed: {e}");
        }
        self.wait_for(
            "document.readyState === 'complete'",
            "the page to load",
            Duration::from_secs(30),
        );
    }

    /// Evaluates `expr` in the page (awaiting a promise) and returns its value.
    pub fn try_eval(&mut self, expr: &str) -> Result<Value, String> {
        let r = self.send(
            "Runtime.evaluate",
            json!({"expression": expr, "returnByValue": true, "awaitPromise": true}),
        );
        if let Some(d) = r.get("exceptionDetails") {
            let text = d["exception"]["description"]
                .as_str()
                .or_else(|| d["text"].as_str())
                .unwrap_or("exception");
            return Err(text.to_string());
        }
        Ok(r["result"].get("value").cloned().unwrap_or(Value::Null))
    }

    /// Evaluates `expr` in the page; a JavaScript exception fails the test.
    pub fn eval(&mut self, expr: &str) -> Value {
        self.try_eval(expr).unwrap_or_else(|e| {
            panic!(
                "evaluating `{expr}` threw: {e}\npage log:\n{}",
                self.log_text()
            )
        })
    }

    /// Evaluates `expr` as a string.
    pub fn text(&mut self, expr: &str) -> String {
        match self.eval(expr) {
            Value::String(s) => s,
            Value::Null => String::new(),
            v => v.to_string(),
        }
    }

    /// Polls `cond` until it is truthy; fails after `timeout` naming `what` and the page's log.
    pub fn wait_for(&mut self, cond: &str, what: &str, timeout: Duration) {
        let start = Instant::now();
        loop {
            let v = self.try_eval(&format!("!!({cond})"));
            if v == Ok(Value::Bool(true)) {
                return;
            }
            if start.elapsed() > timeout {
                panic!(
                    "timed out after {:.0} s waiting for {what} (`{cond}` is {v:?})\npage log:\n{}",
                    timeout.as_secs_f64(),
                    self.log_text()
                );
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The centre of the element `selector` in viewport pixels, scrolled into view first.
    pub fn centre(&mut self, selector: &str) -> (f64, f64) {
        let sel = serde_json::to_string(selector).expect("a string");
        let v = self.eval(&format!(
            "(() => {{ const e = document.querySelector({sel}); if (!e) return null; \
             e.scrollIntoView({{block: 'center', inline: 'center'}}); \
             const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }})()"
        ));
        match v.as_array().map(|a| (a[0].as_f64(), a[1].as_f64())) {
            Some((Some(x), Some(y))) => (x, y),
            _ => panic!(
                "no element matches {selector}\npage log:\n{}",
                self.log_text()
            ),
        }
    }

    fn mouse(&mut self, kind: &str, x: f64, y: f64, buttons: u32) {
        let button = if kind == "mouseMoved" && buttons == 0 {
            "none"
        } else {
            "left"
        };
        self.send(
            "Input.dispatchMouseEvent",
            json!({"type": kind, "x": x, "y": y, "button": button, "buttons": buttons, "clickCount": 1, "pointerType": "mouse"}),
        );
    }

    /// A real mouse click at the centre of `selector`.
    pub fn click(&mut self, selector: &str) {
        let disabled = self.eval(&format!(
            "(() => {{ const e = document.querySelector({}); return !!(e && e.disabled); }})()",
            serde_json::to_string(selector).expect("a string")
        ));
        assert_eq!(
            disabled,
            Value::Bool(false),
            "{selector} is disabled, cannot click it"
        );
        let (x, y) = self.centre(selector);
        self.mouse("mouseMoved", x, y, 0);
        self.mouse("mousePressed", x, y, 1);
        self.mouse("mouseReleased", x, y, 0);
    }

    /// Presses the mouse on `from`, drags over `via` in order, and releases on the last.
    pub fn drag(&mut self, from: &str, via: &[String]) {
        let (x, y) = self.centre(from);
        self.mouse("mouseMoved", x, y, 0);
        self.mouse("mousePressed", x, y, 1);
        let mut last = (x, y);
        for sel in via {
            let (tx, ty) = self.centre(sel);
            // Two steps per cell, as a real hand moves through the tiles.
            self.mouse("mouseMoved", (last.0 + tx) / 2.0, (last.1 + ty) / 2.0, 1);
            self.mouse("mouseMoved", tx, ty, 1);
            last = (tx, ty);
        }
        self.mouse("mouseReleased", last.0, last.1, 0);
    }

    /// Puts `file` into the `<input type=file>` `selector` (which fires its change event).
    pub fn set_file(&mut self, selector: &str, file: &Path) {
        let doc = self.send("DOM.getDocument", json!({}));
        let root = doc["root"]["nodeId"].as_i64().expect("a document node");
        let node = self.send(
            "DOM.querySelector",
            json!({"nodeId": root, "selector": selector}),
        );
        let id = node["nodeId"].as_i64().unwrap_or(0);
        assert!(id != 0, "no element matches {selector}");
        self.send(
            "DOM.setFileInputFiles",
            json!({"nodeId": id, "files": [file.to_str().expect("a UTF-8 path")]}),
        );
    }

    /// The browser's profile directory (gone once the browser is dropped).
    pub fn profile(&self) -> PathBuf {
        self.process.profile.dir().to_path_buf()
    }

    /// Saves a PNG of the whole page (not just the viewport) to `path`.
    pub fn screenshot(&mut self, path: &Path) {
        self.eval("window.scrollTo(0, 0)");
        let size = self
            .eval("[document.documentElement.scrollWidth, document.documentElement.scrollHeight]");
        let w = size[0].as_f64().unwrap_or(1280.0);
        let h = size[1].as_f64().unwrap_or(800.0);
        let shot = self.send(
            "Page.captureScreenshot",
            json!({"format": "png", "captureBeyondViewport": true,
                   "clip": {"x": 0, "y": 0, "width": w, "height": h, "scale": 1}}),
        );
        let data = base64::engine::general_purpose::STANDARD
            .decode(shot["data"].as_str().expect("screenshot data"))
            .expect("the screenshot is base64");
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).expect("create the screenshot directory");
        }
        std::fs::write(path, data).expect("write the screenshot");
    }
}

/// The Chromium process and its profile directory: dropping it ends the one, then the other
/// is removed as every test's scratch directory is, also when the websocket never came up.
struct Process {
    child: Child,
    profile: Scratch,
}

impl Process {
    /// Waits for Chromium to write `DevToolsActivePort` into the profile: its port and the
    /// browser's websocket path.
    fn devtools_port(&mut self) -> (u16, String) {
        let file = self.profile.path("DevToolsActivePort");
        let start = Instant::now();
        loop {
            if let Ok(text) = std::fs::read_to_string(&file) {
                let mut lines = text.lines();
                if let (Some(port), Some(path)) = (lines.next(), lines.next()) {
                    if let Ok(port) = port.trim().parse() {
                        return (port, path.trim().to_string());
                    }
                }
            }
            if let Ok(Some(status)) = self.child.try_wait() {
                panic!("chromium exited ({status}) before opening its DevTools port");
            }
            if start.elapsed() > Duration::from_secs(30) {
                panic!("chromium did not write {} within 30 s", file.display());
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Process {
    /// Kills the browser's whole process group: its helpers (the network and storage
    /// services, the renderers) would otherwise outlive it for a while, writing into the
    /// profile as they shut down, after the profile's removal has given up.
    fn drop(&mut self) {
        let group = self.child.id() as libc::pid_t;
        // SAFETY: a plain system call; the group is the browser's own (`launch`).
        if unsafe { libc::kill(-group, libc::SIGKILL) } != 0 {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.socket.close(None);
    }
}
