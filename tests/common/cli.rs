//! Running the `tumble` binary from a test.

use assert_cmd::Command;

/// The `tumble` binary of this build.
pub fn tumble() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tumble"))
}

/// Runs `tumble args` (with `stdin` if given): (exit code, stdout, stderr).
pub fn run(args: &[&str], stdin: Option<&str>) -> (i32, String, String) {
    let mut cmd = tumble();
    cmd.args(args);
    if let Some(s) = stdin {
        cmd.write_stdin(s);
    }
    let out = cmd.output().expect("tumble runs");
    (
        out.status
            .code()
            .expect("tumble exits with a code, not a signal"),
        String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    )
}

/// `tumble args` must fail with exit code 2 and exactly one line on stderr that mentions
/// every one of `needles`, and must not panic.
pub fn assert_error(args: &[&str], stdin: Option<&str>, needles: &[&str]) {
    let (code, _out, err) = run(args, stdin);
    assert!(!err.contains("panicked"), "tumble {args:?} panicked: {err}");
    assert_eq!(code, 2, "tumble {args:?}: exit code (stderr: {err})");
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(
        lines.len(),
        1,
        "tumble {args:?}: stderr must be one line: {err:?}"
    );
    for n in needles {
        assert!(
            err.contains(n),
            "tumble {args:?}: the error should mention {n:?}: {err}"
        );
    }
}
