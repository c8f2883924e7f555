//! Nested Rollout Policy Adaptation (Rosin 2011) on the byte engine, for the SameGame
//! score (any [`Objective`] works).
//!
//! [`nrpa`]: a playout draws each move with probability proportional to
//! `exp(policy[code] + prior)`, where the code is the move's colour, its group's lowest
//! cell and ([`Code::CellSize`]) a bucket of its size, and the prior is the
//! [`playout`](super::playout)'s tabu rule made soft (GNRPA's bias, Cazenave 2020): a cost
//! on the most plentiful colour of the start and one per tile of the group (small groups
//! first let the others grow). A level-`n` search runs `iterations` level-`n − 1` searches,
//! each from a copy of its policy, and after each one moves its policy toward the best line
//! so far (raise every chosen move's weight, lower every legal alternative's by its
//! probability). Playouts keep the groups up to date across clicks ([`Live`]: only the
//! groups a click changed are found anew, and only their moves are weighed anew), and
//! record every step's legal moves as they go, so an adaptation needs no replay; the
//! adaptation's `exp` is a polynomial the compiler vectorises. One search per thread at a
//! time, each with a fresh policy: restarted when it finishes its top level while time is
//! left, or ([`Nrpa::runs`]) after a set share of the time. The tabu colour need not be the
//! most plentiful ([`Nrpa::share`]): where colours are near equal, the first searches try
//! each, and the later ones keep the one with the best line so far and start from that
//! line (one that clears the board first: each search offers its best line and its best
//! clearing line). A start line (the beam's best, which keeps the most plentiful colour
//! for last) seeds the first search of that colour. A search may rank its lines below
//! their value by the tiles they leave ([`Nrpa::penalty`]), which steers it toward the
//! clearing bonus; it reports lines by their value.
//!
//! Every line better than the shared `floor` goes to `found`, with the moves of `prefix`
//! (the line from the position the caller started at) in front.
//!
//! NRPA alone (`tumble --anytime nrpa`) and the beam portfolio each find lines the other
//! misses: NRPA improves on a line where the beam stalls, and the beam's line keeps a
//! clearing bonus NRPA alone may miss. [`seeded`](super::seeded) gets both, and is the
//! score's search when there is a deadline.

use std::sync::atomic::{AtomicBool, AtomicI64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use super::beam::Found;
use super::board::{Board, CELLS, COLOURS, SIDE};
use super::estimate::most;
use super::live::Live;
use crate::rules::Objective;

/// What a move's policy code holds besides its colour and lowest cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Code {
    /// Colour and lowest cell.
    Cell,
    /// Colour, lowest cell and a size bucket (2, 3–4, 5–8, 9 and more tiles).
    CellSize,
}

/// The settings of an [`nrpa`] search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Nrpa {
    /// The top level (1: policy adaptation over playouts).
    pub level: usize,
    /// Level-`n − 1` searches per level-`n` one.
    pub iterations: usize,
    /// The learning rate.
    pub alpha: f64,
    /// The prior's cost (a log-weight) of a move of the start's most plentiful colour.
    pub tabu: f64,
    /// The prior's cost per tile of the group (favours small groups, as the tabu playout).
    pub size: f64,
    /// What the policy's codes tell apart.
    pub code: Code,
    /// With a deadline: top-level searches per thread, each with a fresh policy and at
    /// most `1 / runs` of the time (1: one search, begun again only if it finishes).
    pub runs: usize,
    /// The tabu colours to try: those with at least this share of the most plentiful
    /// colour's tiles (1: the most plentiful only, the first of equals). The first
    /// top-level searches try one each, most plentiful first; every later one keeps the
    /// colour with the best line so far and starts from that line (a line that clears the
    /// board before any that does not: a search keeps close to the line it starts from, so
    /// one that starts from a line that does not clear would miss the clearing bonus).
    pub share: f64,
    /// What the search ranks its lines by: the value less `penalty · (n − 2)²` for a line
    /// that leaves `n > 2` tiles (0: the value). What it reports is the value itself.
    pub penalty: f64,
}

impl Default for Nrpa {
    /// Level 3 of 100 iterations (as Rosin's); a tabu cost of 4 (a move of the tabu colour
    /// `e⁴ ≈ 55` times less likely: kept for last, yet never forbidden), a small cost per
    /// tile, and the size buckets in the code.
    fn default() -> Self {
        Nrpa {
            level: 3,
            iterations: 100,
            alpha: 1.0,
            tabu: 4.0,
            size: 0.15,
            code: Code::CellSize,
            runs: 1,
            share: 1.0,
            penalty: 0.0,
        }
    }
}

