//! Nested Rollout Policy Adaptation (Rosin 2011) over a [`Scored`] puzzle.

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use super::control::Control;
use super::scored::Scored;

/// NRPA from `start` on `threads` threads (of the pool it is called in), restarted until
/// `ctl` says stop.
pub(super) fn nrpa_until_done<P: Scored>(
    p: &P,
    start: &P::State,
    threads: usize,
    ctl: &Control<P::Move>,
) {
    (0..threads.max(1)).into_par_iter().for_each(|t| {
        let mut nrpa = Nrpa::new(p, start, ctl, 0x9e37_79b9 + t as u64 * 0x1234_5679);
        while !ctl.done() {
            nrpa.run(nrpa_level(p, start));
        }
    });
}

/// A level for NRPA: 3, or 2 for tiny boards (where level 3 would only repeat itself).
fn nrpa_level<P: Scored>(p: &P, start: &P::State) -> usize {
    let mut m = Vec::new();
    p.moves(start, &mut m);
    if m.len() < 8 {
        2
    } else {
        3
    }
}

/// NRPA's policy: a weight per move code.
type Policy = FxHashMap<u64, f64>;

/// A playout (its moves are offered to the [`Control`] as it ends): its value, and the
/// codes of the legal moves at every step, the chosen one first.
struct Rollout {
    value: i64,
    codes: Vec<Vec<u64>>,
}

/// Nested Rollout Policy Adaptation for one thread.
struct Nrpa<'a, 'c, P: Scored> {
    p: &'a P,
    start: &'a P::State,
    ctl: &'a Control<'c, P::Move>,
    rng: fastrand::Rng,
    moves: Vec<P::Move>,
    weights: Vec<f64>,
}

/// Iterations per level.
const NRPA_ITERATIONS: usize = 100;
/// Policy learning rate.
const NRPA_ALPHA: f64 = 1.0;

impl<'a, 'c, P: Scored> Nrpa<'a, 'c, P> {
    fn new(p: &'a P, start: &'a P::State, ctl: &'a Control<'c, P::Move>, seed: u64) -> Self {
        Nrpa {
            p,
            start,
            ctl,
            rng: fastrand::Rng::with_seed(seed),
            moves: Vec::new(),
            weights: Vec::new(),
        }
    }

    fn run(&mut self, level: usize) -> Option<Rollout> {
        let mut policy = Policy::default();
        self.level(level, &mut policy)
    }

    fn level(&mut self, level: usize, policy: &mut Policy) -> Option<Rollout> {
        if level == 0 {
            return Some(self.playout(policy));
        }
        let mut best: Option<Rollout> = None;
        for _ in 0..NRPA_ITERATIONS {
            if self.ctl.done() {
                break;
            }
            let mut inner = policy.clone();
            if let Some(r) = self.level(level - 1, &mut inner) {
                if best.as_ref().is_none_or(|b| r.value >= b.value) {
                    best = Some(r);
                }
            }
            if let Some(b) = &best {
                adapt(policy, b);
            }
        }
        best
    }

    fn playout(&mut self, policy: &Policy) -> Rollout {
        let mut s = self.start.clone();
        let mut value = 0;
        let mut moves = Vec::new();
        let mut codes = Vec::new();
        loop {
            self.moves.clear();
            self.p.moves(&s, &mut self.moves);
            if self.moves.is_empty() {
                value += self.p.terminal(&s);
                break;
            }
            self.weights.clear();
            let mut step: Vec<u64> = Vec::with_capacity(self.moves.len());
            let mut z = 0.0;
            for m in &self.moves {
                let c = self.p.code(&s, m);
                let w = policy.get(&c).copied().unwrap_or(0.0).exp();
                z += w;
                self.weights.push(w);
                step.push(c);
            }
            let mut r = self.rng.f64() * z;
            let mut pick = self.moves.len() - 1;
            for (i, w) in self.weights.iter().enumerate() {
                if r < *w {
                    pick = i;
                    break;
                }
                r -= w;
            }
            step.swap(0, pick);
            let m = self.moves[pick].clone();
            value += self.p.reward(&s, &m);
            s = self.p.play(&s, &m);
            moves.push(m);
            codes.push(step);
        }
        self.ctl.add_work(moves.len() + 1);
        self.ctl.offer(value, &moves);
        Rollout { value, codes }
    }
}

/// Moves the policy toward the rollout `best`: raise each chosen move's weight, lower every
/// legal alternative's by its probability.
fn adapt(policy: &mut Policy, best: &Rollout) {
    let old = policy.clone();
    for step in &best.codes {
        let z: f64 = step
            .iter()
            .map(|c| old.get(c).copied().unwrap_or(0.0).exp())
            .sum();
        *policy.entry(step[0]).or_insert(0.0) += NRPA_ALPHA;
        for c in step {
            let p = old.get(c).copied().unwrap_or(0.0).exp() / z;
            *policy.entry(*c).or_insert(0.0) -= NRPA_ALPHA * p;
        }
    }
}
