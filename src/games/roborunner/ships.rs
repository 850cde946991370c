//! The shipped Robo Runner ships (RN2.6), compiled in from `configs/ships/` so the binary
//! works from any directory, and the loading of a ship by name or path.

use super::ship::{Ship, parse_ship_file};
use crate::games::shared::robo::shipped::{Shipped, grid_arena};
use std::sync::Arc;

/// The shipped ships as (name, file text): the two of the rules' appendix, then our own.
pub const SHIPPED: [(&str, &str); 4] = [
    (
        "hull-walk",
        include_str!("../../../configs/ships/hull-walk.toml"),
    ),
    (
        "twin-bays",
        include_str!("../../../configs/ships/twin-bays.toml"),
    ),
    (
        "spine-run",
        include_str!("../../../configs/ships/spine-run.toml"),
    ),
    (
        "bay-ring",
        include_str!("../../../configs/ships/bay-ring.toml"),
    ),
];

/// The shipped ships, how a ship file is read, and how `boards show` draws one.
pub static SHIPS: Shipped<Ship> = Shipped {
    game: "Robo Runner",
    noun: "ship",
    folder: "configs/ships",
    files: &SHIPPED,
    parse: |text, file| parse_ship_file(text, file).map_err(|e| e.to_string()),
    cell_width: 7,
    legend: "Legend: . hull  A airlock  In / In:r inspection point n (r welds)  R1 R2 depot\n\
             Twd tractor beam warp w towards d  twd turning beam  G+ G- twister  Xp Xr Xb Xy transporter\n\
             H thruster  Ldigits launch bay closed in those phases  P cooling shaft  ~ space\n\
             [N] rail  [N!] power coupling  [Nd] docking arm  [N24] slide rail open in phases 2 and 4\n",
};

grid_arena!(Ship);

/// The ship named `name` (a shipped ship) or at the path `name`.
pub fn load(name: &str) -> Result<Arc<Ship>, String> {
    SHIPS.load(name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::roborunner::ship::{Base, to_file};

    /// RN2.6: every shipped ship loads, round-trips, has its inspection points reachable
    /// from the airlock, and the appendix ships have their sizes.
    #[test]
    fn shipped_ships_load_round_trip_and_reach_every_inspection_point() {
        for (name, _) in SHIPPED {
            let ship = load(name).unwrap();
            assert!(ship.ips_reachable(), "{name}");
            assert!(ship.airlock().is_some(), "{name}");
            let again = parse_ship_file(&to_file(&ship), "again.toml").unwrap();
            assert_eq!(again.grid, ship.grid, "{name}");
            assert!(SHIPS.render(&ship).contains("Legend"));
        }
        let hull = load("hull-walk").unwrap();
        assert_eq!((hull.width(), hull.height()), (12, 12));
        assert_eq!(hull.ips().len(), 3);
        assert_eq!(
            hull.tile(hull.ips()[1]),
            Some(Base::Ip { n: 2, repairs: 2 })
        );
        let twin = load("twin-bays").unwrap();
        assert_eq!((twin.width(), twin.height()), (16, 12));
        assert_eq!(twin.ips().len(), 4);
    }
}
