//! A starter bot for Last Robot Standing, in Rust.
//!
//! The tournament talks to this program with JSON lines:
//!   - it writes one JSON object per line to our standard input (stdin),
//!   - we answer the questions ("start" and "turn") with one JSON object per
//!     line on standard output (stdout).
//!
//! Anything we want to say to a human goes to standard error (stderr,
//! `eprintln!`): the tournament keeps it as our log and never reads it.
//!
//! Strategy (simple on purpose, so you can improve it):
//!   1. When the game begins, work out for every square and facing how many
//!      turns it takes to reach each flag (a breadth-first search that goes
//!      around walls and pits and knows what belts and gears do).
//!   2. Every turn, try each card of the hand on a pretend copy of our robot,
//!      and keep the card that ends closest (in turns) to our next flag.
//!      A card that would kill us (off the board, into a pit) is only played
//!      when every card would.
//!   3. After the last flag, head for the nearest repair square and stay there.
//!
//! The pretend move knows about walls, the board edge, pits, the cards'
//! steps and turns, conveyor belts (express belts first, then all belts,
//! including the quarter turn on belt curves) and gears. It ignores other
//! robots (pushes, robots holding up a belt), lasers and damage.
//!
//! `lrs-starter-bot --card0` always plays card 0 without thinking (useful to
//! measure how fast the tournament itself is). `lrs-starter-bot --replay FILE`
//! reads the messages from FILE instead of stdin (handy in a debugger).

use serde_json::{json, Value};
use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::io::{self, BufRead, Write};

// ---------------------------------------------------------------------------
// Directions
// ---------------------------------------------------------------------------

/// A compass direction. `y` grows towards the SOUTH (down the page).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Dir {
    N,
    E,
    S,
    W,
}

impl Dir {
    /// Clockwise order: turning right means "next in this list".
    const ALL: [Dir; 4] = [Dir::N, Dir::E, Dir::S, Dir::W];

    fn parse(text: &str) -> Option<Dir> {
        match text {
            "N" => Some(Dir::N),
            "E" => Some(Dir::E),
            "S" => Some(Dir::S),
            "W" => Some(Dir::W),
            _ => None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Dir::N => "N",
            Dir::E => "E",
            Dir::S => "S",
            Dir::W => "W",
        }
    }

    fn number(self) -> usize {
        self as usize
    }

    fn right(self) -> Dir {
        Dir::ALL[(self.number() + 1) % 4]
    }

    fn left(self) -> Dir {
        Dir::ALL[(self.number() + 3) % 4]
    }

    fn back(self) -> Dir {
        Dir::ALL[(self.number() + 2) % 4]
    }

    /// How (x, y) changes for one step this way.
    fn delta(self) -> (i32, i32) {
        match self {
            Dir::N => (0, -1),
            Dir::E => (1, 0),
            Dir::S => (0, 1),
            Dir::W => (-1, 0),
        }
    }
}

/// Where a robot is and which way it faces.
type State = (i32, i32, Dir);

/// The distance we give to states from which a flag cannot be reached.
const FAR_AWAY: u32 = 1_000_000;

// ---------------------------------------------------------------------------
// Talking to the tournament
// ---------------------------------------------------------------------------

/// Write one answer as one JSON line on stdout, and flush it right away.
fn send(answer: &Value) {
    let mut out = io::stdout().lock();
    // If stdout is closed the tournament is gone: nothing useful to do.
    let _ = writeln!(out, "{answer}");
    let _ = out.flush();
}

// ---------------------------------------------------------------------------
// The board
// ---------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Debug)]
enum Kind {
    Floor,
    Pit,
    Belt,
    GearCw,
    GearCcw,
    Repair,
    Other, // flags: nothing happens to a robot there
}

struct Square {
    kind: Kind,
    walls: [bool; 4], // indexed by Dir::number()
    belt_dir: Dir,    // only meaningful on belts
    belt_speed: u64,  // 1 = normal, 2 = express
}

