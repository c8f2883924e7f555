//! The `tumble` command line: every subcommand, its output formats and its errors (one line
//! on stderr, exit code 2, never a panic). Expected optima come from the reference brute
//! force of `tests/common` or from the known boards of `tests/common/data.rs`.

mod common;

use serde_json::Value;

use common::cli::{assert_error, run};
use common::scratch::Scratch;
use common::{bfs_optimum, fewest_tiles, random_board, replay, Cell, RefBoard, Rng};
use tumble::rules::{Game, Rules};

fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

/// `tumble solve --json args...`: the one JSON object it prints.
fn solve_json(args: &[&str], stdin: Option<&str>) -> Value {
    let mut all = vec!["solve", "--json"];
    all.extend_from_slice(args);
    let (code, out, err) = run(&all, stdin);
    assert_eq!(code, 0, "tumble {all:?} failed: {err}");
    let v: Value = serde_json::from_str(&out)
        .unwrap_or_else(|e| panic!("stdout is not exactly one JSON value ({e}): {out:?}"));
    assert!(v.is_object(), "the JSON is an object: {out}");
    for key in [
        "game",
        "width",
        "height",
        "board",
        "moves",
        "length",
        "optimal",
        "lower_bound",
        "nodes",
        "elapsed_ms",
    ] {
        assert!(v.get(key).is_some(), "JSON key {key} missing: {out}");
    }
    for m in v["moves"].as_array().expect("moves is an array") {
        assert!(m["x"].is_u64() && m["y"].is_u64(), "move x,y: {m}");
        assert!(
            m["colour"].is_string() && m["size"].is_u64(),
            "move colour,size: {m}"
        );
    }
    assert_eq!(
        v["length"].as_u64().unwrap() as usize,
        v["moves"].as_array().unwrap().len()
    );
    v
}

/// The clicks of a JSON answer.
fn clicks_of(v: &Value) -> Vec<Cell> {
    v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["x"].as_u64().unwrap() as usize,
                m["y"].as_u64().unwrap() as usize,
            )
        })
        .collect()
}

/// Clicks as `tumble check` reads them.
fn moves_arg(clicks: &[Cell]) -> String {
    clicks
        .iter()
        .map(|(x, y)| format!("({x},{y})"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `tumble check` must say the answer clears the board.
fn assert_check_clears(game: &str, board: &str, clicks: &[Cell]) {
    let moves = moves_arg(clicks);
    let (code, out, err) = run(&["check", "--game", game, board, &moves], None);
    assert_eq!(code, 0, "check failed: {err}\n{out}");
    let want = match clicks.len() {
        1 => "cleared in 1 move\n".to_string(),
        n => format!("cleared in {n} moves\n"),
    };
    assert!(out.contains(&want), "check should print {want:?}:\n{out}");
}

fn rules(game: Game) -> Rules {
    game.rules().unwrap()
}

#[test]
fn solve_without_a_board_proves_the_dust_board() {
    let (code, out, err) = run(&["solve"], None);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("optimal: 11 moves (proven)"), "{out}");
    assert!(out.starts_with("dust 8×6"), "{out}");
}

#[test]
fn solve_inline_boards_proves_the_brute_force_optimum() {
    let mut rng = Rng::with_seed(7);
    let mut checked = 0;
    for (i, game) in [Game::Former, Game::Figure, Game::Dust].iter().enumerate() {
        for _ in 0..3 {
            let r = random_board(&mut rng, 3 + i % 2, 3, 3, true);
            let Some(o) = bfs_optimum(&r, &rules(*game)) else {
                continue;
            };
            checked += 1;
            let board = r.inline();
            let (code, out, err) = run(&["solve", "--game", game.name(), &board], None);
            assert_eq!(code, 0, "{err}");
            let want = format!("optimal: {} (proven)", plural(o, "move"));
            assert!(out.contains(&want), "{game} {board}: want {want:?}\n{out}");
        }
    }
    assert!(checked > 0, "every board drawn was unclearable");
}

#[test]
fn solve_reads_a_file_with_comments_and_crlf() {
    let scratch = Scratch::new("solve_reads_a_file_with_comments_and_crlf");
    let r = RefBoard::from_rows_top(&["ABBA", "BAAB", "ABBA"]);
    let o = bfs_optimum(&r, &rules(Game::Former)).unwrap();
    let rows = r.rows_top().join("\r\n");
    // as written by hand, and as saved by an editor that puts a byte-order mark first
    let texts = [
        format!("# a board\r\n{rows}\r\n"),
        format!("\u{feff}{rows}\r\n"),
        format!("\u{feff}former|{}|{o}\r\n", r.inline()),
        // a line copied from a set of named boards with their records
        format!("# nrk\n2024-11-23|{}|{o}\n", r.inline()),
    ];
    assert_eq!(texts.len(), 4);
    for (k, text) in texts.iter().enumerate() {
        let path = scratch.file(&format!("board{k}.txt"), text);
        let v = solve_json(&["--game", "former", path.to_str().unwrap()], None);
        assert_eq!(v["board"], r.inline(), "{text:?}");
        assert_eq!(v["length"].as_u64().unwrap() as usize, o, "{text:?}");
        assert_eq!(v["optimal"], true, "{text:?}");
    }
}

#[test]
fn solve_reads_stdin() {
    let r = RefBoard::from_rows_top(&["zz3", "3z@", "@33"]);
    let o = bfs_optimum(&r, &rules(Game::Dust)).unwrap();
    let v = solve_json(&["--game", "dust", "-"], Some(&r.rows_top().join("\n")));
    assert_eq!(
        v["board"],
        r.inline(),
        "colours print as the input wrote them"
    );
    assert_eq!(v["length"].as_u64().unwrap() as usize, o);
    // and in text mode
    let (code, out, _) = run(&["solve", "--game", "dust", "-"], Some(&r.inline()));
    assert_eq!(code, 0);
    assert!(out.contains(&format!("optimal: {} (proven)", plural(o, "move"))));
}

#[test]
fn json_answer_replays_to_an_empty_board() {
    let mut rng = Rng::with_seed(11);
    let mut checked = 0;
    for game in [Game::Former, Game::Figure, Game::Dust] {
        let r = random_board(&mut rng, 4, 3, 3, false);
        let Some(o) = bfs_optimum(&r, &rules(game)) else {
            continue;
        };
        checked += 1;
        let v = solve_json(&["--game", game.name(), &r.inline()], None);
        assert_eq!(v["game"], game.name());
        assert_eq!(
            (v["width"].as_u64(), v["height"].as_u64()),
            (Some(4), Some(3))
        );
        assert_eq!(v["length"].as_u64().unwrap() as usize, o);
        assert_eq!(v["optimal"], true);
        assert!(v["lower_bound"].as_u64().unwrap() as usize <= o);
        let clicks = clicks_of(&v);
        // through the reference simulator, with the sizes the JSON claims
        let (end, sizes) = replay(&r, &rules(game), &clicks).expect("legal moves");
        assert!(end.is_empty());
        let claimed: Vec<usize> = v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["size"].as_u64().unwrap() as usize)
            .collect();
        assert_eq!(claimed, sizes);
        // and through `tumble check`
        assert_check_clears(game.name(), &r.inline(), &clicks);
    }
    assert!(checked > 0, "every board drawn was unclearable");
}

#[test]
fn time_limit_zero_gives_an_unproven_solution() {
    // The daily Former board whose proof takes longest.
    let hard = common::data::hard_former();
    let (code, out, err) = run(
        &[
            "solve",
            "--game",
            "former",
            "--time-limit",
            "0",
            &hard.board,
        ],
        None,
    );
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("best found:"), "{out}");
    assert!(out.contains("not proven optimal"), "{out}");
    let v = solve_json(
        &["--game", "former", "--time-limit", "0", &hard.board],
        None,
    );
    assert_eq!(v["optimal"], false);
    let len = v["length"].as_u64().unwrap() as usize;
    assert!(
        len >= hard.optimum,
        "shorter than the proven optimum: {len}"
    );
    assert!(v["lower_bound"].as_u64().unwrap() as usize <= hard.optimum);
    let r = RefBoard::from_inline(&hard.board);
    let (end, _) = replay(&r, &rules(Game::Former), &clicks_of(&v)).expect("legal moves");
    assert!(end.is_empty(), "the best found clears the board");
}

