//! How a move plays out on the region graph, and which moves the searches generate: a
//! move with the colour eliminations it makes possible chained after it, the unions of
//! neighbours a flood's children share, the candidate moves, and the guard that skips a
//! move order another order beats (with the proof that an optimal line survives it,
//! `order_guard`). The A* ([`super::solver`]), its deepening ([`super::frontier`]) and
//! the beams ([`super::beam`]) all generate their children with these.

use super::{bounds, set, Engine, Pos, Set};

/// Adds the regions `gained` (all of one colour, adjacent to `flood`; `more` the regions
/// adjacent to them) to the flood and updates its neighbours `nb` incrementally.
#[inline]
fn absorb<const N: usize>(flood: &mut Set<N>, nb: &mut Set<N>, gained: &Set<N>, more: &Set<N>) {
    for i in 0..N {
        flood[i] |= gained[i];
        nb[i] = (nb[i] | more[i]) & !flood[i];
    }
}

/// Plays `c` from `flood` (with neighbours `nb`), then every colour elimination that
/// becomes possible (lowest colour first), pushing the moves to `moves`. Returns the new
/// flood, its neighbours, and the colours with a region outside it.
#[inline]
pub(super) fn chain<const N: usize>(
    e: &Engine<N>,
    flood: &Set<N>,
    nb: &Set<N>,
    c: u8,
    moves: &mut Vec<u8>,
) -> (Set<N>, Set<N>, u32) {
    let near = e.union_adjacent(&set::and(nb, e.of_colour(c as usize)));
    chain_near(e, flood, nb, c, &near, moves)
}

/// [`chain`] given `near`, the regions adjacent to the regions of colour `c` in `nb` (what
/// the first move gains).
#[inline]
pub(super) fn chain_near<const N: usize>(
    e: &Engine<N>,
    flood: &Set<N>,
    nb: &Set<N>,
    c: u8,
    near: &Set<N>,
    moves: &mut Vec<u8>,
) -> (Set<N>, Set<N>, u32) {
    let (mut f, mut n) = (*flood, *nb);
    let mut c = c;
    let mut more = *near;
    loop {
        let gained = set::and(&n, e.of_colour(c as usize));
        absorb(&mut f, &mut n, &gained, &more);
        moves.push(c);
        if set::is_empty(&n) {
            return (f, n, 0);
        }
        match bounds::colour_masks(e, &f, &n) {
            (_, eliminable) if eliminable != 0 => {
                c = eliminable.trailing_zeros() as u8;
                more = e.union_adjacent(&set::and(&n, e.of_colour(c as usize)));
            }
            (outside, _) => return (f, n, outside),
        }
    }
}

/// `e.union_adjacent(nb2)` for the neighbours `nb2` after a single move `c` (no elimination
/// after it) from a flood with neighbours `nb`, given `near[d]`, the regions adjacent to
/// the regions of colour `d` in `nb`, for each colour `d` in `touching` (those with a
/// region in `nb`). `nb2` is the old neighbours of the other colours and some new ones, so
/// the union is theirs (in `near`) and the new ones'.
#[inline]
pub(super) fn union_after_move<const N: usize>(
    e: &Engine<N>,
    nb: &Set<N>,
    nb2: &Set<N>,
    touching: u32,
    near: &[Set<N>],
    c: u8,
) -> Set<N> {
    let mut u = e.union_adjacent(&set::and_not(nb2, nb));
    let mut rest = touching & !(1 << c);
    while rest != 0 {
        u = set::or(&u, &near[rest.trailing_zeros() as usize]);
        rest &= rest - 1;
    }
    u
}

/// `e.union_adjacent(nb2)` for a child reached by `len` moves, the first `c`, from a flood
/// with neighbours `nb` (see [`union_after_move`], which builds it from `near` after a single
/// move).
#[inline]
pub(super) fn union_of_child<const N: usize>(
    e: &Engine<N>,
    nb: &Set<N>,
    nb2: &Set<N>,
    touching: u32,
    near: &[Set<N>],
    c: u8,
    len: usize,
) -> Set<N> {
    if len == 1 {
        union_after_move(e, nb, nb2, touching, near, c)
    } else {
        e.union_adjacent(nb2)
    }
}

