//! Robots on the seam: its arena (the board size, start level and turn limit of the
//! settings, one board per seat), and how a game is played there with any seats, replayed
//! from its stored decision log, and shown (viewer page, text, JSON trace).

use super::kind::Robots;
use super::settings::RobotsSettings;
use super::{BuiltinAi, DecisionLog, Game, Seat, Setup, TurnDecisions};
use crate::games::arena::{Decisions, StoredGame};
use crate::games::shared::seats::TurnArena;
use crate::games::shared::trace_view::{TraceView, turn_by_turn};
use crate::games::view::{Replayed, Viewer};
use crate::games::{GameKind, SeatOutcome, Stats, TypedGame};

/// The settings every game of a tournament plays with.
pub struct RobotsArena(pub RobotsSettings);

impl RobotsArena {
    fn setup(&self, seats: usize, seed: u64) -> Setup {
        Setup {
            seats: seats as u8,
            seed,
            settings: self.0.engine(),
        }
    }
}

impl TurnArena for RobotsArena {
    type Ai = BuiltinAi;
    type Player = dyn super::Player + Send;
    type Game = Game;
    type Table<'a> = super::remote::Table<'a>;

    fn kind(&self) -> GameKind {
        Robots::kind()
    }

    fn player(ai: BuiltinAi, seed: u64, seat: usize) -> Box<Self::Player> {
        ai.player(seed, Seat(seat as u8))
    }

    fn new_game(&self, seats: usize, seed: u64) -> Result<Game, String> {
        Game::new(&self.setup(seats, seed)).map_err(|e| e.to_string())
    }

    fn table<'a>(game: &'a mut Game, _names: &'a [String]) -> Self::Table<'a> {
        super::remote::Table { game }
    }

    /// Statistics levels cleared, kills, turns.
    fn totals(game: &Game) -> (u32, Vec<SeatOutcome>) {
        let scores = game.scores();
        let seats = game
            .stats()
            .iter()
            .enumerate()
            .map(|(s, st)| SeatOutcome {
                score: scores[s],
                won: game.won(Seat(s as u8)),
                faults: st.faults,
                stats: Stats::from_values(&[st.levels_cleared, st.kills, st.turns]),
            })
            .collect();
        (game.turn(), seats)
    }

    fn decisions(game: &Game) -> Vec<u8> {
        game.log().to_bytes()
    }

    fn turn_limit(&self) -> u32 {
        self.0.max_turns
    }

    fn replayed(&self, stored: StoredGame<'_>) -> Result<Game, String> {
        let log = DecisionLog::from_bytes(stored.decisions).map_err(|e| e.to_string())?;
        Game::replay(&self.setup(stored.seats, stored.seed), &log).map_err(|e| e.to_string())
    }

    fn replay_for_view(&self, stored: StoredGame<'_>) -> Result<Replayed, String> {
        let game = self.replayed(stored)?;
        let setup = self.setup(stored.seats, stored.seed);
        let trace = super::trace::trace(&setup, game.log()).map_err(|e| e.to_string())?;
        let log = game.log().clone();
        Ok(TraceView::replayed(
            TurnArena::kind(self),
            &self.outcome(&game, Decisions::Skip),
            trace,
            |trace, info| VIEWER.trace_page(trace, info),
            move |names| text(&setup, &log, names),
        ))
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