/// A time limit longer than any clock can reach (a `Duration` holds about 1.8e19 seconds,
/// an instant less ahead) is no limit: the board is proven, as without one; without the
/// proof, the anytime search finds the optimum and ends on its own.
#[test]
fn a_time_limit_past_every_clock_is_no_limit() {
    let mut checked = 0;
    for args in [
        &["--time-limit", "1e19"][..],
        &["--time-limit", "1e30"],
        &["--time-limit", "1e300"],
        &["--time-limit", "1e30", "--no-proof"],
    ] {
        let v = solve_json(args, None);
        assert_eq!(v["length"], 11, "the dust board's optimum, with {args:?}");
        let proof = !args.contains(&"--no-proof");
        assert_eq!(v["optimal"], proof, "proven with {args:?}");
        checked += 1;
    }
    assert_eq!(checked, 4);
}

#[test]
fn check_accepts_a_legal_solution() {
    let board = "AAB,ABB,BAA";
    let r = RefBoard::from_inline(board);
    let clicks = [(0, 0), (0, 0), (1, 0), (1, 0)];
    // the reference agrees that this line clears the board
    let (end, _) = replay(&r, &rules(Game::Former), &clicks).unwrap();
    assert!(end.is_empty());
    assert_check_clears("former", board, &clicks);
    // the comma form of moves is read too
    let (code, out, _) = run(
        &["check", "--game", "former", board, "0,0 0,0 1,0 1,0"],
        None,
    );
    assert_eq!(code, 0);
    assert!(out.contains("cleared in 4 moves"), "{out}");
}