impl Nrpa {
    /// What a line that leaves `tiles` tiles ranks below its value ([`Nrpa::penalty`]).
    fn cost(&self, tiles: u32) -> i64 {
        let n = tiles.saturating_sub(2) as f64;
        (self.penalty * n * n).round() as i64
    }
}

/// Size buckets of [`Code::CellSize`].
const BUCKETS: usize = 4;
/// Entries of a policy: (bucket, colour `0..=COLOURS`, cell).
const CODES: usize = BUCKETS * (COLOURS + 1) * SIDE * SIDE;

/// A playout of an NRPA: its value, moves, and at every step the codes and prior factors
/// of the legal moves (`entries[steps[k]..steps[k + 1]]`) and which of them was played.
#[derive(Clone, Default)]
struct Line {
    /// Whether it holds a line at all.
    some: bool,
    value: i64,
    /// What the search ranks it by (see [`Nrpa::penalty`]).
    rank: i64,
    /// Whether it clears the board.
    clears: bool,
    moves: Vec<u8>,
    /// Start of each step's entries (and their end, last).
    steps: Vec<u32>,
    /// The entry of each step's move.
    chosen: Vec<u32>,
    /// (code, prior factor) of every legal move of every step.
    entries: Vec<(u16, f64)>,
}

impl Line {
    /// Empties the line for a playout to fill in.
    fn begin(&mut self) {
        self.some = true;
        self.value = 0;
        self.moves.clear();
        self.steps.clear();
        self.chosen.clear();
        self.entries.clear();
    }

    /// Records a step: the legal moves of `live` and the one at `pick`, played next
    /// (returns its group number).
    fn step(&mut self, live: &Moves, pick: usize) -> u16 {
        let at = self.entries.len() as u32;
        self.steps.push(at);
        self.chosen.push(at + pick as u32);
        self.entries.extend_from_slice(live.values());
        let id = live.ids()[pick];
        self.moves.push(live.group(id).0);
        id
    }

    /// Closes the line once its last move is played, at `board`: the steps, whether it
    /// clears, the end's reward under `goal` and the rank `set` gives it.
    fn end(&mut self, goal: Objective, set: &Nrpa, board: &Board) {
        self.steps.push(self.entries.len() as u32);
        let tiles = board.tiles();
        self.clears = tiles == 0;
        self.value += goal.terminal(board.tiles());
        self.rank = self.value - set.cost(tiles);
    }
}

/// How a move is coded for the policy, and its prior.
struct Coder {
    code: Code,
    /// `exp(−size · tiles)` for every group size.
    prior: Vec<f64>,
    /// The start's most plentiful colour.
    tabu: u8,
    /// `exp(−tabu)`.
    tabu_factor: f64,
}

impl Coder {
    /// The code and prior factor (`exp(prior)`) of the move at root `i` (colour `c`, `size`
    /// tiles).
    #[inline]
    fn code(&self, i: u8, c: u8, size: u16) -> (u16, f64) {
        let bucket = match self.code {
            Code::Cell => 0,
            Code::CellSize => match size {
                0..=2 => 0,
                3..=4 => 1,
                5..=8 => 2,
                _ => 3,
            },
        };
        let code = ((bucket * (COLOURS + 1) + c as usize) * SIDE * SIDE + i as usize) as u16;
        let mut prior = self.prior[size.min(CELLS as u16) as usize];
        if c == self.tabu {
            prior *= self.tabu_factor;
        }
        (code, prior)
    }

    /// The weighing of a move for [`Live`] under `policy`: its (code, prior factor), and
    /// as weight the policy's entry for the code times the prior factor.
    fn weigher<'a>(
        &'a self,
        policy: &'a [f64],
    ) -> impl Fn(u8, u8, u16) -> ((u16, f64), f64) + Copy + 'a {
        move |i, c, size| {
            let (code, prior) = self.code(i, c, size);
            ((code, prior), policy[code as usize] * prior)
        }
    }
}

/// The groups of a playout's position, each legal move with its (code, prior factor).
type Moves = Live<(u16, f64)>;

