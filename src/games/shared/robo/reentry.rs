//! Where a destroyed robot of the RoboRally family comes back (R13.2, R13.3): its re-entry
//! square if free, else the free squares of the ring around it; and, when robots re-enter
//! together, the square each one takes.

use crate::games::shared::grid::Pos;

/// What the RoboRally family asks of a square: the squares a robot may re-enter around it.
impl Pos {
    /// The 8 squares around this one in re-entry order N, NE, E, SE, S, SW, W, NW.
    pub fn ring(self) -> [Pos; 8] {
        let Pos { x, y } = self;
        [
            Pos::new(x, y - 1),
            Pos::new(x + 1, y - 1),
            Pos::new(x + 1, y),
            Pos::new(x + 1, y + 1),
            Pos::new(x, y + 1),
            Pos::new(x - 1, y + 1),
            Pos::new(x - 1, y),
            Pos::new(x - 1, y - 1),
        ]
    }
}

/// The squares a robot re-entering at `archive` is offered (R13.2/R13.3): `archive` if
/// `is_free`, else the free squares of its ring in ring order (empty: it waits a turn).
pub fn reentry_options(archive: Pos, is_free: impl Fn(Pos) -> bool) -> Vec<Pos> {
    if is_free(archive) {
        return vec![archive];
    }
    archive.ring().into_iter().filter(|p| is_free(*p)).collect()
}

/// The square a re-entering robot takes (R13.3): the one it chose (`wanted`) if still free,
/// else the first still-free one of its `options` (a lower seat took it this phase); `None`:
/// it waits a turn.
pub fn reentry_square(wanted: Pos, options: &[Pos], is_free: impl Fn(Pos) -> bool) -> Option<Pos> {
    if is_free(wanted) {
        Some(wanted)
    } else {
        options.iter().copied().find(|p| is_free(*p))
    }
}
