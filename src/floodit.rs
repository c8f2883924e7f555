//! Flood-It: not implemented yet (issue 4).

use crate::grid::{BoardError, Grid};
use crate::solve::{Progress, Report, Setup};

/// Solves a Flood-It board.
pub fn solve(
    grid: &Grid,
    _setup: &Setup,
    _on_progress: &mut dyn FnMut(Progress),
) -> Result<Report, BoardError> {
    Err(BoardError::TooLarge {
        width: grid.width(),
        height: grid.height(),
        limit: "Flood-It is not supported yet".into(),
    })
}

/// The `check` command for Flood-It: replays colours.
pub fn check_cli(
    _grid: &Grid,
    _setup: &Setup,
    _moves: &str,
) -> anyhow::Result<std::process::ExitCode> {
    anyhow::bail!("Flood-It is not supported yet")
}