/// [`chain`] on a position.
pub(super) fn play_chain<const N: usize>(
    e: &Engine<N>,
    p: &Pos<N>,
    c: u8,
    moves: &mut Vec<u8>,
) -> Pos<N> {
    let nb = e.neighbours(&p.flood);
    let (flood, _, _) = chain(e, &p.flood, &nb, c, moves);
    Pos {
        flood,
        colour: *moves.last().expect("a move was played"),
    }
}

/// The candidate first moves from a flood with neighbours `nb`, as a colour mask: the
/// elimination alone if there is one, otherwise every colour touching the flood.
#[inline]
pub(super) fn candidate_mask<const N: usize>(e: &Engine<N>, flood: &Set<N>, nb: &Set<N>) -> u32 {
    let mut touching = 0;
    for c in 0..e.colours() {
        if !set::is_empty(&set::and(nb, e.of_colour(c))) {
            touching |= 1 << c;
        }
    }
    candidates_among(e, flood, nb, touching)
}

/// [`candidate_mask`] given `touching`, the colours with a region in `nb`. A colour is
/// eliminable when all its regions lie in the flood and its neighbours and not all in the
/// flood; every such colour has a region in `nb`, so it is among `touching`, and every
/// colour in `touching` has one outside the flood.
#[inline]
pub(super) fn candidates_among<const N: usize>(
    e: &Engine<N>,
    flood: &Set<N>,
    nb: &Set<N>,
    touching: u32,
) -> u32 {
    let inside = set::or(flood, nb);
    let mut rest = touching;
    while rest != 0 {
        let c = rest.trailing_zeros() as usize;
        if set::subset(e.of_colour(c), &inside) {
            return 1 << c;
        }
        rest &= rest - 1;
    }
    touching
}

/// For each colour `c` with a region in `nb`, sets `near[c]` to the regions adjacent to
/// those regions, and returns the mask of these colours (the other colours' entries are
/// emptied). The union of the entries is `e.union_adjacent(nb)`.
///
/// One pass over the regions of `nb`, each adding its neighbours to its colour's entry:
/// each colour's share of `nb` is sparse, where [`Engine::union_adjacent`]'s unrolled
/// rounds would take a whole round per word and colour.
#[inline]
pub(super) fn unions_by_colour<const N: usize>(
    e: &Engine<N>,
    nb: &Set<N>,
    near: &mut [Set<N>],
) -> u32 {
    let near = &mut near[..e.colours()];
    near.fill(set::empty());
    let mut touching = 0u32;
    set::for_each(nb, |r| {
        let c = e.colour_of(r) as usize;
        touching |= 1 << c;
        near[c] = set::or(&near[c], e.adjacent(r));
    });
    touching
}

/// The regions a free move may not be followed by, to skip dominated move orders: for a
/// flood `flood` reached from its parent's flood `parent` (settled: no colour eliminable)
/// by the single move `a` (no elimination after it), the regions that `a`'s gain `A` made
/// neighbours of the flood: adjacent to `A`, outside `flood`, and not adjacent to
/// `parent`. For any other flood, `None` (every candidate is kept).
///
/// The exchange: let a candidate `b` gain `B` (its regions next to the flood), none of them
/// among those regions. Then every region of `B` lies next to the parent already, so from
/// the parent `b` gains exactly `B` (a region of colour `b` next to the parent is next to
/// the flood, and not in `A`), and the order `b, a` then gains `A` and also every region of
/// colour `a` adjacent to `B`. If one of those is outside the child that `a, b` leads to
/// (after its chained eliminations), the order `b, a` reaches a strictly larger flood with
/// the same number of moves, which by monotonicity ([`super::bounds`]) needs no more moves
/// to finish; the eliminations the search chains after `b` and after `a` keep that, since
/// the chain closure (the least flood above its start with no colour eliminable) grows
/// with its start. [`dominated`] makes that test, and such a child is not generated. The
/// order `b, a` is never cut this way itself: the region of colour `a` that makes it larger
/// is not in `A`, so not next to the parent; `b`'s gain made it a neighbour, and `a` gains
/// it.
///
/// Why an optimal path survives. Give an optimal path (floods `F_1 ⊆ … ⊆ F_L`, `L` the
/// optimum) the sequence of its flood sizes read from the end, `(|F_L|, …, |F_1|)`, and
/// order paths by it lexicographically; there are finitely many such sequences, so some
/// optimal path is greatest. Suppose the search cuts one of its steps, `b` from `F_j`,
/// because `F_j` was reached from a settled parent `P` (any parent the search recorded, on
/// this path or not: duplicate detection keeps one) by the single move `a`. Then from `P`
/// (depth `j − 1`) the order `b, a` reaches a flood strictly larger than `F_{j+1}` at depth
/// `j + 1`; the rest of the path played from there keeps every later flood a superset of
/// the old one (a larger flood floods at least as much with the same colour), and no later
/// move becomes idle or the end comes early (either would make a solution shorter than
/// `L`). That optimal path's sequence agrees with the old one from the end down to depth
/// `j + 2` or further, each entry at least as large, and differs first by a strictly
/// larger entry: it is greater, a contradiction. So no step of the greatest optimal path
/// is cut, and the search finds a path of its length. The property test
/// `astar_finds_the_bfs_optimum` (boards of up to 5 colours, where the rule fires often)
/// checks the search against breadth-first search.
#[inline]
pub(super) fn order_guard<const N: usize>(
    e: &Engine<N>,
    flood: &Set<N>,
    parent: &Set<N>,
    a: u8,
) -> Option<Set<N>> {
    let gained = set::and_not(flood, parent);
    if !set::subset(&gained, e.of_colour(a as usize)) {
        return None; // eliminations followed the move
    }
    let mut fresh = set::empty::<N>();
    set::for_each(&set::and_not(&e.union_adjacent(&gained), flood), |r| {
        if set::is_empty(&set::and(e.adjacent(r), parent)) {
            set::insert(&mut fresh, r);
        }
    });
    Some(fresh)
}

