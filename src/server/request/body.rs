//! The requests of a JSON body: `/api/solve`, `/api/apply` and `/api/render`, the board
//! and its rules in the fields they share, and each its own fields beside them.

use serde::de::DeserializeOwned;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::super::errors::ApiError;
use super::game;
use crate::grid::Grid;
use crate::input::{dated_board, setup_from, InputError, Prepared, SearchChoices};
use crate::rules::{Clickable, Game, Objective, RuleChoices, Sideways};
use crate::search::anytime::Method;
use crate::solve::Setup;

/// The board and rule fields shared by `/api/solve`, `/api/apply` and `/api/render`.
const BOARD_FIELDS: [&str; 8] = [
    "game",
    "board",
    "date",
    "clickable",
    "min_group",
    "sideways",
    "objective",
    "start",
];

/// The fields of `/api/solve` beside [`BOARD_FIELDS`].
const SOLVE_FIELDS: [&str; 4] = ["time_limit", "no_proof", "certify", "anytime"];

/// The fields of `/api/apply` beside [`BOARD_FIELDS`].
const APPLY_FIELDS: [&str; 1] = ["moves"];

/// The fields of `/api/render` beside [`BOARD_FIELDS`].
const RENDER_FIELDS: [&str; 2] = ["moves", "format"];

/// The fields of `/api/solve`'s answer beside the board, its rules and its moves: what the
/// search found and the steps drawn out. `/api/apply` and `/api/render` read past them, so
/// that an answer sent back as it came is replayed or drawn (its board, rules and moves
/// are what count); a field that is neither theirs nor one of these is still refused.
const ANSWER_FIELDS: [&str; 16] = [
    "width",
    "height",
    "length",
    "optimal",
    "lower_bound",
    "tiles_left",
    "score",
    "nodes",
    "elapsed_ms",
    "first_ms",
    "note",
    "certified",
    "stopped",
    "interrupted",
    "boards",
    "removed",
];

/// A JSON body's fields, or a 400 saying why not: not JSON, not an object, a field that
/// is neither one of [`BOARD_FIELDS`] nor one of `own` (a misspelt field must not pass for
/// an absent one, leaving its default in force without a word), a field given twice (which
/// one would count?), or a field whose value JSON cannot hold (`1e400`), named. The body
/// is split into its fields as raw text first, so that a value's mistake is told with its
/// field's name. With `answers`, the fields of [`ANSWER_FIELDS`] are taken too, and left
/// out of the fields returned.
fn json_fields(
    body: &[u8],
    path: &str,
    own: &[&str],
    answers: bool,
) -> Result<Map<String, Value>, ApiError> {
    let RawFields(raw) = serde_json::from_slice(body).map_err(|e| {
        ApiError::bad_request(if e.is_data() {
            "bad JSON body: it must be an object, {\"game\":…,\"board\":…}".to_string()
        } else {
            format!("bad JSON body: {e}")
        })
    })?;
    let known = || BOARD_FIELDS.iter().chain(own);
    let read_past = |k: &str| answers && ANSWER_FIELDS.contains(&k);
    if let Some((unknown, _)) = raw
        .iter()
        .find(|(k, _)| !known().any(|f| f == k) && !read_past(k))
    {
        let names: Vec<&str> = known().copied().collect();
        let also = if answers {
            " and those of /api/solve's answer"
        } else {
            ""
        };
        return Err(ApiError::bad_request(format!(
            "unknown field {unknown:?} in the body of {path} (its fields: {}{also})",
            names.join(", ")
        )));
    }
    let mut fields = Map::new();
    for (key, text) in raw.into_iter().filter(|(k, _)| !read_past(k)) {
        let value = match serde_json::from_str(text.get()) {
            Ok(value) => value,
            Err(e) => {
                // (the position would be within the field's own text: left out)
                let whole = e.to_string();
                let within = format!(" at line {} column {}", e.line(), e.column());
                let what = whole.strip_suffix(&within).unwrap_or(&whole);
                return Err(ApiError::bad_request(format!("bad {key:?}: {what}")));
            }
        };
        if fields.insert(key.clone(), value).is_some() {
            return Err(ApiError::bad_request(format!(
                "the body gives {key:?} twice: give it once"
            )));
        }
    }
    Ok(fields)
}

/// A JSON object's fields in the order written, each value as its raw text (duplicates
/// kept, for [`json_fields`] to refuse).
struct RawFields(Vec<(String, Box<RawValue>)>);

