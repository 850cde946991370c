//! RoboRally on the seam: its arena (a board and a turn limit), and how a game is played
//! there with any seats, replayed from its stored decision log, and shown.

use super::ai::{BuiltinAi, Player, run_game};
use super::board::Board;
use super::engine::{Decision, Game, Pending, ProgramReply, Setup, StartReply};
use crate::games::arena::{ArenaRules, Match, Played, StoredGame};
use crate::games::shared::seats::{builtin_players, own_ai, seatholders};
use crate::games::shared::trace_view::TraceView;
use crate::games::view::Replayed;
use crate::games::{BuiltinBot, GameKind, GameOutcome, SeatOutcome, Stats};
use futures_util::future::BoxFuture;
use std::sync::Arc;

/// A board and the turn limit its games play to.
pub struct RoboRallyArena {
    pub board: Arc<Board>,
    pub max_turns: u16,
}

fn kind() -> GameKind {
    GameKind::of(&super::kind::RoboRally)
}

fn ai(bot: &BuiltinBot) -> Result<BuiltinAi, String> {
    own_ai(bot, kind(), BuiltinAi::from_name)
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
    let mut next = log.iter();
    let out_of_step = || "the decision log is out of step with the game".to_string();
    loop {
        match game.pending() {
            Pending::Start(qs) => {
                let mut replies: Vec<StartReply> = Vec::with_capacity(qs.len());
                for q in qs {
                    match next.next() {
                        Some(Decision::Start { seat, reply }) if *seat == q.seat => {
                            replies.push(*reply)
                        }
                        _ => return Err(out_of_step()),
                    }
                }
                game.answer_start(&replies).map_err(|e| e.to_string())?;
            }
            Pending::Program(qs) => {
                let mut replies: Vec<ProgramReply> = Vec::with_capacity(qs.len());
                for q in qs {
                    match next.next() {
                        Some(Decision::Program { seat, reply }) if *seat == q.seat => {
                            replies.push(reply.clone())
                        }
                        _ => return Err(out_of_step()),
                    }
                }
                game.answer_program(&replies).map_err(|e| e.to_string())?;
            }
            Pending::Cards | Pending::Over => break,
        }
    }
    if next.next().is_some() {
        return Err("the decision log goes on after the game's end".to_string());
    }
    Ok(())
}

impl ArenaRules for RoboRallyArena {
    fn kind(&self) -> GameKind {
        kind()
    }

    fn turn_limit(&self) -> u32 {
        u32::from(self.max_turns)
    }

    fn play_builtin(&self, seed: u64, seats: &[BuiltinBot]) -> Result<GameOutcome, String> {
        let mut game = Game::new(&self.setup(seats.len(), seed)).map_err(|e| e.to_string())?;
        let mut players: Vec<Box<dyn Player + Send>> =
            builtin_players(seats, ai, |ai, s| ai.player(seed, s))?;
        run_game(&mut game, &mut players).map_err(|e| e.to_string())?;
        Ok(outcome(&game))
    }

    fn play<'a>(&'a self, game: Match<'a>) -> BoxFuture<'a, Result<Played, String>> {
        Box::pin(async move {
            let seats = seatholders(game.seats, ai)?;
            let setup = self.setup(seats.len(), game.seed);
            let (played, logs) = super::remote::play_game(
                &seats,
                game.names,
                &setup,
                game.time_limit_ms,
                game.options,
            )
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

/// A finished game: statistics finishes, checkpoints, hits, deaths (RR12.3).
pub fn outcome(game: &Game) -> GameOutcome {
    let scores = game.scores();
    GameOutcome {
        engine_version: super::ENGINE_VERSION,
        turns: u32::from(game.turns_played()),
        decisions: super::log::to_bytes(game.decisions()),
        seats: game
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
            .collect(),
    }
}
