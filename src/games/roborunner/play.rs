//! Robo Runner on the seam: its arena (a ship and the rules), and how a game is played
//! there with built-in AIs, replayed from its stored decision log, and shown.

use super::ai::{BuiltinAi, Player, run_game};
use super::engine::{Decision, Game, Pending, Reply, Rules, Setup};
use super::ship::Ship;
use crate::games::arena::{ArenaRules, Match, Played, StoredGame};
use crate::games::shared::seats::{builtin_players, own_ai, seatholders};
use crate::games::shared::trace_view::TraceView;
use crate::games::view::Replayed;
use crate::games::{BuiltinBot, GameKind, GameOutcome, SeatOutcome, Stats};
use futures_util::future::BoxFuture;
use std::sync::Arc;

/// A ship and the rules its games are played by.
pub struct RunnerArena {
    pub ship: Arc<Ship>,
    pub rules: Rules,
}

fn kind() -> GameKind {
    GameKind::of(&super::kind::RoboRunner)
}

fn ai(bot: &BuiltinBot) -> Result<BuiltinAi, String> {
    own_ai(bot, kind(), BuiltinAi::from_name)
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

    /// Plays a game of built-in AIs and gives the game itself.
    pub fn play_game(&self, seed: u64, seats: &[BuiltinBot]) -> Result<Game, String> {
        let mut game = Game::new(&self.setup(seats.len(), seed)).map_err(|e| e.to_string())?;
        let mut players: Vec<Box<dyn Player + Send>> =
            builtin_players(seats, ai, |ai, s| ai.player(seed, s))?;
        run_game(&mut game, &mut players).map_err(|e| e.to_string())?;
        Ok(game)
    }
}

/// Plays `log` into `game`: every question answered with the next recorded answer; a log
/// out of step, short or too long is an error.
pub fn replay(game: &mut Game, log: &[Decision]) -> Result<(), String> {
    let mut next = log.iter();
    let out_of_step = || "the decision log is out of step with the game".to_string();
    // Snapshots are kept from the start: the first turn is begun by `Game::new`.
    while let Pending::Decisions(qs) = game.pending() {
        let mut replies: Vec<Reply> = Vec::with_capacity(qs.len());
        for q in qs {
            match next.next() {
                Some(d) if d.seat == q.seat => replies.push(d.reply.clone()),
                _ => return Err(out_of_step()),
            }
        }
        game.answer(&replies).map_err(|e| e.to_string())?;
    }
    if next.next().is_some() {
        return Err("the decision log goes on after the game's end".to_string());
    }
    Ok(())
}

impl ArenaRules for RunnerArena {
    fn kind(&self) -> GameKind {
        kind()
    }

    fn turn_limit(&self) -> u32 {
        u32::from(self.rules.turns)
    }

    fn play_builtin(&self, seed: u64, seats: &[BuiltinBot]) -> Result<GameOutcome, String> {
        self.play_game(seed, seats).map(|g| outcome(&g))
    }

    fn play<'a>(&'a self, game: Match<'a>) -> BoxFuture<'a, Result<Played, String>> {
        Box::pin(async move {
            let seats = seatholders(game.seats, ai)?;
            let setup = self.setup(seats.len(), game.seed);
            let (played, logs) =
                super::remote::play_game(&seats, &setup, game.time_limit_ms, game.options)
                    .await
                    .map_err(|e| e.to_string())?;
            Ok((outcome(&played), logs))
        })
    }

    fn replay(&self, stored: StoredGame<'_>) -> Result<GameOutcome, String> {
        self.replay_game(stored, false).map(|g| outcome(&g))
    }

    fn replay_for_view(&self, stored: StoredGame<'_>) -> Result<Replayed, String> {
        let game = self.replay_game(stored, true)?;
        let trace = super::text::trace(&game);
        Ok(TraceView::replayed(
            kind(),
            &outcome(&game),
            trace,
            super::view::page,
            move |names| super::text::replay_text(&game, names),
        ))
    }
}

/// A finished game: statistics inspections, finishes, kills, welds, deaths (RN14.3).
pub fn outcome(game: &Game) -> GameOutcome {
    let scores = game.scores();
    GameOutcome {
        engine_version: super::ENGINE_VERSION,
        turns: u32::from(game.turns_played()),
        decisions: super::log::to_bytes(game.decisions()),
        seats: game
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
            .collect(),
    }
}
