//! The moves `tumble check` and `tumble render --moves` replay: written out, as JSON, or
//! as `solve --json`'s answer, which is checked to be for the board and rules given.

use super::argument::{argument_text, not_utf8, read_error};
use super::setup::{note_rules_taken, parse_start, setup_from, BoardFrom, Prepared};
use super::InputError;
use crate::answer_json::Answer;
use crate::grid::Grid;
use crate::rules::{Game, RuleChoices};
use crate::solve::Setup;

/// The board and the moves `tumble check` and `tumble render --moves` replay: the board
/// set up under `rules`, and the moves argument (the moves themselves, `-` for standard
/// input, or a file that holds them) as move text for its game.
///
/// The moves are either written out (`(7,0) (3,1)`, or Flood-It's colours `BGRY`) or JSON:
/// a list of moves, each as [`move_json`](crate::move_json) reads it for the game
/// (`{"x":7,"y":0}` or `[7,0]`; `"B"` or `{"colour":"B"}`), or `solve --json`'s answer.
/// An answer is replayed under the rules it records ([`Answer`]) wherever `rules` leaves
/// them open, for its game where neither `rules` nor the board's line names one, and
/// (with [`BoardFrom::Answer`]) on its own board; an answer for another board, game or
/// rules is refused, naming the difference.
pub fn replay_input(
    board: BoardFrom,
    moves: &str,
    mut rules: RuleChoices,
) -> Result<(Prepared, String), InputError> {
    const WHAT: &str = "moves";
    let text = argument_text(moves, WHAT, |e| read_error(moves, WHAT, not_utf8(e)))?;
    let json = json_moves(&text)?;
    let answer = match &json {
        Some(serde_json::Value::Object(o)) => Some(answer_of(o)?),
        _ => None,
    };
    let board_text = match board.text(&mut rules)? {
        Some(text) => text,
        None => answer
            .as_ref()
            .and_then(|a| a.board.clone())
            .ok_or(InputError::MovesWithoutBoard)?,
    };
    let given = rules.clone();
    if let Some(a) = &answer {
        // (a game the board's line names is left to refuse an answer for another game in
        // `answer_is_for`'s words, not as a clash with a --game never given)
        let line_names_game = crate::boardset::single_line(&board_text).and_then(|e| e.game);
        let theirs = RuleChoices {
            game: a.rules.game.filter(|_| line_names_game.is_none()),
            ..a.rules.clone()
        };
        rules = rules.or(&theirs);
    }
    // a start cell the answer gave, and the board refuses, is the answer's to name
    let answers_start = given.start.is_none() && rules.start.is_some();
    let mut p = setup_from(&board_text, &rules).map_err(|e| match e {
        InputError::StartNotFloodit
        | InputError::BadStart(_)
        | InputError::BadStartNumber { .. }
        | InputError::StartOutside { .. }
            if answers_start =>
        {
            InputError::MovesJson(format!("the answer's \"start\": {e}"))
        }
        e => e,
    })?;
    let moves = match &json {
        Some(v) => json_move_text(v, &p.grid, &p.setup)?,
        None => text,
    };
    note_rules_taken(&mut p, &given);
    Ok((p, moves))
}

/// Moves as written, or as JSON (see [`replay_input`]), as move text for the game of
/// `setup` on `board`.
pub fn moves_text(text: String, board: &Grid, setup: &Setup) -> Result<String, InputError> {
    match json_moves(&text)? {
        Some(v) => json_move_text(&v, board, setup),
        None => Ok(text),
    }
}

/// Moves given as JSON, parsed (see [`replay_input`]), as move text for the game of `setup`
/// on `board`.
fn json_move_text(
    v: &serde_json::Value,
    board: &Grid,
    setup: &Setup,
) -> Result<String, InputError> {
    use serde_json::Value;
    let bad = InputError::MovesJson;
    let list = match v {
        Value::Array(list) => list,
        Value::Object(o) => {
            answer_is_for(&answer_of(o)?, board, setup)?;
            o.get("moves").and_then(Value::as_array).ok_or_else(|| {
                bad("an object must have a \"moves\" list, as solve --json prints".into())
            })?
        }
        _ => return Err(bad("give a list of moves or solve --json's answer".into())),
    };
    crate::move_json::move_text(list, setup.game == Game::Floodit).map_err(bad)
}

