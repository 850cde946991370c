//! Defines [`Game`]: a game of Robots for 1 to 8 seats, each on its own board with the same
//! seed, played turn by turn from every seat's answer, with its scores and decision log.
//!
//! Seats do not interact (RB intro): a game is boards side by side that start from the same
//! level layout, so the comparison between seats is fair. Each turn every seat still playing
//! submits once; a seat whose game ended is skipped. No I/O, no clock: a game is a function
//! of its [`Setup`] and the answers.

use super::board::{Board, CLASSIC_HEIGHT, CLASSIC_WIDTH, GameError, LAST_LEVEL, MAX_TURNS};
use super::log::{DecisionLog, TurnDecisions};
use super::types::{Answer, Seat, Status};

/// Most seats one game takes.
pub const MAX_SEATS: usize = 8;

/// A game's settings (the bracket's `[game]` table).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    pub width: u16,
    pub height: u16,
    /// The level every board starts at (RB1.3), 1 to 20.
    pub start_level: u8,
    /// A seat's game ends after this many turns (RB1.3: 1000).
    pub max_turns: u32,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            width: CLASSIC_WIDTH,
            height: CLASSIC_HEIGHT,
            start_level: 1,
            max_turns: MAX_TURNS,
        }
    }
}

/// Everything a game starts from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Setup {
    pub seats: u8,
    pub seed: u64,
    pub settings: Settings,
}

impl Setup {
    /// A game on the classic board from level 1.
    pub fn standard(seats: u8, seed: u64) -> Setup {
        Setup {
            seats,
            seed,
            settings: Settings::default(),
        }
    }
}

/// Per-seat statistics (RB5).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SeatStats {
    pub levels_cleared: u32,
    pub kills: u32,
    pub turns: u32,
    /// Turns that were forced passes (RB2.2).
    pub faults: u32,
}

/// A game of Robots in progress.
#[derive(Debug, Clone)]
pub struct Game {
    boards: Vec<Board>,
    /// Turns played by the game (the longest-playing seat's).
    turn: u32,
    log: DecisionLog,
}

impl Game {
    pub fn new(setup: &Setup) -> Result<Game, GameError> {
        if !(1..=MAX_SEATS as u8).contains(&setup.seats) {
            return Err(GameError::Seats(setup.seats));
        }
        let s = setup.settings;
        if !(1..=LAST_LEVEL).contains(&s.start_level) {
            return Err(GameError::Level(s.start_level));
        }
        if s.max_turns == 0 {
            return Err(GameError::TurnLimit);
        }
        let mut board = Board::new(s.width, s.height, s.start_level, setup.seed)?;
        board.max_turns = s.max_turns;
        Ok(Game {
            boards: vec![board; usize::from(setup.seats)],
            turn: 0,
            log: DecisionLog::default(),
        })
    }

    pub fn seats(&self) -> u8 {
        self.boards.len() as u8
    }

    /// The turn limit of every seat's game (a game has one seat at least).
    pub fn max_turns(&self) -> u32 {
        self.boards[0].max_turns
    }

    /// Seat `seat`'s board.
    pub fn board(&self, seat: Seat) -> &Board {
        &self.boards[seat.index()]
    }

    pub fn boards(&self) -> &[Board] {
        &self.boards
    }

    /// Whether `seat` still plays (and is sent a turn).
    pub fn playing(&self, seat: Seat) -> bool {
        self.boards[seat.index()].status() == Status::Playing
    }

    /// Whether every seat's game has ended.
    pub fn is_over(&self) -> bool {
        self.boards.iter().all(|b| b.status().is_over())
    }

    /// Turns played so far.
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// Plays one turn: `answers[s]` is seat `s`'s; the answers of seats no longer playing
    /// are ignored.
    pub fn step(&mut self, answers: &[Answer<'_>]) -> Result<(), GameError> {
        if self.is_over() {
            return Err(GameError::Over);
        }
        if answers.len() != self.boards.len() {
            return Err(GameError::Answers {
                got: answers.len(),
                seats: self.seats(),
            });
        }
        self.turn += 1;
        self.log.begin_turn();
        for (s, (board, &answer)) in self.boards.iter_mut().zip(answers).enumerate() {
            if board.status() != Status::Playing {
                continue;
            }
            let consumed = board.play_turn(answer)?;
            self.log.record(Seat(s as u8), answer, consumed);
            board.next_level();
        }
        Ok(())
    }

    /// Plays one turn from a recorded turn of a decision log.
    pub fn replay_turn(&mut self, logged: &TurnDecisions<'_>) -> Result<(), GameError> {
        let mismatch = |reason: String| GameError::Replay {
            turn: logged.turn,
            reason,
        };
        if logged.turn != self.turn + 1 {
            return Err(mismatch(format!("the game is at turn {}", self.turn + 1)));
        }
        let mut answers = vec![None; self.boards.len()];
        for (seat, answer) in logged.answers() {
            let slot = answers
                .get_mut(seat.index())
                .ok_or_else(|| mismatch(format!("no seat {}", seat.0)))?;
            *slot = Some(answer);
        }
        for (s, answer) in answers.iter().enumerate() {
            if answer.is_some() != self.playing(Seat(s as u8)) {
                return Err(mismatch(format!("seat {s} does not match the log")));
            }
        }
        let answers: Vec<Answer<'_>> = answers
            .into_iter()
            .map(|a| a.unwrap_or(Answer::Moves(&[])))
            .collect();
        self.step(&answers)
    }

    /// Replays a whole game from its setup and decision log.
    pub fn replay(setup: &Setup, log: &DecisionLog) -> Result<Game, GameError> {
        let mut game = Game::new(setup)?;
        for turn in log.iter() {
            game.replay_turn(&turn)?;
        }
        Ok(game)
    }

    /// What the boards consumed so far, for replays.
    pub fn log(&self) -> &DecisionLog {
        &self.log
    }

    /// Scores by seat: kills minus turns (RB5).
    pub fn scores(&self) -> Vec<i64> {
        self.boards.iter().map(Board::score).collect()
    }

    /// Statistics by seat.
    pub fn stats(&self) -> Vec<SeatStats> {
        self.boards
            .iter()
            .map(|b| SeatStats {
                levels_cleared: b.levels_cleared(),
                kills: b.kills(),
                turns: b.turns(),
                faults: b.faults(),
            })
            .collect()
    }

    /// Whether `seat` won: its score is the highest, shared or not (RB5).
    pub fn won(&self, seat: Seat) -> bool {
        let scores = self.scores();
        let best = scores.iter().copied().max();
        scores.get(seat.index()).copied() == best
    }
}
