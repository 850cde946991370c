//! Defines the game-neutral face of one tournament game: [`play_builtin`] and
//! [`play_with_remotes`] play a game of any kind from its [`Arena`], seed and seats, and
//! [`replay`] plays one again from its stored decision log; all three give a
//! [`GameOutcome`] (per seat: score, won, faults and the game's statistics, plus the
//! encoded decision log) that the runner stores and the reports check without knowing the
//! game's rules.
//!
//! [`play_external`] plays a game with external bots of any protocol: JSON-lines programs
//! started for the game, and clients of a series protocol (bots that play a whole set over
//! one connection), started once by a [`SeriesHost`] and seated game by game.

use super::lrs_match::{LrsMatch, LrsSeat, play_lrs_match};
use super::remote::{ExternalLog, Seatholder};
pub use super::series::{
    SeriesClient, SeriesClientLog, SeriesHost, SeriesLogger, SeriesSeat, series_client_sandbox,
};
use crate::bots::JsonlOptions;
use crate::bots::process::BotCommand;
use crate::games::lrs::engine::{ENGINE_VERSION, Game as LrsGame, GameConfig, Player, run_game};
use crate::games::robotgame as rg;
use crate::games::robots as rb;
use crate::games::view::Replayed;
use crate::games::{Arena, BuiltinBot, Stats};

/// One seat's result in a finished game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeatOutcome {
    pub score: i64,
    pub won: bool,
    pub faults: u32,
    pub stats: Stats,
}

/// A finished game of any kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameOutcome {
    pub engine_version: u32,
    pub turns: u32,
    /// The decision log, encoded as stored.
    pub decisions: Vec<u8>,
    /// By seat.
    pub seats: Vec<SeatOutcome>,
}

/// Who plays a seat of a tournament game.
#[derive(Clone)]
pub enum SeatBot {
    Builtin(BuiltinBot),
    /// A JSON-lines program, started in its sandbox for this game.
    External(BotCommand),
    /// A series client (Windward, Last Robot Standing only), seated by its series.
    Series(SeriesSeat),
}

/// What an external bot left behind in one game, as the store keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatLog {
    /// How its process ended (`exit 0`, `killed by SIGKILL`, `not started: ...`).
    pub exit_status: String,
    /// Its capped stderr.
    pub stderr: String,
}

impl SeatLog {
    fn of(
        spawn_error: Option<&String>,
        exit: Option<&crate::bots::process::ExitReport>,
    ) -> SeatLog {
        SeatLog {
            exit_status: match (spawn_error, exit) {
                (Some(e), _) => format!("not started: {e}"),
                (None, Some(exit)) => exit.status.clone(),
                (None, None) => "unknown".to_string(),
            },
            stderr: exit.map(|e| e.stderr.text()).unwrap_or_default(),
        }
    }
}

/// Plays a game of any kind with external bots in some seats (and built-in AIs in the
/// others); `names` by seat are what every bot is told. Returns the outcome and, by seat,
/// the log of each external bot started for the game (Windward clients keep theirs for
/// their series).
pub async fn play_external(
    arena: &Arena,
    seed: u64,
    by_seat: Vec<SeatBot>,
    names: &[String],
    time_limit_ms: u64,
    options: &JsonlOptions,
) -> Result<(GameOutcome, Vec<Option<SeatLog>>), String> {
    let Arena::Lrs {
        board,
        maps,
        turn_limit,
    } = arena
    else {
        let (outcome, logs) =
            play_with_remotes(arena, seed, &by_seat, names, time_limit_ms, options).await?;
        let logs = logs
            .into_iter()
            .map(|l| l.map(|l| SeatLog::of(l.spawn_error.as_ref(), l.exit.as_ref())))
            .collect();
        return Ok((outcome, logs));
    };
    let seats = by_seat
        .into_iter()
        .map(|s| match s {
            SeatBot::Builtin(BuiltinBot::Lrs(ai)) => Ok(LrsSeat::Builtin(ai)),
            SeatBot::Builtin(other) => Err(format!("{other} does not play Last Robot Standing")),
            SeatBot::External(command) => Ok(LrsSeat::Jsonl(command)),
            SeatBot::Series(series) => Ok(LrsSeat::Windward(series)),
        })
        .collect::<Result<Vec<_>, String>>()?;
    let (game, logs) = play_lrs_match(LrsMatch {
        board,
        maps,
        turn_limit: *turn_limit,
        seed,
        seats,
        names: names.to_vec(),
        time_limit_ms,
        options,
    })
    .await
    .map_err(|e| e.to_string())?;
    let logs = logs
        .into_iter()
        .map(|l| l.map(|l| SeatLog::of(l.spawn_error.as_ref(), l.exit.as_ref())))
        .collect();
    Ok((lrs_outcome(&game), logs))
}

