//! The StarShip hull a Robo Runner game is played on (RN2): the square types (bases), the
//! rails on square sides (guard rails, power couplings, docking arms, slide rails), the
//! file format with every problem located at its cell, and the questions the rules ask of
//! a ship (holes, closed rails, the transporter networks, the distance to a square).
//!
//! A [`Ship`] is immutable once built and shared between games; the state of the hull
//! (welds left at each inspection point) lives in the game.

use crate::games::shared::grid::{Direction, Pos};
/// Largest width or height of a ship (that of every grid file).
pub use crate::games::shared::robo::file::MAX_SIDE;
use crate::games::shared::robo::file::{FileProblem, GridFile, read_rows};
pub use crate::games::shared::robo::file::{GridAt, string_origin};
use crate::games::shared::robo::{Grid, Square, Walls};
use crate::games::shared::scenario::Located;
use std::collections::VecDeque;
use thiserror::Error;
/// Most inspection points.
pub const MAX_IPS: u8 = 9;
/// A distance meaning "unreachable" (RN18.2).
pub const FAR: u16 = 999;

/// Which way a twister turns (RN9.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Spin {
    Right,
    Left,
}

impl Spin {
    pub fn apply(self, d: Direction) -> Direction {
        match self {
            Spin::Right => d.right(),
            Spin::Left => d.left(),
        }
    }

    pub fn letter(self) -> &'static str {
        match self {
            Spin::Right => "R",
            Spin::Left => "L",
        }
    }
}

/// The transporter networks, in RN15.1's order.
pub const NETWORKS: [char; 4] = ['p', 'r', 'b', 'y'];

/// The type of a square (RN2.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Base {
    Hull,
    Airlock,
    /// Inspection point `n` (1..=9) needing `repairs` welds (0..=9) with hull damage.
    Ip {
        n: u8,
        repairs: u8,
    },
    /// A repair depot of value 1 or 2.
    Depot(u8),
    /// A tractor beam of warp 1..=3 pulling towards `dir`; a turning one turns robots
    /// pulled onto it from its side (RN9.2).
    Beam {
        warp: u8,
        dir: Direction,
        turning: bool,
    },
    Twister(Spin),
    /// A transporter of network 0..=3 (`p r b y`).
    Transporter(u8),
    Thruster,
    /// A launch bay whose doors are closed in the phases of the bit mask (bit p for phase p).
    Bay(u8),
    /// A cooling shaft (a hole).
    Shaft,
    /// Open space (a hole).
    Space,
}

/// The kind of a rail on a square side (RN2.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
pub enum RailKind {
    Guard,
    /// A guard rail with a power coupling: it shocks a robot it stops (1 damage).
    Coupling,
    /// A docking arm: a guard rail whose arm pushes robots on its own square away.
    Arm,
    /// A slide rail, open in the phases of the bit mask (bit p for phase p).
    Slide(u8),
}

impl RailKind {
    /// Whether the rail stops robots and beams in phase `phase` (0 outside phases).
    pub fn closed(self, phase: u8) -> bool {
        match self {
            RailKind::Slide(open) => open & (1 << phase) == 0,
            _ => true,
        }
    }

    pub fn name(self) -> &'static str {
        self.into()
    }
}

/// One side of one square: the rail on it (written on this square or on the neighbour).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rail {
    pub kind: RailKind,
    /// Written on this square (an arm pushes only robots on its own square).
    pub own: bool,
}

/// The phases of a bit mask as digits, `24` for phases 2 and 4.
pub fn phase_digits(mask: u8) -> String {
    (1..=5)
        .filter(|p| mask & (1 << p) != 0)
        .map(|p| char::from(b'0' + p))
        .collect()
}

