//! Ctrl-C, and how the commands say why a search stopped early.
//!
//! The first Ctrl-C sets the searches' stop flag ([`install`]): the search in progress
//! ends with its best so far, which the command prints as usual before exiting with
//! [`INTERRUPTED`]. A second Ctrl-C quits at once, with the same code.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use tumble::report::Stopped;

/// The exit code of a command stopped by Ctrl-C (128 + SIGINT, as shells report it).
pub const INTERRUPTED: u8 = 130;

/// Installs the Ctrl-C handler and returns the stop flag it sets, for the searches'
/// [`tumble::search::SearchOptions::stop`]. If a handler cannot be installed, Ctrl-C keeps
/// its default action (quit at once) and the flag is never set.
pub fn install() -> Arc<AtomicBool> {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let _ = ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            std::process::exit(INTERRUPTED.into());
        }
    });
    stop
}

/// Has Ctrl-C been pressed?
pub fn interrupted(stop: &AtomicBool) -> bool {
    stop.load(Ordering::SeqCst)
}

/// The line saying why a search stopped early, under a memory budget of `memory` bytes.
pub fn line(why: Stopped, memory: usize) -> String {
    match why {
        Stopped::Time => "stopped: time limit".into(),
        Stopped::Memory => format!("stopped: memory limit (--memory {} MiB)", memory >> 20),
        Stopped::Interrupted => "stopped: interrupted".into(),
    }
}
