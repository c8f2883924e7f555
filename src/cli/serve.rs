//! `tumble serve`: binds, prints the page's address on stdout (the first line, flushed, so
//! a script or test can read the port chosen for `--port 0`), and serves until killed.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;

use super::args::ServeArgs;
use tumble::server::{Config, Server};

/// Runs `tumble serve`.
pub fn run(args: ServeArgs) -> Result<ExitCode> {
    // A server must outlive a closed pipe: `main` restores SIGPIPE's default (quit) for the
    // printing commands, but a reader of our stdout that goes away (`tumble serve | head
    // -1`) must not end the server.
    #[cfg(unix)]
    // SAFETY: setting a signal's action to "ignore" before the server's threads start.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
    let mut config = Config {
        bind: args.bind,
        port: args.port,
        max_time: args.max_time,
        ..Config::default()
    };
    if let Some(jobs) = args.jobs {
        config.jobs = jobs;
    }
    let server = Server::bind(config)?;
    let url = server.url()?;
    // With nobody reading stdout any more, the server still serves.
    let mut out = std::io::stdout();
    let _ = writeln!(out, "{url}").and_then(|()| out.flush());
    if args.open {
        open(&url);
    }
    server.run()?;
    Ok(ExitCode::SUCCESS)
}

/// Opens `url` in a browser (`xdg-open`, or `open` on macOS); a failure is a note on
/// stderr, and the server goes on.
fn open(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    if let Err(e) = std::process::Command::new(opener)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
    {
        eprintln!("note: cannot open a browser ({opener}: {e}); open {url} yourself");
    }
}