/// What is wrong at a place of a ship file.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ShipProblem {
    #[error("unknown token {token:?}: expected {CELL_SYNTAX}")]
    UnknownToken { token: String },
    #[error(
        "unknown side item {item:?} in {token:?}: expected a side N E S W then nothing, !, d or phase digits"
    )]
    UnknownItem { token: String, item: String },
    #[error("the ship has {count} airlocks: expected exactly one A")]
    Airlocks { count: usize },
    #[error("{problem}: expected inspection points I1..Ik (k >= 1), each once")]
    Ips { problem: String },
    #[error(
        "side {side} of {token:?} is written twice: expected each side on one of its two squares, once"
    )]
    SideTwice { token: String, side: char },
    #[error("two docking arms in {token:?}: expected at most one arm on a square")]
    TwoArms { token: String },
    #[error("a docking arm on {token:?}: expected arms on squares that are not P, ~ or L")]
    ArmOnHole { token: String },
    #[error("transporter network {network} has one transporter: expected two or more")]
    LoneTransporter { network: char },
    #[error("phase digits {digits:?} in {token:?}: expected phases strictly ascending in 1..5")]
    Phases { token: String, digits: String },
    /// The file's keys, or the shape of its grid.
    #[error(transparent)]
    File(#[from] FileProblem),
}

/// The cell syntax, for messages.
pub const CELL_SYNTAX: &str = "a base (. A I1-I9 I1:1-I9:9 R1 R2 T1N..T3W t1N..t3W G+ G- Xp Xr Xb Xy H L1..L12345 P ~) \
optionally followed by [sides]";

pub type ShipError = Located<ShipProblem>;

/// One parsed cell: its base and the side items written on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cell {
    pub base: Base,
    pub sides: [Option<RailKind>; 4],
}

/// Phase digits (`"24"`) as a bit mask; `None` unless strictly ascending in 1..5.
fn phases(digits: &str) -> Option<u8> {
    let mut mask = 0u8;
    let mut last = 0u8;
    for c in digits.bytes() {
        let p = c.wrapping_sub(b'0');
        if !(1..=5).contains(&p) || p <= last {
            return None;
        }
        mask |= 1 << p;
        last = p;
    }
    (!digits.is_empty()).then_some(mask)
}

