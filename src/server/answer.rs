//! The API's answers as JSON: a solve's report with the boards and removed cells of each
//! move, a replayed move list, the games, and the progress events of a solve.

use serde_json::{json, Value};

use super::errors::ApiError;
use super::request::ApplyRequest;
use crate::check::{Checked, End};
use crate::grid::Grid;
use crate::picture::{flood_group, hex, palette};
use crate::report::{Progress, Report, Step};
use crate::rules::{Game, Objective};
use crate::solve::Setup;

/// The cells `[x, y]` each move takes away (a click game: the group clicked) or recolours
/// (Flood-It: the flood, the group of `floodit_start`), in the board before that move.
/// `after[i]` is the board after move `i`.
pub fn removed(
    start: &Grid,
    steps: &[Step],
    after: &[Grid],
    floodit_start: Option<(usize, usize)>,
) -> Vec<Vec<[usize; 2]>> {
    let befores = std::iter::once(start).chain(after);
    steps
        .iter()
        .zip(befores)
        .map(|(step, before)| {
            let cell = step.x.zip(step.y).or(floodit_start);
            cell.map_or_else(Vec::new, |(x, y)| {
                flood_group(before, x, y)
                    .into_iter()
                    .map(|(x, y)| [x, y])
                    .collect()
            })
        })
        .collect()
}

/// The answer of `/api/solve`: the object of `tumble solve --json`, plus `"boards"` (the
/// board after each move, one line each) and `"removed"` (see [`removed`]).
pub fn solve_answer(grid: &Grid, setup: &Setup, report: &Report) -> Value {
    let mut v = serde_json::to_value(report).unwrap_or_else(|_| json!({}));
    let boards: Vec<String> = report.boards.iter().map(Grid::to_inline).collect();
    let cells = removed(
        grid,
        &report.moves,
        &report.boards,
        setup.floodit_start(grid),
    );
    if let Value::Object(m) = &mut v {
        m.insert("boards".into(), json!(boards));
        m.insert("removed".into(), json!(cells));
    }
    v
}

/// The answer of `/api/apply` for a parsed request: its moves played as `tumble check`
/// plays them, then [`apply_answer`].
pub fn apply(r: &ApplyRequest) -> Result<Value, ApiError> {
    let (grid, setup) = (&r.prepared.grid, &r.prepared.setup);
    let checked = crate::check::check(grid, setup, &r.moves)?;
    apply_answer(grid, setup, &checked)
}

/// The 400 for the first illegal move of `checked` (`None` where every move is legal), in
/// the words of `tumble check`: `"move"` its number from 1, `"boards"` the boards after the
/// legal moves before it.
pub fn illegal_move(checked: &Checked) -> Option<ApiError> {
    let (n, why) = checked.illegal.as_ref()?;
    let boards: Vec<String> = checked.steps.iter().map(|(_, g)| g.to_inline()).collect();
    Some(
        ApiError::bad_request(format!("illegal move {n}: {why}"))
            .with("move", json!(n))
            .with("boards", json!(boards)),
    )
}

/// The answer of `/api/apply`: `{"boards","removed","moves","tiles_left","cleared"}` (and
/// the score where the game keeps one), or a 400 naming the first illegal move in the
/// words of `tumble check`.
pub fn apply_answer(grid: &Grid, setup: &Setup, checked: &Checked) -> Result<Value, ApiError> {
    if let Some(e) = illegal_move(checked) {
        return Err(e);
    }
    let steps: Vec<Step> = checked.steps.iter().map(|(s, _)| s.clone()).collect();
    let after: Vec<Grid> = checked.steps.iter().map(|(_, g)| g.clone()).collect();
    let boards: Vec<String> = after.iter().map(Grid::to_inline).collect();
    let start = setup.floodit_start(grid);
    let cells = removed(grid, &steps, &after, start);
    let last = after.last().unwrap_or(grid);
    let tiles_left = match start {
        Some((x, y)) => last.width() * last.height() - flood_group(last, x, y).len(),
        None => last.tiles(),
    };
    let cleared = matches!(checked.end, Some(End::Cleared | End::OneColour));
    let mut v = json!({
        "boards": boards,
        "removed": cells,
        "moves": steps,
        "tiles_left": tiles_left,
        "cleared": cleared,
    });
    match checked.end {
        Some(End::NotCleared { moves_left, .. }) => v["moves_left"] = json!(moves_left),
        Some(End::ColoursLeft(k)) => v["colours_left"] = json!(k),
        _ => {}
    }
    if let Some(s) = checked.score {
        v["score"] = json!(s);
    }
    Ok(v)
}