/// `solve --json`'s answer records the rules it was found under: `check` and `render
/// --moves` replay it alone on its own board under them, take them where no option says
/// otherwise, and refuse options that differ, naming the option.
#[test]
fn an_answer_alone_replays_on_its_board_under_its_rules() {
    let scratch = Scratch::new("an_answer_alone_replays_on_its_board_under_its_rules");
    // a Former board solved with columns closing left, where the same clicks replayed
    // under Former's own rules do not clear it
    let gen = "gen --game former --width 5 --height 5 --colours 3 --seed 1";
    let gen: Vec<&str> = gen.split(' ').collect();
    let board = run(&gen, None).1.lines().collect::<Vec<_>>().join(",");
    let mut cases = 0;
    for (game, options, end) in [
        ("former", &["--sideways", "left"][..], "cleared in"),
        ("samegame", &["--min-group", "3"][..], "score:"),
        ("floodit", &["--start", "centre"][..], "solved in"),
    ] {
        let mut args = vec!["solve", "--json", "--game", game, "--time-limit", "5"];
        args.extend(options);
        args.push(&board);
        let (code, answer, err) = run(&args, None);
        assert_eq!(code, 0, "{game}: {err}");
        let v: Value = serde_json::from_str(&answer).unwrap();
        let file = scratch.file(&format!("alone-{game}.json"), &answer);
        let file = file.to_str().unwrap();
        let option = options[0];
        let theirs = v[option.trim_start_matches("--").replace('-', "_")].clone();
        let theirs = theirs.as_str().map_or(theirs.to_string(), str::to_string);
        let taken = format!("rules: {option} {theirs} (the answer's)");
        // alone, from a file and from stdin, and beside its board with no options
        let mut verdicts = Vec::new();
        for (args, stdin) in [
            (vec!["check", file], None),
            (vec!["check", "-"], Some(answer.as_str())),
            (vec!["check", "--game", game, &board, file], None),
        ] {
            let (code, out, err) = run(&args, stdin);
            assert_eq!(code, 0, "{game} {args:?}: {err}");
            assert_eq!(out.lines().next(), Some(taken.as_str()), "{game} {args:?}");
            let last = out
                .lines()
                .rev()
                .find(|l| l.contains(end))
                .map(str::to_string);
            assert!(last.is_some(), "{game} {args:?}: no {end:?} in\n{out}");
            verdicts.push(last);
            cases += 1;
        }
        assert!(verdicts.windows(2).all(|w| w[0] == w[1]), "{verdicts:?}");
        let png = scratch.path(&format!("alone-{game}.png"));
        let (code, _, err) = run(
            &["render", "--moves", file, "-o", png.to_str().unwrap()],
            None,
        );
        assert_eq!(code, 0, "{game} render: {err}");
        let bytes = std::fs::read(&png).unwrap();
        assert!(bytes.starts_with(b"\x89PNG"), "{game} render");
        cases += 1;
        // an option that differs from the answer's rule is named
        let other = match option {
            "--sideways" => "none",
            "--start" => "0,0",
            _ => "2",
        };
        assert_error(
            &["check", option, other, file],
            None,
            &[&format!(
                "answer under {option} {theirs}, not {other}: leave {option} out"
            )],
        );
        cases += 1;
    }
    // the clicks alone, replayed under Former's own rules, do not clear the board: the
    // answer's rules are what made it clear
    let (code, answer, _) = run(
        &[
            "solve",
            "--json",
            "--game",
            "former",
            "--sideways",
            "left",
            &board,
        ],
        None,
    );
    assert_eq!(code, 0);
    let v: Value = serde_json::from_str(&answer).unwrap();
    let clicks = v["moves"].to_string();
    let (_, out, _) = run(&["check", "--game", "former", &board, &clicks], None);
    assert!(!out.contains("cleared in"), "{out}");
    // moves with no board of their own need one
    assert_error(
        &["check", &clicks],
        None,
        &["the moves do not hold their board: give the board (or --date) too"],
    );
    assert_error(
        &["render", "--moves", "(0,0)", "-o", "never.png"],
        None,
        &["the moves do not hold their board"],
    );
    // a start cell the answer gives, refused by its board, is named as the answer's
    for (answer, words) in [
        (
            r#"{"game":"floodit","board":"AB,BA","start":"9,9","moves":[]}"#,
            r#"the answer's "start": --start 9,9 is outside the 2×2 board"#,
        ),
        (
            r#"{"game":"dust","board":"AB,BA","start":"0,0","moves":[]}"#,
            r#"the answer's "start": --start is for Flood-It only"#,
        ),
    ] {
        assert_error(&["check", answer], None, &[words]);
    }
    cases += 5;
    assert_eq!(cases, 20);
}

