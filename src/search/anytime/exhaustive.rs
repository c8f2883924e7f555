//! The exact best value of a small position, by depth-first search with a table.

use rustc_hash::FxHashMap;

use super::control::Control;
use super::scored::{Scored, WORST};

/// The best value reachable from `start`, exactly: a depth-first search over positions with
/// a table of solved ones. Gives up (`None`) past `max_positions` distinct positions or when
/// `ctl` says stop; otherwise returns the optimal value and a line reaching it.
pub fn exhaustive<P: Scored>(
    p: &P,
    start: &P::State,
    max_positions: usize,
    ctl: &Control<P::Move>,
) -> Option<(i64, Vec<P::Move>)> {
    struct Ctx<'a, 'c, P: Scored> {
        p: &'a P,
        ctl: &'a Control<'c, P::Move>,
        /// Keyed by the position itself: a hash collision cannot lend one position
        /// another's value, so the value returned is exact.
        memo: FxHashMap<P::State, i64>,
        max: usize,
    }
    impl<P: Scored> Ctx<'_, '_, P> {
        /// The best value still to come from `s`.
        fn value(&mut self, s: &P::State) -> Option<i64> {
            if let Some(&v) = self.memo.get(s) {
                return Some(v);
            }
            if self.memo.len() >= self.max || (self.memo.len() & 0x3ff == 0 && self.ctl.done()) {
                return None;
            }
            let mut moves = Vec::new();
            self.p.moves(s, &mut moves);
            let mut best = if moves.is_empty() {
                self.p.terminal(s)
            } else {
                WORST
            };
            for m in &moves {
                let child = self.p.play(s, m);
                best = best.max(self.p.reward(s, m) + self.value(&child)?);
            }
            self.memo.insert(s.clone(), best);
            Some(best)
        }
    }
    let mut ctx = Ctx {
        p,
        ctl,
        memo: FxHashMap::default(),
        max: max_positions,
    };
    let target = ctx.value(start)?;
    // Walk the table down an optimal line.
    let mut s = start.clone();
    let mut line = Vec::new();
    let mut moves = Vec::new();
    let mut here = target;
    loop {
        moves.clear();
        p.moves(&s, &mut moves);
        if moves.is_empty() {
            break;
        }
        let (m, child, v) = moves
            .iter()
            .map(|m| {
                let c = p.play(&s, m);
                let v = ctx.memo[&c];
                (m.clone(), c, v)
            })
            .find(|(m, _, v)| p.reward(&s, m) + v == here)
            .expect("the table holds an optimal line");
        here = v;
        line.push(m);
        s = child;
    }
    ctl.offer(target, &line);
    Some((target, line))
}
