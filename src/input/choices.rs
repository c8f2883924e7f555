//! The search choices a user makes (time, memory, threads) and the limits on threads and
//! solves at once.

use super::InputError;
use crate::search::anytime::Method;
use crate::solve::Setup;

/// The most search threads a user may ask for per core of the machine, and the most solves
/// at once (`--jobs`, each one thread at least). Threads beyond the cores only take turns
/// on them, and past a few per core the turns cost more than they give: the anytime
/// search's thread pool spends its time handing work between idle threads, and a board
/// solved in a tenth of a second with a thread per core takes seconds with hundreds per
/// core.
pub const THREADS_PER_CORE: usize = 8;

/// The machine's cores where `n` threads, or solves at once, would be more than
/// [`THREADS_PER_CORE`] per core; `None` where they are not.
fn too_many_for_the_cores(n: usize) -> Option<usize> {
    let cores = crate::machine::cores();
    (n > THREADS_PER_CORE * cores).then_some(cores)
}

/// Checks a number of solves to run at once (`bench --jobs`, `serve --jobs`, each solve
/// at least one thread): at least one, and at most [`THREADS_PER_CORE`] per core.
pub fn check_jobs(jobs: usize) -> Result<(), InputError> {
    if jobs == 0 {
        return Err(InputError::NoJobs);
    }
    match too_many_for_the_cores(jobs) {
        Some(cores) => Err(InputError::TooManyJobs { asked: jobs, cores }),
        None => Ok(()),
    }
}

/// The search limits a user chose.
#[derive(Clone, Debug)]
pub struct SearchChoices {
    /// Seconds.
    pub time_limit: Option<f64>,
    /// The transposition table's memory, in MiB.
    pub memory_mib: usize,
    /// Threads (`None`: all cores).
    pub threads: Option<usize>,
    pub no_proof: bool,
    pub anytime: Method,
    /// Prove the final bound again with the exact memo.
    pub certify: bool,
}

impl SearchChoices {
    /// Writes the choices into `setup`.
    pub fn apply(&self, setup: &mut Setup) -> Result<(), InputError> {
        if let Some(t) = self.time_limit {
            if !(t.is_finite() && t >= 0.0) {
                return Err(InputError::BadTimeLimit(t));
            }
            setup.search.time_limit = Some(crate::search::time_limit(t));
        }
        if self.memory_mib == 0 {
            return Err(InputError::NoMemory);
        }
        let machine = crate::machine::machine_mib().unwrap_or(usize::MAX >> 20);
        if self.memory_mib > machine {
            return Err(InputError::TooMuchMemory {
                asked: self.memory_mib,
                machine,
            });
        }
        setup.search.memory = self.memory_mib << 20;
        if let Some(n) = self.threads {
            if n == 0 {
                return Err(InputError::NoThreads);
            }
            if let Some(cores) = too_many_for_the_cores(n) {
                return Err(InputError::TooManyThreads { asked: n, cores });
            }
            setup.search.threads = n;
        }
        setup.no_proof = self.no_proof;
        setup.anytime = self.anytime;
        setup.certify = self.certify;
        Ok(())
    }
}
