//! A test's scratch directory: the files a test writes, gone when it passes.

use std::path::{Path, PathBuf};

/// A directory of a test's own under the system's temporary directory, named after the
/// test process and the name it is given (one per test, so tests running side by side
/// never share one). Dropped, it is removed with everything in it, unless the test is
/// failing: a failed test's files stay behind to be looked at.
pub struct Scratch(PathBuf);

impl Scratch {
    /// A new, empty directory for the test `name`.
    pub fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("tumble-test-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.0
    }

    /// The path of the file `name` in the directory (not created).
    pub fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    /// Writes `text` to the file `name` in the directory and returns its path.
    pub fn file(&self, name: &str, text: &str) -> PathBuf {
        let p = self.path(name);
        std::fs::write(&p, text).unwrap();
        p
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if std::thread::panicking() {
            return;
        }
        // A process the test started may still be finishing a write into the directory as
        // it is stopped: removed again until gone.
        for _ in 0..40 {
            let _ = std::fs::remove_dir_all(&self.0);
            if !self.0.exists() {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    }
}