/// The answer of `/api/games`: each game's usual size, letters and the colours `tumble
/// render` draws them in, whether its size is fixed, its objective, and its kind of move.
pub fn games() -> Value {
    let list: Vec<Value> = Game::ALL
        .iter()
        .map(|&game| {
            let (width, height, colours) = game.default_size();
            let letters: Vec<char> = if game == Game::Former {
                crate::picture::FORMER_COLOURS
                    .iter()
                    .map(|&(c, _)| c)
                    .collect()
            } else {
                ('A'..='P').take(colours).collect()
            };
            let objective = game.rules().map_or(Objective::Moves, |r| r.objective);
            json!({
                "game": game.name(),
                "width": width,
                "height": height,
                "colours": colours,
                "letters": letters.iter().collect::<String>(),
                "palette": palette(Some(game), &letters).into_iter().map(hex).collect::<Vec<_>>(),
                "fixed_size": matches!(game, Game::Former | Game::Figure | Game::Dust),
                "objective": objective,
                "kind": if game == Game::Floodit { "floodit" } else { "click" },
            })
        })
        .collect();
    Value::Array(list)
}

/// A progress event of a solve's stream: its name and data.
pub fn progress_event(p: &Progress) -> (&'static str, Value) {
    match *p {
        Progress::Solution {
            moves,
            tiles_left,
            score,
            elapsed,
        } => (
            "solution",
            json!({
                "length": moves,
                "elapsed_ms": elapsed.as_millis() as u64,
                "tiles_left": tiles_left,
                "score": score,
            }),
        ),
        Progress::LowerBound { bound, elapsed } => (
            "bound",
            json!({"lower_bound": bound, "elapsed_ms": elapsed.as_millis() as u64}),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::check;

    #[test]
    fn removed_cells_are_the_clicked_group_before_the_move() {
        let grid: Grid = "AAB,ABB,BAA".parse().unwrap();
        let setup = Setup::new(Game::Former);
        let c = check(&grid, &setup, "(2,2) (0,2)").unwrap();
        let v = apply_answer(&grid, &setup, &c).unwrap();
        // (2,2) is the B at the top right; its group is (2,2), (2,1) and (1,1).
        let first: Vec<[usize; 2]> = serde_json::from_value(v["removed"][0].clone()).unwrap();
        assert_eq!(
            first,
            flood_group(&grid, 2, 2)
                .into_iter()
                .map(|(x, y)| [x, y])
                .collect::<Vec<_>>()
        );
        assert!(first.contains(&[2, 2]));
        assert_eq!(v["boards"].as_array().unwrap().len(), 2);
        assert_eq!(v["cleared"], json!(false));
        let c = check(&grid, &setup, "(2,2) (0,2) (0,0)").unwrap();
        let v = apply_answer(&grid, &setup, &c).unwrap();
        assert_eq!(
            (v["cleared"].clone(), v["tiles_left"].clone()),
            (json!(true), json!(0))
        );
        let removed: usize = v["removed"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_array().unwrap().len())
            .sum();
        assert_eq!(removed, 9, "every tile is removed once");
    }

    #[test]
    fn an_illegal_move_is_a_400_naming_it() {
        let grid: Grid = "AAB,ABB,BAA".parse().unwrap();
        let setup = Setup::new(Game::Former);
        let c = check(&grid, &setup, "(2,2) (5,5)").unwrap();
        let e = apply_answer(&grid, &setup, &c).unwrap_err();
        assert_eq!(e.status, 400);
        assert!(e.message.starts_with("illegal move 2: (5,5)"), "{e}");
        assert_eq!(e.extra["move"], json!(2));
    }

    #[test]
    fn flood_it_recolours_the_flood() {
        let grid: Grid = "AB,BC".parse().unwrap();
        let setup = Setup::new(Game::Floodit);
        let c = check(&grid, &setup, "BC").unwrap();
        let v = apply_answer(&grid, &setup, &c).unwrap();
        assert_eq!(v["removed"][0], json!([[0, 1]]));
        assert_eq!(v["removed"][1].as_array().unwrap().len(), 3);
        assert_eq!(
            (v["cleared"].clone(), v["tiles_left"].clone()),
            (json!(true), json!(0))
        );
    }

    #[test]
    fn all_six_games_are_listed_with_a_colour_per_letter() {
        let g = games();
        let list = g.as_array().unwrap();
        assert_eq!(list.len(), 6);
        for game in list {
            let letters = game["letters"].as_str().unwrap().chars().count();
            assert_eq!(game["palette"].as_array().unwrap().len(), letters);
        }
        assert_eq!(list[0]["letters"], json!("OPGB"));
        assert_eq!(list[0]["palette"][0], json!("#ff9c54"));
    }
}