struct Board {
    width: i32,
    height: i32,
    squares: Vec<Square>,             // row by row, y = 0 first
    flags: BTreeMap<u64, (i32, i32)>, // flag number (1, 2, 3) -> (x, y)
}

impl Board {
    /// Read the board of the hello message. None if a field is missing.
    fn from_json(board: &Value) -> Option<Board> {
        let width = board["width"].as_i64()? as i32;
        let height = board["height"].as_i64()? as i32;
        if !(1..=64).contains(&width) || !(1..=64).contains(&height) {
            return None; // boards are 1 to 64 squares wide and high
        }
        let mut squares = Vec::new();
        for _ in 0..width * height {
            squares.push(Square {
                kind: Kind::Floor,
                walls: [false; 4],
                belt_dir: Dir::N,
                belt_speed: 0,
            });
        }
        let mut flags = BTreeMap::new();
        for sq in board["squares"].as_array()? {
            let x = sq["x"].as_i64()? as i32;
            let y = sq["y"].as_i64()? as i32;
            if x < 0 || y < 0 || x >= width || y >= height {
                continue;
            }
            let square = &mut squares[(y * width + x) as usize];
            square.kind = match sq["type"].as_str()? {
                "floor" => Kind::Floor,
                "pit" => Kind::Pit,
                "belt" => Kind::Belt,
                "gear_cw" => Kind::GearCw,
                "gear_ccw" => Kind::GearCcw,
                "repair" => Kind::Repair,
                _ => Kind::Other,
            };
            if let Some(walls) = sq["walls"].as_array() {
                for side in walls
                    .iter()
                    .filter_map(|w| w.as_str())
                    .filter_map(Dir::parse)
                {
                    square.walls[side.number()] = true;
                }
            }
            if square.kind == Kind::Belt {
                square.belt_dir = sq["dir"].as_str().and_then(Dir::parse)?;
                square.belt_speed = sq["speed"].as_u64().unwrap_or(1);
            }
            if let Some(number) = sq["flag"].as_u64() {
                flags.insert(number, (x, y));
            }
        }
        Some(Board {
            width,
            height,
            squares,
            flags,
        })
    }

    fn on_board(&self, x: i32, y: i32) -> bool {
        x >= 0 && y >= 0 && x < self.width && y < self.height
    }

    fn square(&self, x: i32, y: i32) -> &Square {
        &self.squares[(y * self.width + x) as usize]
    }

    /// Does a wall stop a robot leaving (x, y) towards `dir`? A wall between
    /// two squares may be written on either of them, so we look at both.
    fn blocked(&self, x: i32, y: i32, dir: Dir) -> bool {
        if self.square(x, y).walls[dir.number()] {
            return true;
        }
        let (dx, dy) = dir.delta();
        self.on_board(x + dx, y + dy) && self.square(x + dx, y + dy).walls[dir.back().number()]
    }
}

// ---------------------------------------------------------------------------
// Pretend moves (a tiny one-robot version of the game rules)
// ---------------------------------------------------------------------------

enum Step {
    Moved(i32, i32),
    Blocked, // a wall: we stay where we are
    Fell,    // off the board or into a pit: the robot is destroyed
}

/// Try to move one square from (x, y) towards `dir`.
fn one_step(board: &Board, x: i32, y: i32, dir: Dir) -> Step {
    if board.blocked(x, y, dir) {
        return Step::Blocked;
    }
    let (dx, dy) = dir.delta();
    let (nx, ny) = (x + dx, y + dy);
    if !board.on_board(nx, ny) || board.square(nx, ny).kind == Kind::Pit {
        return Step::Fell;
    }
    Step::Moved(nx, ny)
}