/// Parses one cell token (RN2.2, RN2.3).
pub fn parse_cell(token: &str) -> Result<Cell, ShipProblem> {
    let unknown = || ShipProblem::UnknownToken {
        token: token.to_owned(),
    };
    let (head, sides) = match token.find('[') {
        Some(i) => (&token[..i], Some(&token[i..])),
        None => (token, None),
    };
    let b = head.as_bytes();
    let digit = |i: usize| b.get(i).map(|d| d.wrapping_sub(b'0'));
    let dir = |i: usize| {
        head.get(i..i + 1)
            .and_then(|s| s.chars().next())
            .and_then(Direction::from_letter)
    };
    let base = match head {
        "." => Base::Hull,
        "A" => Base::Airlock,
        "H" => Base::Thruster,
        "P" => Base::Shaft,
        "~" => Base::Space,
        "G+" => Base::Twister(Spin::Right),
        "G-" => Base::Twister(Spin::Left),
        "R1" => Base::Depot(1),
        "R2" => Base::Depot(2),
        _ if head.starts_with('I') => {
            let n = digit(1)
                .filter(|n| (1..=MAX_IPS).contains(n))
                .ok_or_else(unknown)?;
            let repairs = match &head[2..] {
                "" => 0,
                rest => {
                    let r = rest.strip_prefix(':').ok_or_else(unknown)?;
                    match r.as_bytes() {
                        [d @ b'1'..=b'9'] => d - b'0',
                        _ => return Err(unknown()),
                    }
                }
            };
            Base::Ip { n, repairs }
        }
        _ if (head.starts_with('T') || head.starts_with('t')) && head.len() == 3 => {
            let warp = digit(1)
                .filter(|w| (1..=3).contains(w))
                .ok_or_else(unknown)?;
            Base::Beam {
                warp,
                dir: dir(2).ok_or_else(unknown)?,
                turning: b[0] == b't',
            }
        }
        _ if head.starts_with('X') && head.len() == 2 => {
            let c = char::from(b[1]);
            let network = NETWORKS.iter().position(|n| *n == c).ok_or_else(unknown)?;
            Base::Transporter(network as u8)
        }
        _ if head.starts_with('L') && head.len() > 1 => {
            let digits = &head[1..];
            if !digits.bytes().all(|c| c.is_ascii_digit()) {
                return Err(unknown());
            }
            let mask = phases(digits).ok_or_else(|| ShipProblem::Phases {
                token: token.to_owned(),
                digits: digits.to_owned(),
            })?;
            Base::Bay(mask)
        }
        _ => return Err(unknown()),
    };
    let mut cell = Cell {
        base,
        sides: [None; 4],
    };
    let Some(sides) = sides else {
        return Ok(cell);
    };
    let inner = sides
        .strip_prefix('[')
        .and_then(|s| s.strip_suffix(']'))
        .filter(|s| !s.is_empty() && !s.contains(['[', ']']))
        .ok_or_else(unknown)?;
    let item_error = |item: &str| ShipProblem::UnknownItem {
        token: token.to_owned(),
        item: item.to_owned(),
    };
    // Items: a side letter followed by nothing, `!`, `d` or digits.
    let chars: Vec<char> = inner.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let Some(side) = Direction::from_letter(chars[i]) else {
            return Err(item_error(&chars[i..].iter().collect::<String>()));
        };
        let mut j = i + 1;
        while j < chars.len() && Direction::from_letter(chars[j]).is_none() {
            j += 1;
        }
        let rest: String = chars[i + 1..j].iter().collect();
        let kind = match rest.as_str() {
            "" => RailKind::Guard,
            "!" => RailKind::Coupling,
            "d" => RailKind::Arm,
            digits if digits.bytes().all(|c| c.is_ascii_digit()) => {
                let mask = phases(digits).ok_or_else(|| ShipProblem::Phases {
                    token: token.to_owned(),
                    digits: digits.to_owned(),
                })?;
                RailKind::Slide(mask)
            }
            _ => return Err(item_error(&chars[i..j].iter().collect::<String>())),
        };
        let slot = &mut cell.sides[side.index() as usize];
        if slot.is_some() {
            return Err(ShipProblem::SideTwice {
                token: token.to_owned(),
                side: side.letter(),
            });
        }
        *slot = Some(kind);
        i = j;
    }
    let arms = cell
        .sides
        .iter()
        .filter(|s| **s == Some(RailKind::Arm))
        .count();
    if arms > 1 {
        return Err(ShipProblem::TwoArms {
            token: token.to_owned(),
        });
    }
    if arms == 1 && matches!(cell.base, Base::Shaft | Base::Space | Base::Bay(_)) {
        return Err(ShipProblem::ArmOnHole {
            token: token.to_owned(),
        });
    }
    Ok(cell)
}

/// An immutable ship: its squares (a [`Grid`], what the ship derefs to), rails, airlock,
/// inspection points, depots and transporter networks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ship {
    pub name: String,
    pub description: String,
    cells: Grid<Base>,
    /// The grid as written (its rows joined by newlines, one space between cells).
    pub grid: String,
    /// Per square, per side N E S W: the rail there.
    rails: Vec<[Option<Rail>; 4]>,
    airlock: Option<Pos>,
    /// Inspection points I1..Ik.
    ips: Vec<Pos>,
    depots: Vec<Pos>,
    /// Per network p r b y: its transporters in row-major order.
    networks: [Vec<Pos>; 4],
}

impl std::ops::Deref for Ship {
    type Target = Grid<Base>;

    #[inline]
    fn deref(&self) -> &Grid<Base> {
        &self.cells
    }
}

impl Ship {
    pub fn airlock(&self) -> Option<Pos> {
        self.airlock
    }

    pub fn ips(&self) -> &[Pos] {
        &self.ips
    }