/// Is the child `child` (what candidate `b`, gaining `gained`, leads to from a flood whose
/// last move was `a`, with `guard` from [`order_guard`]) dominated by the order `b, a`?
#[inline]
pub(super) fn dominated<const N: usize>(
    e: &Engine<N>,
    guard: &Set<N>,
    gained: &Set<N>,
    a: u8,
    child: &Set<N>,
) -> bool {
    if !set::is_empty(&set::and(gained, guard)) {
        return false;
    }
    let more = set::and(&e.union_adjacent(gained), e.of_colour(a as usize));
    !set::subset(&more, child)
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::floodit::beam::greedy;

    /// Along random walks of settled floods, every child that [`dominated`] cuts is beaten by
    /// the other order: from the parent, `b` then `a` (each with its chained eliminations)
    /// reaches a strictly larger flood. Counts the cuts, and those where `b`'s gain touches
    /// `a`'s (the exchange needs only that `b`'s gain lies next to the parent). On the way,
    /// the unions and candidates the A* shares among a flood's children give what the plain
    /// calls give.
    #[test]
    fn a_dominated_child_is_beaten_by_the_other_order() {
        let (mut cuts, mut touch_cuts, mut children, mut unions) = (0, 0, 0, 0);
        let mut eliminations = 0;
        for seed in 0..300u64 {
            let k = 3 + (seed % 3) as usize;
            let g = crate::generate::generate(8, 8, k, seed);
            let (e, p) = Engine::<2>::new(&g, (seed as usize % 8, 3)).unwrap();
            let mut flood = p.flood;
            let mut moves = Vec::new();
            for step in 0.. {
                let nb = e.neighbours(&flood);
                if set::is_empty(&nb) {
                    break;
                }
                // the unions the A* shares among a flood's children, and its candidates,
                // here and after each single move (before the eliminations it may allow)
                let mut near = vec![set::empty::<2>(); e.colours()];
                let touching = unions_by_colour(&e, &nb, &mut near);
                let mut floods = vec![(flood, nb, touching)];
                for d in (0..e.colours()).filter(|&d| touching >> d & 1 != 0) {
                    let f = set::or(&flood, &set::and(&nb, e.of_colour(d)));
                    let nbf = e.neighbours(&f);
                    let mut scratch = near.clone();
                    floods.push((f, nbf, unions_by_colour(&e, &nbf, &mut scratch)));
                }
                for (f, nbf, t) in &floods {
                    let plain = (0..e.colours())
                        .filter(|&d| !set::is_empty(&set::and(nbf, e.of_colour(d))))
                        .fold(0u32, |m, d| m | 1 << d);
                    assert_eq!(*t, plain, "seed {seed} step {step}");
                    let (_, el) = bounds::colour_masks(&e, f, nbf);
                    let expected = if el != 0 { el & el.wrapping_neg() } else { *t };
                    let cands = candidates_among(&e, f, nbf, *t);
                    assert_eq!(cands, expected, "seed {seed} step {step}");
                    eliminations += (el != 0) as u32;
                }
                let (_, eliminable) = bounds::colour_masks(&e, &flood, &nb);
                if eliminable != 0 {
                    let c = eliminable.trailing_zeros() as u8;
                    (flood, _, _) = chain(&e, &flood, &nb, c, &mut moves);
                    continue;
                }
                // a settled parent; a pseudo-random move from it
                let cands = touching;
                let pick = (seed as usize * 7 + step * 3) % cands.count_ones() as usize;
                let a = (0..32u8).filter(|c| cands >> c & 1 != 0).nth(pick).unwrap();
                moves.clear();
                let (x, nbx, outside) = chain(&e, &flood, &nb, a, &mut moves);
                let mut again = Vec::new();
                let xs = chain_near(&e, &flood, &nb, a, &near[a as usize], &mut again);
                assert!(
                    xs == (x, nbx, outside) && again == moves,
                    "seed {seed} step {step}"
                );
                if moves.len() == 1 {
                    unions += 1;
                    let u = union_after_move(&e, &nb, &nbx, touching, &near, a);
                    assert!(u == e.union_adjacent(&nbx), "seed {seed} step {step}");
                }
                if let Some(guard) = order_guard(&e, &x, &flood, a) {
                    let gained_a = set::and_not(&x, &flood);
                    let mut bs = candidate_mask(&e, &x, &nbx);
                    while bs != 0 {
                        let b = bs.trailing_zeros() as u8;
                        bs &= bs - 1;
                        children += 1;
                        let gained = set::and(&nbx, e.of_colour(b as usize));
                        let (child, _, _) = chain(&e, &x, &nbx, b, &mut moves);
                        if !dominated(&e, &guard, &gained, a, &child) {
                            continue;
                        }
                        cuts += 1;
                        let near_a = e.union_adjacent(&gained_a);
                        touch_cuts += !set::is_empty(&set::and(&gained, &near_a)) as u32;
                        let (y, nby, _) = chain(&e, &flood, &nb, b, &mut moves);
                        let z = if set::is_empty(&set::and(&nby, e.of_colour(a as usize))) {
                            y
                        } else {
                            chain(&e, &y, &nby, a, &mut moves).0
                        };
                        assert!(set::subset(&child, &z), "seed {seed} step {step}");
                        assert!(z != child, "seed {seed} step {step}: not larger");
                    }
                }
                flood = x;
            }
        }
        assert!(
            cuts > 300 && touch_cuts > 200,
            "{cuts} cuts ({touch_cuts} touching) of {children}"
        );
        assert!(unions > 1000, "{unions} single moves");
        assert!(
            eliminations > 300,
            "{eliminations} floods with an elimination"
        );
    }

    /// The per-colour unions of [`unions_by_colour`] are the plain unions of each colour's
    /// neighbours of the flood, on four-word engines whose regions fill more than one word,
    /// along greedy games from random start cells; every other entry is emptied.
    #[test]
    fn the_unions_by_colour_are_the_plain_unions() {
        let (mut floods, mut entries, mut multi_word) = (0, 0, 0);
        for seed in 0..60u64 {
            let g = crate::generate::generate(14, 14, 4 + (seed % 5) as usize, seed);
            let start = (seed as usize % 14, (seed as usize * 5) % 14);
            let (e, p) = Engine::<4>::new(&g, start).unwrap();
            let mut pos = p;
            let mut near = vec![[u64::MAX; 4]; e.colours()];
            for c in greedy(&e, &p) {
                let nb = e.neighbours(&pos.flood);
                let touching = unions_by_colour(&e, &nb, &mut near);
                floods += 1;
                multi_word += (nb.iter().filter(|&&w| w != 0).count() > 1) as u32;
                for (d, near_d) in near.iter().enumerate() {
                    let of_d = set::and(&nb, e.of_colour(d));
                    assert_eq!(touching >> d & 1 == 1, !set::is_empty(&of_d), "seed {seed}");
                    assert_eq!(*near_d, e.union_adjacent(&of_d), "seed {seed} colour {d}");
                    entries += 1;
                }
                pos = e.play(&pos, c).expect("the greedy line is legal");
            }
        }
        assert!(
            floods > 1000 && entries > 5000,
            "{floods} floods, {entries} entries"
        );
        assert!(
            multi_word > 500,
            "only {multi_word} floods with neighbours in two words"
        );
    }
}
