//! Last Robot Standing on the seam: its arena (a board with the AIs' maps of it and a turn
//! limit) and how a game is played there with any seats, replayed from its stored decision
//! log, and shown (viewer page, text, JSON trace).

use super::ai::{BuiltinAi, FlagDistances};
use super::engine::{Board, ENGINE_VERSION, Game, GameConfig, Pending, Player, run_game};
use super::kind::Lrs;
use super::remote::{LrsMatch, LrsSeat, play_lrs_match};
use super::replay::Replay;
use super::windward::SeriesSeat;
use crate::games::arena::{ArenaRules, Decisions, Match, Played, StoredGame};
use crate::games::shared::seats::{builtin_players, own_ai};
use crate::games::view::{PageInfo, ReplayAbout, ReplayView, Replayed};
use crate::games::{BuiltinBot, GameKind, GameOutcome, SeatBot, SeatOutcome, Stats, TypedGame};
use futures_util::future::BoxFuture;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::sync::Arc;

/// A board, the built-in AIs' maps of it (shared by all its games) and the turn limit.
pub struct LrsArena {
    pub board: Arc<Board>,
    pub maps: Arc<FlagDistances>,
    pub turn_limit: u16,
}

impl LrsArena {
    /// The arena of `board` for games of `turn_limit` turns.
    pub fn of(board: Arc<Board>, turn_limit: u16) -> LrsArena {
        let maps = Arc::new(FlagDistances::new(&board));
        LrsArena {
            board,
            maps,
            turn_limit,
        }
    }

    fn ai(bot: &BuiltinBot) -> Result<BuiltinAi, String> {
        own_ai(bot, Lrs::kind(), BuiltinAi::from_name)
            .map_err(|_| format!("{bot} does not play Last Robot Standing"))
    }
}

impl ArenaRules for LrsArena {
    fn kind(&self) -> GameKind {
        Lrs::kind()
    }

    fn turn_limit(&self) -> u32 {
        u32::from(self.turn_limit)
    }

    /// The decision log is encoded with the game's summary (`stats::summarize_game`,
    /// which the Windward series uses too), so it is kept whatever `Decisions` says.
    fn play_builtin(
        &self,
        seed: u64,
        seats: &[BuiltinBot],
        _decisions: Decisions,
    ) -> Result<GameOutcome, String> {
        let config = GameConfig {
            turn_limit: self.turn_limit,
        };
        let mut game =
            Game::new(self.board.clone(), seats.len(), seed, config).map_err(|e| e.to_string())?;
        let mut players: Vec<Box<dyn Player + Send>> =
            builtin_players(seats, Self::ai, |ai, seat| {
                ai.player_with(seed, seat, Some(self.maps.clone()))
            })?;
        run_game(&mut game, &mut players).map_err(|e| e.to_string())?;
        Ok(outcome(&game))
    }

    fn play<'a>(&'a self, game: Match<'a>) -> BoxFuture<'a, Result<Played, String>> {
        Box::pin(async move {
            let Match {
                seed,
                seats,
                names,
                time_limit_ms,
                options,
            } = game;
            let seats = seats
                .into_iter()
                .map(|s| match s {
                    SeatBot::Builtin(b) => Ok(LrsSeat::Builtin(Self::ai(&b)?)),
                    SeatBot::External(command) => Ok(LrsSeat::Jsonl(command)),
                    SeatBot::Series(series) => series
                        .get::<SeriesSeat>()
                        .map(|s| LrsSeat::Windward(s.clone()))
                        .ok_or_else(|| "a series client of another game".to_string()),
                })
                .collect::<Result<Vec<_>, String>>()?;
            let (game, logs) = play_lrs_match(LrsMatch {
                board: &self.board,
                maps: &self.maps,
                turn_limit: self.turn_limit,
                seed,
                seats,
                names: names.to_vec(),
                time_limit_ms,
                options,
            })
            .await
            .map_err(|e| e.to_string())?;
            Ok((outcome(&game), logs))
        })
    }

    fn replay(&self, stored: StoredGame<'_>) -> Result<GameOutcome, String> {
        replay_game(self.board.clone(), self.turn_limit, stored).map(|game| outcome(&game))
    }

    fn replay_for_view(&self, stored: StoredGame<'_>) -> Result<Replayed, String> {
        let StoredGame {
            seats,
            seed,
            decisions,
        } = stored;
        let replay =
            super::replay::replay(self.board.clone(), seats, seed, self.turn_limit, decisions)
                .map_err(|e| e.to_string())?;
        Ok(Replayed::new(LrsReplay {
            board: self.board.clone(),
            turn_limit: self.turn_limit,
            replay,
        }))
    }
}

