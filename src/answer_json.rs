//! `solve --json`'s answer read back: the game, the board and the rules its moves were
//! found under, so that `tumble check` and `tumble render --moves` can replay it on its own
//! board under its own rules ([`crate::input::replay_input`]).
//!
//! Every field is optional, as a hand-written object with only `"moves"` is taken too; a
//! field that is there must read as what `solve --json` writes in it.
//!
//! ```
//! use serde_json::json;
//! use tumble::answer_json::Answer;
//! use tumble::rules::{Game, Sideways};
//! let v = json!({"game": "samegame", "board": "AB,BA", "sideways": "left", "moves": []});
//! let a = Answer::read(v.as_object().unwrap()).unwrap();
//! assert_eq!(a.rules.game, Some(Game::Samegame));
//! assert_eq!(a.rules.sideways, Some(Sideways::Left));
//! assert_eq!(a.board.as_deref(), Some("AB,BA"));
//! let bad = json!({"min_group": 0});
//! assert!(Answer::read(bad.as_object().unwrap()).unwrap_err().contains("\"min_group\""));
//! ```

use serde_json::{Map, Value};

use crate::rules::{named, Clickable, Game, Objective, RuleChoices, Sideways};

/// What an answer records of its board and rules (`None` where it does not say).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Answer {
    /// The board, one line as `solve --json` writes it.
    pub board: Option<String>,
    /// The game and the rules (Flood-It's `start` as `"X,Y"`, `y = 0` at the bottom).
    pub rules: RuleChoices,
}

impl Answer {
    /// Reads the answer's fields from `o`; the error names the first field that does not
    /// hold what `solve --json` writes there.
    pub fn read(o: &Map<String, Value>) -> Result<Answer, String> {
        let text = |field| text_field(o, field);
        fn choice<T: Copy>(
            o: &Map<String, Value>,
            field: &str,
            names: &[(&str, T)],
        ) -> Result<Option<T>, String> {
            text_field(o, field)?
                .map(|v| named(field, v, names))
                .transpose()
        }
        let game = text("game")?.map(str::parse::<Game>).transpose()?;
        let min_group = match o.get("min_group") {
            None | Some(Value::Null) => None,
            Some(v) => match v.as_u64() {
                Some(m @ 1..=0xFFFF_FFFF) => Some(m as u32),
                _ => return Err(format!("\"min_group\" must be a whole number ≥ 1, not {v}")),
            },
        };
        Ok(Answer {
            board: text("board")?.map(str::to_string),
            rules: RuleChoices {
                game,
                clickable: choice(o, "clickable", &Clickable::NAMES)?,
                min_group,
                sideways: choice(o, "sideways", &Sideways::NAMES)?,
                objective: choice(o, "objective", &Objective::NAMES)?,
                start: text("start")?.map(str::to_string),
            },
        })
    }
}

/// The text in `field` of `o` (`None` where it is missing or `null`).
fn text_field<'a>(o: &'a Map<String, Value>, field: &str) -> Result<Option<&'a str>, String> {
    match o.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(other) => Err(format!("\"{field}\" must be text, not {other}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Played;
    use crate::rules::Game;
    use crate::solve::{solve, Setup};

    /// Each game's answer, as `solve` reports it and JSON writes it, reads back as the
    /// rules it was solved under.
    #[test]
    fn an_answer_reads_back_as_its_rules() {
        let mut games = 0;
        for game in Game::ALL {
            let grid: crate::grid::Grid = "AAB,ABB,BAA".parse().unwrap();
            let mut setup = Setup::new(game);
            setup.rules.min_group = 1;
            let report = solve(&grid, &setup, &mut |_| {}).unwrap();
            let v = serde_json::to_value(&report).unwrap();
            let a = Answer::read(v.as_object().unwrap()).unwrap();
            assert_eq!(a.board.as_deref(), Some(report.board.as_str()));
            let a = a.rules;
            assert_eq!(a.game, Some(game));
            assert_eq!(a.objective, Some(report.objective));
            let Played {
                clickable,
                min_group,
                sideways,
                start,
            } = report.played;
            assert_eq!((a.clickable, a.min_group), (clickable, min_group), "{game}");
            assert_eq!((a.sideways, &a.start), (sideways, &start), "{game}");
            if game == Game::Floodit {
                assert_eq!(a.start.as_deref(), Some("0,2"));
                assert_eq!(a.clickable, None);
            } else {
                assert_eq!(a.clickable, Some(setup.rules.clickable), "{game}");
                assert_eq!(a.sideways, Some(setup.rules.sideways), "{game}");
                assert_eq!(a.min_group, Some(1));
            }
            games += 1;
        }
        assert_eq!(games, Game::ALL.len());
    }

    /// A field holding what no answer writes is named.
    #[test]
    fn a_field_an_answer_never_writes_is_named() {
        let cases = [
            (r#"{"game":"chess"}"#, "unknown game"),
            (r#"{"game":3}"#, "\"game\" must be text"),
            (r#"{"board":[1]}"#, "\"board\" must be text"),
            (r#"{"sideways":"up"}"#, "invalid value 'up' for sideways"),
            (r#"{"clickable":"top"}"#, "for clickable"),
            (r#"{"objective":"fun"}"#, "for objective"),
            (
                r#"{"min_group":0}"#,
                "\"min_group\" must be a whole number ≥ 1, not 0",
            ),
            (r#"{"min_group":-2}"#, "not -2"),
            (r#"{"min_group":"2"}"#, "not \"2\""),
            (r#"{"min_group":4294967296}"#, "not 4294967296"),
            (r#"{"start":[0,0]}"#, "\"start\" must be text"),
        ];
        for (text, needle) in cases {
            let v: Value = serde_json::from_str(text).unwrap();
            let err = Answer::read(v.as_object().unwrap()).unwrap_err();
            assert!(err.contains(needle), "{text}: {err}");
        }
        let v = serde_json::json!({"game": null, "moves": []});
        assert_eq!(Answer::read(v.as_object().unwrap()), Ok(Answer::default()));
        assert_eq!(cases.len(), 11);
    }
}