/// Our robot plays one card. None if it dies.
fn play_card(board: &Board, (mut x, mut y, facing): State, card: &str) -> Option<State> {
    let (count, dir) = match card {
        "L" => return Some((x, y, facing.left())),
        "R" => return Some((x, y, facing.right())),
        "U" => return Some((x, y, facing.back())),
        "B" => (1, facing.back()), // backwards, facing unchanged
        "F1" => (1, facing),
        "F2" => (2, facing),
        "F3" => (3, facing),
        _ => return Some((x, y, facing)), // a card we do not know: assume it does nothing
    };
    for _ in 0..count {
        match one_step(board, x, y, dir) {
            Step::Moved(nx, ny) => (x, y) = (nx, ny),
            Step::Blocked => break, // the rest of the card is lost
            Step::Fell => return None,
        }
    }
    Some((x, y, facing))
}

/// Belts move us: express belts one square, then every belt one square.
/// When a belt carries us onto a belt that bends a quarter turn, we turn
/// with it. (We ignore other robots that could hold us back.)
fn ride_belts(board: &Board, (mut x, mut y, mut facing): State) -> Option<State> {
    for express_only in [true, false] {
        let square = board.square(x, y);
        if square.kind != Kind::Belt || (express_only && square.belt_speed != 2) {
            continue;
        }
        let travel = square.belt_dir;
        match one_step(board, x, y, travel) {
            Step::Fell => return None,
            Step::Blocked => {}
            Step::Moved(nx, ny) => {
                (x, y) = (nx, ny);
                let new_square = board.square(x, y);
                if new_square.kind == Kind::Belt {
                    if new_square.belt_dir == travel.right() {
                        facing = facing.right();
                    } else if new_square.belt_dir == travel.left() {
                        facing = facing.left();
                    }
                }
            }
        }
    }
    Some((x, y, facing))
}

/// Gears turn us a quarter turn after the belts have moved.
fn turn_on_gears(board: &Board, (x, y, facing): State) -> State {
    match board.square(x, y).kind {
        Kind::GearCw => (x, y, facing.right()),
        Kind::GearCcw => (x, y, facing.left()),
        _ => (x, y, facing),
    }
}

/// Where does our robot end the turn if it plays `card`? None if it dies.
fn simulate(board: &Board, state: State, card: &str) -> Option<State> {
    let state = play_card(board, state, card)?;
    let state = ride_belts(board, state)?;
    Some(turn_on_gears(board, state))
}

// ---------------------------------------------------------------------------
// How far is the flag? (a breadth-first search over robot states)
// ---------------------------------------------------------------------------

/// The cards we plan with: all seven kinds. Every card takes one whole turn,
/// so a quarter turn costs as much as a step: that is why we count turns.
const PLAN_CARDS: [&str; 7] = ["F1", "F2", "F3", "B", "L", "R", "U"];

/// For every state, the states one card could take us to, backwards:
/// {state after: [states before, ...]}, which is what the search needs.
fn one_card_moves(board: &Board) -> HashMap<State, Vec<State>> {
    let mut came_from: HashMap<State, Vec<State>> = HashMap::new();
    for y in 0..board.height {
        for x in 0..board.width {
            if board.square(x, y).kind == Kind::Pit {
                continue;
            }
            for facing in Dir::ALL {
                for card in PLAN_CARDS {
                    if let Some(after) = simulate(board, (x, y, facing), card) {
                        came_from.entry(after).or_default().push((x, y, facing));
                    }
                }
            }
        }
    }
    came_from
}

/// How many turns from every state to end a turn on one of the `goals`
/// squares, pretending we always hold the card we want. Breadth-first search
/// backwards from the goals: a goal is 0 turns away, states that reach one
/// with one card are 1 turn away, states that reach those are 2 turns away,
/// and so on. States from which no goal can be reached are missing.
fn turns_to_reach(
    came_from: &HashMap<State, Vec<State>>,
    goals: &[(i32, i32)],
) -> HashMap<State, u32> {
    let mut turns = HashMap::new();
    let mut queue = VecDeque::new();
    for &(x, y) in goals {
        for facing in Dir::ALL {
            // On the goal, any facing will do.
            turns.insert((x, y, facing), 0);
            queue.push_back((x, y, facing));
        }
    }
    while let Some(state) = queue.pop_front() {
        let next = turns[&state] + 1;
        for &earlier in came_from.get(&state).into_iter().flatten() {
            if let Entry::Vacant(slot) = turns.entry(earlier) {
                slot.insert(next); // first time we see it: the fewest turns
                queue.push_back(earlier);
            }
        }
    }
    turns
}