    /// The welds inspection point `n` (1-based) needs with hull damage.
    pub fn ip_repairs(&self, n: u8) -> u8 {
        match self.tile(self.ips[n as usize - 1]) {
            Some(Base::Ip { repairs, .. }) => repairs,
            _ => 0,
        }
    }

    pub fn depots(&self) -> &[Pos] {
        &self.depots
    }

    pub fn networks(&self) -> &[Vec<Pos>; 4] {
        &self.networks
    }

    /// The rail on side `dir` of the on-grid square `p`.
    #[inline]
    pub fn rail(&self, p: Pos, dir: Direction) -> Option<Rail> {
        self.rails[self.index(p)][dir.index() as usize]
    }

    /// Whether a closed rail stands on side `dir` of `p` in `phase`, and its kind.
    #[inline]
    pub fn closed_rail(&self, p: Pos, dir: Direction, phase: u8) -> Option<RailKind> {
        self.rail(p, dir)
            .map(|r| r.kind)
            .filter(|k| k.closed(phase))
    }

    /// The side of `p` whose arm (written on `p`) pushes robots there.
    pub fn arm(&self, p: Pos) -> Option<Direction> {
        Direction::ALL.into_iter().find(|d| {
            self.rail(p, *d)
                .is_some_and(|r| r.own && r.kind == RailKind::Arm)
        })
    }

    /// How a robot falls at `p` in `phase` if it is a hole (RN2.5): `shaft`, `space`, `bay`.
    pub fn hole(&self, p: Pos, phase: u8) -> Option<&'static str> {
        match self.tile(p) {
            None | Some(Base::Space) => Some("space"),
            Some(Base::Shaft) => Some("shaft"),
            Some(Base::Bay(closed)) if closed & (1 << phase) == 0 => Some("bay"),
            _ => None,
        }
    }

    /// Builds a ship from parsed cells row by row; the reader checked the counts.
    fn build(
        name: &str,
        description: &str,
        width: usize,
        height: usize,
        cells: Vec<Cell>,
        grid: String,
    ) -> Ship {
        let (w, h) = (width as i32, height as i32);
        let squares: Vec<Square<Base>> = cells
            .iter()
            .map(|c| {
                let mut sq = Square::new(c.base);
                sq.walls = Direction::ALL
                    .into_iter()
                    .filter(|d| c.sides[d.index() as usize].is_some())
                    .fold(Walls::NONE, Walls::with);
                sq
            })
            .collect();
        let grid_cells = Grid::new(w, h, squares);
        let mut rails = vec![[None; 4]; cells.len()];
        for (i, c) in cells.iter().enumerate() {
            let at = grid_cells.pos(i);
            for d in Direction::ALL {
                if let Some(kind) = c.sides[d.index() as usize] {
                    rails[i][d.index() as usize] = Some(Rail { kind, own: true });
                    let n = at.step(d);
                    if grid_cells.contains(n) {
                        // A neighbour's arm is a plain rail on this side.
                        let kind = if kind == RailKind::Arm {
                            RailKind::Guard
                        } else {
                            kind
                        };
                        rails[grid_cells.index(n)][d.opposite().index() as usize] =
                            Some(Rail { kind, own: false });
                    }
                }
            }
        }
        let mut airlock = None;
        let mut ips = [None; MAX_IPS as usize];
        let mut depots = Vec::new();
        let mut networks: [Vec<Pos>; 4] = Default::default();
        for (i, c) in cells.iter().enumerate() {
            let at = grid_cells.pos(i);
            match c.base {
                Base::Airlock => airlock = Some(at),
                Base::Ip { n, .. } => ips[n as usize - 1] = Some(at),
                Base::Depot(_) => depots.push(at),
                Base::Transporter(k) => networks[k as usize].push(at),
                _ => {}
            }
        }
        Ship {
            name: name.to_string(),
            description: description.to_string(),
            cells: grid_cells,
            grid,
            rails,
            airlock,
            ips: ips.into_iter().map_while(|p| p).collect(),
            depots,
            networks,
        }
    }

    /// RN18.2's distance field to the squares `targets`: a walk over squares that are not
    /// `P` `~` `L`, nor in `blocked` (damaged hull), through sides without rails; 999 where
    /// no target is reachable.
    pub fn distance_field(&self, targets: &[Pos], blocked: &dyn Fn(Pos) -> bool) -> Vec<u16> {
        let mut field = vec![FAR; self.len()];
        let mut queue = VecDeque::new();
        let walkable = |p: Pos| {
            self.contains(p)
                && !matches!(
                    self.square(p).tile,
                    Base::Shaft | Base::Space | Base::Bay(_)
                )
                && !blocked(p)
        };
        for t in targets {
            if walkable(*t) && field[self.index(*t)] == FAR {
                field[self.index(*t)] = 0;
                queue.push_back(*t);
            }
        }
        while let Some(p) = queue.pop_front() {
            let d = field[self.index(p)];
            for dir in Direction::ALL {
                let n = p.step(dir);
                if self.rail(p, dir).is_some() || !walkable(n) {
                    continue;
                }
                let i = self.index(n);
                if field[i] == FAR {
                    field[i] = d + 1;
                    queue.push_back(n);
                }
            }
        }
        field
    }

    /// RN2.6: every inspection point reachable from the airlock on foot (with its hull
    /// repaired), through sides without rails.
    pub fn ips_reachable(&self) -> bool {
        let Some(airlock) = self.airlock else {
            return false;
        };
        self.ips
            .iter()
            .all(|ip| self.distance_field(&[*ip], &|_| false)[self.index(airlock)] < FAR)
    }
}