/// A finished game: statistics flags, hits, pushes, push kills, deaths.
pub fn outcome(game: &Game) -> GameOutcome {
    let seats: Vec<usize> = (0..game.robots().len()).collect();
    let summary = super::stats::summarize_game(game, &seats);
    GameOutcome {
        engine_version: ENGINE_VERSION,
        turns: u32::from(game.turn()),
        decisions: summary.decisions,
        seats: summary
            .per_slot
            .iter()
            .map(|r| SeatOutcome {
                score: r.score,
                won: r.won,
                faults: r.faults,
                stats: Stats::from_values(&[r.flags, r.hits, r.pushes, r.push_kills, r.deaths]),
            })
            .collect(),
    }
}

/// A game played again from its encoded replies, in the order the engine consumed them.
fn replay_game(board: Arc<Board>, turn_limit: u16, stored: StoredGame<'_>) -> Result<Game, String> {
    use super::engine::decisions::{Reply, decode, take_replies};
    let mut next = decode(stored.decisions)
        .map_err(|e| e.to_string())?
        .into_iter();
    let config = GameConfig { turn_limit };
    let mut game =
        Game::new(board, stored.seats, stored.seed, config).map_err(|e| e.to_string())?;
    let misfit = |what: &str| format!("the decision log does not fit the game: {what} expected");
    loop {
        let due = match game.pending() {
            Pending::Start(q) => (true, q.len()),
            Pending::Turn(q) => (false, q.len()),
            Pending::Cards => return Err("a scenario game cannot be replayed".into()),
            Pending::Over => break,
        };
        match due {
            (true, n) => {
                let answers = take_replies(&mut next, n, Reply::start)
                    .map_err(|_| misfit("a start reply"))?;
                game.answer_start(&answers).map_err(|e| e.to_string())?;
            }
            (false, n) => {
                let answers =
                    take_replies(&mut next, n, Reply::turn).map_err(|_| misfit("a turn reply"))?;
                game.answer_turn(&answers).map_err(|e| e.to_string())?;
            }
        }
    }
    if next.next().is_some() {
        return Err("the game ended with replies left in its decision log".into());
    }
    Ok(game)
}

/// A replayed game with its board, stage by stage.
struct LrsReplay {
    board: Arc<Board>,
    turn_limit: u16,
    replay: Replay,
}

impl ReplayView for LrsReplay {
    fn scores(&self) -> Vec<i64> {
        self.replay.scores.iter().map(|&s| i64::from(s)).collect()
    }

    fn faults_of(&self, seat: usize) -> BTreeMap<&'static str, u32> {
        let mut out = BTreeMap::new();
        let all = self
            .replay
            .start_events
            .iter()
            .chain(self.replay.steps.iter().flat_map(|s| s.events.iter()));
        for e in all.filter(|e| e.robot == seat && e.kind.is_fault()) {
            *out.entry(e.kind.name()).or_insert(0) += 1;
        }
        out
    }

    fn turns(&self) -> usize {
        self.replay.steps.len()
    }

    fn page(&self, info: &PageInfo) -> String {
        super::view::page(&self.board, &self.replay, info)
    }

    fn checks_stored_scores(&self) -> bool {
        true
    }

    fn text(&self, names: &[String]) -> String {
        let mut out = super::text::turn("start", &self.board, &self.replay.start, &[], names);
        for step in &self.replay.steps {
            let title = format!("turn {}", step.turn);
            out += &super::text::turn(&title, &self.board, &step.robots, &step.events, names);
        }
        out
    }

    fn report_json(&self, about: &ReplayAbout) -> Value {
        let seats: Vec<Value> = about
            .seats
            .iter()
            .map(|s| {
                let score = self.replay.scores.get(s.seat).copied().unwrap_or_default();
                json!({ "seat": s.seat, "team": s.team, "score": score })
            })
            .collect();
        json!({
            "set": about.set,
            "game": about.game,
            "board": about.arena,
            "turn_limit": self.turn_limit,
            "seats": seats,
            "stored_bytes": about.stored_bytes,
            "full_state_bytes": self.full_state_bytes(),
            "replay": self.replay,
        })
    }

    fn full_state_bytes(&self) -> usize {
        serde_json::to_vec(&self.replay).map_or(0, |v| v.len())
    }
}