// ---------------------------------------------------------------------------
// Answering the questions
// ---------------------------------------------------------------------------

struct Bot {
    seat: i64,
    board: Option<Board>,
    turns_to: BTreeMap<u64, HashMap<State, u32>>, // flag number -> turns from each state
    turns_to_repair: HashMap<State, u32>,         // turns to the nearest repair square
    next_flag: Option<u64>, // 1, 2, 3; a higher number once all flags are done
}

impl Bot {
    fn new() -> Bot {
        Bot {
            seat: -1,
            board: None,
            turns_to: BTreeMap::new(),
            turns_to_repair: HashMap::new(),
            next_flag: Some(1),
        }
    }

    /// Remember who we are, and plan the way to every flag.
    fn on_hello(&mut self, msg: &Value) {
        self.seat = msg["seat"].as_i64().unwrap_or(-1);
        let Some(board) = Board::from_json(&msg["board"]) else {
            eprintln!("hello: could not read the board, playing card 0 all game");
            return;
        };
        let came_from = one_card_moves(&board);
        for (&number, &position) in &board.flags {
            self.turns_to
                .insert(number, turns_to_reach(&came_from, &[position]));
        }
        let mut repairs = Vec::new();
        for y in 0..board.height {
            for x in 0..board.width {
                if board.square(x, y).kind == Kind::Repair {
                    repairs.push((x, y));
                }
            }
        }
        self.turns_to_repair = turns_to_reach(&came_from, &repairs);
        eprintln!(
            "hello: seat {} on {}, flags at {:?}",
            self.seat, msg["board"]["name"], board.flags
        );
        self.board = Some(board);
    }

    /// Turns from this state to where we want to go: our next flag; once all
    /// flags are done, the nearest repair square, to sit there and get
    /// repaired every 5th turn.
    fn distance(&self, state: State) -> u32 {
        let turns = match self.next_flag.and_then(|n| self.turns_to.get(&n)) {
            Some(turns) => turns,
            None => &self.turns_to_repair,
        };
        turns.get(&state).copied().unwrap_or(FAR_AWAY)
    }

    /// Pick the offered square and facing closest to our goal.
    fn on_start(&self, msg: &Value) -> Option<Value> {
        let mut best: Option<(u32, State)> = None;
        for option in msg["options"].as_array()? {
            let x = option[0].as_i64()? as i32;
            let y = option[1].as_i64()? as i32;
            for facing in Dir::ALL {
                let turns = self.distance((x, y, facing));
                if best.is_none_or(|(b, _)| turns < b) {
                    best = Some((turns, (x, y, facing)));
                }
            }
        }
        let (turns, (x, y, facing)) = best?;
        eprintln!(
            "turn {}: start on ({x},{y}) facing {}, turns to go: {turns}",
            msg["turn"],
            facing.name()
        );
        Some(json!({"x": x, "y": y, "facing": facing.name()}))
    }

