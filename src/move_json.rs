//! Moves written as JSON, read into the move text [`check`](crate::check::check) replays:
//! the one reader for `tumble check`, `tumble render --moves` and the web API.
//!
//! The reader is told the game, so that each move is read as what that game's moves are,
//! and a move of the wrong kind is named with the forms the game takes:
//!
//! - a click game: `{"x":7,"y":0}` (other fields, such as `solve --json`'s `"colour"` and
//!   `"size"`, are ignored) or `[7,0]`, written `(7,0)`;
//! - Flood-It: `"B"`, `{"colour":"B"}` or `{"color":"B"}`, written `B`.
//!
//! ```
//! use serde_json::json;
//! use tumble::move_json::move_text;
//! let clicks = json!([{"x": 7, "y": 0, "colour": "A"}, [3, 1]]);
//! assert_eq!(move_text(clicks.as_array().unwrap(), false).unwrap(), "(7,0) (3,1)");
//! let colours = json!(["B", {"colour": "G"}, {"color": "R"}]);
//! assert_eq!(move_text(colours.as_array().unwrap(), true).unwrap(), "BGR");
//! assert!(move_text(&[json!("B")], false).unwrap_err().contains("is not a click"));
//! ```

use serde_json::Value;

/// `moves` as move text: clicks `(x,y)` separated by spaces, or (`floodit`) colour letters
/// one after another. The error names the first move that is not of the game's kind, by
/// its number from 1, with the forms the game takes.
pub fn move_text(moves: &[Value], floodit: bool) -> Result<String, String> {
    let mut out = String::new();
    for (i, m) in moves.iter().enumerate() {
        let n = i + 1;
        if floodit {
            out.push(colour(m).ok_or_else(|| {
                format!("move {n} {m} is not a colour: write \"B\" or {{\"colour\":\"B\"}}")
            })?);
        } else {
            let (x, y) = click(m).ok_or_else(|| {
                format!(
                    "move {n} {m} is not a click: write {{\"x\":2,\"y\":0}} or [2,0] \
                     (whole numbers ≥ 0)"
                )
            })?;
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(&format!("({x},{y})"));
        }
    }
    Ok(out)
}

/// A Flood-It move's colour letter: one character of its own. A space, `,` or `;` would
/// vanish from the move text (they separate colours there), so they are no colour.
fn colour(m: &Value) -> Option<char> {
    let text = match m {
        Value::String(s) => s.as_str(),
        Value::Object(o) => o.get("colour").or_else(|| o.get("color"))?.as_str()?,
        _ => return None,
    };
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if !c.is_whitespace() && !matches!(c, ',' | ';') => Some(c),
        _ => None,
    }
}

/// A click's column and row.
fn click(m: &Value) -> Option<(u64, u64)> {
    match m {
        Value::Object(o) => Some((o.get("x")?.as_u64()?, o.get("y")?.as_u64()?)),
        Value::Array(xy) if xy.len() == 2 => Some((xy[0].as_u64()?, xy[1].as_u64()?)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn each_game_reads_its_own_moves_and_refuses_the_others() {
        let mut checked = 0;
        for (moves, floodit, text) in [
            (json!([]), false, ""),
            (json!([]), true, ""),
            (json!([{"x": 0, "y": 2}, [1, 0]]), false, "(0,2) (1,0)"),
            (
                json!([{"x": 3, "y": 1, "colour": "A", "size": 4}]),
                false,
                "(3,1)",
            ),
            (json!(["B", {"colour": "é"}, {"color": "A"}]), true, "BéA"),
            (json!([{"colour": "B", "x": null, "y": null}]), true, "B"),
        ] {
            assert_eq!(
                move_text(moves.as_array().unwrap(), floodit),
                Ok(text.into())
            );
            checked += 1;
        }
        for (moves, floodit, number) in [
            (json!([[0, 0], "B"]), false, 2),
            (json!([{"x": -1, "y": 0}]), false, 1),
            (json!([{"x": 1.5, "y": 0}]), false, 1),
            (json!([{"x": 1}]), false, 1),
            (json!([[0, 0, 0]]), false, 1),
            (json!([{"colour": "A"}]), false, 1),
            (json!(["A", [0, 0]]), true, 2),
            (json!(["AB"]), true, 1),
            (json!([""]), true, 1),
            (json!([","]), true, 1),
            (json!([" "]), true, 1),
            (json!([{"x": 0, "y": 0}]), true, 1),
            (json!([3]), true, 1),
        ] {
            let e = move_text(moves.as_array().unwrap(), floodit).unwrap_err();
            let kind = if floodit {
                "not a colour"
            } else {
                "not a click"
            };
            assert!(e.starts_with(&format!("move {number} ")), "{moves}: {e}");
            assert!(e.contains(kind), "{moves}: {e}");
            assert_eq!(e.lines().count(), 1);
            checked += 1;
        }
        assert_eq!(checked, 19);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            cases: 500, ..Default::default()
        })]

        /// Clicks in either JSON form, with `solve --json`'s other fields or without, read
        /// back by `check`'s parser as the same clicks; colours as the same letters.
        #[test]
        fn moves_read_back_as_check_reads_them(
            clicks in proptest::collection::vec((0u64..1 << 40, 0u64..1 << 40, 0u8..3), 0..30),
            colours in proptest::collection::vec(proptest::char::any(), 0..30),
        ) {
            let list: Vec<Value> = clicks
                .iter()
                .map(|&(x, y, form)| match form {
                    0 => json!({"x": x, "y": y}),
                    1 => json!([x, y]),
                    _ => json!({"x": x, "y": y, "colour": "A", "size": 2}),
                })
                .collect();
            let text = move_text(&list, false).unwrap();
            let back = crate::input::parse_clicks(&text).unwrap();
            let want: Vec<(usize, usize)> =
                clicks.iter().map(|&(x, y, _)| (x as usize, y as usize)).collect();
            proptest::prop_assert_eq!(back, want);
            let list: Vec<Value> = colours.iter().map(|c| json!(c.to_string())).collect();
            let letters: Vec<char> = colours
                .iter()
                .copied()
                .filter(|c| !c.is_whitespace() && !matches!(c, ',' | ';'))
                .collect();
            match move_text(&list, true) {
                // every colour a letter of its own, read back one for one
                Ok(text) => {
                    proptest::prop_assert_eq!(letters.len(), colours.len());
                    proptest::prop_assert_eq!(crate::floodit::parse_colours(&text), letters);
                }
                // else the first one that is not, by its number
                Err(e) => {
                    let n = colours.iter().position(|c| !letters.contains(c)).unwrap() + 1;
                    proptest::prop_assert!(e.starts_with(&format!("move {n} ")), "{}", e);
                }
            }
        }
    }
}
