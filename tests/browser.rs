//! The page of `tumble serve` in a real headless Chromium, driven over the DevTools protocol:
//! paint a board and solve it, load NRK Former by date, paste lines of board sets, upload a
//! screenshot, play and undo.
//! Every test starts its own `tumble serve --port 0` and its own browser, and saves
//! screenshots of the page under `target/browser/`. One more has the browser draw Former
//! pages in NRK's style for `tumble read` (a renderer not ours).
//!
//! Run with `cargo test --release --features browser --test browser`; Debian's `chromium`
//! must be installed (a missing browser fails the tests, it never skips them).

#[path = "common/cdp.rs"]
mod cdp;
mod common;

use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{mpsc, Mutex, MutexGuard};
use std::time::Duration;

use cdp::Browser;
use common::data;
use image::GenericImageView;
use serde_json::{json, Value};

const TUMBLE: &str = env!("CARGO_BIN_EXE_tumble");
/// The longest the page may take for one thing (a solve has its own, longer, limit).
const WAIT: Duration = Duration::from_secs(30);
const DESKTOP: (u32, u32) = (1280, 900);
const PHONE: (u32, u32) = (390, 844);

/// One browser test at a time: each starts a browser and a server, and the machine is small.
fn one_at_a_time() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

/// `tumble serve --port 0`, ended when dropped.
struct Server {
    child: Child,
    url: String,
}

impl Server {
    fn start() -> Server {
        let mut child = Command::new(TUMBLE)
            .args(["serve", "--port", "0"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {TUMBLE} serve: {e}"));
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    // Nobody listens any more: go on draining so the server never blocks.
                    continue;
                }
            }
        });
        let mut seen = Vec::new();
        let url = loop {
            match rx.recv_timeout(WAIT) {
                Ok(line) => {
                    if let Some(at) = line.find("http://") {
                        let url: String = line[at..]
                            .chars()
                            .take_while(|c| !c.is_whitespace())
                            .collect();
                        break url.trim_end_matches('/').to_string();
                    }
                    seen.push(line);
                }
                Err(_) => {
                    let _ = child.kill();
                    panic!(
                        "`tumble serve --port 0` printed no http:// URL within {} s; it printed: {seen:?}",
                        WAIT.as_secs()
                    );
                }
            }
        };
        Server { child, url }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Where the screenshots go: `target/browser/`.
fn shots_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("the target directory")
        .join("browser")
}

/// The page open in a browser, with its server.
struct Page {
    b: Browser,
    server: Server,
    test: &'static str,
}

impl Page {
    /// Starts a server and a browser at desktop size and opens the page with `hash`.
    fn open(test: &'static str, hash: &str) -> Page {
        let server = Server::start();
        let b = Browser::launch(DESKTOP.0, DESKTOP.1);
        let mut page = Page { b, server, test };
        let url = format!("{}/{hash}", page.server.url);
        page.b.navigate(&url);
        page.b.wait_for(
            "document.body.dataset.ready === '1'",
            "the page to load the games and a first board",
            WAIT,
        );
        page.settle();
        page
    }

    /// Waits until no request of the page is under way and no animation runs.
    fn settle(&mut self) {
        self.b.wait_for(
            "document.body.dataset.busy === '0' && document.querySelector('#board').dataset.state === 'idle'",
            "the page to finish its requests and animations",
            WAIT,
        );
    }

    /// Loads the Former board of `date`, `known`, from the pane "Former by date" (open).
    fn load_former(&mut self, date: &str, known: &data::Known) {
        self.b.eval(&format!(
            "(() => {{ const d = document.querySelector('#former-date'); d.value = '{date}'; \
             d.dispatchEvent(new Event('input', {{bubbles: true}})); return d.value; }})()"
        ));
        self.b.click("#load-former");
        self.b.wait_for(
            &format!(
                "document.querySelector('#board').dataset.board === {}",
                serde_json::to_string(&known.board).expect("a string")
            ),
            &format!("the Former board of {date}"),
            WAIT,
        );
    }

    /// Waits until the page has stopped scrolling (a smooth scroll ends on its own time).
    fn scrolled(&mut self) {
        self.b.eval(
            "new Promise(done => { let last = NaN; const tick = () => { \
             if (window.scrollY === last) done(true); \
             else { last = window.scrollY; setTimeout(tick, 150); } }; tick(); })",
        );
    }

    fn board(&mut self) -> String {
        self.b
            .text("document.querySelector('#board').dataset.board")
    }

