//! The three objectives of the click games as values to maximise, for the anytime search.
//!
//! [`Objectived`] pairs a [`ClickGame`] with an [`Objective`] and implements
//! [`Scored`] (and [`Puzzle`], by delegation), so [`crate::search::anytime`] serves all three.
//! A line's value is [`Objective`]'s: its moves' [`Objective::reward`]s plus the
//! [`Objective::terminal`] value of its end. [`value_of`] computes it for any solution, for
//! reports and tests.

use crate::bits::Bits;
use crate::click::{Click, ClickBoard, ClickGame};
use crate::puzzle::{Puzzle, INFINITE};
use crate::rules::{points, Objective, CLEARED, TILE, UNCLEARED};
use crate::search::anytime::{ranked_children_of, Ranked, Scored, Standing};

/// A click game with an objective.
pub struct Objectived<'a, B: Bits> {
    pub game: &'a ClickGame<B>,
    pub objective: Objective,
    /// The top row's cells.
    top: B,
}

impl<'a, B: Bits> Objectived<'a, B> {
    /// `game` under `objective`.
    pub fn new(game: &'a ClickGame<B>, objective: Objective) -> Self {
        let g = &game.geom;
        let mut top = B::EMPTY;
        for x in 0..g.width {
            top.insert(g.index(x, g.height - 1));
        }
        Objectived {
            game,
            objective,
            top,
        }
    }

    /// Tiles of each colour on the board.
    fn counts(&self, s: &ClickBoard<B>) -> impl Iterator<Item = u32> + '_ {
        let planes = s.planes;
        (0..self.game.colours()).map(move |c| planes[c].count())
    }

    /// About the number of groups on the board, fast: by Euler's formula a colour's
    /// 4-connected components are `cells − adjacent pairs + filled 2×2 squares + holes`;
    /// this leaves out the holes (a region of other colours ringed by one colour), so it
    /// may count a few too few. The same count as [`crate::samegame::Board::components`],
    /// on bit planes.
    fn groups(&self, s: &ClickBoard<B>) -> u32 {
        let h = self.game.geom.height as u32;
        let mut n = 0i64;
        for p in &s.planes[..self.game.colours()] {
            let vertical = (*p & p.shr(1)).without(self.top);
            let horizontal = *p & p.shr(h);
            let squares = vertical & vertical.shr(h);
            n += p.count() as i64 - vertical.count() as i64 - horizontal.count() as i64
                + squares.count() as i64;
        }
        n.max(0) as u32
    }

    /// Tiles that can never be removed: colours with fewer tiles than the smallest group.
    fn stuck(&self, s: &ClickBoard<B>) -> u32 {
        let min = self.game.rules.min_group;
        self.counts(s).filter(|&n| n > 0 && n < min).sum()
    }

    /// The beam search's guess of the clicks still needed from `s`, by `ranking`, as an
    /// estimate (higher is better), given its column-run bound `runs`
    /// ([`ClickGame::runs_bound`]) and its clicks bound `lb` (the column runs and the
    /// edge bound): fewer `2·bound + groups` first, then fewer tiles, where the bound is
    /// `runs` for ranking 0 and `lb` for ranking 1. Neither ranking does as well as both:
    /// on NRK's Former boards each finds, within a second, optimal lines on boards where the
    /// other does not (`docs/benchmarks.md`). With a smallest group of 2, also by the
    /// most plentiful colour's `4·(n − 2)²` (keeps it whole for one big last group, which
    /// helps clearing).
    fn moves_estimate(&self, s: &ClickBoard<B>, runs: u32, lb: u32, ranking: usize) -> i64 {
        let bound = if ranking == 0 { runs } else { lb };
        let guess = bound as i64 * 2 + self.groups(s) as i64;
        let mut est = -guess * 1024 - s.tiles() as i64;
        if self.game.rules.min_group >= 2 {
            let max = self.counts(s).max().unwrap_or(0);
            est += 4 * points(max);
        }
        est
    }

    /// Does the fewest-moves ranking have the edge bound to use (a second ranking, and
    /// children bounded from their parent)? Only for the fewest moves on boards with an
    /// edge bound and groups of one: those always clear, so no line is ranked by the
    /// tiles it leaves.
    fn edge_ranked(&self) -> bool {
        self.objective == Objective::Moves
            && self.game.edge_slice() > 0
            && self.game.rules.min_group <= 1
    }

    /// `Σ (n_c − 2)²` over colours: the most score the tiles left can still bring (one group
    /// per colour is best, since `(a+b−2)² > (a−2)² + (b−2)²`).
    fn potential(&self, s: &ClickBoard<B>) -> i64 {
        self.counts(s).map(points).sum()
    }
}