/// What one thread of an [`nrpa`] works with.
struct Ctx<'a, 'f> {
    goal: Objective,
    set: Nrpa,
    rng: fastrand::Rng,
    coder: Coder,
    /// The start's groups (copied at the start of every playout) and a playout's.
    origin: Moves,
    live: Moves,
    /// `exp(alpha)`.
    up: f64,
    /// Scratch of an adaptation: every entry's factor.
    factors: Vec<f64>,
    prefix: &'a [u8],
    base: i64,
    floor: &'a AtomicI64,
    found: &'a Found<'f>,
    stop: &'a AtomicBool,
    /// The end of the current top-level search (at most the deadline).
    deadline: Option<Instant>,
    playouts: u64,
    /// The best line that clears the board of the current top-level search, as (value,
    /// moves): the search keeps its best line by value, which may not clear.
    clearing: Option<(i64, Vec<u8>)>,
}

/// `e^x` for `|x| < 700`, to a relative error below `2·10⁻⁷`: `2^n · e^u` with `n` the
/// nearest integer to `x / ln 2` and `e^u`, `|u| ≤ ln 2 / 2`, by its Taylor polynomial of
/// degree 6 (remainder under `0.35⁷ / 7! < 2·10⁻⁷`). The adaptation's factors need no
/// more, and unlike libm's `exp` the loop over them vectorises.
#[inline]
fn exp(x: f64) -> f64 {
    // Adding 1.5·2⁵² rounds `x / ln 2` to the nearest integer `n`, held in the low bits.
    const ROUND: f64 = 6_755_399_441_055_744.0;
    let t = x * std::f64::consts::LOG2_E + ROUND;
    let n = t - ROUND;
    let u = x - n * std::f64::consts::LN_2;
    let p = 1.0
        + u * (1.0
            + u * (0.5
                + u * (1.0 / 6.0 + u * (1.0 / 24.0 + u * (1.0 / 120.0 + u * (1.0 / 720.0))))));
    // 2ⁿ: `n + 1023` in the exponent field (the low 12 bits of `t` hold `n` mod 4096).
    p * f64::from_bits((t.to_bits() << 52).wrapping_add(1023 << 52))
}

impl Ctx<'_, '_> {
    fn done(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Reports `line` (from the start) if it beats the floor.
    fn offer(&self, value: i64, moves: &[u8]) {
        let v = self.base + value;
        if self.floor.fetch_max(v, Ordering::Relaxed) < v {
            let mut all = self.prefix.to_vec();
            all.extend_from_slice(moves);
            (self.found)(v, &all);
        }
    }

    /// A playout by `policy` into `out`, its steps recorded.
    fn playout(&mut self, policy: &[f64], out: &mut Line) {
        self.playouts += 1;
        out.begin();
        let Ctx {
            live,
            origin,
            coder,
            rng,
            goal,
            ..
        } = self;
        let weigh = coder.weigher(policy);
        live.restart(origin, weigh);
        loop {
            let weights = live.weights();
            if weights.is_empty() {
                break;
            }
            let z: f64 = weights.iter().sum();
            let mut r = rng.f64() * z;
            let mut pick = weights.len() - 1;
            for (k, &w) in weights.iter().enumerate() {
                if r < w {
                    pick = k;
                    break;
                }
                r -= w;
            }
            let id = out.step(live, pick);
            out.value += goal.reward(live.play(id, weigh) as u32);
        }
        out.end(self.goal, &self.set, self.live.board());
        self.offer(out.value, &out.moves);
        self.keep_clearing(out);
    }

    /// Keeps `line` as the search's best clearing line if it clears and beats it.
    fn keep_clearing(&mut self, line: &Line) {
        if line.clears && self.clearing.as_ref().is_none_or(|c| c.0 < line.value) {
            self.clearing = Some((line.value, line.moves.clone()));
        }
    }

    /// Moves `policy` toward `best`: every chosen move's log-weight up by `alpha`, every
    /// legal move's down by `alpha` times its probability (all from the policy before the
    /// change). The policy holds `exp` of the log-weights, so the changes are factors.
    fn adapt(&mut self, policy: &mut [f64], best: &Line) {
        // Each entry's weight, then `−alpha` times its probability, then the exponential
        // of that (a loop the compiler vectorises), then every factor applied: the
        // factors are all computed before any is applied.
        let f = &mut self.factors;
        f.clear();
        f.extend(best.entries.iter().map(|&(c, p)| policy[c as usize] * p));
        for s in best.steps.windows(2) {
            let step = &mut f[s[0] as usize..s[1] as usize];
            let scale = -self.set.alpha / step.iter().sum::<f64>();
            step.iter_mut().for_each(|w| *w *= scale);
        }
        f.iter_mut().for_each(|x| *x = exp(*x));
        for (&(c, _), &x) in best.entries.iter().zip(f.iter()) {
            policy[c as usize] *= x;
        }
        for &k in &best.chosen {
            policy[best.entries[k as usize].0 as usize] *= self.up;
        }
    }

    /// A level-`level` search with `policy` (adapted in place); `best` starts as the line to
    /// beat (empty: none) and ends as the best line found.
    fn level(&mut self, level: usize, policy: &mut [f64], best: &mut Line) {
        if level == 0 {
            self.playout(policy, best);
            return;
        }
        let mut line = Line::default();
        for _ in 0..self.set.iterations {
            if self.done() {
                break;
            }
            line.some = false;
            if level == 1 {
                self.playout(policy, &mut line);
            } else {
                let mut inner = policy.to_vec();
                self.level(level - 1, &mut inner, &mut line);
            }
            if line.some && (!best.some || line.rank >= best.rank) {
                std::mem::swap(best, &mut line);
            }
            if best.some {
                self.adapt(policy, best);
            }
        }
    }

    /// The line of `moves` (a legal line from the start, played to its end) with its
    /// steps recorded and its value.
    fn record(&mut self, moves: &[u8], policy: &[f64]) -> Line {
        let mut out = Line::default();
        out.begin();
        let Ctx {
            live,
            origin,
            coder,
            ..
        } = self;
        let weigh = coder.weigher(policy);
        live.restart(origin, weigh);
        for &m in moves {
            let id = live.at(m).expect("a legal line");
            let pick = live.index(id).expect("a legal line");
            out.step(live, pick);
            out.value += self.goal.reward(live.play(id, weigh) as u32);
        }
        assert!(live.ids().is_empty(), "a line played to its end");
        out.end(self.goal, &self.set, live.board());
        out
    }
}

/// Where an NRPA starts: a position, the line to it and that line's value.
#[derive(Clone, Copy)]
pub struct Start<'a> {
    pub board: &'a Board,
    /// The moves from the position the lines are reported from to `board`.
    pub prefix: &'a [u8],
    /// What `prefix` is worth (its rewards).
    pub value: i64,
}