/// `solve --json`'s answer given as the board is its board under the rules it records:
/// solved again under them, unless an option says otherwise.
#[test]
fn an_answer_as_the_board_is_solved_again_under_its_rules() {
    let scratch = Scratch::new("an_answer_as_the_board_is_solved_again_under_its_rules");
    let mut cases = 0;
    // (`solve_json` checks the fields of a click game's answer; Flood-It's are colours)
    let solve_json = |args: &[&str], stdin: Option<&str>| -> Value {
        let mut all = vec!["solve", "--json"];
        all.extend(args);
        let (code, out, err) = run(&all, stdin);
        assert_eq!(code, 0, "{all:?}: {err}");
        serde_json::from_str(&out).unwrap()
    };
    let rules = |v: &Value| {
        let fields = [
            "game",
            "board",
            "clickable",
            "min_group",
            "sideways",
            "start",
        ];
        fields.map(|f| v[f].clone())
    };
    for (args, taken) in [
        (
            &["--game", "samegame", "--min-group", "3"][..],
            "rules: --min-group 3 (the answer's)",
        ),
        (
            &["--game", "floodit", "--start", "centre"],
            "rules: --start 2,1 (the answer's)",
        ),
        (
            &[
                "--game",
                "former",
                "--sideways",
                "left",
                "--clickable",
                "bottom",
            ],
            "rules: --clickable bottom --sideways left (the answer's)",
        ),
    ] {
        let mut solve = vec!["--time-limit", "5"];
        solve.extend(args);
        solve.push("ABBA,BAAB,ABAB");
        let first = solve_json(&solve, None);
        let text = first.to_string();
        let file = scratch.file("answer-as-board.json", &text);
        let again = solve_json(&[file.to_str().unwrap()], None);
        assert_eq!(rules(&again), rules(&first), "{args:?}");
        assert_eq!(again["length"], first["length"], "{args:?}");
        let piped = solve_json(&["-"], Some(&text));
        assert_eq!(rules(&piped), rules(&first), "{args:?}");
        // the words say which rules came from the answer, on the first line
        let (code, out, err) = run(
            &["solve", "--time-limit", "5", file.to_str().unwrap()],
            None,
        );
        assert_eq!(code, 0, "{args:?}: {err}");
        assert_eq!(out.lines().next(), Some(taken), "{args:?}: {out}");
        cases += 3;
    }
    // an option given is the option's
    let first = solve_json(
        &["--game", "samegame", "--min-group", "3", "ABBA,BAAB,ABAB"],
        None,
    );
    let again = solve_json(&["--min-group", "1", &first.to_string()], None);
    assert_eq!(
        (&again["game"], &again["min_group"]),
        (&first["game"], &Value::from(1))
    );
    cases += 1;
    // JSON that is no answer is named as such
    for (board, words) in [
        (
            r#"{"board":1}"#,
            r#"the answer's "board" must be text, not 1"#,
        ),
        (r#"{"moves":[]}"#, r#"it has no "board""#),
        ("{", "EOF while parsing"),
    ] {
        let words = format!("the board is JSON but not solve --json's answer: {words}");
        assert_error(&["solve", board], None, &[&words]);
        cases += 1;
    }
    assert_eq!(cases, 13);
}

#[test]
fn check_replays_solve_json_from_a_file_or_stdin() {
    let scratch = Scratch::new("check_replays_solve_json_from_a_file_or_stdin");
    let mut checked = 0;
    for (game, board, end) in [
        ("former", "AAB,ABB,BAA", "cleared in"),
        ("dust", "ABAB,BABA,AABB", "cleared in"),
        ("floodit", "ABC,BCA,CAB", "solved in"),
    ] {
        let (code, answer, err) = run(&["solve", "--json", "--game", game, board], None);
        assert_eq!(code, 0, "{err}");
        let v: Value = serde_json::from_str(&answer).unwrap();
        let done = format!(
            "{end} {}",
            plural(v["length"].as_u64().unwrap() as usize, "move")
        );
        let file = scratch.file(&format!("answer-{game}.json"), &answer);
        let list = v["moves"].to_string();
        for (moves, stdin) in [
            (file.to_str().unwrap(), None),
            ("-", Some(answer.as_str())),
            (list.as_str(), None),
        ] {
            let (code, out, err) = run(&["check", "--game", game, board, moves], stdin);
            assert_eq!(code, 0, "{game} {moves}: {err}");
            assert!(out.contains(&done), "{game} {moves}: {done} in\n{out}");
            checked += 1;
        }
    }
    assert_eq!(checked, 9);
    // pairs, and JSON that is no move list, each one line and exit code 2
    let (code, out, _) = run(
        &[
            "check",
            "--game",
            "former",
            "AAB,ABB,BAA",
            "[[0,0],[0,0],[1,0],[1,0]]",
        ],
        None,
    );
    assert_eq!(code, 0);
    assert!(out.contains("cleared in 4 moves"), "{out}");
    // each game's moves read as that game's: a colour is no click, a click no colour
    let (code, out, err) = run(
        &[
            "check",
            "--game",
            "floodit",
            "ABC,BCA,CAB",
            r#"["B",{"color":"C"},{"colour":"A"},"B"]"#,
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("solved in 4 moves"), "{out}");
    let mut refused = 0;
    for (game, board, moves, words) in [
        ("former", "AAB,ABB,BAA", "{\"length\":3}", "\"moves\" list"),
        (
            "former",
            "AAB,ABB,BAA",
            "[{\"x\":-1,\"y\":0}]",
            "move 1 {\"x\":-1,\"y\":0} is not a click",
        ),
        (
            "former",
            "AAB,ABB,BAA",
            "[[0,0],5]",
            "move 2 5 is not a click: write",
        ),
        (
            "former",
            "AAB,ABB,BAA",
            "[[0,0],\"B\"]",
            "move 2 \"B\" is not a click",
        ),
        ("former", "AAB,ABB,BAA", "[oops", "bad JSON moves"),
        (
            "floodit",
            "ABC,BCA,CAB",
            "[[0,0]]",
            "move 1 [0,0] is not a colour",
        ),
        (
            "floodit",
            "ABC,BCA,CAB",
            "[\"B\",\",\"]",
            "move 2 \",\" is not a colour",
        ),
        // solve --json's answer for another board or game, named as such
        (
            "former",
            "AAB,ABB,BAB",
            r#"{"game":"former","board":"AAB,ABB,BAA","moves":[[0,1],[1,0],[0,0]]}"#,
            "the moves are solve --json's answer for another board, AAB,ABB,BAA",
        ),
        (
            "dust",
            "AAB,ABB,BAA",
            r#"{"game":"former","board":"AAB,ABB,BAA","moves":[[0,1],[1,0],[0,0]]}"#,
            "answer for a former board, and this is a dust board",
        ),
    ] {
        let (code, _, err) = run(&["check", "--game", game, board, moves], None);
        assert_eq!(code, 2, "{moves}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(words), "{moves}: {err}");
        refused += 1;
    }
    assert_eq!(refused, 9);
    let (code, _, err) = run(&["check", "-", "-"], Some("AB,BA"));
    assert_eq!(code, 2);
    assert!(err.contains("both are -"), "{err}");
}

#[test]
fn check_reports_an_illegal_move() {
    // (board, game, moves, number of the illegal move, words of the reason)
    let cases: &[(&str, &str, &str, usize, &str)] = &[
        ("AAB,ABB,BAA", "former", "(0,0) (0,2)", 2, "empty"),
        ("AAB,ABB,BAA", "former", "(3,0)", 1, "outside"),
        ("AB,BA", "figure", "(0,1)", 1, "bottom"),
        ("AAB,ABA", "clickomania", "(0,0) (0,0)", 2, "smallest"),
    ];
    for &(board, game, moves, k, why) in cases {
        // the reference agrees on which move is illegal
        let r = RefBoard::from_inline(board);
        let rules = game.parse::<Game>().unwrap().rules().unwrap();
        let clicks: Vec<Cell> = moves
            .split_whitespace()
            .map(|t| {
                let (x, y) = t
                    .trim_matches(|c| c == '(' || c == ')')
                    .split_once(',')
                    .unwrap();
                (x.parse().unwrap(), y.parse().unwrap())
            })
            .collect();
        assert_eq!(replay(&r, &rules, &clicks).unwrap_err(), (k, why));
        let (code, out, err) = run(&["check", "--game", game, board, moves], None);
        assert!(!err.contains("panicked"), "{err}");
        assert_eq!(code, 1, "{board} {moves}: {out} {err}");
        let line = out
            .lines()
            .find(|l| l.starts_with(&format!("illegal move {k}:")))
            .unwrap_or_else(|| panic!("no 'illegal move {k}:' line:\n{out}"));
        assert!(line.contains(why), "reason should mention {why:?}: {line}");
    }
}

#[test]
fn check_reports_a_board_left_unclear() {
    let board = "AAB,ABB,BAA";
    let (end, _) = replay(
        &RefBoard::from_inline(board),
        &rules(Game::Former),
        &[(2, 2)],
    )
    .unwrap();
    let (code, out, _) = run(&["check", "--game", "former", board, "(2,2)"], None);
    assert_eq!(code, 0);
    let want = format!("not cleared: {} tiles left after 1 move\n", end.tiles());
    assert!(out.contains(&want), "{out}");
}

#[test]
fn gen_is_reproducible_and_its_boards_solve() {
    let gen = |seed: &str| {
        let (code, out, err) = run(&["gen", "--game", "figure", "--seed", seed], None);
        assert_eq!(code, 0, "{err}");
        out
    };
    let a = gen("42");
    assert_eq!(a, gen("42"), "same seed, same board");
    assert_ne!(a, gen("43"), "another seed, another board");
    let rows: Vec<&str> = a.lines().collect();
    assert_eq!(rows.len(), 5, "figure boards are 5 high: {a}");
    assert!(rows
        .iter()
        .all(|r| r.chars().count() == 5 && !r.contains('.')));
    let r = RefBoard::from_rows_top(&rows);
    assert!(r.colours_left() <= 4);
    // it parses and solves (the text as printed, through stdin)
    let v = solve_json(&["--game", "figure", "-"], Some(&a));
    assert_eq!(v["board"], r.inline());
    assert_eq!(v["optimal"], true);
    let (end, _) = replay(&r, &rules(Game::Figure), &clicks_of(&v)).unwrap();
    assert!(end.is_empty());

    // a custom size, against the brute force
    let (code, out, _) = run(
        &[
            "gen",
            "--game",
            "dust",
            "--width",
            "4",
            "--height",
            "3",
            "--colours",
            "3",
            "--seed",
            "5",
        ],
        None,
    );
    assert_eq!(code, 0);
    let r = RefBoard::from_rows_top(&out.lines().collect::<Vec<_>>());
    assert_eq!((r.width(), r.height()), (4, 3));
    assert!(r.colours_left() <= 3);
    let o = bfs_optimum(&r, &rules(Game::Dust)).unwrap();
    let v = solve_json(&["--game", "dust", &r.inline()], None);
    assert_eq!(v["length"].as_u64().unwrap() as usize, o);
}

#[test]
fn gen_makes_sets_of_seeds_and_of_days_that_bench_reads() {
    let scratch = Scratch::new("gen_makes_sets_of_seeds_and_of_days_that_bench_reads");
    // a set of seeds: each line is the board `gen --seed` prints, named by its seed
    let (code, set, err) = run(&["gen", "--game", "figure", "--seeds", "3..=6"], None);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = set.lines().collect();
    assert_eq!(lines.len(), 4, "{set}");
    let mut checked = 0;
    for (line, seed) in lines.iter().zip(3..) {
        let (code, board, _) = run(
            &["gen", "--game", "figure", "--seed", &seed.to_string()],
            None,
        );
        assert_eq!(code, 0);
        let rows: Vec<&str> = board.lines().collect();
        assert_eq!(*line, format!("figure-{seed}|{}", rows.join(",")));
        checked += 1;
    }
    assert_eq!(checked, 4);
    // `A..B` leaves B out
    let (_, upto, _) = run(&["gen", "--game", "figure", "--seeds", "3..6"], None);
    assert_eq!(upto.lines().collect::<Vec<_>>(), lines[..3]);
    // a set of days: each line is the board of `gen --date`
    let (code, days, err) = run(&["gen", "--dates", "2024-11-23..=2024-11-25"], None);
    assert_eq!(code, 0, "{err}");
    let (_, day, _) = run(&["gen", "--date", "2024-11-24"], None);
    assert_eq!(days.lines().count(), 3, "{days}");
    assert_eq!(
        days.lines().nth(1).unwrap(),
        format!("2024-11-24|{}", day.lines().collect::<Vec<_>>().join(","))
    );
    // bench reads both, every board by its name
    let (seeds, dates) = (
        scratch.file("gen-seeds.txt", &set),
        scratch.file("gen-dates.txt", &days),
    );
    for (file, game, names, count) in [
        (&seeds, "figure", vec!["figure-3", "figure-6"], 4),
        (&dates, "former", vec!["2024-11-23", "2024-11-25"], 3),
    ] {
        let (code, out, err) = run(
            &[
                "bench",
                "--jobs",
                "1",
                "--game",
                game,
                file.to_str().unwrap(),
            ],
            None,
        );
        assert_eq!(code, 0, "{err}");
        for name in names {
            assert!(out.contains(name), "{name} in\n{out}");
        }
        let total = format!("total: {count} boards, {count} proven optimal");
        assert!(out.contains(&total), "{total} in\n{out}");
    }
    // a range that is no range, is empty or is too long, is one line and exit code 2
    for (seeds, words) in [
        ("x..4", "--seeds must be"),
        ("5..5", "holds no seed"),
        ("6..=5", "holds no seed"),
        ("1..=2000000", "at most 1000000"),
    ] {
        let (code, out, err) = run(&["gen", "--seeds", seeds], None);
        assert_eq!(code, 2, "{seeds}: {out}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(words), "{seeds}: {err}");
    }
    // and so is a range of no days, in gen and bench alike
    for command in ["gen", "bench"] {
        for range in ["2024-11-25..2024-11-23", "2025-01-01..2025-01-01"] {
            let (code, out, err) = run(&[command, "--dates", range], None);
            assert_eq!((code, out.as_str()), (2, ""), "{err}");
            assert!(
                err.contains(&format!("--dates {range} holds no day")),
                "{err}"
            );
        }
    }
}

#[test]
fn bench_compares_with_the_expected_optima() {
    let scratch = Scratch::new("bench_compares_with_the_expected_optima");
    let mut rng = Rng::with_seed(3);
    let mut lines = vec!["# tiny boards with brute-force optima".to_string()];
    let mut wrong = Vec::new();
    for game in [Game::Former, Game::Figure, Game::Dust] {
        let r = random_board(&mut rng, 3, 3, 3, false);
        let o = bfs_optimum(&r, &rules(game)).unwrap();
        lines.push(format!("{}|{}|{o}", game.name(), r.inline()));
        wrong.push(format!("{}|{}|{}", game.name(), r.inline(), o + 1));
    }
    let good = scratch.file("bench-good.txt", &lines.join("\n"));
    let bad = scratch.file("bench-bad.txt", &wrong.join("\n"));
    let (code, out, err) = run(&["bench", "--json", good.to_str().unwrap()], None);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).expect("one JSON object");
    assert_eq!(v["totals"]["boards"], 3);
    assert_eq!(v["totals"]["proven"], 3);
    assert_eq!(v["totals"]["mismatches"], 0);
    let (code, out, _) = run(&["bench", bad.to_str().unwrap()], None);
    assert_eq!(code, 1, "a wrong expected optimum is a failure: {out}");
    assert!(out.contains("MISMATCH"), "{out}");
    assert!(
        out.contains("3 proven answers differ from the expected optimum"),
        "{out}"
    );
    // a game line's optimum is its game's: another --game is refused, not compared
    let (code, out, err) = run(
        &["bench", "--game", "samegame", good.to_str().unwrap()],
        None,
    );
    assert_eq!(code, 2, "{out}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("board former#1: the board's line names former, but --game says samegame"),
        "{err}"
    );
    let (code, _, err) = run(&["solve", "--game", "dust", &wrong[0]], None);
    assert_eq!(code, 2);
    assert!(err.contains("names former, but --game says dust"), "{err}");
    let (code, out, err) = run(&["bench", "--game", "figure", good.to_str().unwrap()], None);
    assert_eq!(code, 2, "{out}");
    assert!(err.contains("names former"), "{err}");
    assert_error(&["bench", "no/such/file.txt"], None, &["no/such/file.txt"]);
    // a file name without a folder is not taken for a board of one row
    let mut named = 0;
    for args in [
        &["bench", "no-such-set.txt"][..],
        &["solve", "no-such-board.txt"],
        &["check", "day.png", "1,1"],
    ] {
        let name = args[1];
        assert_error(args, None, &[name, "board file", "no such file"]);
        named += 1;
    }
    // nor a moves file for moves, in any game, nor before a word is printed
    for args in [
        &["check", "--game", "former", "AAB,ABB,BAA", "answer.json"][..],
        &["check", "--game", "floodit", "ABC,BCA,CAB", "answer.json"],
        &[
            "render",
            "--game",
            "dust",
            "AB,BA",
            "--moves",
            "answer.json",
            "-o",
            "x.png",
        ],
    ] {
        assert_error(
            args,
            None,
            &["cannot read moves file answer.json: no such file"],
        );
        let (_, out, _) = run(args, None);
        assert_eq!(out, "", "{args:?}");
        named += 1;
    }
    assert_eq!(named, 6);
    // a directory is named as one; a pipe is read as a file is (`solve <(tumble gen …)`)
    let dir = scratch.dir().to_str().unwrap();
    assert_error(&["solve", dir], None, &["board file", "it is a directory"]);
    assert_error(
        &["check", "--game", "dust", "AB,BA", dir],
        None,
        &["moves file", "it is a directory"],
    );

    if cfg!(target_os = "linux") {
        let (code, out, err) = run(
            &["solve", "--game", "former", "/dev/stdin"],
            Some("AB\nAB\n"),
        );
        assert_eq!(code, 0, "{err}");
        assert!(out.contains("optimal: 2 moves (proven)"), "{out}");
        // an endless source is cut off, not read until memory runs out
        assert_error(
            &["solve", "/dev/zero"],
            None,
            &["/dev/zero", "over 256 MiB"],
        );
        assert_error(
            &["solve", "--image", "/dev/zero"],
            None,
            &["/dev/zero", "over 256 MiB"],
        );
    }
    // a board file whose first letters are a picture format's signature (BMP's "BM") is
    // still a board
    let bm = scratch.file("bm-board.txt", "BMBM\nMBMB\nBBMM\n");
    let (code, out, err) = run(
        &["solve", "--game", "clickomania", bm.to_str().unwrap()],
        None,
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("BMBM"), "{out}");
}

#[test]
fn bad_input_is_one_line_on_stderr_and_exit_code_2() {
    // ragged rows: the row is named
    assert_error(
        &["solve", "--game", "former", "ABC,AB,ABC"],
        None,
        &["row 2"],
    );
    assert_error(
        &["solve", "--game", "former", "-"],
        Some("ABC\nABC\nAB\n"),
        &["row 3", "line 3"],
    );
    // a floating tile: the cell, line and column are named
    assert_error(
        &["solve", "--game", "former", "-"],
        Some("AB\n.B\nAB\n"),
        &["(0,1)", "line 2", "column 1"],
    );
    // 17 colours: the 17th is named
    assert_error(
        &["solve", "--game", "former", "ABCDEFGHIJKLMNOPQ"],
        None,
        &["17", "'Q'", "column 17"],
    );
    // a bad character
    assert_error(
        &["solve", "--game", "former", "-"],
        Some("AB\nA\u{7}\n"),
        &["line 2", "column 2"],
    );
    // a board bigger than the limit
    let big = vec!["AB".repeat(15); 30].join(",");
    assert_error(&["solve", "--game", "former", &big], None, &["30×30"]);
    assert_error(
        &["check", "--game", "samegame", &big, "(0,0)"],
        None,
        &["30×30"],
    );
    // an unknown game
    assert_error(&["solve", "--game", "tetris", "AB,AB"], None, &["tetris"]);
    assert_error(&["solve", "tetris|AB,AB"], None, &[]);
    // an unreadable file
    assert_error(&["solve", "no/such/file.txt"], None, &["no/such/file.txt"]);
    assert_error(
        &["check", "no/such/file.txt", "(0,0)"],
        None,
        &["no/such/file.txt"],
    );
    // bad move strings: the move is named
    assert_error(
        &["check", "--game", "former", "AB,AB", "(0,0) xx"],
        None,
        &["move 2"],
    );
    assert_error(
        &["check", "--game", "former", "AB,AB", "(1,a)"],
        None,
        &["move 1"],
    );
    assert_error(
        &["check", "--game", "former", "AB,AB", "(-1,0)"],
        None,
        &["move 1"],
    );
    // an empty board text, a board of no usual size without --game
    assert_error(&["solve", "-"], Some("# nothing\n"), &["empty"]);
    assert_error(&["solve", "AB,AB"], None, &["--game"]);
    // bad options
    assert_error(
        &["solve", "--game", "former", "--min-group", "0", "AB"],
        None,
        &["min-group"],
    );
    assert_error(
        &["solve", "--game", "former", "--time-limit", "-1", "AB"],
        None,
        &["--time-limit must be a number of seconds ≥ 0, not -1"],
    );
    assert_error(
        &["solve", "--game", "former", "--threads", "0", "AB"],
        None,
        &["--threads"],
    );
    // more threads than any machine runs well (eight per core at most); `bench` says so
    // before anything else, its table's header included
    assert_error(
        &["solve", "--game", "former", "--threads", "100000", "AB"],
        None,
        &[
            "--threads 100000 is more than this machine can use",
            "per core",
        ],
    );
    // (`--jobs` is checked as it would run: never more boards at a time than the set has,
    // so the set is one board more than the most allowed, each solved at once if it ran)
    let most = (tumble::input::THREADS_PER_CORE * tumble::machine::cores() + 1).to_string();
    let jobs = format!("--jobs {most} is more than this machine can use");
    for (option, needle) in [
        (
            &["--threads", "100000", "--limit", "2"][..],
            "--threads 100000",
        ),
        (&["--time-limit", "-3", "--limit", "2"], "--time-limit"),
        (
            &[
                "--jobs",
                &most,
                "--limit",
                &most,
                "--no-proof",
                "--time-limit",
                "0",
            ],
            &jobs,
        ),
    ] {
        let mut args = vec!["bench", "--dates", "2024-11-23..=2026-11-24"];
        args.extend_from_slice(option);
        assert_error(&args, None, &[needle]);
        let (_, out, _) = run(&args, None);
        assert_eq!(out, "", "tumble {args:?} prints nothing on stdout");
    }
    assert_error(
        &["solve", "--game", "former", "--memory", "0", "AB"],
        None,
        &["--memory"],
    );
    // more than any machine has (and more MiB than bytes fit in 64 bits)
    assert_error(
        &[
            "solve",
            "--game",
            "former",
            "--memory",
            "17592186044416",
            "AB",
        ],
        None,
        &["--memory 17592186044416 MiB is more than this machine has"],
    );
    assert_error(
        &["solve", "--game", "former", "--time-limit", "NaN", "AB"],
        None,
        &["--time-limit must be a number of seconds ≥ 0, not NaN"],
    );
    assert_error(
        &["solve", "--game", "former", "--time-limit", "-0.5", "AB"],
        None,
        &["--time-limit", "-0.5"],
    );
    assert_error(
        &["solve", "--game", "floodit", "--start", "2,0", "AB,BA"],
        None,
        &["--start", "outside"],
    );
    assert_error(
        &["solve", "--game", "floodit", "--start", "0,2", "AB,BA"],
        None,
        &["--start 0,2 is outside the 2×2 board"],
    );
    assert_error(
        &["bench", "--game", "floodit", "--jobs", "0", "-"],
        Some("AB,BA\n"),
        &["--jobs must be at least 1"],
    );
    assert_error(
        &["bench", "--game", "floodit", "--memory", "0", "-"],
        Some("AB,BA\n"),
        &["--memory"],
    );
    assert_error(
        &["bench", "--game", "floodit", "--limit", "0", "-"],
        Some("AB,BA\n"),
        &["--limit must be at least 1"],
    );
    // a file to resume in a folder that does not exist: the one error, no note before it
    assert_error(
        &[
            "bench",
            "--game",
            "floodit",
            "--resume",
            "/no/such/dir/r.jsonl",
            "-",
        ],
        Some("AB,BA\n"),
        &["cannot write /no/such/dir/r.jsonl"],
    );
    assert_error(&["gen", "--colours", "17"], None, &["colours"]);
    assert_error(&["gen", "--width", "0"], None, &["width"]);
    // a board no engine of the game takes is refused by gen, not by the solve after it
    assert_error(
        &[
            "gen", "--game", "samegame", "--width", "40", "--height", "40",
        ],
        None,
        &["40×40", "at most 512 cells"],
    );
    assert_error(
        &[
            "gen", "--game", "floodit", "--width", "33", "--height", "32",
        ],
        None,
        &["33×32", "at most 1024 cells"],
    );
    assert_error(&["frobnicate"], None, &[]);
    // a screenshot's size options without a screenshot are refused, not ignored
    let mut sized = 0;
    for args in [
        &["solve", "--game", "samegame", "--width", "10"][..],
        &["solve", "AB,BA", "--game", "samegame", "--height", "3"],
        &["solve", "--date", "2025-01-01", "--colours", "3"],
    ] {
        let option = args[args.len() - 2];
        assert_error(args, None, &[option, "--image"]);
        sized += 1;
    }
    assert_eq!(sized, 3);
}

#[test]
fn an_empty_board_is_solved_in_zero_moves() {
    let (code, out, err) = run(&["solve", "--game", "former", "...,..."], None);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("optimal: 0 moves (proven)"), "{out}");
    let v = solve_json(&["--game", "former", "...,..."], None);
    assert_eq!(v["length"], 0);
    assert_eq!(v["optimal"], true);
}

#[test]
fn unclearable_clickomania_reports_the_fewest_tiles_left() {
    let rules = Game::Clickomania.rules().unwrap();
    let mut seen = 0;
    let mut rng = Rng::with_seed(99);
    for _ in 0..40 {
        let r = random_board(&mut rng, 4, 3, 3, true);
        if r.is_empty() || bfs_optimum(&r, &rules).is_some() {
            continue;
        }
        seen += 1;
        let (tiles, clicks) = fewest_tiles(&r, &rules);
        assert!(tiles > 0);
        let (code, out, err) = run(&["solve", "--game", "clickomania", &r.inline()], None);
        assert_eq!(code, 0, "{err}");
        let want = format!(
            "optimal: {} left in {} (proven)",
            plural(tiles, "tile"),
            plural(clicks, "move")
        );
        assert!(out.contains(&want), "{}: want {want:?}\n{out}", r.inline());
        if seen == 4 {
            break;
        }
    }
    assert!(seen > 0, "no unclearable board drawn");
}

#[test]
fn unclearable_board_under_fewest_moves_says_so() {
    // Former with groups of 2+: two A tiles that never meet.
    let r = RefBoard::from_inline("A,B,A");
    let args = ["--game", "former", "--min-group", "2", "A,B,A"];
    let mut rules = Game::Former.rules().unwrap();
    rules.min_group = 2;
    assert_eq!(bfs_optimum(&r, &rules), None);
    let (tiles, clicks) = fewest_tiles(&r, &rules);
    let mut all = vec!["solve"];
    all.extend_from_slice(&args);
    let (code, out, err) = run(&all, None);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("cannot be cleared"), "{out}");
    let want = format!(
        "{} left in {}",
        plural(tiles, "tile"),
        plural(clicks, "move")
    );
    assert!(out.contains(&want), "want {want:?}\n{out}");
}
