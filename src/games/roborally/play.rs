//! RoboRally on the seam: its arena (a board and a turn limit), and how a game is played
//! there with any seats, replayed from its stored decision log, and shown.

use super::ai::{BuiltinAi, Player};
use super::board::Board;
use super::engine::{Decision, Game, Pending, Setup};
use super::kind::RoboRally;
use crate::games::arena::StoredGame;
use crate::games::shared::robo::DecisionLog;
use crate::games::shared::seats::TurnArena;
use crate::games::shared::trace_view::TraceView;
use crate::games::view::Replayed;
use crate::games::{GameKind, SeatOutcome, Stats, TypedGame};
use std::sync::Arc;

/// A board and the turn limit its games play to.
pub struct RoboRallyArena {
    pub board: Arc<Board>,
    pub max_turns: u16,
}

impl RoboRallyArena {
    pub fn setup(&self, seats: usize, seed: u64) -> Setup {
        Setup {
            board: self.board.clone(),
            seats,
            seed,
            max_turns: self.max_turns,
        }
    }

    fn replay_game(&self, stored: StoredGame<'_>, keep: bool) -> Result<Game, String> {
        let log = super::log::from_bytes(stored.decisions).map_err(|e| e.to_string())?;
        let setup = self.setup(stored.seats, stored.seed);
        let mut game = Game::new(&setup).map_err(|e| e.to_string())?;
        if keep {
            game.keep_snapshots();
        }
        replay(&mut game, &log)?;
        Ok(game)
    }
}

/// Plays `log` into `game`: every question answered with the next recorded answer; a log
/// out of step, short or too long is an error.
pub fn replay(game: &mut Game, log: &[Decision]) -> Result<(), String> {
    let mut log = DecisionLog::new(log);
    loop {
        match game.pending() {
            Pending::Start(qs) => {
                let replies = log.round(qs.iter().map(|q| q.seat), |d, seat| match d {
                    Decision::Start { seat: s, reply } if *s == seat => Some(*reply),
                    _ => None,
                })?;
                game.answer_start(&replies).map_err(|e| e.to_string())?;
            }
            Pending::Program(qs) => {
                let replies = log.round(qs.iter().map(|q| q.seat), |d, seat| match d {
                    Decision::Program { seat: s, reply } if *s == seat => Some(reply.clone()),
                    _ => None,
                })?;
                game.answer_program(&replies).map_err(|e| e.to_string())?;
            }
            Pending::Cards | Pending::Over => break,
        }
    }
    log.finish()
}

impl TurnArena for RoboRallyArena {
    type Ai = BuiltinAi;
    type Player = dyn Player + Send;
    type Game = Game;
    type Table<'a> = super::remote::Table<'a>;

    fn kind(&self) -> GameKind {
        RoboRally::kind()
    }

    fn player(ai: BuiltinAi, seed: u64, seat: usize) -> Box<Self::Player> {
        ai.player(seed, seat)
    }

    fn new_game(&self, seats: usize, seed: u64) -> Result<Game, String> {
        Game::new(&self.setup(seats, seed)).map_err(|e| e.to_string())
    }

    fn table<'a>(game: &'a mut Game, names: &'a [String]) -> Self::Table<'a> {
        super::remote::Table { game, names }
    }

    /// Statistics finishes, checkpoints, hits, deaths (RR12.3).
    fn totals(game: &Game) -> (u32, Vec<SeatOutcome>) {
        let scores = game.scores();
        let seats = game
            .robots()
            .iter()
            .zip(game.stats())
            .enumerate()
            .map(|(s, (r, st))| SeatOutcome {
                score: scores[s],
                won: game.won(s),
                faults: st.faults,
                stats: Stats::from_values(&[
                    u32::from(r.finished),
                    u32::from(r.checkpoints),
                    st.hits,
                    st.deaths,
                ]),
            })
            .collect();
        (u32::from(game.turns_played()), seats)
    }

    fn decisions(game: &Game) -> Vec<u8> {
        super::log::to_bytes(game.decisions())
    }

    fn turn_limit(&self) -> u32 {
        u32::from(self.max_turns)
    }

    fn replayed(&self, stored: StoredGame<'_>) -> Result<Game, String> {
        self.replay_game(stored, false)
    }

    fn replay_for_view(&self, stored: StoredGame<'_>) -> Result<Replayed, String> {
        let game = self.replay_game(stored, true)?;
        Ok(TraceView::of_game(
            self,
            game,
            super::text::trace,
            |trace, info| super::view::VIEWER.trace_page(trace, info),
            super::text::replay_text,
        ))
    }
}
