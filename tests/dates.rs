//! NRK Former's boards by date on the command line: `gen --date`, `solve --date`,
//! `check --date` and `bench --dates`, against the library's generator and the proven
//! optima kept as figures in `tests/common/data.rs`.

mod common;

use serde_json::Value;

use common::data::FORMER_OPTIMA;
use tumble::daily::{former_board, Date};

fn tumble(args: &[&str]) -> (i32, String, String) {
    common::cli::run(args, None)
}

fn board_of(date: &str) -> String {
    let day: Date = date.parse().expect("a date");
    former_board(day).expect("a generated day").to_text()
}

#[test]
fn gen_prints_the_generators_board_of_each_day() {
    let mut days = 0;
    for (date, _) in FORMER_OPTIMA {
        let (code, out, err) = tumble(&["gen", "--date", date]);
        assert_eq!(code, 0, "{err}");
        assert_eq!(out.trim_end(), board_of(date).trim_end(), "{date}");
        days += 1;
    }
    assert_eq!(days, FORMER_OPTIMA.len());
}

#[test]
fn solve_by_date_proves_the_known_optimum() {
    let (date, optimum) = ("2024-12-07", 15);
    assert!(FORMER_OPTIMA.contains(&(date, optimum)));
    let (code, out, err) = tumble(&["solve", "--date", date, "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).expect("one JSON object");
    assert_eq!(v["game"], "former");
    assert_eq!(v["optimal"], true);
    assert_eq!(v["length"], optimum);
    assert_eq!(
        v["board"].as_str().unwrap().replace(',', "\n"),
        board_of(date).trim_end()
    );
}

#[test]
fn check_by_date_replays_on_that_days_board() {
    let date = "2024-11-24";
    let (code, out, err) = tumble(&["solve", "--date", date, "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let moves: Vec<String> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| format!("({},{})", m["x"], m["y"]))
        .collect();
    assert_eq!(moves.len(), 13);
    let (code, out, err) = tumble(&["check", "--date", date, &moves.join(" ")]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("cleared in 13 moves"), "{out}");
}

#[test]
fn bench_runs_a_range_of_days_named_by_date() {
    let (code, out, err) = tumble(&[
        "bench",
        "--dates",
        "2024-11-23..=2024-11-26",
        "--time-limit",
        "30",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let rows = v["boards"].as_array().unwrap();
    let names: Vec<&str> = rows.iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        ["2024-11-23", "2024-11-24", "2024-11-25", "2024-11-26"]
    );
    for r in rows {
        let name = r["name"].as_str().unwrap();
        let known = FORMER_OPTIMA.iter().find(|(d, _)| *d == name).unwrap().1;
        assert_eq!(r["optimal"], true, "{name}");
        assert_eq!(r["length"], known, "{name}");
    }
}

#[test]
fn bad_dates_are_one_line_errors_with_exit_code_2() {
    let cases: [(&[&str], &str); 6] = [
        (&["gen", "--date", "2024-11-22"], "NRK's server"),
        (&["gen", "--date", "2025-02-30"], "2025-02-30"),
        (&["solve", "--date", "yesterday"], "YYYY-MM-DD"),
        (&["solve", "--date", "2024-12-07", "--game", "dust"], "dust"),
        (
            &["bench", "--dates", "2024-12-01.2024-12-03"],
            "2024-12-01.2024-12-03",
        ),
        (
            &["check", "--date", "2024-12-07", "AB,BA", "(0,0)"],
            "not both",
        ),
    ];
    let mut checked = 0;
    for (args, needle) in cases {
        common::cli::assert_error(args, None, &[needle]);
        checked += 1;
    }
    assert_eq!(checked, 6);
}