/// Parses `grid` (rows north first, cells separated by spaces). A `full` ship needs one
/// airlock, I1..Ik with k >= 1 and 2 to 64 cells a side; scenario grids may lack the
/// airlock and the inspection points, and be one cell wide.
pub fn parse_grid(
    at: GridAt<'_>,
    grid: &str,
    name: &str,
    description: &str,
    full: bool,
) -> Result<Ship, ShipError> {
    let min = if full { 2 } else { 1 };
    let rows = read_rows(at, grid, min, |token, offset| {
        parse_cell(token).map_err(|p| at.error(offset, p))
    })?;
    let (cells, offsets, width, height) = (rows.cells, rows.offsets, rows.width, rows.height);
    let first = rows.first_row;
    let token_at = |i: usize| {
        let row = rows.text.lines().nth(i / width).unwrap_or("");
        row.split(' ').nth(i % width).unwrap_or("").to_string()
    };
    // A side written on both of its squares.
    for (i, c) in cells.iter().enumerate() {
        let (x, y) = ((i % width) as i32, (i / width) as i32);
        for d in [Direction::East, Direction::South] {
            let (dx, dy) = d.delta();
            let (nx, ny) = (x + dx, y + dy);
            if nx >= width as i32 || ny >= height as i32 {
                continue;
            }
            let j = ny as usize * width + nx as usize;
            if c.sides[d.index() as usize].is_some()
                && cells[j].sides[d.opposite().index() as usize].is_some()
            {
                let problem = ShipProblem::SideTwice {
                    token: token_at(j),
                    side: d.opposite().letter(),
                };
                return Err(at.error(offsets[j], problem));
            }
        }
    }
    let airlocks: Vec<usize> = (0..cells.len())
        .filter(|i| cells[*i].base == Base::Airlock)
        .collect();
    if full && airlocks.len() != 1 || airlocks.len() > 1 {
        let place = airlocks.get(1).map_or(first, |i| offsets[*i]);
        let count = airlocks.len();
        return Err(at.error(place, ShipProblem::Airlocks { count }));
    }
    let mut seen = [None; MAX_IPS as usize];
    for (i, c) in cells.iter().enumerate() {
        if let Base::Ip { n, .. } = c.base {
            if seen[n as usize - 1].is_some() {
                let problem = format!("I{n} appears twice");
                return Err(at.error(offsets[i], ShipProblem::Ips { problem }));
            }
            seen[n as usize - 1] = Some(i);
        }
    }
    let last = seen.iter().rposition(Option::is_some);
    match last {
        None if full => {
            let problem = "the ship has no inspection point".to_string();
            return Err(at.error(first, ShipProblem::Ips { problem }));
        }
        Some(last) => {
            if let Some(gap) = (0..last).find(|k| seen[*k].is_none()) {
                let problem = format!("I{} is missing", gap + 1);
                let place = seen[last].map_or(first, |i| offsets[i]);
                return Err(at.error(place, ShipProblem::Ips { problem }));
            }
        }
        None => {}
    }
    for (k, network) in NETWORKS.iter().enumerate() {
        let members: Vec<usize> = (0..cells.len())
            .filter(|i| cells[*i].base == Base::Transporter(k as u8))
            .collect();
        if members.len() == 1 {
            let problem = ShipProblem::LoneTransporter { network: *network };
            return Err(at.error(offsets[members[0]], problem));
        }
    }
    Ok(Ship::build(
        name,
        description,
        width,
        height,
        cells,
        rows.text,
    ))
}