    fn cell(x: usize, y: usize) -> String {
        format!("#board .cell[data-x=\"{x}\"][data-y=\"{y}\"]")
    }

    fn cell_letter(&mut self, x: usize, y: usize) -> String {
        self.b.text(&format!(
            "document.querySelector('{}').dataset.c",
            Self::cell(x, y).replace('\'', "\\'")
        ))
    }

    /// Saves a screenshot of the whole page as `target/browser/<test>-<name>.png`.
    fn shot(&mut self, name: &str) {
        let path = shots_dir().join(format!("{}-{name}.png", self.test));
        self.b.screenshot(&path);
        assert!(
            std::fs::metadata(&path)
                .map(|m| m.len() > 1000)
                .unwrap_or(false),
            "the screenshot {} is missing or empty",
            path.display()
        );
    }

    /// The same at a phone's width.
    fn phone_shot(&mut self, name: &str) {
        self.b.set_viewport(PHONE.0, PHONE.1, true);
        std::thread::sleep(Duration::from_millis(300));
        self.shot(name);
        self.b.set_viewport(DESKTOP.0, DESKTOP.1, false);
        std::thread::sleep(Duration::from_millis(200));
    }

    fn select_game(&mut self, game: &str) {
        self.b.eval(&format!(
            "(() => {{ const s = document.querySelector('#game'); s.value = '{game}'; \
             s.dispatchEvent(new Event('change', {{bubbles: true}})); return s.value; }})()"
        ));
        self.settle();
        assert_eq!(self.b.text("document.querySelector('#game').value"), game);
    }

    /// Clicks Solve and waits for the result line.
    fn solve(&mut self) -> String {
        self.b.click("#solve");
        self.b.wait_for(
            "document.querySelector('#result').textContent.trim() !== '' || document.querySelector('#message').classList.contains('error')",
            "the solve to end with a result line",
            Duration::from_secs(90),
        );
        let error = self.b.text(
            "document.querySelector('#message').classList.contains('error') ? document.querySelector('#message').textContent : ''",
        );
        assert!(
            error.is_empty(),
            "the solve failed: {error}\npage log:\n{}",
            self.b.log_text()
        );
        self.settle();
        self.b.text("document.querySelector('#result').textContent")
    }

    /// Clicks `button`, waits for `cond` and returns the line under the board in Play.
    fn press_and_read(&mut self, button: &str, cond: &str, what: &str) -> String {
        self.b.click(button);
        self.b.wait_for(cond, what, WAIT);
        self.b
            .text("document.querySelector('#play-info').textContent")
    }

    /// POST /api/apply from inside the page, as the page itself would.
    fn apply(&mut self, board: &str, moves: &str) -> Value {
        self.b.eval(&format!(
            "fetch('/api/apply', {{method: 'POST', headers: {{'Content-Type': 'application/json'}}, \
             body: JSON.stringify({{game: 'dust', board: {}, moves: {moves}}})}}).then(r => r.json())",
            serde_json::to_string(board).expect("a string")
        ))
    }
}

/// `board` with its letters renamed by `map`.
fn rename(board: &str, map: &HashMap<char, char>) -> String {
    board
        .chars()
        .map(|c| map.get(&c).copied().unwrap_or(c))
        .collect()
}

/// The letters of `board` in the order they first appear, from the top left.
fn letters_in_order(board: &str) -> Vec<char> {
    let mut out = Vec::new();
    for c in board.chars() {
        if c != ',' && c != '.' && !out.contains(&c) {
            out.push(c);
        }
    }
    out
}

/// Asserts that `got` is `want` with its letters renamed one to one, and returns the renaming.
fn same_up_to_letters(want: &str, got: &str, what: &str) -> HashMap<char, char> {
    let w: Vec<char> = want.chars().collect();
    let g: Vec<char> = got.chars().collect();
    assert_eq!(
        w.len(),
        g.len(),
        "{what}: the board {got:?} is not the size of {want:?}"
    );
    let mut map = HashMap::new();
    let mut back = HashMap::new();
    for (i, (&a, &b)) in w.iter().zip(&g).enumerate() {
        let ok = (a == b && (a == ',' || a == '.'))
            || (a != ','
                && a != '.'
                && b != ','
                && b != '.'
                && *map.entry(a).or_insert(b) == b
                && *back.entry(b).or_insert(a) == a);
        assert!(
            ok,
            "{what}: character {i} of {got:?} is {b:?}, which does not match {a:?} of {want:?} (letters may be renamed, but one to one)"
        );
    }
    map
}