/// Plays a game whose seats are all built-in AIs, on the calling thread.
pub fn play_builtin(
    arena: &Arena,
    seed: u64,
    by_seat: &[BuiltinBot],
) -> Result<GameOutcome, String> {
    let n = by_seat.len();
    let wrong = |b: &BuiltinBot| format!("{b} is not a built-in AI of this game");
    match arena {
        Arena::Lrs {
            board,
            maps,
            turn_limit,
        } => {
            let mut game = LrsGame::new(
                board.clone(),
                n,
                seed,
                GameConfig {
                    turn_limit: *turn_limit,
                },
            )
            .map_err(|e| e.to_string())?;
            let mut players = by_seat
                .iter()
                .enumerate()
                .map(|(seat, b)| match b {
                    BuiltinBot::Lrs(ai) => Ok(ai.player_with(seed, seat, Some(maps.clone()))),
                    other => Err(wrong(other)),
                })
                .collect::<Result<Vec<Box<dyn Player + Send>>, String>>()?;
            run_game(&mut game, &mut players).map_err(|e| e.to_string())?;
            Ok(lrs_outcome(&game))
        }
        Arena::RobotGame => {
            let mut game =
                rg::Game::new(&rg::Setup::standard(n as u8, seed)).map_err(|e| e.to_string())?;
            let mut players = by_seat
                .iter()
                .enumerate()
                .map(|(s, b)| match b {
                    BuiltinBot::RobotGame(ai) => Ok(ai.player(seed, rg::Seat(s as u8))),
                    other => Err(wrong(other)),
                })
                .collect::<Result<Vec<_>, String>>()?;
            rg::run_game(&mut game, &mut players).map_err(|e| e.to_string())?;
            Ok(robotgame_outcome(&game))
        }
        Arena::Robots(settings) => {
            let mut game =
                rb::Game::new(&robots_setup(n, seed, *settings)).map_err(|e| e.to_string())?;
            let mut players = by_seat
                .iter()
                .enumerate()
                .map(|(s, b)| match b {
                    BuiltinBot::Robots(ai) => Ok(ai.player(seed, rb::Seat(s as u8))),
                    other => Err(wrong(other)),
                })
                .collect::<Result<Vec<_>, String>>()?;
            rb::run_game(&mut game, &mut players).map_err(|e| e.to_string())?;
            Ok(robots_outcome(&game))
        }
    }
}

/// Plays a RobotGame or Robots game with external JSON-lines bots in some seats; `names`
/// by seat go into `hello`. Returns the outcome and, by seat, each external bot's log.
pub async fn play_with_remotes(
    arena: &Arena,
    seed: u64,
    by_seat: &[SeatBot],
    names: &[String],
    time_limit_ms: u64,
    options: &JsonlOptions,
) -> Result<(GameOutcome, Vec<Option<ExternalLog>>), String> {
    fn holders<A: Copy>(
        by_seat: &[SeatBot],
        pick: impl Fn(BuiltinBot) -> Option<A>,
    ) -> Result<Vec<Seatholder<A>>, String> {
        by_seat
            .iter()
            .map(|s| match s {
                SeatBot::Builtin(b) => pick(*b)
                    .map(Seatholder::Builtin)
                    .ok_or_else(|| format!("{b} is not a built-in AI of this game")),
                SeatBot::External(c) => Ok(Seatholder::External(c.clone())),
                SeatBot::Series(_) => Err("Windward clients play Last Robot Standing only".into()),
            })
            .collect()
    }
    match arena {
        Arena::Lrs { .. } => {
            Err("Last Robot Standing games with external bots are played by the runner".into())
        }
        Arena::RobotGame => {
            let seats = holders(by_seat, |b| match b {
                BuiltinBot::RobotGame(ai) => Some(ai),
                _ => None,
            })?;
            let (game, logs) =
                super::robotgame::play_game(&seats, names, seed, time_limit_ms, options)
                    .await
                    .map_err(|e| e.to_string())?;
            Ok((robotgame_outcome(&game), logs))
        }
        Arena::Robots(settings) => {
            let seats = holders(by_seat, |b| match b {
                BuiltinBot::Robots(ai) => Some(ai),
                _ => None,
            })?;
            let (game, logs) =
                super::robots::play_game(&seats, seed, settings.engine(), time_limit_ms, options)
                    .await
                    .map_err(|e| e.to_string())?;
            Ok((robots_outcome(&game), logs))
        }
    }
}