/// The value (see the module docs) of playing `moves` from `start`; `None` if a move is
/// illegal.
pub fn value_of<B: Bits>(
    game: &ClickGame<B>,
    objective: Objective,
    start: &ClickBoard<B>,
    moves: &[Click],
) -> Option<i64> {
    let o = Objectived::new(game, objective);
    let end = crate::search::replay(game, start, moves)?;
    let mut v: i64 = moves.iter().map(|m| o.reward(start, m)).sum();
    v += o.terminal(&end);
    Some(v)
}

impl<B: Bits> Puzzle for Objectived<'_, B> {
    type State = ClickBoard<B>;
    type Move = Click;
    fn is_solved(&self, s: &Self::State) -> bool {
        self.game.is_solved(s)
    }
    fn successors(&self, s: &Self::State, out: &mut Vec<(Click, ClickBoard<B>)>) {
        self.game.successors(s, out)
    }
    fn lower_bound(&self, s: &Self::State) -> u32 {
        self.game.lower_bound(s)
    }
    fn key(&self, s: &Self::State) -> u64 {
        self.game.key(s)
    }

    fn check(&self, s: &Self::State) -> u32 {
        self.game.check(s)
    }
    fn priority(&self, s: &Self::State, m: &Click, c: &Self::State) -> i64 {
        self.game.priority(s, m, c)
    }
}