/// Parses a ship file: `name` (required), `description`, `grid` (required, a full ship).
pub fn parse_ship_file(text: &str, file: &str) -> Result<Ship, ShipError> {
    let f = GridFile::read(text, file)?;
    parse_grid(f.at, &f.grid, &f.name, &f.description, true)
}

/// A ship file printed back: `name`, `description` and the grid (the round trip of RN2.1).
pub fn to_file(ship: &Ship) -> String {
    let mut out = format!("name = {:?}\n", ship.name);
    if !ship.description.is_empty() {
        out += &format!("description = {:?}\n", ship.description);
    }
    out += &format!("grid = \"\"\"\n{}\n\"\"\"\n", ship.grid);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bases_and_sides_parse() {
        assert_eq!(
            parse_cell("I2:3").unwrap().base,
            Base::Ip { n: 2, repairs: 3 }
        );
        assert_eq!(
            parse_cell("t1N").unwrap().base,
            Base::Beam {
                warp: 1,
                dir: Direction::North,
                turning: true
            }
        );
        let c = parse_cell("T2S[E15]").unwrap();
        assert_eq!(c.sides[1], Some(RailKind::Slide(0b100010)));
        let c = parse_cell(".[N!Wd]").unwrap();
        assert_eq!(c.sides[0], Some(RailKind::Coupling));
        assert_eq!(c.sides[3], Some(RailKind::Arm));
        assert_eq!(parse_cell("L24").unwrap().base, Base::Bay(0b10100));
        for bad in [
            "I0", "I1:0", "T4N", "X", "Xq", "L", "LX", "Q", ".[]", ".[Q]", "R3",
        ] {
            assert!(parse_cell(bad).is_err(), "{bad}");
        }
        assert!(matches!(parse_cell("L42"), Err(ShipProblem::Phases { .. })));
        assert!(matches!(
            parse_cell(".[N3 ]"),
            Err(ShipProblem::UnknownItem { .. })
        ));
    }
}

#[cfg(test)]
mod file_tests {
    use super::*;

    fn file(grid: &str) -> String {
        format!("name = \"t\"\ngrid = \"\"\"\n{grid}\n\"\"\"\n")
    }