/// Plays a stored game of `seats` players again from its seed and decision log alone (no
/// bot), for replays and reports that check stored results.
pub fn replay(
    arena: &Arena,
    seats: usize,
    seed: u64,
    decisions: &[u8],
) -> Result<GameOutcome, String> {
    match arena {
        Arena::Lrs {
            board, turn_limit, ..
        } => {
            let game = replay_lrs(board.clone(), seats, seed, *turn_limit, decisions)?;
            Ok(lrs_outcome(&game))
        }
        Arena::RobotGame => {
            let log = rg::DecisionLog::from_bytes(decisions).map_err(|e| e.to_string())?;
            let game = rg::Game::replay(&rg::Setup::standard(seats as u8, seed), &log)
                .map_err(|e| e.to_string())?;
            Ok(robotgame_outcome(&game))
        }
        Arena::Robots(settings) => {
            let log = rb::DecisionLog::from_bytes(decisions).map_err(|e| e.to_string())?;
            let game = rb::Game::replay(&robots_setup(seats, seed, *settings), &log)
                .map_err(|e| e.to_string())?;
            Ok(robots_outcome(&game))
        }
    }
}

/// A Last Robot Standing game played again from its encoded replies, in the order the
/// engine consumed them.
fn replay_lrs(
    board: std::sync::Arc<crate::games::lrs::engine::Board>,
    seats: usize,
    seed: u64,
    turn_limit: u16,
    bytes: &[u8],
) -> Result<LrsGame, String> {
    use crate::games::lrs::engine::Pending;
    use crate::games::lrs::engine::decisions::{Reply, decode};
    let mut next = decode(bytes).map_err(|e| e.to_string())?.into_iter();
    let mut game =
        LrsGame::new(board, seats, seed, GameConfig { turn_limit }).map_err(|e| e.to_string())?;
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
                let answers = (0..n)
                    .map(|_| match next.next() {
                        Some(Reply::Start(r)) => Ok(r),
                        _ => Err(misfit("a start reply")),
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                game.answer_start(&answers).map_err(|e| e.to_string())?;
            }
            (false, n) => {
                let answers = (0..n)
                    .map(|_| match next.next() {
                        Some(Reply::Turn(r)) => Ok(r),
                        _ => Err(misfit("a turn reply")),
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                game.answer_turn(&answers).map_err(|e| e.to_string())?;
            }
        }
    }
    if next.next().is_some() {
        return Err("the game ended with replies left in its decision log".into());
    }
    Ok(game)
}

fn robots_setup(seats: usize, seed: u64, settings: crate::games::RobotsSettings) -> rb::Setup {
    rb::Setup {
        seats: seats as u8,
        seed,
        settings: settings.engine(),
    }
}

/// A finished Last Robot Standing game: statistics flags, hits, pushes, push kills, deaths.
pub fn lrs_outcome(game: &LrsGame) -> GameOutcome {
    let seats: Vec<usize> = (0..game.robots().len()).collect();
    let summary = super::summarize_game(game, &seats);
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

/// A finished RobotGame: statistics damage dealt, kills.
fn robotgame_outcome(game: &rg::Game) -> GameOutcome {
    let scores = game.scores();
    GameOutcome {
        engine_version: rg::ENGINE_VERSION,
        turns: u32::from(game.turns_played()),
        decisions: game.log().to_bytes(),
        seats: game
            .stats()
            .iter()
            .enumerate()
            .map(|(s, st)| SeatOutcome {
                score: i64::from(scores[s]),
                won: game.won(rg::Seat(s as u8)),
                faults: st.faults,
                stats: Stats::from_values(&[st.damage_dealt, st.kills]),
            })
            .collect(),
    }
}

/// A finished Robots game: statistics levels cleared, kills, turns.
fn robots_outcome(game: &rb::Game) -> GameOutcome {
    let scores = game.scores();
    GameOutcome {
        engine_version: rb::ENGINE_VERSION,
        turns: game.turn(),
        decisions: game.log().to_bytes(),
        seats: game
            .stats()
            .iter()
            .enumerate()
            .map(|(s, st)| SeatOutcome {
                score: scores[s],
                won: game.won(rb::Seat(s as u8)),
                faults: st.faults,
                stats: Stats::from_values(&[st.levels_cleared, st.kills, st.turns]),
            })
            .collect(),
    }
}

/// The replay trace of a stored RobotGame or Robots game (the JSON the game's viewer
/// draws), rebuilt from its decision log.
pub fn trace(
    arena: &Arena,
    seats: usize,
    seed: u64,
    decisions: &[u8],
) -> Result<serde_json::Value, String> {
    match arena {
        Arena::Lrs { .. } => {
            Err("Last Robot Standing replays are built by games::lrs::replay".into())
        }
        Arena::RobotGame => {
            let log = rg::DecisionLog::from_bytes(decisions).map_err(|e| e.to_string())?;
            rg::trace::trace(&rg::Setup::standard(seats as u8, seed), &log)
                .map_err(|e| e.to_string())
        }
        Arena::Robots(settings) => {
            let log = rb::DecisionLog::from_bytes(decisions).map_err(|e| e.to_string())?;
            rb::trace::trace(&robots_setup(seats, seed, *settings), &log).map_err(|e| e.to_string())
        }
    }
}

/// A stored game of any kind played again from its decision log for its viewer (and
/// `replay`), with its replayed scores to check against the stored ones.
pub fn replay_for_view(
    arena: &Arena,
    seats: usize,
    seed: u64,
    decisions: &[u8],
) -> Result<Replayed, String> {
    match arena {
        Arena::Lrs {
            board, turn_limit, ..
        } => crate::games::lrs::replay::replay(board.clone(), seats, seed, *turn_limit, decisions)
            .map(|replay| Replayed::Lrs {
                board: board.clone(),
                replay,
            })
            .map_err(|e| e.to_string()),
        Arena::RobotGame | Arena::Robots(_) => {
            let outcome = replay(arena, seats, seed, decisions)?;
            Ok(Replayed::Trace {
                kind: match arena {
                    Arena::Robots(_) => {
                        crate::games::GameKind::of(&crate::games::robots::kind::Robots)
                    }
                    _ => crate::games::GameKind::of(&crate::games::robotgame::kind::RobotGame),
                },
                trace: trace(arena, seats, seed, decisions)?,
                scores: outcome.seats.iter().map(|s| s.score).collect(),
            })
        }
    }
}

/// A stored RobotGame or Robots game as text, turn by turn (`replay --text`): the position
/// at the start and after every turn; `names` by seat.
pub fn replay_text(
    arena: &Arena,
    seats: usize,
    seed: u64,
    decisions: &[u8],
    names: &[String],
) -> Result<String, String> {
    let mut out = String::new();
    match arena {
        Arena::Lrs { .. } => {
            return Err("Last Robot Standing text replays are drawn by `replay`".into());
        }
        Arena::RobotGame => {
            let log = rg::DecisionLog::from_bytes(decisions).map_err(|e| e.to_string())?;
            let mut game = rg::Game::new(&rg::Setup::standard(seats as u8, seed))
                .map_err(|e| e.to_string())?;
            out += &rg::text::render("start", &game, names);
            for turn in log.iter() {
                game.replay_turn(&turn).map_err(|e| e.to_string())?;
                out += &rg::text::render(&format!("turn {}", turn.turn), &game, names);
            }
        }
        Arena::Robots(settings) => {
            let log = rb::DecisionLog::from_bytes(decisions).map_err(|e| e.to_string())?;
            let mut game =
                rb::Game::new(&robots_setup(seats, seed, *settings)).map_err(|e| e.to_string())?;
            let boards = |title: &str, game: &rb::Game| -> String {
                game.boards()
                    .iter()
                    .enumerate()
                    .map(|(s, b)| {
                        let name = names.get(s).map_or("", String::as_str);
                        rb::text::render(&format!("{title}, seat {s} {name}"), b)
                    })
                    .collect()
            };
            out += &boards("start", &game);
            for turn in log.iter() {
                game.replay_turn(&turn).map_err(|e| e.to_string())?;
                out += &boards(&format!("turn {}", turn.turn), &game);
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{GameKind, GameSettings};

    fn arena_of(kind: GameKind) -> Arena {
        let settings = GameSettings::default_for(kind);
        let pool = Arena::pool(&settings, &["gear-works".to_string()]);
        Arena::load(&settings, &pool[0], 60).unwrap()
    }

    /// Every game replays from its stored bytes to the same outcome; damaged bytes are an
    /// error, never a panic or a different game.
    #[test]
    fn games_of_every_kind_replay_from_their_stored_decisions() {
        for kind in GameKind::all() {
            let arena = arena_of(kind);
            let ais: Vec<BuiltinBot> = kind
                .builtin_ais()
                .iter()
                .map(|(name, _)| BuiltinBot::parse(kind, name).unwrap())
                .collect();
            let seats: Vec<BuiltinBot> = (0..4).map(|s| ais[s % ais.len()]).collect();
            let played = play_builtin(&arena, 77, &seats).unwrap();
            assert_eq!(played.engine_version, kind.engine_version());
            let replayed = replay(&arena, seats.len(), 77, &played.decisions).unwrap();
            assert_eq!(replayed, played, "{kind:?}");
            let cut = &played.decisions[..played.decisions.len() - 1];
            assert!(replay(&arena, seats.len(), 77, cut).is_err(), "{kind:?}");
            let mut longer = played.decisions.clone();
            longer.push(0);
            assert!(
                replay(&arena, seats.len(), 77, &longer).is_err(),
                "{kind:?}"
            );
        }
    }
}