impl<'de> serde::Deserialize<'de> for RawFields {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Fields;
        impl<'de> serde::de::Visitor<'de> for Fields {
            type Value = RawFields;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<RawFields, A::Error> {
                let mut fields = Vec::new();
                while let Some(field) = map.next_entry()? {
                    fields.push(field);
                }
                Ok(RawFields(fields))
            }
        }
        d.deserialize_map(Fields)
    }
}

/// The field `key` of `fields` as a `T` (`None` if absent or null), or a 400 naming it.
fn take<T: DeserializeOwned>(
    fields: &mut Map<String, Value>,
    key: &str,
) -> Result<Option<T>, ApiError> {
    match fields.remove(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => serde_json::from_value(v)
            .map(Some)
            .map_err(|e| ApiError::bad_request(format!("bad {key:?}: {e}"))),
    }
}

/// The board and rule fields of a request's body ([`BOARD_FIELDS`]).
#[derive(Debug, Default)]
struct RawBoard {
    game: Option<String>,
    board: Option<String>,
    /// NRK Former's board of this day (`YYYY-MM-DD` or `today`), in place of `board`.
    date: Option<String>,
    clickable: Option<String>,
    min_group: Option<u32>,
    sideways: Option<String>,
    objective: Option<String>,
    start: Option<String>,
}

/// `value` (if given) as one of `names` (any case), or clap's words for a bad value.
fn choice<T: Copy>(
    field: &str,
    value: Option<&str>,
    names: &[(&str, T)],
) -> Result<Option<T>, ApiError> {
    value
        .map(|v| crate::rules::named(field, v, names))
        .transpose()
        .map_err(ApiError::bad_request)
}

impl RawBoard {
    /// The board and rule fields taken from `fields`.
    fn take_from(fields: &mut Map<String, Value>) -> Result<RawBoard, ApiError> {
        Ok(RawBoard {
            game: take(fields, "game")?,
            board: take(fields, "board")?,
            date: take(fields, "date")?,
            clickable: take(fields, "clickable")?,
            min_group: take(fields, "min_group")?,
            sideways: take(fields, "sideways")?,
            objective: take(fields, "objective")?,
            start: take(fields, "start")?,
        })
    }

    /// The board set up as the command line would, and checked against the engines.
    fn prepare(self) -> Result<Prepared, ApiError> {
        let mut rules = RuleChoices {
            game: self.game.as_deref().map(game).transpose()?,
            clickable: choice("clickable", self.clickable.as_deref(), &Clickable::NAMES)?,
            min_group: self.min_group,
            sideways: choice("sideways", self.sideways.as_deref(), &Sideways::NAMES)?,
            objective: choice("objective", self.objective.as_deref(), &Objective::NAMES)?,
            start: self.start,
        };
        let board = match (self.board, self.date) {
            (Some(board), None) => board,
            (None, Some(date)) => dated_board(&date, &mut rules)?,
            (Some(_), Some(_)) => return Err(InputError::BoardAndDate.into()),
            (None, None) => {
                return Err(ApiError::bad_request(
                    "the request has no \"board\" (nor a \"date\" for NRK Former's board)",
                ))
            }
        };
        let prepared = setup_from(&board, &rules)?;
        fits(&prepared.grid, &prepared.setup)?;
        Ok(prepared)
    }
}

/// Does the board fit the engine of its game? Playing no move builds the engine for the
/// board and fails exactly where a solve or a replay would.
pub fn fits(grid: &Grid, setup: &Setup) -> Result<(), ApiError> {
    if setup.game == Game::Floodit {
        // With no moves there is no illegal one: only the board can be refused.
        let _ = crate::floodit::replay(grid, setup.floodit_start_on(grid), &[])?;
    } else {
        let _ = crate::solve::replay(grid, setup.rules, &[])?;
    }
    Ok(())
}

/// A checked `/api/solve` request.
#[derive(Clone, Debug)]
pub struct SolveRequest {
    /// The board, its game and rules.
    pub prepared: Prepared,
    /// Seconds asked for (the server caps it at its `--max-time`).
    pub time_limit: Option<f64>,
    /// Anytime search only.
    pub no_proof: bool,
    /// Prove the final bound again with the exact memo.
    pub certify: bool,
    /// The anytime algorithm.
    pub anytime: Method,
}