    /// The error for `grid` in a ship file, `t.toml:LINE:COLUMN: ...`; a grid of one row
    /// gets a second row of hull.
    fn error(grid: &str) -> String {
        let grid = if grid.contains('\n') {
            grid.to_string()
        } else {
            let hull = vec!["."; grid.split(' ').count()].join(" ");
            format!("{grid}\n{hull}")
        };
        parse_ship_file(&file(&grid), "t.toml")
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn a_good_ship_file_round_trips() {
        let grid = "A  I1:2 Xb\n.[N!Wd] T3E[S15] Xb\nt1W L24 I2";
        let ship = parse_ship_file(&file(grid), "t.toml").unwrap();
        assert_eq!(ship.grid, "A I1:2 Xb\n.[N!Wd] T3E[S15] Xb\nt1W L24 I2");
        assert_eq!(parse_ship_file(&to_file(&ship), "u.toml").unwrap(), ship);
        // A side acts for both squares; an arm pushes only on its own.
        let p = Pos::new(0, 1);
        assert_eq!(ship.arm(p), Some(Direction::West));
        let above = ship.rail(Pos::new(0, 0), Direction::South).unwrap();
        assert_eq!((above.kind, above.own), (RailKind::Coupling, false));
        let slide = ship.rail(Pos::new(1, 2), Direction::North).unwrap().kind;
        assert!(!slide.closed(1) && slide.closed(2) && !slide.closed(5));
        assert_eq!(ship.hole(Pos::new(1, 2), 2), None);
        assert_eq!(ship.hole(Pos::new(1, 2), 3), Some("bay"));
        assert_eq!(ship.hole(Pos::new(-1, 0), 1), Some("space"));
        assert!(ship.ips_reachable());
    }

    /// RN2.4: every error names the file, line, column and token.
    #[test]
    fn every_error_is_located() {
        let cases = [
            ("A I1 Q", "t.toml:3:6: unknown token \"Q\""),
            (
                "A I1 .[Nx]",
                "t.toml:3:6: unknown side item \"Nx\" in \".[Nx]\"",
            ),
            (
                "A I1 .\n. .",
                "t.toml:4:1: row 2 has 2 cells: expected 3 like row 1",
            ),
            ("A I1 A", "t.toml:3:6: the ship has 2 airlocks"),
            (". I1 .", "t.toml:3:1: the ship has 0 airlocks"),
            ("A I1 I1", "t.toml:3:6: I1 appears twice"),
            ("A I2 .", "t.toml:3:3: I1 is missing"),
            ("A . .", "t.toml:3:1: the ship has no inspection point"),
            (
                "A .[NN] I1",
                "t.toml:3:3: side N of \".[NN]\" is written twice",
            ),
            (
                "A .[E] .[W]\nI1 . .",
                "t.toml:3:8: side W of \".[W]\" is written twice",
            ),
            (
                "A .[NdEd] I1",
                "t.toml:3:3: two docking arms in \".[NdEd]\"",
            ),
            ("A P[Nd] I1", "t.toml:3:3: a docking arm on \"P[Nd]\""),
            ("A L2[Nd] I1", "t.toml:3:3: a docking arm on \"L2[Nd]\""),
            (
                "A Xy I1",
                "t.toml:3:3: transporter network y has one transporter",
            ),
            ("A L42 I1", "t.toml:3:3: phase digits \"42\" in \"L42\""),
            ("A .[S6] I1", "t.toml:3:3: phase digits \"6\" in \".[S6]\""),
            (
                "A .[S22] I1",
                "t.toml:3:3: phase digits \"22\" in \".[S22]\"",
            ),
        ];
        for (grid, wanted) in cases {
            let err = error(grid);
            assert!(err.starts_with(wanted), "{grid:?}: {err}");
        }
        let wide = vec!["."; 65].join(" ");
        assert!(error(&wide).contains("the grid is 65x2"));
        let flat = parse_ship_file(&file("A I1"), "t.toml")
            .unwrap_err()
            .to_string();
        assert!(
            flat.starts_with("t.toml:3:1: the grid is 2x1: expected 2 to 64"),
            "{flat}"
        );
        let err = parse_ship_file("grid = \"A I1\"\n", "t.toml").unwrap_err();
        assert!(err.to_string().contains("missing \"name\""), "{err}");
        let err = parse_ship_file("name = \"t\"\nboard = 1\n", "t.toml").unwrap_err();
        assert!(err.to_string().starts_with("t.toml:2:9:"), "{err}");
    }
}