#[test]
fn paint_the_readme_dust_board_solve_it_and_step_to_the_empty_board() {
    let _one = one_at_a_time();
    let known = data::article_boards()
        .into_iter()
        .find(|k| k.game == "dust")
        .expect("the README's dust board");
    assert_eq!(known.board, data::DUST);
    let mut p = Page::open("1-paint", "");
    p.select_game("dust");

    let brushes: Vec<String> = serde_json::from_value(p.b.eval(
        "[...document.querySelectorAll('#brushes [data-letter]')].map(b => b.dataset.letter)",
    ))
    .expect("a list of brush letters");
    assert!(
        brushes.iter().any(|b| b == "."),
        "the paint brushes {brushes:?} have no empty brush"
    );
    let colours: Vec<&String> = brushes.iter().filter(|b| *b != ".").collect();
    let readme = letters_in_order(data::DUST);
    assert!(
        colours.len() >= readme.len(),
        "dust has {} colour brushes {colours:?}, the README board needs {}",
        colours.len(),
        readme.len()
    );
    // The README names the colours G, B, O, Y, R; the page paints with its own letters.
    let map: HashMap<char, char> = readme
        .iter()
        .zip(&colours)
        .map(|(&a, b)| (a, b.chars().next().expect("a letter")))
        .collect();
    let want = rename(data::DUST, &map);

    p.b.click("#clear-board");
    p.settle();
    let cleared = p.board();
    assert!(
        cleared.chars().all(|c| c == '.' || c == ',') && cleared.split(',').count() == 6,
        "Clear left {cleared:?}"
    );

    let rows: Vec<Vec<char>> = data::DUST.split(',').map(|r| r.chars().collect()).collect();
    let h = rows.len();
    let at = |x: usize, y: usize| rows[h - 1 - y][x];
    let brush = |c: char| format!("#brushes [data-letter=\"{}\"]", map[&c]);
    let mut painted = 0;
    // The top row starts with four G: one drag over them.
    assert!((0..4).all(|x| at(x, h - 1) == 'G'));
    p.b.click(&brush('G'));
    let via: Vec<String> = (1..4).map(|x| Page::cell(x, h - 1)).collect();
    p.b.drag(&Page::cell(0, h - 1), &via);
    painted += 4;
    for &c in &readme {
        p.b.click(&brush(c));
        for y in 0..h {
            for x in 0..rows[0].len() {
                if at(x, y) == c && !(y == h - 1 && x < 4) {
                    p.b.click(&Page::cell(x, y));
                    painted += 1;
                }
            }
        }
    }
    assert_eq!(painted, 48, "painted {painted} cells of the 8×6 board");
    // The empty brush takes a tile away; the right brush puts it back.
    p.b.click("#brushes [data-letter=\".\"]");
    p.b.click(&Page::cell(7, 0));
    assert_eq!(
        p.cell_letter(7, 0),
        ".",
        "the empty brush did not empty (7,0)"
    );
    p.b.click(&brush(at(7, 0)));
    p.b.click(&Page::cell(7, 0));
    p.settle();
    assert_eq!(
        p.board(),
        want,
        "the painted board is not the README's dust board"
    );
    let hash = p.b.text("decodeURIComponent(location.hash)");
    assert!(
        hash.contains("game=dust") && hash.contains(&format!("board={want}")),
        "the URL does not keep the game and board: {hash}"
    );
    p.shot("painted");

    let result = p.solve();
    assert_eq!(
        result.trim().trim_start_matches('✓').trim(),
        format!("Optimal: {} moves (proven)", known.optimum),
        "the result line after solving the README's dust board"
    );
    assert!(
        p.b.eval("!!document.querySelector('#chart path.best')") == Value::Bool(true),
        "the progress chart has no line of the best answer"
    );
    let n =
        p.b.eval("document.querySelectorAll('#moves li').length")
            .as_u64()
            .unwrap_or(0) as usize;
    assert_eq!(n, known.optimum, "the move list has {n} moves");
    p.shot("solved");
    p.phone_shot("solved-phone");

    // Step to the end, one move at a time: the group about to go is outlined first.
    assert_eq!(
        p.b.text("document.querySelector('#board').dataset.mode"),
        "answer"
    );
    for k in 0..n {
        let outlined =
            p.b.eval("document.querySelectorAll('#board .cell.next').length")
                .as_u64()
                .unwrap_or(0);
        let size =
            p.b.eval(&format!(
                "+document.querySelectorAll('#moves button')[{k}].textContent.split('×')[1]"
            ))
            .as_u64()
            .unwrap_or(0);
        assert!(
            size > 0 && outlined == size,
            "before move {}, {outlined} cells are outlined, but the move takes {size}",
            k + 1
        );
        p.b.click("#step-next");
        p.b.wait_for(
            &format!(
                "document.querySelector('#board').dataset.step === '{}'",
                k + 1
            ),
            &format!("step {}", k + 1),
            WAIT,
        );
        p.settle();
        if k == 2 {
            p.shot("step3");
        }
    }
    let empty =
        p.b.eval("[...document.querySelectorAll('#board .cell')].map(c => c.dataset.c).join('')");
    let empty = empty.as_str().unwrap_or_default();
    assert_eq!(empty.len(), 48, "the board has {} cells", empty.len());
    assert!(
        empty.chars().all(|c| c == '.'),
        "after the last move the board is not empty: {empty}"
    );
    assert!(p.b.eval("document.querySelector('#step-next').disabled") == Value::Bool(true));
    p.shot("end");
}

