//! RobotGame on the seam: its one arena, and how a game is played there with any seats,
//! replayed from its stored decision log, and shown (viewer page, text, JSON trace).

use super::kind::RobotGame;
use super::{BuiltinAi, DecisionLog, Game, Seat, Setup, TurnDecisions};
use crate::games::arena::{Decisions, StoredGame};
use crate::games::shared::seats::TurnArena;
use crate::games::shared::trace_view::{TraceView, turn_by_turn};
use crate::games::view::{PageInfo, Replayed, Viewer};
use crate::games::{GameKind, SeatOutcome, Stats, TypedGame};
use serde_json::{Value, json};

/// RobotGame's one arena (its games always last 100 turns).
pub struct RobotGameArena;

impl TurnArena for RobotGameArena {
    type Ai = BuiltinAi;
    type Player = dyn super::Player + Send;
    type Game = Game;
    type Table<'a> = super::remote::Table<'a>;

    fn kind(&self) -> GameKind {
        RobotGame::kind()
    }

    fn player(ai: BuiltinAi, seed: u64, seat: usize) -> Box<Self::Player> {
        ai.player(seed, Seat(seat as u8))
    }

    fn new_game(&self, seats: usize, seed: u64) -> Result<Game, String> {
        Game::new(&Setup::standard(seats as u8, seed)).map_err(|e| e.to_string())
    }

    fn table<'a>(game: &'a mut Game, names: &'a [String]) -> Self::Table<'a> {
        super::remote::Table { game, names }
    }

    /// Statistics damage dealt, kills.
    fn totals(game: &Game) -> (u32, Vec<SeatOutcome>) {
        let scores = game.scores();
        let seats = game
            .stats()
            .iter()
            .enumerate()
            .map(|(s, st)| SeatOutcome {
                score: i64::from(scores[s]),
                won: game.won(Seat(s as u8)),
                faults: st.faults,
                stats: Stats::from_values(&[st.damage_dealt, st.kills]),
            })
            .collect();
        (u32::from(game.turns_played()), seats)
    }

    fn decisions(game: &Game) -> Vec<u8> {
        game.log().to_bytes()
    }

    fn turn_limit(&self) -> u32 {
        u32::from(super::engine::TURNS)
    }

    fn replayed(&self, stored: StoredGame<'_>) -> Result<Game, String> {
        let log = DecisionLog::from_bytes(stored.decisions).map_err(|e| e.to_string())?;
        let setup = Setup::standard(stored.seats as u8, stored.seed);
        Game::replay(&setup, &log).map_err(|e| e.to_string())
    }

    fn replay_for_view(&self, stored: StoredGame<'_>) -> Result<Replayed, String> {
        let game = self.replayed(stored)?;
        let setup = Setup::standard(stored.seats as u8, stored.seed);
        let trace = super::trace::trace(&setup, game.log()).map_err(|e| e.to_string())?;
        let log = game.log().clone();
        Ok(TraceView::replayed(
            RobotGame::kind(),
            &self.outcome(&game, Decisions::Skip),
            trace,
            page,
            move |names| text(&setup, &log, names),
        ))
    }
}

/// A RobotGame turn by turn: the arena after each turn; `names` by seat.
fn text(setup: &Setup, log: &DecisionLog, names: &[String]) -> String {
    let render = |title: &str, game: &Game| super::text::render(title, game, names);
    let play =
        |game: &mut Game, turn: &TurnDecisions<'_>| game.replay_turn(turn).ok().map(|_| turn.turn);
    turn_by_turn(Game::new(setup).ok(), log.iter(), play, render)
}

/// The RobotGame replay page: `viewer.js` draws the game's trace (`trace.rs`).
pub(crate) const VIEWER: Viewer = Viewer {
    name: "robotgame",
    script: include_str!("viewer.js"),
    score_head: &["Seat", "Team", "Robots", "Damage dealt", "Kills", "Faults"],
};

/// The replay page of a traced RobotGame game.
fn page(trace: &Value, info: &PageInfo) -> String {
    let seats: Vec<Value> = info.seats.iter().map(|n| json!({ "name": n })).collect();
    let data = json!({ "seats": seats, "trace": trace });
    crate::games::view::page(&VIEWER, info, &data, None)
}
