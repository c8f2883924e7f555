//! `tumble serve` end to end: the real binary on a free port, asked over HTTP. Each
//! endpoint answers as the command line does on the same boards; every error code comes
//! with a JSON error in the command line's words; the limits hold (slots, queue, 429,
//! memory), a client that goes away frees its slot, and malformed bodies never hurt the
//! server.

mod common;

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use common::cli::{assert_error, run};
use common::scratch::Scratch;
use common::server::{Response, Server};

/// The dust board of the seed article (11 moves).
const DUST: &str = "GGGGBOYO,RORGYGBY,RRBGOORG,BRBOBYRG,BRYBBRGG,OYGGRORG";

/// `tumble args`, which must succeed: its stdout.
fn tumble(args: &[&str]) -> String {
    let (code, out, err) = run(args, None);
    assert_eq!(code, 0, "tumble {args:?} failed: {err}");
    out
}

/// `tumble args`, which must fail with one line: that line without its `error: `.
fn tumble_error(args: &[&str]) -> String {
    let (code, _, err) = run(args, None);
    assert_eq!(code, 2, "tumble {args:?} should fail: {err}");
    err.trim_end()
        .strip_prefix("error: ")
        .unwrap_or_else(|| panic!("an error line: {err:?}"))
        .to_string()
}

/// A board printed on several lines, as one line.
fn inline(text: &str) -> String {
    text.trim()
        .lines()
        .map(str::trim)
        .collect::<Vec<_>>()
        .join(",")
}

/// A board of `tumble gen`, one line.
fn gen(args: &[&str]) -> String {
    let mut a = vec!["gen"];
    a.extend_from_slice(args);
    inline(&tumble(&a))
}

/// The boards `tumble check` prints after each move, one line each, and its last line.
fn check_boards(board: &str, game: &str, moves: &str) -> (Vec<String>, String) {
    let (_, out, err) = run(&["check", board, moves, "--game", game], None);
    assert!(err.is_empty(), "tumble check: {err}");
    let mut boards = Vec::new();
    for block in out.split("\n\n") {
        let mut lines = block.lines();
        let first = lines.next().unwrap_or("").trim();
        let numbered = first
            .split_once(". ")
            .is_some_and(|(n, _)| n.parse::<usize>().is_ok());
        if numbered {
            boards.push(lines.map(str::trim).collect::<Vec<_>>().join(","));
        }
    }
    let last = out.trim_end().lines().last().unwrap_or("").to_string();
    (boards, last)
}