impl<'a> Start<'a> {
    /// The start position itself.
    pub fn at(board: &'a Board) -> Self {
        Start {
            board,
            prefix: &[],
            value: 0,
        }
    }
}

/// The colours an [`nrpa`] keeps for last in turn ([`Nrpa::share`]), by their tile
/// `counts`: those with at least `share` of the most plentiful colour's tiles (only it with
/// a share of 1), most plentiful first, the first of equals first (as [`most`]). Colours
/// are numbered from 0.
fn tabu_colours(counts: &[u16; COLOURS], share: f64) -> Vec<u8> {
    let top = counts[most(counts)] as f64;
    let mut tabus: Vec<u8> = (0..COLOURS as u8)
        .filter(|&c| counts[c as usize] > 0 && counts[c as usize] as f64 >= share * top)
        .collect();
    tabus.sort_by_key(|&c| std::cmp::Reverse(counts[c as usize]));
    tabus.truncate(if share >= 1.0 { 1 } else { tabus.len() });
    tabus
}

/// NRPA with `set` from `start` on `threads` threads (one search each at a time, random
/// seeds differing), until `stop` or the deadline; without a deadline each thread runs its
/// top level once. `seed`: a line from `start.board` (played to the end, keeping the most
/// plentiful colour for last) that the first search of that tabu colour starts from as its
/// best (see [`Nrpa::share`]). Every line better than `floor` goes to `found`. Returns the
/// playouts played.
#[allow(clippy::too_many_arguments)]
pub fn nrpa(
    start: Start,
    min_group: u16,
    goal: Objective,
    set: &Nrpa,
    threads: usize,
    seed: Option<&[u8]>,
    floor: &AtomicI64,
    found: &Found,
    stop: &AtomicBool,
    deadline: Option<Instant>,
) -> u64 {
    // The candidate tabu colours, and the best line found so far that keeps each for last
    // (the seed keeps the most plentiful: the beam's rule), as (clears, value, moves):
    // a line that clears the board goes before any that does not. The seed enters below
    // every line and gets its real standing when a search records it; each search offers
    // its best line and its best clearing line.
    let counts = &start.board.counts;
    let tabus = tabu_colours(counts, set.share);
    let mut bests: Vec<Option<(bool, i64, Vec<u8>)>> = vec![None; tabus.len().max(1)];
    bests[0] = seed.map(|s| (false, i64::MIN, s.to_vec()));
    let bests = Mutex::new(bests);
    let next = AtomicUsize::new(0);
    let run_time =
        deadline.map(|d| d.saturating_duration_since(Instant::now()) / set.runs.max(1) as u32);
    let run = |t: usize| {
        let coder = Coder {
            code: set.code,
            prior: (0..=CELLS).map(|n| (-set.size * n as f64).exp()).collect(),
            tabu: most(counts) as u8 + 1,
            tabu_factor: (-set.tabu).exp(),
        };
        let mut ctx = Ctx {
            goal,
            set: *set,
            rng: fastrand::Rng::with_seed(t as u64 + 1),
            origin: Live::new(start.board, min_group, |_, _, _| ((0, 0.0), 0.0)),
            live: Live::empty(),
            coder,
            up: set.alpha.exp(),
            factors: Vec::new(),
            prefix: start.prefix,
            base: start.value,
            floor,
            found,
            stop,
            deadline,
            playouts: 0,
            clearing: None,
        };
        // Puts `(clears, value, moves)` in place of candidate `k`'s line if it goes before.
        let offer_start = |k: usize, clears: bool, value: i64, moves: &[u8]| {
            let mut b = bests.lock().expect("no panics");
            if b[k].as_ref().is_none_or(|x| (x.0, x.1) < (clears, value)) {
                b[k] = Some((clears, value, moves.to_vec()));
            }
        };
        loop {
            // The first searches try each candidate in turn; the rest keep the one with the
            // best line so far (a line that clears first), from that line.
            let r = next.fetch_add(1, Ordering::Relaxed);
            let (k, from) = {
                let b = bests.lock().expect("no panics");
                let k = if r < b.len() {
                    r
                } else {
                    (0..b.len())
                        .max_by_key(|&k| (b[k].as_ref().map(|x| (x.0, x.1)), std::cmp::Reverse(k)))
                        .expect("a candidate")
                };
                (k, b[k].as_ref().map(|x| x.2.clone()))
            };
            ctx.coder.tabu = tabus.get(k).map_or(ctx.coder.tabu, |&c| c + 1);
            if let (Some(end), Some(len)) = (deadline, run_time) {
                ctx.deadline = Some((Instant::now() + len).min(end));
            }
            let mut policy = vec![1.0; CODES];
            ctx.clearing = None;
            let mut best = match &from {
                Some(line) => {
                    // Its standing is known once recorded (the seed enters unjudged).
                    let line = ctx.record(line, &policy);
                    ctx.offer(line.value, &line.moves);
                    ctx.keep_clearing(&line);
                    offer_start(k, line.clears, line.value, &line.moves);
                    line
                }
                None => Line::default(),
            };
            ctx.level(set.level.max(1), &mut policy, &mut best);
            if best.some {
                offer_start(k, best.clears, best.value, &best.moves);
            }
            if let Some((value, moves)) = ctx.clearing.take() {
                offer_start(k, true, value, &moves);
            }
            if deadline.is_none_or(|d| Instant::now() >= d) || stop.load(Ordering::Relaxed) {
                break;
            }
        }
        ctx.playouts
    };
    if threads <= 1 {
        return run(0);
    }
    std::thread::scope(|sc| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let run = &run;
                sc.spawn(move || run(t))
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).sum()
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn tabu_colours_are_the_near_plentiful_most_first() {
        let counts = [48, 50, 0, 44, 50, 34, 0, 0];
        assert_eq!(super::tabu_colours(&counts, 1.0), vec![1]);
        assert_eq!(super::tabu_colours(&counts, 0.9), vec![1, 4, 0]);
        assert_eq!(super::tabu_colours(&counts, 0.5), vec![1, 4, 0, 3, 5]);
        assert_eq!(super::tabu_colours(&[0; 8], 0.9), Vec::<u8>::new());
        assert_eq!(super::tabu_colours(&[45; 8], 1.0), vec![0]);
    }

    #[test]
    fn the_penalty_is_on_tiles_beyond_two_squared() {
        let set = super::Nrpa {
            penalty: 1.5,
            ..super::Nrpa::default()
        };
        let costs: Vec<i64> = [0, 1, 2, 3, 4, 30].iter().map(|&n| set.cost(n)).collect();
        assert_eq!(costs, vec![0, 0, 0, 2, 6, 1176]);
        assert_eq!(super::Nrpa::default().cost(30), 0);
    }

    #[test]
    fn exp_is_close_to_libm() {
        for k in -70_000..=70_000 {
            let x = k as f64 / 100.0;
            let (got, want) = (super::exp(x), x.exp());
            assert!(
                ((got - want) / want).abs() < 2e-7,
                "exp({x}) = {got}, libm {want}"
            );
        }
    }
}