impl SolveRequest {
    /// Parses and checks the JSON body of `/api/solve`:
    /// `{"game","board","time_limit","start","clickable","min_group","sideways","objective",
    /// "no_proof","certify","anytime"}`, all but `board` optional.
    pub fn parse(body: &[u8]) -> Result<SolveRequest, ApiError> {
        let mut fields = json_fields(body, "/api/solve", &SOLVE_FIELDS, false)?;
        let board = RawBoard::take_from(&mut fields)?;
        let time_limit: Option<f64> = take(&mut fields, "time_limit")?;
        let no_proof = take(&mut fields, "no_proof")?.unwrap_or(false);
        let certify = take(&mut fields, "certify")?.unwrap_or(false);
        let anytime: Option<String> = take(&mut fields, "anytime")?;
        let anytime = choice(
            "anytime",
            anytime.as_deref(),
            &[("beam", Method::Beam), ("nrpa", Method::Nrpa)],
        )?
        .unwrap_or_default();
        let mut prepared = board.prepare()?;
        // The command line's checks of the search choices.
        SearchChoices {
            time_limit,
            memory_mib: 1,
            threads: Some(1),
            no_proof,
            anytime,
            certify,
        }
        .apply(&mut prepared.setup)?;
        Ok(SolveRequest {
            prepared,
            time_limit,
            no_proof,
            certify,
            anytime,
        })
    }

    /// The setup to solve with: one search thread, `memory` bytes of tables, and the time
    /// limit asked for but at most `max_time` seconds (`max_time` when none was asked).
    pub fn setup(&self, max_time: f64, memory: usize) -> Setup {
        let mut setup = self.prepared.setup.clone();
        let seconds = self.time_limit.map_or(max_time, |t| t.min(max_time));
        setup.search.time_limit = Some(crate::search::time_limit(seconds.max(0.0)));
        setup.search.threads = 1;
        setup.search.memory = memory;
        setup.no_proof = self.no_proof;
        setup.certify = self.certify;
        setup.anytime = self.anytime;
        setup
    }
}

/// A checked `/api/apply` request.
#[derive(Clone, Debug)]
pub struct ApplyRequest {
    /// The board, its game and rules.
    pub prepared: Prepared,
    /// The moves in `tumble check`'s syntax: `"(2,0) (3,1)"`, or colours `"BG"` for
    /// Flood-It.
    pub moves: String,
}

/// A request's `"moves"` in `tumble check`'s syntax, each move as
/// [`move_json`](crate::move_json) reads it for the setup's game.
fn moves_text(moves: &[Value], setup: &Setup) -> Result<String, ApiError> {
    crate::move_json::move_text(moves, setup.game == Game::Floodit).map_err(ApiError::bad_request)
}

impl ApplyRequest {
    /// Parses and checks the JSON body of `/api/apply`: the board fields of
    /// [`SolveRequest::parse`] and `"moves"`, clicks `[{"x":2,"y":0},…]` (or `[[2,0],…]`)
    /// or Flood-It colours `["B",…]` (or `[{"colour":"B"},…]`). `/api/solve`'s answer as
    /// it came is such a body: the fields of what its search found are read past.
    pub fn parse(body: &[u8]) -> Result<ApplyRequest, ApiError> {
        let mut fields = json_fields(body, "/api/apply", &APPLY_FIELDS, true)?;
        let board = RawBoard::take_from(&mut fields)?;
        let moves: Option<Vec<Value>> = take(&mut fields, "moves")?;
        let prepared = board.prepare()?;
        let moves = moves.ok_or_else(|| ApiError::bad_request("the request has no \"moves\""))?;
        Ok(ApplyRequest {
            moves: moves_text(&moves, &prepared.setup)?,
            prepared,
        })
    }
}

/// A checked `/api/render` request: a board, or an answer's steps, to draw.
#[derive(Clone, Debug)]
pub struct RenderRequest {
    /// The board, its game and rules.
    pub prepared: Prepared,
    /// The moves to draw step by step, in `tumble check`'s syntax (`None`: the board
    /// alone).
    pub moves: Option<String>,
    /// SVG text rather than a PNG picture.
    pub svg: bool,
}