/// The moves of an answer in `tumble check`'s syntax.
fn check_moves(moves: &[Value]) -> String {
    moves
        .iter()
        .map(|m| match (m["x"].as_u64(), m["y"].as_u64()) {
            (Some(x), Some(y)) => format!("({x},{y})"),
            _ => m["colour"].as_str().unwrap().to_string(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The moves of an answer as `/api/apply` takes them.
fn apply_moves(moves: &[Value]) -> Vec<Value> {
    moves
        .iter()
        .map(|m| match (m["x"].as_u64(), m["y"].as_u64()) {
            (Some(x), Some(y)) => json!({"x": x, "y": y}),
            _ => m["colour"].clone(),
        })
        .collect()
}

/// Boards that every engine proves in well under a second, as (game, board).
fn quick_boards() -> Vec<(&'static str, String)> {
    vec![
        ("dust", DUST.to_string()),
        ("figure", gen(&["--game", "figure", "--seed", "5"])),
        (
            "former",
            gen(&[
                "--game", "former", "--width", "5", "--height", "4", "--seed", "3",
            ]),
        ),
        (
            "clickomania",
            gen(&[
                "--game",
                "clickomania",
                "--width",
                "5",
                "--height",
                "5",
                "--colours",
                "3",
                "--seed",
                "3",
            ]),
        ),
        (
            "samegame",
            gen(&[
                "--game",
                "samegame",
                "--width",
                "5",
                "--height",
                "4",
                "--colours",
                "3",
                "--seed",
                "4",
            ]),
        ),
        (
            "floodit",
            gen(&[
                "--game",
                "floodit",
                "--width",
                "6",
                "--height",
                "6",
                "--colours",
                "4",
                "--seed",
                "2",
            ]),
        ),
    ]
}

/// A board that keeps a search busy for as long as it is given (no proof in sight).
fn long_board() -> String {
    gen(&["--game", "samegame", "--seed", "1"])
}

/// The body of a long solve.
fn long_solve(seconds: f64) -> Value {
    json!({"game": "samegame", "board": long_board(), "time_limit": seconds})
}

#[test]
fn the_page_and_the_games_are_served() {
    let server = Server::start(&["--jobs", "1"]);
    let mut checked = 0;
    for (path, kind, needle) in [
        ("/", "text/html", "<"),
        ("/app.js", "text/javascript", ""),
        ("/style.css", "text/css", ""),
    ] {
        let r = server.get(path);
        assert_eq!(r.status, 200, "{path}");
        assert!(
            r.header("content-type").unwrap().starts_with(kind),
            "{path}: {:?}",
            r.headers
        );
        assert!(!r.body.is_empty() && r.text().contains(needle), "{path}");
        checked += 1;
    }
    assert_eq!(checked, 3);
    let games = server.get("/api/games").json();
    let games = games.as_array().unwrap();
    let names: Vec<&str> = games.iter().map(|g| g["game"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "former",
            "figure",
            "dust",
            "samegame",
            "clickomania",
            "floodit"
        ]
    );
    for g in games {
        let letters = g["letters"].as_str().unwrap().chars().count();
        assert_eq!(letters, g["colours"].as_u64().unwrap() as usize, "{g}");
        assert_eq!(g["palette"].as_array().unwrap().len(), letters, "{g}");
        for key in ["width", "height", "fixed_size", "objective", "kind"] {
            assert!(!g[key].is_null(), "{key} in {g}");
        }
    }
    assert_eq!(games[0]["letters"], "OPGB");
    assert_eq!(games[5]["kind"], "floodit");
    let status = server.status();
    assert_eq!(status["max_running"], 1);
    assert_eq!(status["max_queued"], 2);
}

/// The fields of an answer that say its board and rules.
const BOARD_AND_RULES: [&str; 7] = [
    "game",
    "board",
    "objective",
    "clickable",
    "min_group",
    "sideways",
    "start",
];

#[test]
fn solve_apply_and_check_agree_with_the_command_line() {
    let server = Server::start(&[]);
    let (mut solved, mut illegal) = (0, 0);
    for (game, board) in quick_boards() {
        let cli: Value =
            serde_json::from_str(&tumble(&["solve", &board, "--game", game, "--json"]))
                .expect("solve --json prints JSON");
        let r = server.post_json(
            "/api/solve",
            &json!({"game": game, "board": board, "time_limit": 30}),
        );
        assert_eq!(r.status, 200, "{game} {board}: {}", r.text());
        let web = r.json();
        for key in cli.as_object().unwrap().keys() {
            assert!(
                web.get(key).is_some(),
                "{game}: {key} missing from the answer"
            );
        }
        for key in [
            "game",
            "board",
            "width",
            "height",
            "objective",
            "length",
            "optimal",
            "tiles_left",
            "score",
        ] {
            assert_eq!(web[key], cli[key], "{game} {board}: {key}");
        }
        assert_eq!(web["optimal"], true, "{game} {board}");
        let moves = web["moves"].as_array().unwrap();
        let boards = web["boards"].as_array().unwrap();
        let removed = web["removed"].as_array().unwrap();
        assert_eq!(moves.len(), web["length"].as_u64().unwrap() as usize);
        assert_eq!((boards.len(), removed.len()), (moves.len(), moves.len()));

        // The answer replays under `tumble check` to the same boards.
        let (check, last) = check_boards(&board, game, &check_moves(moves));
        let boards: Vec<String> = boards
            .iter()
            .map(|b| b.as_str().unwrap().to_string())
            .collect();
        assert_eq!(boards, check, "{game} {board}: boards");
        assert!(!last.starts_with("illegal"), "{last}");

        // Removed cells: the clicked group (its size), or the flood before each move.
        let sizes: Vec<usize> = removed
            .iter()
            .map(|r| r.as_array().unwrap().len())
            .collect();
        if game == "floodit" {
            assert!(
                sizes.windows(2).all(|w| w[0] < w[1]),
                "the flood grows: {sizes:?}"
            );
        } else {
            let steps: Vec<usize> = moves
                .iter()
                .map(|m| m["size"].as_u64().unwrap() as usize)
                .collect();
            assert_eq!(sizes, steps, "{game}: removed cells");
            for (m, cells) in moves.iter().zip(removed) {
                assert!(cells.as_array().unwrap().contains(&json!([m["x"], m["y"]])));
            }
        }

        // `/api/apply` with the same moves: the same boards and removed cells.
        let a = server.post_json(
            "/api/apply",
            &json!({"game": game, "board": board, "moves": apply_moves(moves)}),
        );
        assert_eq!(a.status, 200, "{}", a.text());
        let a = a.json();
        assert_eq!(a["boards"], web["boards"], "{game}: apply boards");
        assert_eq!(a["removed"], web["removed"], "{game}: apply removed");
        assert_eq!(a["tiles_left"], web["tiles_left"], "{game}");
        assert_eq!(
            a["cleared"],
            json!(web["tiles_left"] == 0 || game == "floodit"),
            "{game}"
        );

        // The answer sent back as it came: replayed to the same boards, and drawn as its
        // board, rules and moves alone are.
        let whole = server.post_json("/api/apply", &web);
        assert_eq!(whole.status, 200, "{game}: {}", whole.text());
        assert_eq!(
            whole.json()["boards"],
            web["boards"],
            "{game}: the answer applied"
        );
        let mut steps = json!({"moves": web["moves"]});
        for key in BOARD_AND_RULES {
            if !web[key].is_null() {
                steps[key] = web[key].clone();
            }
        }
        let drawn = server.post_json("/api/render", &web);
        assert_eq!(drawn.status, 200, "{game}: {}", drawn.text());
        assert_eq!(
            drawn.body,
            server.post_json("/api/render", &steps).body,
            "{game}: the answer drawn"
        );

        // One move more is illegal, in the words of `tumble check`.
        let mut more = apply_moves(moves);
        let extra = if game == "floodit" {
            json!(board.chars().next().unwrap().to_string())
        } else {
            json!({"x": 0, "y": 0})
        };
        more.push(extra.clone());
        let cli_extra = match extra.as_str() {
            Some(c) => c.to_string(),
            None => "(0,0)".to_string(),
        };
        let (_, last) = check_boards(&board, game, &format!("{} {cli_extra}", check_moves(moves)));
        if last.starts_with("illegal move") {
            illegal += 1;
            let e = server.post_json(
                "/api/apply",
                &json!({"game": game, "board": board, "moves": more}),
            );
            assert_eq!(e.status, 400, "{}", e.text());
            assert_eq!(e.error(), last, "{game}: the words of tumble check");
            assert_eq!(e.json()["move"], moves.len() + 1);
            // the boards after the legal moves before it
            let boards = e.json()["boards"].as_array().map(Vec::len);
            assert_eq!(boards, Some(moves.len()), "{game}");
        }
        solved += 1;
    }
    assert_eq!(solved, 6);
    assert!(illegal >= 4, "{illegal} illegal moves checked");
}

#[test]
fn generate_former_and_read_agree_with_the_command_line() {
    let server = Server::start(&["--jobs", "1"]);
    let mut checked = 0;
    for (query, args) in [
        (
            "game=samegame&width=6&height=5&colours=3&seed=9",
            vec![
                "--game",
                "samegame",
                "--width",
                "6",
                "--height",
                "5",
                "--colours",
                "3",
                "--seed",
                "9",
            ],
        ),
        (
            "game=former&seed=2",
            vec!["--game", "former", "--seed", "2"],
        ),
        (
            "game=floodit&width=4&height=4&colours=3&seed=1",
            vec![
                "--game",
                "floodit",
                "--width",
                "4",
                "--height",
                "4",
                "--colours",
                "3",
                "--seed",
                "1",
            ],
        ),
    ] {
        let r = server.get(&format!("/api/generate?{query}"));
        assert_eq!(r.status, 200, "{}", r.text());
        assert_eq!(r.json()["board"], gen(&args), "{query}");
        checked += 1;
    }
    let a = server.get("/api/generate?game=dust").json();
    let b = server.get("/api/generate?game=dust").json();
    assert_ne!(a["seed"], b["seed"], "no seed: a fresh one each time");

    for date in ["2024-11-23", "2024-12-07", "2025-06-30", "today"] {
        let r = server.get(&format!("/api/former/{date}"));
        assert_eq!(r.status, 200, "{}", r.text());
        let v = r.json();
        assert_eq!(v["board"], gen(&["--date", date]), "{date}");
        let d = v["date"].as_str().unwrap();
        assert!(date == "today" || d == date, "{d}");
        assert_eq!(d.len(), 10);
        checked += 1;
    }
    // a solve of a day's board by its date, as `tumble solve --date` does
    let r = server.post_json(
        "/api/solve",
        &serde_json::json!({"date": "2024-12-07", "time_limit": 30}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let v = r.json();
    let cli: Value =
        serde_json::from_str(&tumble(&["solve", "--date", "2024-12-07", "--json"])).unwrap();
    assert_eq!(v["board"], gen(&["--date", "2024-12-07"]));
    assert_eq!(
        (&v["game"], &v["optimal"]),
        (&cli["game"], &Value::Bool(true))
    );
    assert_eq!(v["length"], cli["length"]);
    checked += 1;
    for date in ["2024-13-01", "1999-01-01", "yesterday"] {
        let r = server.get(&format!("/api/former/{date}"));
        assert_eq!(r.status, 400, "{date}");
        assert_eq!(r.error(), tumble_error(&["gen", "--date", date]), "{date}");
        checked += 1;
    }

    let scratch = Scratch::new("generate_former_and_read_agree_with_the_command_line");
    let dir = scratch.dir();
    let former = gen(&["--date", "2024-12-07"]);
    for (game, board, query) in [
        ("former", former.as_str(), "game=former"),
        ("dust", DUST, "game=dust"),
        (
            "samegame",
            "ABCAB,BCABC,CABCA,ABCAB",
            "game=samegame&width=5&height=4&colours=3",
        ),
    ] {
        let png = dir.join(format!("{game}.png"));
        let png = png.to_str().unwrap();
        tumble(&["render", board, "--game", game, "-o", png]);
        let mut args = vec!["read", png];
        for pair in query.split('&') {
            let (k, v) = pair.split_once('=').unwrap();
            args.push(match k {
                "game" => "--game",
                "width" => "--width",
                "height" => "--height",
                _ => "--colours",
            });
            args.push(v);
        }
        let cli = inline(&tumble(&args));
        let bytes = std::fs::read(png).unwrap();
        let r = server.request(
            "POST",
            &format!("/api/read?{query}"),
            &[("Content-Type", "image/png")],
            &bytes,
        );
        assert_eq!(r.status, 200, "{}", r.text());
        let v = r.json();
        assert_eq!(v["board"], cli, "{game}");
        assert_eq!(v["game"], game);
        checked += 1;
    }
    let junk = dir.join("junk.png");
    std::fs::write(&junk, b"not a picture at all").unwrap();
    let r = server.request("POST", "/api/read?game=dust", &[], b"not a picture at all");
    assert_eq!(r.status, 400);
    let cli = tumble_error(&["read", junk.to_str().unwrap(), "--game", "dust"]);
    assert!(cli.ends_with(&r.error()), "{cli:?} vs {:?}", r.error());
    assert_eq!(checked, 3 + 4 + 1 + 3 + 3);
}

/// `/api/render` draws what `tumble render` and `tumble solve --render` draw, byte for byte;
/// a long answer of big boards gets smaller tiles in both, within 16 million pixels.
#[test]
fn render_draws_the_pictures_of_the_command_line() {
    let server = Server::start(&["--jobs", "1"]);
    let scratch = Scratch::new("render_draws_the_pictures_of_the_command_line");
    let dir = scratch.dir();
    let file = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let mut checked = 0;
    // the board alone, PNG and SVG
    for (format, name) in [("png", "board.png"), ("svg", "board.svg")] {
        tumble(&["render", DUST, "--game", "dust", "-o", &file(name)]);
        let r = server.post_json(
            "/api/render",
            &serde_json::json!({"game": "dust", "board": DUST, "format": format}),
        );
        assert_eq!(r.status, 200, "{}", r.text());
        let want = if format == "png" {
            "image/png"
        } else {
            "image/svg+xml"
        };
        assert_eq!(r.header("content-type"), Some(want));
        assert!(
            r.body == std::fs::read(file(name)).unwrap(),
            "{format}: not tumble render's"
        );
        checked += 1;
    }
    // an answer's steps, as `solve --render` draws them (Flood-It's moves are colours)
    for (game, board) in [
        ("dust", DUST.to_string()),
        ("floodit", "ABC,BCA,CAB".to_string()),
    ] {
        let steps = file(&format!("{game}-steps.png"));
        let answer: Value = serde_json::from_str(&tumble(&[
            "solve", "--game", game, &board, "--json", "--render", &steps,
        ]))
        .unwrap();
        let r = server.post_json(
            "/api/render",
            &serde_json::json!({"game": game, "board": board, "moves": answer["moves"]}),
        );
        assert_eq!(r.status, 200, "{}", r.text());
        assert!(
            r.body == std::fs::read(&steps).unwrap(),
            "{game}: not solve --render's"
        );
        checked += 1;
    }
    // a long answer on a 15×15 board: smaller tiles, at most 16 million pixels, as
    // `solve --render` draws it too; at the default tile it would be larger
    let board = gen(&["--game", "samegame", "--seed", "3"]);
    let steps = file("samegame-steps.png");
    let answer = tumble(&[
        "solve",
        "--game",
        "samegame",
        &board,
        "--json",
        "--no-proof",
        "--time-limit",
        "1",
        "--render",
        &steps,
    ]);
    let moves: Value = serde_json::from_str::<Value>(&answer).unwrap()["moves"].clone();
    assert!(moves.as_array().unwrap().len() >= 30, "{moves}");
    let r = server.post_json(
        "/api/render",
        &serde_json::json!({"game": "samegame", "board": board, "moves": moves}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    assert!(
        r.body == std::fs::read(&steps).unwrap(),
        "not solve --render's"
    );
    let pixels = |img: image::DynamicImage| u64::from(img.width()) * u64::from(img.height());
    assert!(pixels(image::load_from_memory(&r.body).unwrap()) <= 16 << 20);
    let json = file("samegame.json");
    std::fs::write(&json, &answer).unwrap();
    let big = file("samegame-48.png");
    tumble(&[
        "render", "--game", "samegame", &board, "--moves", &json, "--tile", "48", "-o", &big,
    ]);
    assert!(pixels(image::open(&big).unwrap()) > 16 << 20);
    checked += 1;
    // refused: an illegal move (named), a format, a field
    let r = server.post_json(
        "/api/render",
        &serde_json::json!({"game": "dust", "board": DUST, "moves": [{"x": 7, "y": 7}]}),
    );
    assert_eq!(r.status, 400);
    assert_eq!(r.json()["move"], 1);
    assert_eq!(
        r.json()["boards"],
        serde_json::json!([]),
        "as /api/apply names it"
    );
    assert!(r.error().contains("outside the 8×6 board"), "{}", r.error());
    for (body, words) in [
        (
            serde_json::json!({"date": "today", "format": "gif"}),
            "possible values: png, svg",
        ),
        (
            serde_json::json!({"date": "today", "tile": 8}),
            "unknown field \"tile\"",
        ),
    ] {
        let r = server.post_json("/api/render", &body);
        assert_eq!(r.status, 400);
        assert!(r.error().contains(words), "{}", r.error());
        checked += 1;
    }
    assert_eq!(checked, 2 + 2 + 1 + 2);
}

#[test]
fn events_come_in_order_and_end_with_the_answer() {
    let server = Server::start(&["--jobs", "1"]);
    let mut events = server.events("/api/solve", &json!({"game": "dust", "board": DUST}));
    assert_eq!(events.status, 200);
    let kind = events
        .headers
        .iter()
        .find(|(k, _)| k == "content-type")
        .unwrap();
    assert!(kind.1.starts_with("text/event-stream"));
    let mut names = Vec::new();
    let mut done = None;
    while let Some(e) = events.next() {
        assert!(done.is_none(), "nothing after done: {e:?}");
        match e.name.as_str() {
            "started" => assert!(e.data["id"].as_str().is_some_and(|s| !s.is_empty())),
            "solution" => {
                for key in ["length", "elapsed_ms", "tiles_left", "score"] {
                    assert!(e.data[key].is_number(), "{key} in {}", e.data);
                }
            }
            "bound" => {
                assert!(e.data["lower_bound"].is_number() && e.data["elapsed_ms"].is_number())
            }
            "done" => done = Some(e.data.clone()),
            other => panic!("unexpected event {other}: {}", e.data),
        }
        names.push(e.name);
    }
    assert_eq!(names[0], "started");
    assert_eq!(names.last().map(String::as_str), Some("done"));
    let solutions: Vec<&String> = names.iter().filter(|n| *n == "solution").collect();
    assert!(!solutions.is_empty(), "{names:?}");
    let done = done.unwrap();
    assert_eq!(
        (done["length"].clone(), done["optimal"].clone()),
        (json!(11), json!(true))
    );
    assert_eq!(done["boards"].as_array().unwrap().len(), 11);
    assert_eq!(done["removed"].as_array().unwrap().len(), 11);
    server.wait_for(0, 0, Duration::from_secs(5));
}

#[test]
fn stop_ends_a_solve_with_its_best_so_far() {
    let server = Server::start(&["--jobs", "1"]);
    let mut events = server.events("/api/solve", &long_solve(60.0));
    assert_eq!(events.status, 200);
    let started = events.next().unwrap();
    assert_eq!(started.name, "started");
    let id = started.data["id"].as_str().unwrap().to_string();
    let first = events.next().unwrap();
    assert_eq!(first.name, "solution", "{first:?}");
    let r = server.request("POST", &format!("/api/solve/{id}/stop"), &[], b"");
    assert_eq!(r.status, 204);
    let stopped = Instant::now();
    let done = loop {
        let e = events.next().expect("the stream ends with done");
        if e.name == "done" {
            break e.data;
        }
    };
    assert!(
        stopped.elapsed() < Duration::from_secs(5),
        "{:?}",
        stopped.elapsed()
    );
    assert_eq!(done["stopped"], "interrupted");
    assert_eq!(done["optimal"], false);
    assert!(done["length"].as_u64().unwrap() > 0);
    assert!(events.next().is_none());
    let again = server.request("POST", &format!("/api/solve/{id}/stop"), &[], b"");
    assert_eq!(again.status, 404);
    assert!(again.error().contains(&id));
    assert_eq!(
        server
            .request("POST", "/api/solve/nope/stop", &[], b"")
            .status,
        404
    );
    server.wait_for(0, 0, Duration::from_secs(5));
}

/// Asserts a JSON error of `status`; returns its words.
fn assert_status(r: &Response, status: u16) -> String {
    assert_eq!(r.status, status, "{}", r.text());
    assert!(
        r.header("content-type")
            .unwrap()
            .starts_with("application/json"),
        "{:?}",
        r.headers
    );
    r.error()
}

#[test]
fn every_error_has_its_code_and_the_command_lines_words() {
    let server = Server::start(&["--jobs", "1"]);
    let mut codes = Vec::new();

    // 400: a bad board, as `tumble solve` says it (also when events were asked for).
    for board in ["GGGG,GG", "AB,BA,.A", ""] {
        let words = tumble_error(&["solve", board, "--game", "dust"]);
        let body = json!({"game": "dust", "board": board});
        assert_eq!(
            assert_status(&server.post_json("/api/solve", &body), 400),
            words
        );
        let events = server.events("/api/solve", &body);
        assert_eq!(
            events.status, 400,
            "a bad board is refused before any stream"
        );
        codes.push(400);
    }
    // 400: an illegal move.
    let r = server.post_json(
        "/api/apply",
        &json!({"game": "dust", "board": DUST, "moves": [{"x": 3, "y": 1}, {"x": 9, "y": 0}]}),
    );
    let (_, last) = check_boards(DUST, "dust", "(3,1) (9,0)");
    assert_eq!(assert_status(&r, 400), last);
    codes.push(400);
    // 400: a misspelt field or parameter is named, not taken for an absent one; an
    // option's check names the API's field.
    let body = json!({"game": "dust", "board": DUST, "timelimit": 5});
    assert!(assert_status(&server.post_json("/api/solve", &body), 400)
        .starts_with("unknown field \"timelimit\" in the body of /api/solve (its fields: "));
    assert!(
        assert_status(&server.get("/api/generate?game=dust&sede=3"), 400)
            .starts_with("unknown parameter \"sede\" in the query of /api/generate")
    );
    let body = json!({"game": "dust", "board": DUST, "time_limit": -1});
    assert_eq!(
        assert_status(&server.post_json("/api/solve", &body), 400),
        "\"time_limit\" must be a number of seconds ≥ 0, not -1"
    );
    codes.extend([400, 400, 400]);
    // 400: a bad date; a bad image.
    assert!(assert_status(&server.get("/api/former/2024-02-30"), 400).contains("2024-02-30"));
    assert!(assert_status(
        &server.request("POST", "/api/read", &[], &[0x89, b'P', b'N', b'G']),
        400
    )
    .contains("not a readable image"));
    codes.extend([400, 400]);

    // 404, 405.
    assert_eq!(assert_status(&server.get("/x"), 404), "not found: /x");
    assert_eq!(
        assert_status(&server.get("/api/nothing/here"), 404),
        "not found: /api/nothing/here"
    );
    let r = server.get("/api/solve");
    assert!(assert_status(&r, 405).contains("GET"));
    assert_eq!(r.header("allow"), Some("POST"));
    assert_status(&server.request("PUT", "/api/games", &[], b""), 405);
    codes.extend([404, 404, 405, 405]);

    // 413: a body over 10 MiB is refused from its length, before it is sent.
    let r = server.request(
        "POST",
        "/api/solve",
        &[
            ("Content-Length", &(11 << 20).to_string()),
            ("Expect", "100-continue"),
        ],
        b"",
    );
    assert!(assert_status(&r, 413).contains("10 MiB"));
    codes.push(413);

    // 429: one slot and two places in the queue, all taken by long solves.
    let mut streams = Vec::new();
    for _ in 0..3 {
        let mut s = server.events("/api/solve", &long_solve(60.0));
        assert_eq!(s.status, 200);
        assert_eq!(s.next().unwrap().name, "started");
        streams.push(s);
    }
    server.wait_for(1, 2, Duration::from_secs(10));
    let r = server.post_json("/api/solve", &long_solve(1.0));
    assert!(assert_status(&r, 429).contains("busy"));
    assert_eq!(r.header("retry-after"), Some("2"));
    codes.push(429);
    drop(streams);
    server.wait_for(0, 0, Duration::from_secs(10));
    assert_eq!(
        codes,
        [400, 400, 400, 400, 400, 400, 400, 400, 400, 404, 404, 405, 405, 413, 429]
    );
}

#[test]
fn forty_solves_at_once_get_an_answer_or_429_within_bounded_memory() {
    let mut server = Server::start(&["--jobs", "2", "--max-time", "2"]);
    // SameGame boards (the anytime search alone) and Former boards of January 2025 (IDA*
    // and its table beside it), alternating.
    let boards: Vec<(&str, String)> = (0..40)
        .map(|i| {
            if i % 2 == 0 {
                let seed = (100 + i).to_string();
                ("samegame", gen(&["--game", "samegame", "--seed", &seed]))
            } else {
                let date = format!("2025-01-{:02}", 1 + i / 2);
                ("former", gen(&["--date", &date]))
            }
        })
        .collect();
    let answers: Vec<(u16, Value)> = std::thread::scope(|scope| {
        let handles: Vec<_> = boards
            .iter()
            .map(|(game, board)| {
                let server = &server;
                scope.spawn(move || {
                    let r = server.post_json(
                        "/api/solve",
                        &json!({"game": game, "board": board, "time_limit": 30}),
                    );
                    (r.status, r.json())
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let ok = answers.iter().filter(|(s, _)| *s == 200).count();
    let busy = answers.iter().filter(|(s, _)| *s == 429).count();
    assert_eq!(
        ok + busy,
        40,
        "only 200 or 429: {:?}",
        answers.iter().map(|a| a.0).collect::<Vec<_>>()
    );
    // All 40 arrive before the first solve ends: 2 run and 4 wait, the rest are refused.
    assert!(ok >= 6, "{ok} answered");
    assert!(busy >= 1, "{busy} refused");
    for (status, v) in &answers {
        if *status == 200 {
            assert!(v["length"].as_u64().unwrap() > 0);
            assert!(
                v["optimal"] == true || v["stopped"] == "time",
                "--max-time caps the 30 s asked for: {v}"
            );
        } else {
            assert!(v["error"].as_str().unwrap().contains("busy"));
        }
    }
    assert!(server.alive());
    server.wait_for(0, 0, Duration::from_secs(10));
    let peak = server.peak_rss_kib();
    assert!(peak < 1 << 20, "peak RSS {peak} KiB, over 1 GiB");
    eprintln!(
        "40 solves: {ok} answered, {busy} refused, peak RSS {} MiB",
        peak >> 10
    );
}

#[test]
fn a_client_that_goes_away_frees_its_slot() {
    let server = Server::start(&["--jobs", "1"]);
    let body = long_solve(60.0).to_string();
    let mut freed = 0;
    // JSON: the connection closes while the solve runs.
    let mut s = server.connect();
    common::server::send(&mut s, "POST", "/api/solve", &[], body.as_bytes());
    server.wait_for(1, 0, Duration::from_secs(10));
    drop(s);
    let took = server.wait_for(0, 0, Duration::from_secs(3));
    eprintln!("JSON client gone: slot free after {took:?}");
    freed += 1;
    // Events: the stream closes while the solve runs.
    let mut events = server.events("/api/solve", &long_solve(60.0));
    assert_eq!(events.next().unwrap().name, "started");
    server.wait_for(1, 0, Duration::from_secs(10));
    drop(events);
    let took = server.wait_for(0, 0, Duration::from_secs(3));
    eprintln!("event client gone: slot free after {took:?}");
    freed += 1;
    // A client waiting in the queue gives its place back.
    let running = server.events("/api/solve", &long_solve(60.0));
    server.wait_for(1, 0, Duration::from_secs(10));
    let mut waiting = server.connect();
    common::server::send(&mut waiting, "POST", "/api/solve", &[], body.as_bytes());
    server.wait_for(1, 1, Duration::from_secs(10));
    drop(waiting);
    server.wait_for(1, 0, Duration::from_secs(3));
    drop(running);
    server.wait_for(0, 0, Duration::from_secs(3));
    freed += 1;
    assert_eq!(freed, 3);
}

/// A valid body of `/api/solve` or `/api/apply` that each malformed one is made from.
fn valid_bodies() -> [(&'static str, Value); 2] {
    [
        (
            "/api/solve",
            json!({"game": "dust", "board": DUST, "time_limit": 1, "start": null, "no_proof": false}),
        ),
        (
            "/api/apply",
            json!({"game": "dust", "board": DUST, "moves": [{"x": 3, "y": 1}, {"x": 5, "y": 0}]}),
        ),
    ]
}

#[test]
fn malformed_bodies_get_a_json_4xx_and_the_server_stays_up() {
    let mut server = Server::start(&["--jobs", "1", "--max-time", "1"]);
    let mut rng = fastrand::Rng::with_seed(22);
    let mut cases: Vec<(&str, &str, Vec<u8>)> = Vec::new();
    for (path, body) in valid_bodies() {
        let text = body.to_string();
        // Truncations: every prefix of a JSON object is not one.
        for _ in 0..40 {
            let cut = rng.usize(0..text.len());
            cases.push(("truncated", path, text.as_bytes()[..cut].to_vec()));
        }
        // Wrong types in each field of the endpoint (a value of the right type may be
        // valid, so it is left out; "" is no valid game, board, rule or start on dust).
        let keys: &[&str] = if path == "/api/solve" {
            &[
                "game",
                "board",
                "time_limit",
                "min_group",
                "clickable",
                "start",
                "no_proof",
            ]
        } else {
            &["game", "board", "moves", "min_group", "sideways", "start"]
        };
        for &key in keys {
            for wrong in [
                json!(7),
                json!([1, 2]),
                json!({"a": 1}),
                json!(true),
                json!(""),
            ] {
                let numeric = matches!(key, "time_limit" | "min_group");
                if (numeric && wrong.is_number()) || (key == "no_proof" && wrong.is_boolean()) {
                    continue;
                }
                let mut b = body.clone();
                b[key] = wrong;
                cases.push(("wrong type", path, b.to_string().into_bytes()));
            }
        }
        // Huge and negative numbers.
        let numbers: &[(&str, &str)] = if path == "/api/solve" {
            &[
                ("time_limit", "-1e308"),
                ("time_limit", "1e400"),
                ("time_limit", "-0.5"),
                ("min_group", "18446744073709551616"),
                ("min_group", "-3"),
                ("min_group", "0"),
            ]
        } else {
            &[
                ("moves", r#"[{"x":18446744073709551616,"y":0}]"#),
                ("moves", r#"[{"x":1e400,"y":0}]"#),
                ("moves", r#"[{"x":3,"y":-1}]"#),
                ("moves", r#"[{"x":3.5,"y":0}]"#),
                ("min_group", "18446744073709551616"),
                ("min_group", "0"),
            ]
        };
        for &(key, n) in numbers {
            let mut rest = body.clone();
            rest.as_object_mut().unwrap().remove(key);
            let b = rest
                .to_string()
                .replacen('{', &format!("{{\"{key}\":{n},"), 1);
            cases.push(("huge number", path, b.into_bytes()));
        }
        // Random bytes, and random bytes inside the JSON.
        for _ in 0..40 {
            let n = rng.usize(0..200);
            cases.push(("random bytes", path, (0..n).map(|_| rng.u8(..)).collect()));
            let mut b = text.clone().into_bytes();
            let at = rng.usize(0..b.len());
            b[at] = rng.u8(..);
            if serde_json::from_slice::<Value>(&b).is_err() {
                cases.push(("random bytes", path, b));
            }
        }
        // Bad boards: ragged, floating, too many colours, too big, empty.
        let bad_boards = [
            "".to_string(),
            "AB,A".to_string(),
            "A.,AB,.B".to_string(),
            "ABCDEFGHIJKLMNOPQ".to_string(),
            vec!["AB".repeat(15); 30].join(","),
            "# only a comment".to_string(),
        ];
        for board in &bad_boards {
            let mut b = body.clone();
            b["board"] = json!(board);
            cases.push(("bad board", path, b.to_string().into_bytes()));
        }
        for _ in 0..20 {
            // Rows of different lengths: always ragged.
            let rows = rng.usize(2..6);
            let board: Vec<String> = (0..rows)
                .map(|r| {
                    (0..r + 2)
                        .map(|_| ['A', 'B', '.'][rng.usize(0..3)])
                        .collect()
                })
                .collect();
            let mut b = body.clone();
            b["board"] = json!(board.join(","));
            cases.push(("bad board", path, b.to_string().into_bytes()));
        }
    }
    // Illegal moves.
    for _ in 0..30 {
        let moves: Vec<Value> = (0..rng.usize(1..4))
            .map(|_| json!({"x": rng.usize(0..40) + 8, "y": rng.usize(0..10)}))
            .collect();
        let body = json!({"game": "dust", "board": DUST, "moves": moves});
        cases.push(("illegal move", "/api/apply", body.to_string().into_bytes()));
    }

    let mut counts = std::collections::BTreeMap::new();
    for (kind, path, body) in &cases {
        let r = server.request("POST", path, &[("Content-Type", "application/json")], body);
        assert!(
            (400..500).contains(&r.status),
            "{kind} {path} {:?}: status {} {}",
            String::from_utf8_lossy(body),
            r.status,
            String::from_utf8_lossy(&r.body)
        );
        let e = r.error();
        assert!(!e.is_empty() && !e.contains('\n'), "one line: {e:?}");
        *counts.entry(*kind).or_insert(0) += 1;
    }
    // Queries too: bad numbers and games for generate and read.
    for q in [
        "game=nope",
        "game=former&width=x",
        "game=former&width=0",
        "game=former&colours=99",
        "game=former&seed=-1",
        "game=samegame&width=40&height=40",
        "",
        "game=%ff%fe",
    ] {
        let r = server.get(&format!("/api/generate?{q}"));
        assert_eq!(r.status, 400, "{q}: {}", r.text());
        *counts.entry("bad query").or_insert(0) += 1;
    }
    eprintln!("malformed requests: {counts:?}");
    let total: usize = counts.values().sum();
    assert_eq!(total, cases.len() + 8);
    assert!(total >= 300, "{total} cases");
    for kind in [
        "truncated",
        "wrong type",
        "huge number",
        "random bytes",
        "bad board",
        "illegal move",
        "bad query",
    ] {
        assert!(
            counts.get(kind).copied().unwrap_or(0) >= 5,
            "{kind}: {counts:?}"
        );
    }
    assert!(server.alive());
    assert_eq!(server.get("/api/games").status, 200);
    server.wait_for(0, 0, Duration::from_secs(5));
}

#[test]
fn bad_serve_options_are_one_line_errors() {
    let mut checked = 0;
    for (args, needle) in [
        (&["serve", "--jobs", "0"][..], "--jobs"),
        (
            &["serve", "--jobs", "100000"],
            "--jobs 100000 is more than this machine can use",
        ),
        (&["serve", "--max-time", "0"], "--max-time"),
        (&["serve", "--max-time", "nan"], "--max-time"),
        (&["serve", "--port", "70000"], "--port"),
        (&["serve", "--bind", "nowhere"], "--bind"),
    ] {
        assert_error(args, None, &[needle]);
        checked += 1;
    }
    let server = Server::start(&["--jobs", "1"]);
    let port = server.addr.rsplit(':').next().unwrap();
    assert_error(&["serve", "--port", port], None, &["cannot listen", port]);
    assert_eq!(checked + 1, 7);
}