impl<B: Bits> Scored for Objectived<'_, B> {
    #[inline]
    fn moves(&self, s: &Self::State, out: &mut Vec<Click>) {
        self.game.for_each_group(s, |c, _| out.push(c));
    }

    #[inline]
    fn play(&self, s: &Self::State, m: &Click) -> Self::State {
        let plane = s.planes[m.colour as usize - 1];
        let group = self.game.geom.flood(B::single(m.cell as usize), plane);
        self.game.remove(s, group, m.colour)
    }

    #[inline]
    fn reward(&self, _s: &Self::State, m: &Click) -> i64 {
        self.objective.reward(m.size as u32)
    }

    fn terminal(&self, s: &Self::State) -> i64 {
        self.objective.terminal(s.tiles())
    }

    #[inline]
    fn estimate(&self, s: &Self::State) -> i64 {
        self.assess(s).1
    }

    #[inline]
    fn optimistic(&self, s: &Self::State) -> i64 {
        self.assess(s).0
    }

    #[inline]
    fn assess(&self, s: &Self::State) -> (i64, i64) {
        self.assess_by(s, 0)
    }

    /// Two rankings for the fewest moves where the board has an edge bound (see
    /// `moves_estimate`), else one.
    fn rankings(&self) -> usize {
        if self.edge_ranked() {
            2
        } else {
            1
        }
    }

    /// The bounds (optimistic) and guesses (estimate) of each objective:
    /// - moves: `−lb` with `lb` the admissible clicks bound; ranks as
    ///   `moves_estimate` says;
    /// - tiles: no tile of a colour with fewer tiles than the smallest group can go; ranks
    ///   by those stuck tiles, then by fewer groups and colours kept together;
    /// - score: `Σ (n_c − 2)²` (+1000 unless a colour is stuck) bounds what is still to
    ///   come; ranks by the biggest colour's `(n − 2)²`, an eighth of the others',
    ///   `−60` per group and the bonus while still possible.
    #[inline]
    fn assess_by(&self, s: &Self::State, ranking: usize) -> (i64, i64) {
        match self.objective {
            Objective::Moves => {
                let runs = self.game.runs_bound(s);
                if runs >= INFINITE {
                    return (UNCLEARED, UNCLEARED);
                }
                // The same as `clicks_bound`, without working out the runs twice.
                let lb = runs.max(self.game.edge_bound(s));
                (-(lb as i64), self.moves_estimate(s, runs, lb, ranking))
            }
            Objective::Tiles => {
                let stuck = self.stuck(s) as i64;
                let opt = if s.tiles() == 0 {
                    0
                } else {
                    -TILE * stuck - if stuck == 0 { 1 } else { 0 }
                };
                (
                    opt,
                    -TILE * stuck - 60 * self.groups(s) as i64 + self.potential(s) / 8,
                )
            }
            Objective::Score => {
                let potential = self.potential(s);
                let bonus = if self.stuck(s) == 0 { CLEARED } else { 0 };
                // The most plentiful colour, kept for one big group at the end (the
                // "tabu colour" idea), a little of the others' potential, few groups (a
                // board in few pieces clears), and the bonus while it is still possible.
                let big = points(self.counts(s).max().unwrap_or(0));
                let est = big + (potential - big) / 8 - 60 * self.groups(s) as i64 + bonus;
                (potential + bonus, est)
            }
        }
    }

    /// Where the ranking uses the edge bound, each child is bounded from its parent
    /// before it is built, as IDA* does ([`Puzzle::bounded_successors`]: only the edge
    /// slices the click touches are looked at again, and a forced click stands for all,
    /// which keeps an optimal line), and only children within the bound the floor leaves
    /// are built.
    fn ranked_children(
        &self,
        s: &Self::State,
        at: Standing,
        kids: &mut Vec<(Click, ClickBoard<B>)>,
        out: &mut Vec<Ranked<Click>>,
    ) -> bool {
        if !self.edge_ranked() {
            return ranked_children_of(self, s, at, kids, out);
        }
        // Every board with tiles has a move (a group of one may be clicked, and a
        // column's bottom tile is in the bottom row).
        if s.tiles() == 0 {
            return false;
        }
        // Every click is worth −1: a child of value `v` is kept when `v − lb > floor`.
        let v = at.value - 1;
        let room = v - at.floor - 1;
        if room < 0 {
            return true;
        }
        let mut bounded = Vec::new();
        self.game
            .bounded_successors(s, room.min(INFINITE as i64 - 1) as u32, &mut bounded);
        for (m, child, lb) in bounded {
            let runs = self.game.runs_bound(&child);
            let est = self.moves_estimate(&child, runs, lb, at.ranking);
            out.push((v + est, v, self.game.key(&child), m));
        }
        true
    }

    #[inline]
    fn code(&self, _s: &Self::State, m: &Click) -> u64 {
        (m.cell as u64) | (m.colour as u64) << 16 | (m.size as u64) << 24
    }
}

#[cfg(test)]
mod tests {
    use super::{Objectived, Ranked};
    use crate::click::{Click, ClickGame};
    use crate::grid::Grid;
    use crate::rules::{Game, Objective};
    use crate::samegame;