impl RenderRequest {
    /// Parses and checks the JSON body of `/api/render`: the board fields of
    /// [`SolveRequest::parse`], `"moves"` as in [`ApplyRequest::parse`] (optional: without
    /// them the board alone is drawn) and `"format"`, `"png"` (the default) or `"svg"`.
    /// `/api/solve`'s answer as it came is such a body, as for [`ApplyRequest::parse`].
    pub fn parse(body: &[u8]) -> Result<RenderRequest, ApiError> {
        let mut fields = json_fields(body, "/api/render", &RENDER_FIELDS, true)?;
        let board = RawBoard::take_from(&mut fields)?;
        let moves: Option<Vec<Value>> = take(&mut fields, "moves")?;
        let format: Option<String> = take(&mut fields, "format")?;
        let svg = choice(
            "format",
            format.as_deref(),
            &[("png", false), ("svg", true)],
        )?
        .unwrap_or(false);
        let prepared = board.prepare()?;
        Ok(RenderRequest {
            moves: moves.map(|m| moves_text(&m, &prepared.setup)).transpose()?,
            prepared,
            svg,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::query::former_board;
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_solve_body_gives_the_board_and_the_search_choices() {
        let r = SolveRequest::parse(
            br#"{"game":"dust","board":"GGGGBOYO,RORGYGBY,RRBGOORG,BRBOBYRG,BRYBBRGG,OYGGRORG","time_limit":5,"no_proof":true}"#,
        )
        .unwrap();
        assert_eq!(r.prepared.setup.game, Game::Dust);
        assert_eq!((r.prepared.grid.width(), r.prepared.grid.height()), (8, 6));
        assert!(r.no_proof);
        let s = r.setup(2.0, 1 << 20);
        assert_eq!(s.search.time_limit, Some(Duration::from_secs(2)));
        assert_eq!((s.search.threads, s.search.memory), (1, 1 << 20));
        let s = r.setup(60.0, 1 << 20);
        assert_eq!(s.search.time_limit, Some(Duration::from_secs(5)));
        // a limit longer than a `Duration` holds is the longest there is, and a server
        // that caps nothing passes it on: no deadline, where converting it would panic
        let r =
            SolveRequest::parse(br#"{"game":"dust","board":"GB,BG","time_limit":1e300}"#).unwrap();
        let s = r.setup(f64::MAX, 1 << 20);
        assert_eq!(s.search.time_limit, Some(Duration::MAX));
        assert_eq!(s.search.deadline(), None);
    }

    #[test]
    fn a_render_body_gives_the_board_its_moves_and_the_format() {
        let mut checked = 0;
        for (body, moves, svg) in [
            (&br#"{"game":"dust","board":"GB,BG"}"#[..], None, false),
            (
                br#"{"game":"former","board":"AAB,ABB,BAA","moves":[{"x":2,"y":2}],"format":"SVG"}"#,
                Some("(2,2)"),
                true,
            ),
            (
                br#"{"game":"floodit","board":"AB,BC","moves":["B",{"colour":"C"}],"format":"png"}"#,
                Some("BC"),
                false,
            ),
        ] {
            let r = RenderRequest::parse(body).unwrap();
            assert_eq!((r.moves.as_deref(), r.svg), (moves, svg));
            checked += 1;
        }
        for body in [
            &br#"{"game":"dust","board":"GB,BG","format":"jpeg"}"#[..],
            br#"{"game":"dust","board":"GB,BG","moves":[3]}"#,
            br#"{"game":"dust","board":"GB,BG","time_limit":1}"#,
        ] {
            assert_eq!(RenderRequest::parse(body).unwrap_err().status, 400);
            checked += 1;
        }
        assert_eq!(checked, 6);
    }

    /// `/api/solve`'s answer sent back as it came to `/api/apply` or `/api/render`: its
    /// board, rules and moves count, its other fields are read past; a field that is
    /// neither is refused, and `/api/solve` takes none of the answer's.
    #[test]
    fn an_answer_sent_back_is_read_for_its_board_rules_and_moves() {
        let answer = br#"{"game":"samegame","board":"AB,AB","width":2,"height":2,
            "objective":"score","clickable":"any","min_group":2,"sideways":"left",
            "moves":[{"x":0,"y":0,"colour":"A","size":2}],"length":1,"optimal":false,
            "lower_bound":1,"tiles_left":2,"score":0,"nodes":7,"elapsed_ms":3,"first_ms":0,
            "stopped":"interrupted","interrupted":true,"certified":false,"note":"n",
            "boards":["..,B."],"removed":[[[0,0],[0,1]]]}"#;
        let a = ApplyRequest::parse(answer).unwrap();
        assert_eq!(a.moves, "(0,0)");
        assert_eq!(a.prepared.setup.game, Game::Samegame);
        assert_eq!(a.prepared.setup.rules.sideways, Sideways::Left);
        let r = RenderRequest::parse(answer).unwrap();
        assert_eq!((r.moves.as_deref(), r.svg), (Some("(0,0)"), false));
        let mut checked = 2;
        for (path, body, words) in [
            (
                "/api/apply",
                &br#"{"game":"dust","board":"GB,BG","moves":[],"widht":2}"#[..],
                "unknown field \"widht\" in the body of /api/apply (its fields: game, board, \
                 date, clickable, min_group, sideways, objective, start, moves and those of \
                 /api/solve's answer)",
            ),
            (
                "/api/render",
                br#"{"game":"dust","board":"GB,BG","lenght":2}"#,
                "unknown field \"lenght\"",
            ),
            (
                "/api/solve",
                br#"{"game":"dust","board":"GB,BG","width":2}"#,
                "unknown field \"width\" in the body of /api/solve (its fields: game, board, \
                 date, clickable, min_group, sideways, objective, start, time_limit, no_proof, \
                 certify, anytime)",
            ),
        ] {
            let e = match path {
                "/api/apply" => ApplyRequest::parse(body).unwrap_err(),
                "/api/render" => RenderRequest::parse(body).unwrap_err(),
                _ => SolveRequest::parse(body).unwrap_err(),
            };
            assert_eq!(e.status, 400);
            assert!(e.message.starts_with(words), "{path}: {}", e.message);
            checked += 1;
        }
        assert_eq!(checked, 5);
    }

    /// `"date"` in place of `"board"`: NRK Former's board of that day, under Former's rules.
    #[test]
    fn a_date_gives_nrk_formers_board_of_the_day() {
        let mut checked = 0;
        for (body, day) in [
            (
                &br#"{"date":"2025-01-01","time_limit":1}"#[..],
                "2025-01-01",
            ),
            (br#"{"date":"2026-11-24","game":"former"}"#, "2026-11-24"),
        ] {
            let r = SolveRequest::parse(body).unwrap();
            assert_eq!(r.prepared.setup.game, Game::Former);
            assert_eq!(r.prepared.grid, former_board(day).unwrap().1, "{day}");
            checked += 1;
        }
        let r = ApplyRequest::parse(br#"{"date":"2025-01-01","moves":[{"x":0,"y":0}]}"#).unwrap();
        assert_eq!(r.prepared.grid, former_board("2025-01-01").unwrap().1);
        assert_eq!(r.moves, "(0,0)");
        checked += 1;
        assert_eq!(checked, 3);
    }

    #[test]
    fn bad_bodies_are_400_in_the_command_lines_words_with_the_apis_names() {
        let mut checked = 0;
        for (body, words) in [
            (&b"{"[..], "bad JSON body"),
            (b"[1,2]", "bad JSON body"),
            (br#"{"game":"dust"}"#, "no \"board\""),
            (br#"{"game":"nope","board":"AB"}"#, "unknown game"),
            (
                br#"{"game":"dust","board":"AB,A"}"#,
                "all rows must have the same width",
            ),
            (
                br#"{"game":"former","board":"AB","clickable":"top"}"#,
                "possible values: any, bottom",
            ),
            (
                br#"{"game":"former","board":"AB","sideways":"le\n\nft"}"#,
                "invalid value 'le\\n\\nft' for sideways",
            ),
            (
                br#"{"game":"former","board":"AB","time_limit":-1}"#,
                "\"time_limit\" must be a number of seconds",
            ),
            (
                br#"{"game":"former","board":"AB","min_group":0}"#,
                "\"min_group\" must be at least 1",
            ),
            (
                br#"{"board":"ABCD,ABCD,ABCD,ABCD"}"#,
                "say which with \"game\"",
            ),
            (
                br#"{"game":"former","board":"AB","start":"topleft"}"#,
                "Flood-It only",
            ),
            (
                br#"{"game":"floodit","board":"AB,BA","start":"5,5"}"#,
                "outside",
            ),
            (
                br#"{"game":"former","board":"AB","time_limit":"x"}"#,
                "bad \"time_limit\": invalid type: string \"x\"",
            ),
            (
                br#"{"game":"former","board":"AB","min_group":8589934592}"#,
                "bad \"min_group\": invalid value",
            ),
            (
                br#"{"game":"former","board":7}"#,
                "bad \"board\": invalid type",
            ),
            (
                br#"{"game":"former","board":"AB","no_proof":"yes"}"#,
                "bad \"no_proof\"",
            ),
            // a misspelt or unknown field is refused, not taken for an absent one
            (
                br#"{"game":"former","board":"AB","timelimit":1}"#,
                "unknown field \"timelimit\" in the body of /api/solve (its fields: game, board,",
            ),
            (
                br#"{"game":"former","board":"AB","threads":4}"#,
                "unknown field \"threads\"",
            ),
            (
                br#"{"game":"former","board":"AB","moves":[]}"#,
                "unknown field \"moves\"",
            ),
            (br#""AB""#, "it must be an object"),
            (
                br#"{"board":"AB","date":"2025-01-01"}"#,
                "give a board or \"date\", not both",
            ),
            (
                br#"{"game":"dust","date":"2025-01-01"}"#,
                "\"date\" gives NRK Former boards, not dust boards",
            ),
            (br#"{"date":"2024-11-22"}"#, "no board for 2024-11-22"),
            (br#"{"date":"1st of May"}"#, "is not a date"),
            // a value JSON cannot hold is named by its field
            (
                br#"{"game":"former","board":"AB","time_limit":1e400}"#,
                "bad \"time_limit\": number out of range",
            ),
            (br#"{"game":"former","board":"AB""#, "bad JSON body: EOF"),
            (br#"1e400"#, "bad JSON body"),
            (
                br#"{"game":"former","board":"AB","game":"dust"}"#,
                "the body gives \"game\" twice",
            ),
        ] {
            let e = SolveRequest::parse(body).unwrap_err();
            assert_eq!(e.status, 400, "{}", String::from_utf8_lossy(body));
            assert!(e.message.contains(words), "{e}: expected {words:?}");
            checked += 1;
        }
        assert_eq!(checked, 28);
        // null is as good as absent
        let r = SolveRequest::parse(br#"{"game":"dust","board":"GB,BG","time_limit":null}"#);
        assert_eq!(r.unwrap().time_limit, None);
        let big = format!(
            r#"{{"game":"samegame","board":"{}"}}"#,
            vec!["AB".repeat(20); 40].join(",")
        );
        let e = SolveRequest::parse(big.as_bytes()).unwrap_err();
        assert!(e.message.contains("at most"), "{e}");
    }

    #[test]
    fn apply_moves_become_the_check_syntax() {
        let r = ApplyRequest::parse(
            br#"{"game":"former","board":"AAB,ABB,BAA","moves":[{"x":2,"y":2},{"x":0,"y":2}]}"#,
        )
        .unwrap();
        assert_eq!(r.moves, "(2,2) (0,2)");
        let r = ApplyRequest::parse(
            br#"{"game":"floodit","board":"AB,BC","moves":["B",{"colour":"C"}]}"#,
        )
        .unwrap();
        assert_eq!(r.moves, "BC");
        let r = ApplyRequest::parse(
            br#"{"game":"former","board":"AAB,ABB,BAA","moves":[[2,2],{"x":0,"y":2}]}"#,
        )
        .unwrap();
        assert_eq!(r.moves, "(2,2) (0,2)");
        let mut refused = 0;
        for body in [
            &br#"{"game":"former","board":"AB","moves":["B"]}"#[..],
            br#"{"game":"former","board":"AB","moves":[{"x":-1,"y":0}]}"#,
            br#"{"game":"floodit","board":"AB,BA","moves":["BC"]}"#,
            br#"{"game":"floodit","board":"AB,BA","moves":[3]}"#,
            br#"{"game":"former","board":"AB"}"#,
            br#"{"game":"former","board":"AB","moves":[],"time_limit":1}"#,
            br#"{"game":"former","board":"AB","moves":{"x":0,"y":0}}"#,
            br#"{"game":"former","board":"AB","moves":[{"x":1e400,"y":0}]}"#,
        ] {
            let e = ApplyRequest::parse(body).unwrap_err();
            assert_eq!(e.status, 400);
            refused += 1;
        }
        assert_eq!(refused, 8);
        let e = ApplyRequest::parse(br#"{"game":"former","board":"AB","moves":[{"x":1e400}]}"#);
        assert_eq!(e.unwrap_err().message, "bad \"moves\": number out of range");
        let e = ApplyRequest::parse(br#"{"game":"former","board":"AB","moves":[],"time_limit":1}"#);
        assert!(e
            .unwrap_err()
            .message
            .contains("unknown field \"time_limit\" in the body of /api/apply"));
    }
}
