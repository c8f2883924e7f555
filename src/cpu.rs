//! The CPU time a thread has had: a budget in CPU time holds the same on a busy machine as
//! on a quiet one, where a budget in wall time shrinks with every other process running.

use std::time::Duration;

/// The CPU time the calling thread has used since it started (`None` where the system
/// does not say).
pub fn thread_time() -> Option<Duration> {
    #[cfg(unix)]
    {
        let mut t = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `clock_gettime` only writes the `timespec` it is given.
        if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } == 0 {
            return Some(Duration::new(t.tv_sec as u64, t.tv_nsec as u32));
        }
    }
    None
}
