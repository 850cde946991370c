//! The shipped RoboRally boards (RR1.5), compiled in from `configs/boards/roborally/` so
//! the binary works from any directory, and the loading of a board by name or path.

use super::board::Board;
use super::grid::parse_board_file;
use crate::games::shared::robo::shipped::{Shipped, grid_arena};
use std::sync::Arc;

/// The shipped boards as (name, file text), in RR1.5's order.
pub const SHIPPED: [(&str, &str); 4] = [
    (
        "dock-sprint",
        include_str!("../../../configs/boards/roborally/dock-sprint.toml"),
    ),
    (
        "twin-lanes",
        include_str!("../../../configs/boards/roborally/twin-lanes.toml"),
    ),
    (
        "burn-yard",
        include_str!("../../../configs/boards/roborally/burn-yard.toml"),
    ),
    (
        "merge-works",
        include_str!("../../../configs/boards/roborally/merge-works.toml"),
    ),
];

/// The shipped boards, how a board file is read, and how `boards show` draws one.
pub static BOARDS: Shipped<Board> = Shipped {
    game: "RoboRally",
    noun: "board",
    folder: "configs/boards/roborally",
    files: &SHIPPED,
    parse: |text, file| parse_board_file(text, file).map_err(|e| e.to_string()),
    cell_width: 6,
    legend: "Legend: . floor  P pit  R1-R3 repair (hp)  F1-F3 flags  H finish  S1-S8 starts\n\
             cN cE cS cW slow belt  CN CE CS CW fast belt  G+ G- GU gear (right, left, 180)\n\
             [NESW] walls on those sides  @D laser firing towards D, strength 1-3 hp\n",
};

grid_arena!(Board);

/// The board named `name` (a shipped board) or at the path `name`.
pub fn load(name: &str) -> Result<Arc<Board>, String> {
    BOARDS.load(name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::roborally::board::{Gear, Tile};

    /// RR1.5: every shipped board is 12x12, has S1..S8, a flag, H, both belt speeds, every
    /// gear, lasers of each strength, repair of each size, pits and walls, and every target
    /// is reachable on foot from every start.
    #[test]
    fn shipped_boards_have_every_element_and_reachable_targets() {
        for (name, _) in SHIPPED {
            let b = load(name).unwrap();
            assert_eq!((b.width(), b.height()), (12, 12), "{name}");
            assert_eq!(b.starts().len(), 8, "{name}");
            assert!(!b.flags().is_empty() && b.finish().is_some(), "{name}");
            assert!(b.targets_reachable(), "{name}");
            let tiles: Vec<Tile> = b.squares().iter().map(|s| s.tile).collect();
            let has = |t: Tile| tiles.contains(&t);
            for g in [Gear::Right, Gear::Left, Gear::UTurn] {
                assert!(has(Tile::Gear(g)), "{name} {g:?}");
            }
            for n in 1..=3 {
                assert!(has(Tile::Repair(n)), "{name} R{n}");
                assert!(
                    b.lasers().iter().any(|(_, l)| l.strength == n),
                    "{name} @{n}"
                );
            }
            for fast in [false, true] {
                assert!(
                    tiles
                        .iter()
                        .any(|t| matches!(t, Tile::Belt { fast: f, .. } if *f == fast)),
                    "{name}"
                );
            }
            assert!(has(Tile::Pit), "{name}");
            assert!(b.squares().iter().any(|s| !s.walls.is_empty()), "{name}");
            assert!(BOARDS.render(&b).contains("Legend"));
        }
    }
}
