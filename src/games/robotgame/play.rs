//! RobotGame on the seam: its one arena, and how a game is played there with any seats,
//! replayed from its stored decision log, and shown (viewer page, text, JSON trace).

use super::{BuiltinAi, DecisionLog, ENGINE_VERSION, Game, Seat, Setup};
use crate::bots::JsonlOptions;
use crate::games::arena::{Arena, ArenaRules, Played};
use crate::games::jsonl::Seatholder;
use crate::games::view::{PageInfo, ReplayAbout, ReplayView, Replayed};
use crate::games::{BuiltinBot, GameKind, GameOutcome, SeatBot, SeatOutcome, Stats};
use futures_util::future::BoxFuture;
use serde_json::{Value, json};

/// RobotGame's one arena (its games always last 100 turns).
pub struct RobotGameArena;

fn kind() -> GameKind {
    GameKind::of(&super::kind::RobotGame)
}

fn ai(bot: &BuiltinBot) -> Result<BuiltinAi, String> {
    BuiltinAi::from_name(bot.name())
        .filter(|_| bot.kind() == kind())
        .ok_or_else(|| format!("{bot} is not a built-in AI of this game"))
}

impl ArenaRules for RobotGameArena {
    fn kind(&self) -> GameKind {
        kind()
    }

    fn turn_limit(&self) -> u32 {
        u32::from(super::engine::TURNS)
    }

    fn shortened(&self, _turns: u32) -> Arena {
        Arena::new(RobotGameArena)
    }

    fn play_builtin(&self, seed: u64, seats: &[BuiltinBot]) -> Result<GameOutcome, String> {
        let mut game =
            Game::new(&Setup::standard(seats.len() as u8, seed)).map_err(|e| e.to_string())?;
        let mut players = seats
            .iter()
            .enumerate()
            .map(|(s, b)| Ok(ai(b)?.player(seed, Seat(s as u8))))
            .collect::<Result<Vec<_>, String>>()?;
        super::run_game(&mut game, &mut players).map_err(|e| e.to_string())?;
        Ok(outcome(&game))
    }

    fn play<'a>(
        &'a self,
        seed: u64,
        seats: Vec<SeatBot>,
        names: &'a [String],
        time_limit_ms: u64,
        options: &'a JsonlOptions,
    ) -> BoxFuture<'a, Result<Played, String>> {
        Box::pin(async move {
            let seats = seatholders(seats, ai)?;
            let (game, logs) =
                super::remote::play_game(&seats, names, seed, time_limit_ms, options)
                    .await
                    .map_err(|e| e.to_string())?;
            Ok((outcome(&game), logs))
        })
    }

    fn replay(&self, seats: usize, seed: u64, decisions: &[u8]) -> Result<GameOutcome, String> {
        replay_game(seats, seed, decisions).map(|game| outcome(&game))
    }

    fn replay_for_view(
        &self,
        seats: usize,
        seed: u64,
        decisions: &[u8],
    ) -> Result<Replayed, String> {
        let game = replay_game(seats, seed, decisions)?;
        let setup = Setup::standard(seats as u8, seed);
        let trace = super::trace::trace(&setup, game.log()).map_err(|e| e.to_string())?;
        Ok(Replayed::new(RobotGameReplay {
            setup,
            log: game.log().clone(),
            scores: outcome(&game).seats.iter().map(|s| s.score).collect(),
            trace,
        }))
    }
}

/// The seats of a game whose seats all answer each turn at once: built-in AIs of the game
/// (`ai` finds them) and JSON-lines programs; series clients play Last Robot Standing only.
pub(in crate::games) fn seatholders<A>(
    seats: Vec<SeatBot>,
    ai: impl Fn(&BuiltinBot) -> Result<A, String>,
) -> Result<Vec<Seatholder<A>>, String> {
    seats
        .into_iter()
        .map(|s| match s {
            SeatBot::Builtin(b) => ai(&b).map(Seatholder::Builtin),
            SeatBot::External(c) => Ok(Seatholder::External(c)),
            SeatBot::Series(_) => Err("Windward clients play Last Robot Standing only".into()),
        })
        .collect()
}

fn replay_game(seats: usize, seed: u64, decisions: &[u8]) -> Result<Game, String> {
    let log = DecisionLog::from_bytes(decisions).map_err(|e| e.to_string())?;
    Game::replay(&Setup::standard(seats as u8, seed), &log).map_err(|e| e.to_string())
}

/// A finished RobotGame: statistics damage dealt, kills.
fn outcome(game: &Game) -> GameOutcome {
    let scores = game.scores();
    GameOutcome {
        engine_version: ENGINE_VERSION,
        turns: u32::from(game.turns_played()),
        decisions: game.log().to_bytes(),
        seats: game
            .stats()
            .iter()
            .enumerate()
            .map(|(s, st)| SeatOutcome {
                score: i64::from(scores[s]),
                won: game.won(Seat(s as u8)),
                faults: st.faults,
                stats: Stats::from_values(&[st.damage_dealt, st.kills]),
            })
            .collect(),
    }
}

/// A replayed RobotGame: its trace (what the viewer draws) and what rebuilds it as text.
struct RobotGameReplay {
    setup: Setup,
    log: DecisionLog,
    scores: Vec<i64>,
    trace: Value,
}

impl ReplayView for RobotGameReplay {
    fn scores(&self) -> Vec<i64> {
        self.scores.clone()
    }

    fn turns(&self) -> usize {
        steps(&self.trace)
    }

    fn page(&self, info: &PageInfo) -> String {
        crate::games::view::robotgame_page(&self.trace, info)
    }

    fn text(&self, names: &[String]) -> String {
        let Ok(mut game) = Game::new(&self.setup) else {
            return String::new();
        };
        let mut out = super::text::render("start", &game, names);
        for turn in self.log.iter() {
            if game.replay_turn(&turn).is_err() {
                break;
            }
            out += &super::text::render(&format!("turn {}", turn.turn), &game, names);
        }
        out
    }

    fn report_json(&self, about: &ReplayAbout) -> Value {
        trace_report(kind(), about, &self.trace)
    }

    fn full_state_bytes(&self) -> usize {
        self.trace.to_string().len()
    }
}

/// Turns in a trace (its `steps`).
pub(in crate::games) fn steps(trace: &Value) -> usize {
    trace
        .get("steps")
        .and_then(Value::as_array)
        .map_or(0, Vec::len)
}

/// `replay --json` of a game shown by its trace.
pub(in crate::games) fn trace_report(kind: GameKind, about: &ReplayAbout, trace: &Value) -> Value {
    json!({
        "game_kind": kind.id(),
        "set": about.set,
        "game": about.game,
        "arena": about.arena,
        "seats": about.seats,
        "stored_bytes": about.stored_bytes,
        "trace": trace,
    })
}