#[test]
fn load_former_2024_12_07_by_date_and_solve_it_in_15() {
    let _one = one_at_a_time();
    let known = data::former("2024-12-07");
    let mut p = Page::open("2-former", "");
    p.b.click("#tab-former");
    p.load_former("2024-12-07", &known);
    assert_eq!(p.b.text("document.querySelector('#game').value"), "former");
    p.settle();
    p.shot("loaded");
    let result = p.solve();
    assert_eq!(
        result.trim().trim_start_matches('✓').trim(),
        format!("Optimal: {} moves (proven)", known.optimum),
        "the result line for NRK Former 2024-12-07"
    );
    p.shot("solved");

    // Save picture downloads the answer's steps as the server draws them: the board before
    // each move and the cleared board, the size of `tumble solve --render`'s picture of an
    // answer as long
    let dir = shots_dir().join("2-former-download");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a download folder");
    p.b.allow_downloads(&dir);
    p.b.click("#save-picture");
    p.b.wait_for(
        "document.querySelector('#save-picture').dataset.saved",
        "the answer's picture to be saved",
        WAIT,
    );
    let name =
        p.b.text("document.querySelector('#save-picture').dataset.saved");
    assert_eq!(name, format!("tumble-former-{}-moves.png", known.optimum));
    let file = dir.join(&name);
    let start = std::time::Instant::now();
    let saved = loop {
        // (Chromium writes a `.crdownload` file and renames it when done)
        if let Ok(img) = image::open(&file) {
            break img;
        }
        assert!(
            start.elapsed() < WAIT,
            "no picture {} downloaded",
            file.display()
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    let cli = dir.join("cli-steps.png");
    let out = Command::new(TUMBLE)
        .args(["solve", "--date", "2024-12-07", "--render"])
        .arg(&cli)
        .output()
        .expect("tumble solve runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let cli = image::open(&cli).expect("the command line's picture");
    assert_eq!(
        saved.dimensions(),
        cli.dimensions(),
        "{} panels",
        known.optimum + 1
    );
    p.shot("saved");
    p.phone_shot("saved-phone");
}

/// On a phone the ways to enter a board come below the answer: the buttons under the board
/// open each of them and bring it into view, and the board of a date loads from there. On a
/// desktop, where the ways to enter a board stand beside it, the buttons are not shown. The
/// page speaks of dropping a picture only where there is a mouse to drop it with.
#[test]
fn on_a_phone_the_buttons_under_the_board_open_each_way_to_enter_one() {
    let _one = one_at_a_time();
    let known = data::former("2024-12-07");
    let mut p = Page::open("5-phone-enter", "");
    let shown = "getComputedStyle(document.querySelector('#enter-quick')).display !== 'none'";
    assert_eq!(
        p.b.eval(shown),
        Value::Bool(false),
        "the buttons on a desktop"
    );
    // Dropping and pasting a picture are offered with a mouse, not on a touch screen: the
    // words about them in the screenshot pane and in the greeting.
    let mouse_words = "[...document.querySelectorAll('.by-mouse')]\
                       .map(e => getComputedStyle(e).display !== 'none')";
    let greeting = "document.querySelector('#message').textContent";
    assert_eq!(p.b.eval(mouse_words), json!([true, true]), "with a mouse");
    let said = p.b.text(greeting);
    assert!(
        said.contains("drop a board"),
        "the greeting with a mouse: {said:?}"
    );
    p.b.set_viewport(PHONE.0, PHONE.1, true);
    p.b.wait_for(shown, "the buttons under the board on a phone", WAIT);
    assert_eq!(p.b.eval(mouse_words), json!([false, false]), "on a phone");
    let url = p.server.url.clone();
    p.b.navigate(&url);
    p.b.wait_for(
        "document.body.dataset.ready === '1'",
        "the page to load again on a phone",
        WAIT,
    );
    p.settle();
    let said = p.b.text(greeting);
    assert!(
        said.contains("read a screenshot") && !said.contains("drop"),
        "the greeting on a phone: {said:?}"
    );
    let mut opened = 0;
    for (tab, pane, focus) in [
        ("tab-paste", "pane-paste", "board-text"),
        ("tab-picture", "pane-picture", "picture"),
        ("tab-former", "pane-former", "former-date"),
    ] {
        // (scrolled back to the top, so that the card must be brought into view)
        p.b.eval("window.scrollTo(0, 0)");
        assert_eq!(
            p.b.eval(
                "document.querySelector('#input-card').getBoundingClientRect().top > window.innerHeight"
            ),
            Value::Bool(true),
            "the ways to enter a board are below the fold before {tab} is pressed"
        );
        p.b.click(&format!("#enter-quick [data-tab={tab}]"));
        p.b.wait_for(
            &format!(
                "document.querySelector('#{tab}').getAttribute('aria-selected') === 'true' \
                 && !document.querySelector('#{pane}').hidden"
            ),
            &format!("{tab} to be open"),
            WAIT,
        );
        let others = p.b.eval(&format!(
            "[...document.querySelectorAll('[role=tabpanel]')].filter(e => !e.hidden && e.id !== '{pane}').length"
        ));
        assert_eq!(others, Value::from(0), "panes open beside {pane}");
        p.b.wait_for(
            "(() => { const r = document.querySelector('#input-card').getBoundingClientRect(); \
             return r.top >= -1 && r.bottom <= window.innerHeight + 1; })()",
            &format!("the card of {tab} to come into view"),
            WAIT,
        );
        p.scrolled();
        if focus != "picture" {
            assert_eq!(
                p.b.text("document.activeElement && document.activeElement.id"),
                focus,
                "the field focused by {tab}"
            );
        }
        opened += 1;
    }
    assert_eq!(opened, 3);
    p.load_former("2024-12-07", &known);
    p.b.wait_for(
        "(() => { const r = document.querySelector('.stage').getBoundingClientRect(); \
         return r.top >= -1 && r.top < window.innerHeight / 4; })()",
        "the board loaded below it to be brought into view",
        WAIT,
    );
    p.scrolled();
    p.settle();
    p.shot("loaded-phone");

    // A board refused: the line saying why, under the board, is brought into view.
    p.b.click("#enter-quick [data-tab=tab-paste]");
    p.b.eval(
        "(() => { const t = document.querySelector('#board-text'); t.value = 'GGB\\nGG'; \
         return t.value; })()",
    );
    p.b.click("#use-text");
    p.b.wait_for(
        "document.querySelector('#message').classList.contains('error')",
        "the pasted board to be refused",
        WAIT,
    );
    let why = p.b.text("document.querySelector('#message').textContent");
    assert!(
        why.contains("row 2 (line 2) has 2 cells, but row 1 has 3"),
        "the refusal says {why:?}"
    );
    p.b.wait_for(
        "(() => { const r = document.querySelector('#message').getBoundingClientRect(); \
         return r.top >= 0 && r.bottom <= window.innerHeight; })()",
        "the refusal under the board to be brought into view",
        WAIT,
    );
    p.shot("refused-phone");
}

/// Pasted text as in tumble's files: a line of a board set is its board, and a game line
/// chooses its game.
#[test]
fn paste_lines_of_board_sets_and_each_board_is_loaded() {
    let _one = one_at_a_time();
    let former = data::former("2024-12-07");
    let figure = tumble::generate::generate(5, 5, 4, 3).to_inline();
    let flood = tumble::generate::generate(4, 4, 3, 5).to_inline();
    let mut p = Page::open("6-paste", "");
    p.select_game("former");
    let mut loaded = 0;
    for (text, game, board) in [
        (
            format!("2024-12-07|{}|15", former.board),
            "former",
            &former.board,
        ),
        (format!("# a set\nfigure|{figure}|?\n"), "figure", &figure),
        (
            format!("former|{}|15", former.board),
            "former",
            &former.board,
        ),
        // a Flood-It board as the benchmark sets write it: one line of n² colours
        (
            format!("floodit|{}", flood.replace(',', "")),
            "floodit",
            &flood,
        ),
    ] {
        p.b.click("#tab-paste");
        p.b.eval(&format!(
            "(() => {{ const t = document.querySelector('#board-text'); t.value = {}; \
             t.dispatchEvent(new Event('input', {{bubbles: true}})); return t.value; }})()",
            serde_json::to_string(&text).expect("a string")
        ));
        p.b.click("#use-text");
        p.b.wait_for(
            &format!(
                "document.querySelector('#board').dataset.board === {}",
                serde_json::to_string(board).expect("a string")
            ),
            &format!("the board of {text:?}"),
            WAIT,
        );
        p.settle();
        assert_eq!(
            p.b.text("document.querySelector('#game').value"),
            game,
            "{text:?}"
        );
        loaded += 1;
    }
    assert_eq!(loaded, 4);
    p.shot("loaded");
}

#[test]
fn upload_a_rendered_screenshot_and_see_every_cell_read() {
    let _one = one_at_a_time();
    let dir = shots_dir();
    std::fs::create_dir_all(&dir).expect("create target/browser");
    let png = dir.join("3-upload-input.png");
    let svg = dir.join("3-upload-input.svg");
    for out in [&png, &svg] {
        let status = Command::new(TUMBLE)
            .args(["render", "--game", "dust", "--output"])
            .arg(out)
            .arg(data::DUST)
            .status()
            .expect("run tumble render");
        assert!(
            status.success(),
            "tumble render --output {} failed",
            out.display()
        );
    }
    // The colour of every tile, from the SVG the renderer draws the same way.
    let svg_text = std::fs::read_to_string(&svg).expect("read the SVG");
    let mut tiles = Vec::new();
    for line in svg_text.lines().filter(|l| l.contains("<title>")) {
        let attr = |name: &str| -> String {
            let at = line.find(&format!(" {name}=\"")).expect("an attribute") + name.len() + 3;
            line[at..].split('"').next().expect("a value").to_string()
        };
        let num = |name: &str| attr(name).parse::<f64>().expect("a number") as i64;
        tiles.push((num("x"), num("y"), attr("fill").to_lowercase()));
    }
    assert_eq!(
        tiles.len(),
        48,
        "the SVG of the dust board has {} tiles",
        tiles.len()
    );
    let mut xs: Vec<i64> = tiles.iter().map(|t| t.0).collect();
    let mut ys: Vec<i64> = tiles.iter().map(|t| t.1).collect();
    xs.sort();
    xs.dedup();
    ys.sort();
    ys.dedup();
    assert_eq!(
        (xs.len(), ys.len()),
        (8, 6),
        "the tiles of the SVG are not on an 8×6 grid"
    );

    let mut p = Page::open("3-upload", "");
    p.select_game("dust");
    let before = p.board();
    p.b.click("#tab-picture");
    p.b.set_file("#picture", &png);
    p.b.wait_for(
        &format!(
            "document.querySelector('#board').dataset.board !== {} || document.querySelector('#message').classList.contains('error')",
            serde_json::to_string(&before).expect("a string")
        ),
        "the board read from the screenshot",
        WAIT,
    );
    p.settle();
    let message = p.b.text("document.querySelector('#message').textContent");
    let got = p.board();
    same_up_to_letters(
        data::DUST,
        &got,
        &format!("the board read from the screenshot ({message})"),
    );
    let mut checked = 0;
    for (x, y, fill) in &tiles {
        let col = xs.iter().position(|v| v == x).expect("a column");
        let row = ys.iter().position(|v| v == y).expect("a row");
        let cell = Page::cell(col, ys.len() - 1 - row);
        let rgb = p.b.text(&format!(
            "getComputedStyle(document.querySelector('{}')).backgroundColor",
            cell.replace('\'', "\\'")
        ));
        let hex = rgb_to_hex(&rgb);
        assert_eq!(
            hex,
            *fill,
            "cell ({col},{}) is drawn {rgb}, the screenshot has {fill}",
            ys.len() - 1 - row
        );
        checked += 1;
    }
    assert_eq!(checked, 48);
    p.shot("read");
}

/// `rgb(229, 57, 53)` → `#e53935`.
fn rgb_to_hex(rgb: &str) -> String {
    let nums: Vec<u8> = rgb
        .trim_start_matches("rgba(")
        .trim_start_matches("rgb(")
        .trim_end_matches(')')
        .split(',')
        .take(3)
        .map(|n| {
            n.trim()
                .parse()
                .unwrap_or_else(|_| panic!("not a colour: {rgb}"))
        })
        .collect();
    assert_eq!(nums.len(), 3, "not a colour: {rgb}");
    format!("#{:02x}{:02x}{:02x}", nums[0], nums[1], nums[2])
}

#[test]
fn play_two_clicks_from_a_shared_link_and_undo_one() {
    let _one = one_at_a_time();
    let hash = format!("#game=dust&board={}", data::DUST);
    let mut p = Page::open("4-play", &hash);
    assert_eq!(p.b.text("document.querySelector('#game').value"), "dust");
    let start = p.board();
    same_up_to_letters(data::DUST, &start, "the board opened from the link");

    p.b.click("#mode-play");
    p.settle();
    // Two clicks: (3,1), then a tile of the bottom row that is left after it.
    let first = (3usize, 1usize);
    p.b.click(&Page::cell(first.0, first.1));
    p.b.wait_for(
        "document.querySelector('#board').dataset.moves === '1'",
        "the first click to be played",
        WAIT,
    );
    p.settle();
    let after_one = p.board();
    let second = (0..8)
        .map(|x| (x, 0usize))
        .find(|&(x, y)| p.cell_letter(x, y) != "." && (x, y) != first)
        .expect("a tile on the bottom row after one click");
    p.b.click(&Page::cell(second.0, second.1));
    p.b.wait_for(
        "document.querySelector('#board').dataset.moves === '2'",
        "the second click to be played",
        WAIT,
    );
    p.settle();
    let after_two = p.board();
    p.shot("two-clicks");

    let moves = format!(
        "[{{x: {}, y: {}}}, {{x: {}, y: {}}}]",
        first.0, first.1, second.0, second.1
    );
    let applied = p.apply(&start, &moves);
    let boards: Vec<String> = serde_json::from_value(applied["boards"].clone())
        .unwrap_or_else(|e| panic!("/api/apply gave no boards ({e}): {applied}"));
    assert_eq!(boards.len(), 2, "/api/apply: {applied}");
    assert_eq!(after_one, boards[0], "the board after the first click");
    assert_eq!(after_two, boards[1], "the board after the second click");
    assert_ne!(after_one, after_two);

    p.b.click("#undo");
    p.settle();
    assert_eq!(
        p.b.text("document.querySelector('#board').dataset.moves"),
        "1"
    );
    assert_eq!(
        p.board(),
        boards[0],
        "after Undo the board is not the one after the first click"
    );
    p.shot("undone");

    // A hint from here outlines a group and names the click.
    let info = p.press_and_read(
        "#hint",
        "document.querySelectorAll('#board .cell.hint').length > 0",
        "the hint to outline a group",
    );
    assert!(info.contains("Hint: click ("), "the hint says {info:?}");
    p.shot("hint");
    let info = p.press_and_read(
        "#how-far",
        "/in all/.test(document.querySelector('#play-info').textContent)",
        "the distance from the optimum",
    );
    assert!(info.contains("1 move made"), "the play line says {info:?}");
    p.phone_shot("how-far-phone");
}

/// A Former page in the style of NRK's, drawn by the browser (a renderer not ours: its own
/// anti-aliasing, rounded corners and fonts) in four looks (dark or light page, gaps from
/// none to wide, corners from square to round, a white mark in the middle of each tile as
/// NRK's tiles have), on a phone and on a desktop, with a title, a move counter and buttons
/// in a tile colour around the board: `tumble read --game former` reads each screenshot as
/// the board of its date.
#[test]
fn nrk_style_pages_drawn_by_the_browser_read_back_exactly() {
    let _one = one_at_a_time();
    let dir = shots_dir().join("nrk-style");
    std::fs::create_dir_all(&dir).expect("create target/browser/nrk-style");
    // (page, text, gap in px, corner radius in % of the tile, the mark's size in %)
    let looks = [
        ("#0e1a3b", "#ffffff", 6, 12, 26),
        ("#ffffff", "#111111", 4, 22, 30),
        ("#f3ead9", "#111111", 0, 4, 22),
        ("#222222", "#ffffff", 10, 30, 28),
    ];
    let mut b = Browser::launch(PHONE.0, PHONE.1);
    let mut cases = 0;
    for (d, date) in ["2024-12-07", "2025-03-14", "2025-12-24", "2026-11-24"]
        .iter()
        .enumerate()
    {
        let out = Command::new(TUMBLE)
            .args(["gen", "--date", date])
            .output()
            .expect("run tumble gen");
        assert!(out.status.success(), "tumble gen --date {date}");
        let board = String::from_utf8(out.stdout).expect("utf-8");
        for (l, &(page, text, gap, radius, mark)) in looks.iter().enumerate() {
            let html = nrk_style_page(&board, page, text, gap, radius, mark);
            let file = dir.join(format!("{date}-{l}.html"));
            std::fs::write(&file, html).expect("write the page");
            for (screen, (w, h), mobile) in [("phone", PHONE, true), ("desktop", DESKTOP, false)] {
                b.set_viewport(w, h, mobile);
                b.navigate(&format!("file://{}", file.display()));
                let shot = dir.join(format!("{date}-{l}-{screen}.png"));
                b.screenshot(&shot);
                let read = Command::new(TUMBLE)
                    .args(["read", "--game", "former"])
                    .arg(&shot)
                    .output()
                    .expect("run tumble read");
                assert_eq!(
                    String::from_utf8_lossy(&read.stdout).trim(),
                    board.trim(),
                    "{date}, look {l}, {screen}: {}",
                    String::from_utf8_lossy(&read.stderr).trim()
                );
                cases += 1;
            }
        }
        // every look on both screens for each date so far
        assert_eq!(cases, (d + 1) * looks.len() * 2);
    }
    assert_eq!(cases, 32);
    // Dropped, the browser ends with every process it started: none of them writes its
    // state into the profile afterwards, which stays removed.
    let profile = b.profile();
    drop(b);
    std::thread::sleep(Duration::from_secs(3));
    assert!(
        !profile.exists(),
        "{} is there again after the browser ended",
        profile.display()
    );
}

/// A page with the Former board `board` (rows top first, NRK's letters) in NRK's colours.
fn nrk_style_page(board: &str, page: &str, text: &str, gap: u32, radius: u32, mark: u32) -> String {
    let colour = |c: char| {
        let (_, [r, g, b]) = tumble::picture::FORMER_COLOURS
            .into_iter()
            .find(|&(letter, _)| letter == c)
            .unwrap_or_else(|| panic!("{c:?} is not one of NRK's letters"));
        format!("#{r:02x}{g:02x}{b:02x}")
    };
    // each colour its own white mark, as on NRK's tiles
    let shape = |c: char| match c {
        'O' => "border-radius:50%",
        'P' => "",
        'G' => "clip-path:polygon(50% 0,100% 100%,0 100%)",
        _ => "transform:rotate(45deg) scale(.8)",
    };
    let orange = colour('O');
    let tiles: String = board
        .lines()
        .flat_map(|r| r.trim().chars())
        .map(|c| {
            format!(
                "<div class=t style=\"background:{}\"><div class=m style=\"{}\"></div></div>",
                colour(c),
                shape(c)
            )
        })
        .collect();
    format!(
        "<!doctype html><html><head><meta name=viewport content=\"width=device-width\"><style>\
         body {{ margin:0; background:{page}; color:{text}; font-family:sans-serif }}\
         header {{ display:flex; justify-content:space-between; padding:14px; font-weight:bold }}\
         h1 {{ text-align:center; margin:12px 0 4px }} p {{ text-align:center; margin:0 0 16px }}\
         .g {{ display:grid; grid-template-columns:repeat(7,1fr); gap:{gap}px; max-width:440px; margin:0 auto; padding:0 16px }}\
         .t {{ aspect-ratio:1; border-radius:{radius}%; display:flex; align-items:center; justify-content:center }}\
         .m {{ width:{mark}%; height:{mark}%; background:rgba(255,255,255,.92) }}\
         nav {{ display:flex; gap:12px; justify-content:center; margin:22px 0 }}\
         nav span {{ padding:12px 22px; border-radius:24px; background:{orange}; color:#fff; font-weight:bold }}\
         </style></head><body><header><span>NRK</span><span>&#9776;</span></header>\
         <h1>Former</h1><p>Trekk: 0 &middot; Dagens rekord: 13</p><div class=g>{tiles}</div>\
         <nav><span>Angre</span><span>Start p&aring; nytt</span></nav></body></html>"
    )
}
