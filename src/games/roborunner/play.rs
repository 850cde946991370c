//! Robo Runner on the seam: its arena (a ship and the rules), and how a game is played
//! there with built-in AIs, replayed from its stored decision log, and shown.

use super::ai::{BuiltinAi, Player};
use super::engine::{Decision, Game, Pending, Rules, Setup};
use super::kind::RoboRunner;
use super::ship::Ship;
use crate::games::arena::StoredGame;
use crate::games::shared::robo::DecisionLog;
use crate::games::shared::seats::TurnArena;
use crate::games::shared::trace_view::TraceView;
use crate::games::view::Replayed;
use crate::games::{GameKind, SeatOutcome, Stats, TypedGame};
use std::sync::Arc;

/// A ship and the rules its games are played by.
pub struct RunnerArena {
    pub ship: Arc<Ship>,
    pub rules: Rules,
}

impl RunnerArena {
    pub fn setup(&self, seats: usize, seed: u64) -> Setup {
        Setup {
            ship: self.ship.clone(),
            seats,
            seed,
            rules: self.rules,
        }
    }

    fn replay_game(&self, stored: StoredGame<'_>, keep: bool) -> Result<Game, String> {
        let log = super::log::from_bytes(stored.decisions).map_err(|e| e.to_string())?;
        let mut game =
            Game::new(&self.setup(stored.seats, stored.seed)).map_err(|e| e.to_string())?;
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
    // Snapshots are kept from the start: the first turn is begun by `Game::new`.
    while let Pending::Decisions(qs) = game.pending() {
        let replies = log.round(qs.iter().map(|q| q.seat), |d, seat| {
            (d.seat == seat).then(|| d.reply.clone())
        })?;
        game.answer(&replies).map_err(|e| e.to_string())?;
    }
    log.finish()
}

impl TurnArena for RunnerArena {
    type Ai = BuiltinAi;
    type Player = dyn Player + Send;
    type Game = Game;
    type Table<'a> = super::remote::Table<'a>;

    fn kind(&self) -> GameKind {
        RoboRunner::kind()
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

    /// Statistics inspections, finishes, kills, welds, deaths (RN14.3).
    fn totals(game: &Game) -> (u32, Vec<SeatOutcome>) {
        let scores = game.scores();
        let seats = game
            .robots()
            .iter()
            .enumerate()
            .map(|(s, r)| SeatOutcome {
                score: scores[s],
                won: game.won(s),
                faults: r.faults,
                stats: Stats::from_values(&[
                    r.inspections,
                    u32::from(r.state == super::engine::State::Finished),
                    r.kills,
                    r.welds,
                    r.deaths,
                ]),
            })
            .collect();
        (u32::from(game.turns_played()), seats)
    }

    fn decisions(game: &Game) -> Vec<u8> {
        super::log::to_bytes(game.decisions())
    }

    fn turn_limit(&self) -> u32 {
        u32::from(self.rules.turns)
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
