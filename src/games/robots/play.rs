//! Robots on the seam: its arena (the board size, start level and turn limit of the
//! settings, one board per seat), and how a game is played there with any seats, replayed
//! from its stored decision log, and shown (viewer page, text, JSON trace).

use super::settings::RobotsSettings;
use super::{BuiltinAi, DecisionLog, ENGINE_VERSION, Game, Seat, Setup, TurnDecisions};
use crate::games::arena::{ArenaRules, Match, Played, StoredGame};
use crate::games::shared::seats::{builtin_players, own_ai, seatholders};
use crate::games::shared::trace_view::{TraceView, turn_by_turn};
use crate::games::view::{PageInfo, Replayed, Viewer};
use crate::games::{BuiltinBot, GameKind, GameOutcome, SeatOutcome, Stats};
use futures_util::future::BoxFuture;
use serde_json::{Value, json};

/// The settings every game of a tournament plays with.
pub struct RobotsArena(pub RobotsSettings);

fn kind() -> GameKind {
    GameKind::of(&super::kind::Robots)
}

fn ai(bot: &BuiltinBot) -> Result<BuiltinAi, String> {
    own_ai(bot, kind(), BuiltinAi::from_name)
}

impl RobotsArena {
    fn setup(&self, seats: usize, seed: u64) -> Setup {
        Setup {
            seats: seats as u8,
            seed,
            settings: self.0.engine(),
        }
    }

    fn replay_game(&self, stored: StoredGame<'_>) -> Result<Game, String> {
        let log = DecisionLog::from_bytes(stored.decisions).map_err(|e| e.to_string())?;
        Game::replay(&self.setup(stored.seats, stored.seed), &log).map_err(|e| e.to_string())
    }
}

impl ArenaRules for RobotsArena {
    fn kind(&self) -> GameKind {
        kind()
    }

    fn turn_limit(&self) -> u32 {
        self.0.max_turns
    }

    fn play_builtin(&self, seed: u64, seats: &[BuiltinBot]) -> Result<GameOutcome, String> {
        let mut game = Game::new(&self.setup(seats.len(), seed)).map_err(|e| e.to_string())?;
        let mut players = builtin_players(seats, ai, |ai, s| ai.player(seed, Seat(s as u8)))?;
        super::run_game(&mut game, &mut players).map_err(|e| e.to_string())?;
        Ok(outcome(&game))
    }

    fn play<'a>(&'a self, game: Match<'a>) -> BoxFuture<'a, Result<Played, String>> {
        Box::pin(async move {
            let seats = seatholders(game.seats, ai)?;
            let (played, logs) = super::remote::play_game(
                &seats,
                game.seed,
                self.0.engine(),
                game.time_limit_ms,
                game.options,
            )
            .await
            .map_err(|e| e.to_string())?;
            Ok((outcome(&played), logs))
        })
    }

    fn replay(&self, stored: StoredGame<'_>) -> Result<GameOutcome, String> {
        self.replay_game(stored).map(|game| outcome(&game))
    }

    fn replay_for_view(&self, stored: StoredGame<'_>) -> Result<Replayed, String> {
        let game = self.replay_game(stored)?;
        let setup = self.setup(stored.seats, stored.seed);
        let trace = super::trace::trace(&setup, game.log()).map_err(|e| e.to_string())?;
        let log = game.log().clone();
        Ok(TraceView::replayed(
            kind(),
            &outcome(&game),
            trace,
            page,
            move |names| text(&setup, &log, names),
        ))
    }
}

/// A finished Robots game: statistics levels cleared, kills, turns.
fn outcome(game: &Game) -> GameOutcome {
    let scores = game.scores();
    GameOutcome {
        engine_version: ENGINE_VERSION,
        turns: game.turn(),
        decisions: game.log().to_bytes(),
        seats: game
            .stats()
            .iter()
            .enumerate()
            .map(|(s, st)| SeatOutcome {
                score: scores[s],
                won: game.won(Seat(s as u8)),
                faults: st.faults,
                stats: Stats::from_values(&[st.levels_cleared, st.kills, st.turns]),
            })
            .collect(),
    }
}

/// A Robots game turn by turn: every seat's board after each turn; `names` by seat.
fn text(setup: &Setup, log: &DecisionLog, names: &[String]) -> String {
    let boards = |title: &str, game: &Game| -> String {
        game.boards()
            .iter()
            .enumerate()
            .map(|(s, b)| {
                let name = names.get(s).map_or("", String::as_str);
                super::text::render(&format!("{title}, seat {s} {name}"), b)
            })
            .collect()
    };
    let play =
        |game: &mut Game, turn: &TurnDecisions<'_>| game.replay_turn(turn).ok().map(|()| turn.turn);
    turn_by_turn(Game::new(setup).ok(), log.iter(), play, boards)
}

/// The Robots replay page: `viewer.js` draws the game's trace (`trace.rs`).
pub(crate) const VIEWER: Viewer = Viewer {
    name: "robots",
    script: include_str!("viewer.js"),
    score_head: &[
        "Seat",
        "Team",
        "Score",
        "Levels",
        "Kills",
        "Teleports",
        "State",
    ],
};

/// The replay page of a traced Robots game.
fn page(trace: &Value, info: &PageInfo) -> String {
    let data = json!({ "seats": info.seats, "trace": trace });
    crate::games::view::page(&VIEWER, info, &data, None)
}
