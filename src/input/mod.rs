//! From what a user typed to a [`Setup`](crate::solve::Setup): reading a board argument (a
//! file, `-` for stdin, the board itself, or a screenshot: `argument`), working out the
//! game (named, from a `game|board` line, or from the board's size) and setting the board
//! up under the rules chosen (`setup`), the search choices and the limits on threads
//! (`choices`), the moves to replay (`moves`), and the boards tumble makes (`gen`'s, and a
//! date's: `boards`). Every mistake is an [`InputError`] of one line.

mod argument;
mod boards;
mod choices;
mod moves;
mod setup;

use std::num::ParseIntError;

use thiserror::Error;

use crate::daily::DailyError;
use crate::grid::BoardError;
use crate::rules::Game;

pub use argument::{read_board_text, read_capped, read_image_board, MAX_INPUT_BYTES};
pub use boards::{dated_board, dated_entries, gen_board, gen_entries, seed_range, MAX_GEN_BOARDS};
pub use choices::{check_jobs, SearchChoices, THREADS_PER_CORE};
pub use moves::{moves_text, parse_clicks, replay_input};
pub use setup::{game_from_size, game_of, parse_start, setup_from, BoardFrom, Prepared};

/// Why an input was rejected (one line, naming the argument at fault).
#[derive(Debug, Error)]
pub enum InputError {
    #[error(transparent)]
    Board(#[from] BoardError),
    #[error("cannot read the {what} from stdin: {err}")]
    Stdin {
        what: &'static str,
        err: std::io::Error,
    },
    #[error("cannot read {what} file {path}: {err}")]
    File {
        what: &'static str,
        path: String,
        err: std::io::Error,
    },
    #[error("cannot read {what} file {path}: no such file")]
    NoSuchFile { what: &'static str, path: String },
    #[error("cannot read {what} file {path}: it is a directory")]
    Directory { what: &'static str, path: String },
    #[error("cannot read board file {0}: it is a picture (`tumble solve --image` reads one)")]
    PictureAsBoard(String),
    #[error(
        "cannot read the board from stdin: it is a picture (`tumble solve --image -` reads one)"
    )]
    PictureOnStdin,
    #[error("a {width}×{height} board is not the usual size of any game: say which with --game")]
    UnknownSize { width: usize, height: usize },
    #[error("--start is for Flood-It only")]
    StartNotFloodit,
    #[error("--start must be topleft, centre or X,Y, not {0:?}")]
    BadStart(String),
    #[error("bad --start {axis} {text:?}: {err}")]
    BadStartNumber {
        axis: char,
        text: String,
        err: ParseIntError,
    },
    #[error("--start {x},{y} is outside the {width}×{height} board")]
    StartOutside {
        x: usize,
        y: usize,
        width: usize,
        height: usize,
    },
    #[error("--min-group must be at least 1")]
    MinGroupZero,
    #[error("--time-limit must be a number of seconds ≥ 0, not {0}")]
    BadTimeLimit(f64),
    #[error("--memory must be at least 1 MiB")]
    NoMemory,
    #[error(
        "--memory {asked} MiB is more than this machine has ({machine} MiB of memory and swap)"
    )]
    TooMuchMemory { asked: usize, machine: usize },
    #[error("--threads must be at least 1")]
    NoThreads,
    #[error(
        "--threads {asked} is more than this machine can use: it has {cores} cores, and a \
         search runs at most {THREADS_PER_CORE} threads per core ({most} in all)",
        most = THREADS_PER_CORE * cores
    )]
    TooManyThreads { asked: usize, cores: usize },
    #[error("--jobs must be at least 1")]
    NoJobs,
    #[error(
        "--jobs {asked} is more than this machine can use: it has {cores} cores, and at most \
         {THREADS_PER_CORE} solves per core run at once ({most} in all)",
        most = THREADS_PER_CORE * cores
    )]
    TooManyJobs { asked: usize, cores: usize },
    #[error("move {n} {text:?} is not (x,y)")]
    NotAClick { n: usize, text: String },
    #[error("move {n}: bad {axis} {text:?}")]
    BadClick { n: usize, axis: char, text: String },
    #[error("--width and --height must be at least 1")]
    GenEmpty,
    #[error("--colours must be from 1 to 16, not {0}")]
    GenColours(usize),
    #[error("--seeds must be A..B, A..=B or one seed A (whole numbers), not {0:?}")]
    BadSeeds(String),
    #[error("--seeds {0} holds no seed")]
    NoSeeds(String),
    #[error("--seeds {text} holds {count} seeds; at most {max} boards at once", max = MAX_GEN_BOARDS)]
    TooManySeeds { text: String, count: u128 },
    #[error("bad JSON moves: {0}")]
    MovesJson(String),
    #[error(
        "the moves are solve --json's answer for {0}: give that board, or this board's answer"
    )]
    AnswerElsewhere(String),
    #[error(
        "the moves are solve --json's answer under {option} {theirs}, not {ours}: leave \
         {option} out to replay them under the answer's"
    )]
    AnswerRules {
        option: &'static str,
        theirs: String,
        ours: String,
    },
    #[error(
        "the moves do not hold their board: give the board (or --date) too; only solve \
         --json's answer holds its own"
    )]
    MovesWithoutBoard,
    #[error("the board is JSON but not solve --json's answer: {0}")]
    BoardJson(String),
    #[error("give the board and the moves from stdin one at a time: both are -")]
    BothStdin,
    #[error("the board's line names {named}, but --game says {chosen}: leave out one of them")]
    GameConflict { named: Game, chosen: Game },
    #[error("{0}: no boards found")]
    NoBoards(String),
    #[error("--dates {0} holds no day: A..B ends the day before B, so B must come after A (A..=B ends on B)")]
    NoDays(String),
    #[error("board {name}: {err}")]
    InBoard { name: String, err: Box<InputError> },
    #[error("{0}")]
    Threads(rayon::ThreadPoolBuildError),
    #[error(transparent)]
    Daily(#[from] DailyError),
    #[error(
        "--date gives NRK Former boards, not {0} boards: leave out --game or say --game former"
    )]
    DateNotFormer(Game),
    #[error("give a board or --date, not both")]
    BoardAndDate,
    #[error("cannot read image {path}: {err}")]
    Image { path: String, err: std::io::Error },
    #[error("{path}: {err}")]
    Picture {
        path: String,
        err: crate::picture::PictureError,
    },
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::rules::RuleChoices;
    use crate::rules::Sideways;
    use crate::search::anytime::Method;
    use std::time::Duration;

    #[test]
    fn gen_makes_a_board_exactly_where_an_engine_takes_it() {
        let mut checked = [0; 2];
        for game in [Game::Samegame, Game::Former, Game::Floodit] {
            for (w, h) in [
                (22, 23),
                (23, 23),
                (64, 8),
                (65, 1),
                (8, 64),
                (1, 65),
                (32, 32),
                (33, 31),
                (33, 32),
            ] {
                let (_, _, k) = game.default_size();
                let grid = crate::generate::generate(w, h, k, 1);
                let engine = if game == Game::Floodit {
                    crate::floodit::replay(&grid, (0, 0), &[]).map(|_| ())
                } else {
                    let rules = game.rules().expect("a click game");
                    crate::solve::replay(&grid, rules, &[]).map(|_| ())
                };
                match (gen_board(game, Some(w), Some(h), None, 1), engine) {
                    (Ok(made), Ok(())) => {
                        assert_eq!(made, grid, "{game:?} {w}×{h}");
                        checked[0] += 1;
                    }
                    (Err(made), Err(engine)) => {
                        assert_eq!(made.to_string(), engine.to_string(), "{game:?} {w}×{h}");
                        checked[1] += 1;
                    }
                    (made, engine) => panic!("{game:?} {w}×{h}: gen {made:?}, engine {engine:?}"),
                }
            }
        }
        // made and refused, by each engine's limits
        assert_eq!(checked, [14, 13]);
    }

    #[test]
    fn seed_ranges_are_rusts_ranges_and_bounded() {
        let max = u64::MAX;
        let mut cases = 0;
        for (text, range) in [
            ("3..6", Some(3..=5)),
            ("3..=6", Some(3..=6)),
            (" 7 ", Some(7..=7)),
            ("0..1", Some(0..=0)),
            ("0..0", None),
            ("6..=5", None),
            ("1..", None),
            ("..4", None),
            ("a..b", None),
            ("-1..3", None),
            ("0..=999999", Some(0..=999_999)),
            ("0..=1000000", None),
            ("0..=18446744073709551615", None),
            ("18446744073709551615", Some(max..=max)),
        ] {
            assert_eq!(seed_range(text).ok(), range, "{text:?}");
            cases += 1;
        }
        assert_eq!(cases, 14);
        let err = seed_range("0..=18446744073709551615")
            .unwrap_err()
            .to_string();
        assert!(err.contains("18446744073709551616 seeds"), "{err}");
    }

    #[test]
    fn the_game_follows_from_the_usual_sizes() {
        assert_eq!(game_from_size(7, 9), Some(Game::Former));
        assert_eq!(game_from_size(5, 5), Some(Game::Figure));
        assert_eq!(game_from_size(8, 6), Some(Game::Dust));
        assert_eq!(game_from_size(15, 15), Some(Game::Samegame));
        assert_eq!(game_from_size(4, 4), None);
        let err = setup_from("AB,BA", &RuleChoices::default()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "a 2×2 board is not the usual size of any game: say which with --game"
        );
    }

    #[test]
    fn start_cells_are_named_or_numbered_and_inside_the_board() {
        let g: Grid = "ABC,BCA,CAB,ABC".parse().unwrap();
        assert_eq!(parse_start(None, &g).unwrap(), (0, 3));
        assert_eq!(parse_start(Some("centre"), &g).unwrap(), (1, 1));
        assert_eq!(parse_start(Some(" 2,0 "), &g).unwrap(), (2, 0));
        assert!(matches!(
            parse_start(Some("3,0"), &g),
            Err(InputError::StartOutside { .. })
        ));
        let err = parse_start(Some("a,0"), &g).unwrap_err().to_string();
        assert!(err.starts_with("bad --start x \"a\": "), "{err}");
        assert!(matches!(
            parse_start(Some("middle"), &g),
            Err(InputError::BadStart(_))
        ));
    }

    #[test]
    fn clicks_parse_with_or_without_brackets_and_name_the_bad_move() {
        assert_eq!(
            parse_clicks("(7,0) (3,1);2,2").unwrap(),
            vec![(7, 0), (3, 1), (2, 2)]
        );
        assert_eq!(parse_clicks("").unwrap(), vec![]);
        assert_eq!(
            parse_clicks("(1,1) (2 3)").unwrap_err().to_string(),
            "move 2 \"2\" is not (x,y)"
        );
        assert_eq!(
            parse_clicks("1,z").unwrap_err().to_string(),
            "move 1: bad y \"z\""
        );
    }

    #[test]
    fn rule_and_search_choices_reach_the_setup() {
        let rules = RuleChoices {
            game: Some(Game::Former),
            min_group: Some(2),
            sideways: Some(Sideways::Left),
            ..RuleChoices::default()
        };
        let p = setup_from("AB,BA", &rules).unwrap();
        assert_eq!(p.setup.rules.min_group, 2);
        assert_eq!(p.setup.rules.sideways, Sideways::Left);
        assert!(p.note.is_none());
        let zero = RuleChoices {
            min_group: Some(0),
            ..rules.clone()
        };
        assert!(matches!(
            setup_from("AB,BA", &zero),
            Err(InputError::MinGroupZero)
        ));
        let mut setup = p.setup;
        let search = SearchChoices {
            time_limit: Some(1.5),
            memory_mib: 3,
            threads: Some(3),
            no_proof: true,
            anytime: Method::Nrpa,
            certify: false,
        };
        search.apply(&mut setup).unwrap();
        assert_eq!(setup.search.time_limit, Some(Duration::from_millis(1500)));
        assert_eq!(setup.search.memory, 3 << 20);
        assert_eq!(setup.search.threads, 3);
        assert!(setup.no_proof);
        let bad = SearchChoices {
            time_limit: Some(-1.0),
            ..search
        };
        assert!(matches!(
            bad.apply(&mut setup),
            Err(InputError::BadTimeLimit(_))
        ));
        let no_threads = SearchChoices {
            threads: Some(0),
            ..search
        };
        assert!(matches!(
            no_threads.apply(&mut setup),
            Err(InputError::NoThreads)
        ));
        let no_memory = SearchChoices {
            memory_mib: 0,
            ..search
        };
        assert!(matches!(
            no_memory.apply(&mut setup),
            Err(InputError::NoMemory)
        ));
        let machine = crate::machine::machine_mib().expect("the machine's memory");
        assert!(machine >= 64, "{machine} MiB");
        let too_much = SearchChoices {
            memory_mib: machine + 1,
            ..search
        };
        assert!(matches!(
            too_much.apply(&mut setup),
            Err(InputError::TooMuchMemory { .. })
        ));
    }

    #[test]
    fn a_date_gives_a_former_board_and_refuses_other_games() {
        let mut rules = RuleChoices::default();
        let text = dated_board("2024-12-07", &mut rules).unwrap();
        assert_eq!(rules.game, Some(Game::Former));
        let grid = Grid::parse(&text).unwrap();
        assert_eq!((grid.width(), grid.height()), (7, 9));
        let mut dust = RuleChoices {
            game: Some(Game::Dust),
            ..RuleChoices::default()
        };
        let e = dated_board("2024-12-07", &mut dust).unwrap_err();
        assert!(e.to_string().contains("not dust boards"), "{e}");
        let e = dated_board("2024-11-22", &mut RuleChoices::default()).unwrap_err();
        assert!(e.to_string().contains("NRK's server"), "{e}");
        let e = dated_board("2024-13-01", &mut RuleChoices::default()).unwrap_err();
        assert!(e.to_string().contains("2024-13-01"), "{e}");
    }

    #[test]
    fn a_range_of_dates_is_a_board_set_named_by_day() {
        let mut rules = RuleChoices::default();
        let set = dated_entries("2024-11-23..=2024-11-27", &mut rules).unwrap();
        let names: Vec<&str> = set.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "2024-11-23",
                "2024-11-24",
                "2024-11-25",
                "2024-11-26",
                "2024-11-27"
            ]
        );
        for e in &set {
            let mut r = RuleChoices::default();
            assert_eq!(e.board, dated_board(&e.name, &mut r).unwrap());
        }
    }
}