    /// Try every card and play the one that ends closest to our goal.
    fn on_turn(&mut self, msg: &Value) -> Option<Value> {
        let board = self.board.as_ref()?;
        let hand = msg["hand"].as_array()?;
        let me = msg["robots"]
            .as_array()?
            .iter()
            .find(|r| r["seat"].as_i64() == Some(self.seat))?;
        if hand.len() <= 1 {
            return None; // nothing to choose (for example a locked card)
        }
        self.next_flag = me["next_flag"].as_u64();
        let now: State = (
            me["x"].as_i64()? as i32,
            me["y"].as_i64()? as i32,
            Dir::parse(me["facing"].as_str()?)?,
        );
        if !board.on_board(now.0, now.1) {
            return None; // cannot happen in a real game; play card 0
        }

        // Fewest turns wins; on a tie, the higher priority (we move earlier).
        let mut best: Option<(u32, i64, usize)> = None; // (turns, -priority, index)
        for (index, card) in hand.iter().enumerate() {
            let turns = match simulate(board, now, card["move"].as_str()?) {
                Some(end) => self.distance(end),
                None => FAR_AWAY * 10, // dying is worse than anything else
            };
            let key = (turns, -card["priority"].as_i64().unwrap_or(0), index);
            if best.is_none_or(|b| key < b) {
                best = Some(key);
            }
        }
        let (turns, _, index) = best?;
        let flag = self.next_flag.map_or("none".to_string(), |n| n.to_string());
        let card = hand[index]["move"].as_str().unwrap_or("?");
        eprintln!(
            "turn {}: at ({},{}) facing {}, flag {flag}: {card} (card {index}), turns to go: {turns}",
            msg["turn"],
            now.0,
            now.1,
            now.2.name()
        );
        Some(json!({"card": index, "power_down": false}))
    }
}

/// The `--card0` answer (and our emergency answer): no thinking at all.
fn card0_answer(msg: &Value) -> Value {
    if msg["type"] == "start" {
        let first = &msg["options"][0];
        json!({"x": first[0], "y": first[1], "facing": "N"})
    } else {
        json!({"card": 0})
    }
}

/// Copy the question's "turn" (and "seq", if it has one) into our answer.
/// Then the tournament can never mistake a late answer for the answer to a
/// later question.
fn echo(msg: &Value, mut answer: Value) -> Value {
    answer["turn"] = msg["turn"].clone();
    if let Some(seq) = msg.get("seq") {
        answer["seq"] = seq.clone();
    }
    // We play every game of our set in this one process: after game_over the
    // next game's hello comes instead of the end of input (docs/bots.md).
    answer["series"] = Value::Bool(true);
    answer
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let card0_mode = args.first().map(String::as_str) == Some("--card0");
    // --replay FILE reads the messages from a file instead of stdin: handy in a
    // debugger, whose own input stays free for you.
    let input: Box<dyn BufRead> = match args.iter().position(|a| a == "--replay") {
        Some(i) => {
            let path = args.get(i + 1).map(String::as_str).unwrap_or("");
            match std::fs::File::open(path) {
                Ok(file) => Box::new(io::BufReader::new(file)),
                Err(e) => {
                    eprintln!("--replay {path}: {e}");
                    std::process::exit(2);
                }
            }
        }
        None => Box::new(io::stdin().lock()),
    };
    let mut bot = Bot::new();
    for line in input.lines() {
        let Ok(line) = line else { break }; // stdin closed or unreadable
        if line.trim().is_empty() {
            continue;
        }
        let msg: Value = match serde_json::from_str(&line) {
            Ok(msg) => msg,
            Err(e) => {
                eprintln!("not JSON, ignored ({e})");
                continue;
            }
        };
        match msg["type"].as_str() {
            // We do not answer hello: a line nobody asked for counts as a fault.
            Some("hello") => {
                // A new game: nothing of the last one may change how we play this one.
                bot = Bot::new();
                if !card0_mode {
                    bot.on_hello(&msg);
                }
            }
            Some(kind @ ("start" | "turn")) => {
                let answer = if card0_mode {
                    None
                } else if kind == "start" {
                    bot.on_start(&msg)
                } else {
                    bot.on_turn(&msg)
                };
                // None means "nothing to think about" or "a field we could not
                // read": card 0 is still better than no answer at all.
                send(&echo(&msg, answer.unwrap_or_else(|| card0_answer(&msg))));
            }
            // Not the end: the next game of the set may follow (a hello).
            Some("game_over") => eprintln!("game over: {}", msg["scores"]),
            other => eprintln!("unknown message, ignored: {other:?}"),
        }
    }
    eprintln!("end of input, bye");
}