/// Moves text that is JSON (it starts with `{` or `[`), parsed; `None` for moves written
/// out.
fn json_moves(text: &str) -> Result<Option<serde_json::Value>, InputError> {
    if !text.trim_start().starts_with(['{', '[']) {
        return Ok(None);
    }
    let v = serde_json::from_str(text).map_err(|e| InputError::MovesJson(e.to_string()))?;
    Ok(Some(v))
}

/// `solve --json`'s answer `o` read back, a field it does not hold as the answer writes it
/// named.
fn answer_of(o: &serde_json::Map<String, serde_json::Value>) -> Result<Answer, InputError> {
    Answer::read(o).map_err(|e| InputError::MovesJson(format!("the answer's {e}")))
}

/// Refuses `solve --json`'s answer `a` where its game, board or rules (those it records)
/// are not `setup`'s and `board`: its moves would be replayed where they were not found,
/// and fail, or pass, for a reason that hides the mix-up.
fn answer_is_for(a: &Answer, board: &Grid, setup: &Setup) -> Result<(), InputError> {
    let game = setup.game;
    let elsewhere = |what: String| Err(InputError::AnswerElsewhere(what));
    if let Some(theirs) = a.rules.game {
        if theirs != game {
            return elsewhere(format!("a {theirs} board, and this is a {game} board"));
        }
    }
    if let Some(theirs) = &a.board {
        let same = theirs
            .parse::<Grid>()
            .is_ok_and(|t| t.to_text() == board.to_text());
        if !same {
            let mut shown: String = theirs.chars().take(40).collect();
            if shown.len() < theirs.len() {
                shown.push('…');
            }
            return elsewhere(format!("another board, {shown}"));
        }
    }
    let differs = |option: &'static str, theirs: String, ours: String| {
        Err(InputError::AnswerRules {
            option,
            theirs,
            ours,
        })
    };
    if game == Game::Floodit {
        if let Some(theirs) = &a.rules.start {
            let ours = setup.floodit_start_on(board);
            if parse_start(Some(theirs), board).ok() != Some(ours) {
                return differs("--start", theirs.clone(), format!("{},{}", ours.0, ours.1));
            }
        }
        return Ok(());
    }
    let r = &setup.rules;
    if let Some(theirs) = a.rules.clickable.filter(|&c| c != r.clickable) {
        return differs(
            "--clickable",
            theirs.name().into(),
            r.clickable.name().into(),
        );
    }
    if let Some(theirs) = a.rules.min_group.filter(|&m| m != r.min_group) {
        return differs("--min-group", theirs.to_string(), r.min_group.to_string());
    }
    if let Some(theirs) = a.rules.sideways.filter(|&s| s != r.sideways) {
        return differs("--sideways", theirs.name().into(), r.sideways.name().into());
    }
    Ok(())
}

/// Parses `(x,y)` pairs: `"(7,0) (3,1)"`, also `7,0 3,1`.
pub fn parse_clicks(moves: &str) -> Result<Vec<(usize, usize)>, InputError> {
    let cleaned: String = moves
        .chars()
        .map(|c| if matches!(c, '(' | ')' | ';') { ' ' } else { c })
        .collect();
    let mut out = Vec::new();
    for tok in cleaned.split_whitespace() {
        let n = out.len() + 1;
        let (x, y) = tok.split_once(',').ok_or_else(|| InputError::NotAClick {
            n,
            text: tok.to_string(),
        })?;
        let number = |axis, text: &str| {
            text.parse().map_err(|_| InputError::BadClick {
                n,
                axis,
                text: text.to_string(),
            })
        };
        out.push((number('x', x)?, number('y', y)?));
    }
    Ok(out)
}
