//! Positions and clicks: [`ClickBoard`] (one bit set per colour), [`Click`], the grid
//! conversions, and the groups of a position.

use super::edge_terms::EdgeKnown;
use super::ClickGame;
use crate::bits::Bits;
use crate::grid::{Grid, MAX_COLOURS};
use crate::rules::Clickable;

/// A position of a click game: one bit set per colour (`planes[c]` is colour `c + 1`).
/// Two positions are equal when their tiles are.
#[derive(Clone, Copy, Debug)]
pub struct ClickBoard<B> {
    pub occupied: B,
    pub planes: [B; MAX_COLOURS],
    /// What the search already knows of the position's edge bound (see [`EdgeKnown`]).
    pub(super) edge: EdgeKnown,
}

impl<B: Bits> PartialEq for ClickBoard<B> {
    fn eq(&self, other: &Self) -> bool {
        self.occupied == other.occupied && self.planes == other.planes
    }
}

impl<B: Bits> Eq for ClickBoard<B> {}

impl<B: Bits> std::hash::Hash for ClickBoard<B> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.occupied.hash(state);
        self.planes.hash(state);
    }
}

impl<B: Bits> ClickBoard<B> {
    /// Number of tiles on the board.
    pub fn tiles(&self) -> u32 {
        self.occupied.count()
    }
    /// Is the board empty?
    pub fn is_empty(&self) -> bool {
        self.occupied.is_empty()
    }
}

/// A click: the lowest cell of the group (lowest column, then lowest row), its colour
/// (`1..=K`) and size, and the group's column range.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Click {
    pub cell: u16,
    pub colour: u8,
    pub size: u16,
    pub x0: u8,
    pub x1: u8,
}

impl<B: Bits> ClickGame<B> {
    /// The position of a grid of the same size and palette.
    pub fn board(&self, grid: &Grid) -> ClickBoard<B> {
        let mut b = ClickBoard {
            occupied: B::EMPTY,
            planes: [B::EMPTY; MAX_COLOURS],
            edge: EdgeKnown::NOTHING,
        };
        for x in 0..grid.width() {
            for y in 0..grid.height() {
                let c = grid.get(x, y);
                if c != 0 {
                    let i = self.geom.index(x, y);
                    b.occupied.insert(i);
                    b.planes[c as usize - 1].insert(i);
                }
            }
        }
        b
    }

    /// The position as a grid (with the game's palette).
    pub fn grid(&self, b: &ClickBoard<B>) -> Grid {
        let (w, h) = (self.geom.width, self.geom.height);
        let mut cells = vec![0u8; w * h];
        for c in 0..self.colours {
            for i in b.planes[c].iter() {
                let (x, y) = self.geom.coords(i);
                cells[y * w + x] = c as u8 + 1;
            }
        }
        Grid::from_cells(w, h, cells, self.palette.clone())
    }

    /// Calls `f(click, group)` for every clickable group under the rules.
    #[inline]
    pub fn for_each_group(&self, b: &ClickBoard<B>, mut f: impl FnMut(Click, B)) {
        self.for_each_raw_group(b, |c, _, group, size| {
            f(self.click_of(group, c, size), group);
            false
        });
    }

    /// Calls `f(colour index, plane, group, size)` for every clickable group under the
    /// rules, without building its [`Click`]; stops, and returns `true`, when `f` does.
    #[inline(always)]
    pub(super) fn for_each_raw_group(
        &self,
        b: &ClickBoard<B>,
        mut f: impl FnMut(usize, B, B, u32) -> bool,
    ) -> bool {
        let g = &self.geom;
        for (c, &plane) in b.planes[..self.colours].iter().enumerate() {
            if plane.is_empty() {
                continue;
            }
            let mut seeds = match self.rules.clickable {
                Clickable::Any => plane,
                Clickable::Bottom => plane & g.bottom,
            };
            while let Some(i) = seeds.first() {
                let group = g.flood(B::single(i), plane);
                seeds = seeds.without(group);
                let size = group.count();
                if size >= self.rules.min_group && f(c, plane, group, size) {
                    return true;
                }
            }
        }
        false
    }

    /// Every clickable group, as (click, cells).
    pub fn groups(&self, b: &ClickBoard<B>) -> Vec<(Click, B)> {
        let mut out = Vec::new();
        self.for_each_group(b, |c, g| out.push((c, g)));
        out
    }

    /// The group containing `(x, y)`, whether or not it may be clicked.
    pub fn group_at(&self, b: &ClickBoard<B>, x: usize, y: usize) -> Option<(Click, B)> {
        if x >= self.geom.width || y >= self.geom.height {
            return None;
        }
        let i = self.geom.index(x, y);
        let c = (0..self.colours).find(|&c| b.planes[c].has(i))?;
        let group = self.geom.flood(B::single(i), b.planes[c]);
        let first = group.first().unwrap_or(i);
        let cols = self.geom.column_set(group);
        Some((
            Click {
                cell: first as u16,
                colour: c as u8 + 1,
                size: group.count() as u16,
                x0: cols.trailing_zeros() as u8,
                x1: (63 - cols.leading_zeros()) as u8,
            },
            group,
        ))
    }

    /// Why the group at `(x, y)` may not be clicked, or `Ok` with it.
    pub fn legal_click(&self, b: &ClickBoard<B>, x: usize, y: usize) -> Result<(Click, B), String> {
        if x >= self.geom.width || y >= self.geom.height {
            return Err(format!(
                "({x},{y}) is outside the {}×{} board",
                self.geom.width, self.geom.height
            ));
        }
        let (click, group) = self
            .group_at(b, x, y)
            .ok_or_else(|| format!("({x},{y}) is an empty cell"))?;
        if self.rules.clickable == Clickable::Bottom && !group.meets(self.geom.bottom) {
            return Err(format!(
                "the group at ({x},{y}) does not touch the bottom row"
            ));
        }
        if (click.size as u32) < self.rules.min_group {
            return Err(format!(
                "the group at ({x},{y}) has {} tile(s); the smallest clickable group is {}",
                click.size, self.rules.min_group
            ));
        }
        Ok((click, group))
    }

    /// May `group` be clicked under the rules (size and bottom row)?
    #[inline]
    pub(super) fn clickable(&self, group: B) -> bool {
        group.count() >= self.rules.min_group
            && (self.rules.clickable == Clickable::Any || group.meets(self.geom.bottom))
    }

    /// The click describing `group` (of 0-based colour `c`, `size` tiles).
    #[inline]
    pub(super) fn click_of(&self, group: B, c: usize, size: u32) -> Click {
        let g = &self.geom;
        let first = group.first().expect("a group is not empty");
        let (x0, x1) = g.columns_of(group);
        Click {
            cell: first as u16,
            colour: c as u8 + 1,
            size: size as u16,
            x0: x0 as u8,
            x1: x1 as u8,
        }
    }

    /// The `(x, y)` of a click's cell.
    pub fn click_xy(&self, c: &Click) -> (usize, usize) {
        self.geom.coords(c.cell as usize)
    }
}