    /// The beam's children bounded from their parent (Former, Figure: the override of
    /// `ranked_children`) against the children built and then bounded (the default): the
    /// same children with the same values, each ranked the same by ranking 0 and no lower
    /// by ranking 1 (a child's edge bound from its parent may be weaker, never stronger,
    /// than its own), and every child the default keeps against a floor kept too, but for
    /// those the crossing games drop (`crate::edge`, which only drop children: the
    /// default's bound leaves them out); only a forced click may stand alone for all, and
    /// it is one of them.
    #[test]
    fn children_bounded_from_their_parent_match_those_built_then_bounded() {
        use crate::search::anytime::{ranked_children_of, Scored, Standing, WORST};
        let mut rng = fastrand::Rng::with_seed(11);
        let (mut positions, mut forced, mut pruned, mut weaker) = (0, 0, 0, 0);
        let mut crossed = 0;
        for (game, w, h) in [(Game::Former, 7, 9), (Game::Figure, 5, 5)] {
            let rules = game.rules().expect("click rules");
            for seed in 0..40 {
                let grid = crate::generate::generate(w, h, 4, seed);
                let (g, mut s) = ClickGame::<u64>::new(&grid, rules).expect("a click board");
                let o = Objectived::new(&g, Objective::Moves);
                assert_eq!(o.rankings(), 2);
                let mut kids = Vec::new();
                while s.tiles() > 0 {
                    let value = -rng.i64(0..20);
                    for ranking in 0..2 {
                        let mut all = Vec::new();
                        let at = |floor| Standing {
                            value,
                            floor,
                            ranking,
                        };
                        ranked_children_of(&o, &s, at(WORST), &mut kids, &mut all);
                        let find =
                            |k: &Ranked<Click>| all.iter().find(|a| a.2 == k.2 && a.3 == k.3);
                        for floor in [WORST, value - 12, value - 9, value - 6] {
                            let (mut fast, mut slow) = (Vec::new(), Vec::new());
                            let a = o.ranked_children(&s, at(floor), &mut kids, &mut fast);
                            let b = ranked_children_of(&o, &s, at(floor), &mut kids, &mut slow);
                            assert_eq!(a, b, "both say whether the position has moves");
                            for k in &fast {
                                let built = find(k).expect("a child of the position");
                                assert_eq!(k.1, built.1, "the same value");
                                assert!(k.0 >= built.0, "ranked no lower");
                                assert!(ranking == 1 || k.0 == built.0, "ranked the same");
                                weaker += (k.0 > built.0) as usize;
                            }
                            if fast.len() == 1 && all.len() > 1 {
                                forced += 1;
                            } else {
                                for k in &slow {
                                    if fast.iter().any(|f| f.2 == k.2 && f.3 == k.3) {
                                        continue;
                                    }
                                    // dropped from the parent by the crossing games, which
                                    // the default's bound leaves out: they rate the child
                                    // above every other part of its edge bound
                                    let child = o.play(&s, &k.3);
                                    let [l, r, joint, crossing] =
                                        g.edge_bound_parts(&child).expect("an edge bound");
                                    assert!(
                                        crossing > l.max(r).max(joint),
                                        "a child kept by the default but not from its parent"
                                    );
                                    crossed += 1;
                                }
                            }
                            pruned += (slow.len() < all.len()) as usize;
                            positions += 1;
                        }
                    }
                    let mut moves = Vec::new();
                    o.moves(&s, &mut moves);
                    let m = moves[rng.usize(..moves.len())];
                    s = o.play(&s, &m);
                }
            }
        }
        assert!(positions > 2000, "{positions} positions");
        assert!(forced > 50, "{forced} forced clicks");
        assert!(
            pruned > 500,
            "{pruned} positions with children pruned by the floor"
        );
        assert!(weaker > 0, "{weaker} children ranked higher");
        println!("{positions} positions, {forced} forced clicks, {pruned} with children pruned, {weaker} children ranked higher, {crossed} dropped by the crossing games");
    }

    /// The group count by Euler's formula is one count in both engines: the bit planes'
    /// (here) and the byte board's ([`samegame::Board::components`]), on random SameGame
    /// positions (columns of random heights, the empty ones on the right).
    #[test]
    fn the_euler_group_count_is_the_byte_engines() {
        let mut rng = fastrand::Rng::with_seed(3);
        let rules = Game::Samegame.rules().expect("click rules");
        for _ in 0..500 {
            let (w, h, k) = (rng.usize(1..=8), rng.usize(1..=8), rng.u8(1..=4));
            let filled = rng.usize(1..=w);
            let heights: Vec<usize> = (0..w)
                .map(|x| if x < filled { rng.usize(1..=h) } else { 0 })
                .collect();
            let mut rows = vec![String::new(); h];
            for (y, row) in rows.iter_mut().enumerate() {
                for &top in &heights {
                    // Row `y` of the text is `h − 1 − y` from the bottom.
                    row.push(if h - 1 - y < top {
                        (b'A' + rng.u8(0..k)) as char
                    } else {
                        '.'
                    });
                }
            }
            let grid: Grid = rows.join("\n").parse().expect("a board");
            let fast = samegame::Board::from_grid(&grid).expect("a SameGame position");
            let (game, start) = ClickGame::<u64>::new(&grid, rules).expect("a click board");
            let o = Objectived::new(&game, Objective::Score);
            assert_eq!(
                o.groups(&start) as i64,
                fast.components().max(0),
                "{}",
                rows.join("\n")
            );
        }
    }
}
