//! Defines the report's replays: every stored game of the current runs rebuilt from its
//! decisions, checked against its stored scores, and written as a viewer page.
//!
//! A game that does not replay to its stored scores is not hidden: the report names it on
//! its set page and on the index, because a silent wrong replay is worse than none.

use super::SiteError;
use super::html::{Context, replay_file, set_file, up};
use crate::engine::Board;
use crate::games::Arena;
use crate::play::contest;
use crate::report::Snapshot;
use crate::report::replay::{Replay, replay};
use crate::report::viewer::{PageInfo, page};
use crate::tourney::model::BracketFormat;
use rayon::prelude::*;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// Decision logs of stored games, by (set id, game index), current runs only.
pub type StoredLogs = HashMap<(String, u32), Vec<u8>>;

/// One stored game, replayed.
pub struct PlayedGame {
    pub seed: u64,
    pub board: String,
    /// Team by seat.
    pub teams: Vec<usize>,
    pub stored_scores: Vec<i32>,
    /// The replay, or why there is none.
    pub replay: Result<Replay, String>,
    board_model: Option<Arc<Board>>,
    /// A game of another kind than Last Robot Standing: its arena and trace with the
    /// replayed scores, or why there are none.
    other: Option<Result<OtherGame, String>>,
}

/// A replayed RobotGame or Robots game.
struct OtherGame {
    arena: Arena,
    trace: serde_json::Value,
    scores: Vec<i64>,
}

impl PlayedGame {
    /// Faults of one seat, by kind name, from the replayed events.
    pub fn faults_of(&self, seat: usize) -> BTreeMap<&'static str, u32> {
        let mut out = BTreeMap::new();
        if let Ok(r) = &self.replay {
            let all = r
                .start_events
                .iter()
                .chain(r.steps.iter().flat_map(|s| s.events.iter()));
            for e in all.filter(|e| e.robot == seat && e.kind.is_fault()) {
                *out.entry(e.kind.name()).or_insert(0) += 1;
            }
        }
        out
    }

    /// Whether the replay failed or its scores differ from the stored ones.
    pub fn problem(&self) -> Option<String> {
        match &self.other {
            Some(Err(e)) => return Some(e.clone()),
            Some(Ok(o)) => {
                let stored: Vec<i64> = self.stored_scores.iter().map(|&s| i64::from(s)).collect();
                return (o.scores != stored).then(|| {
                    format!(
                        "REPLAY DIFFERS FROM THE STORED GAME: stored scores {stored:?}, replayed {:?}",
                        o.scores
                    )
                });
            }
            None => {}
        }
        match &self.replay {
            Err(e) => Some(e.clone()),
            Ok(r) if r.scores != self.stored_scores => Some(format!(
                "REPLAY DIFFERS FROM THE STORED GAME: stored scores {:?}, replayed {:?}",
                self.stored_scores, r.scores
            )),
            Ok(_) => None,
        }
    }
}

/// Every replayed game.
pub struct Replays {
    pub games: BTreeMap<(String, u32), PlayedGame>,
}

impl Replays {
    pub fn get(&self, set_id: &str, game: u32) -> Option<&PlayedGame> {
        self.games.get(&(set_id.to_string(), game))
    }

    /// Games whose replay failed or differs.
    pub fn problems(&self) -> Vec<(&(String, u32), String)> {
        self.games
            .iter()
            .filter_map(|(k, g)| g.problem().map(|p| (k, p)))
            .collect()
    }
}

/// Replays every stored game of the current runs, in parallel.
pub fn replay_all(snap: &Snapshot, logs: &StoredLogs) -> Result<Replays, SiteError> {
    let format: BracketFormat = serde_json::from_str(&snap.tournament.format_json)
        .map_err(|e| SiteError::Replay(format!("unreadable bracket format: {e}")))?;
    if !format.game.is_lrs() {
        return Ok(replay_other_games(snap, logs, &format));
    }
    let mut boards: HashMap<String, Option<Arc<Board>>> = HashMap::new();
    let mut jobs = Vec::new();
    for g in snap.games.iter().filter(|g| !g.superseded && g.done) {
        let Some(log) = logs.get(&(g.set_id.clone(), g.game_index)) else {
            continue;
        };
        let board = boards
            .entry(g.board.clone())
            .or_insert_with(|| crate::boards::load_board(&g.board).ok())
            .clone();
        let mut lines: Vec<_> = snap
            .results
            .get(&g.set_id)
            .map(|rows| {
                rows.iter()
                    .filter(|r| r.game_index == g.game_index)
                    .collect()
            })
            .unwrap_or_default();
        lines.sort_by_key(|r| r.seat);
        jobs.push((g, log, board, lines));
    }
    let games = jobs
        .into_par_iter()
        .map(|(g, log, board, lines)| {
            let replayed = match &board {
                Some(b) => replay(b.clone(), lines.len(), g.seed, format.turns_per_game, log)
                    .map_err(|e| e.to_string()),
                None => Err(format!(
                    "board {:?} is not in this build's library",
                    g.board
                )),
            };
            let played = PlayedGame {
                seed: g.seed,
                board: g.board.clone(),
                teams: lines.iter().map(|r| r.team).collect(),
                stored_scores: lines.iter().map(|r| r.score as i32).collect(),
                replay: replayed,
                board_model: board,
                other: None,
            };
            ((g.set_id.clone(), g.game_index), played)
        })
        .collect();
    Ok(Replays { games })
}

/// Replays every stored game of a RobotGame or Robots tournament, in parallel.
fn replay_other_games(snap: &Snapshot, logs: &StoredLogs, format: &BracketFormat) -> Replays {
    let games = snap
        .games
        .iter()
        .filter(|g| !g.superseded && g.done)
        .filter_map(|g| {
            logs.get(&(g.set_id.clone(), g.game_index))
                .map(|log| (g, log))
        })
        .collect::<Vec<_>>()
        .into_par_iter()
        .map(|(g, log)| {
            let mut lines: Vec<_> = snap
                .results
                .get(&g.set_id)
                .map(|rows| {
                    rows.iter()
                        .filter(|r| r.game_index == g.game_index)
                        .collect()
                })
                .unwrap_or_default();
            lines.sort_by_key(|r| r.seat);
            let seats = lines.len();
            let other =
                Arena::load(&format.game, &g.board, format.turns_per_game).and_then(|arena| {
                    let outcome = contest::replay(&arena, seats, g.seed, log)?;
                    let trace = contest::trace(&arena, seats, g.seed, log)?;
                    Ok(OtherGame {
                        arena,
                        trace,
                        scores: outcome.seats.iter().map(|s| s.score).collect(),
                    })
                });
            let played = PlayedGame {
                seed: g.seed,
                board: g.board.clone(),
                teams: lines.iter().map(|r| r.team).collect(),
                stored_scores: lines.iter().map(|r| r.score as i32).collect(),
                replay: Err("not a Last Robot Standing game".to_string()),
                board_model: None,
                other: Some(other),
            };
            ((g.set_id.clone(), g.game_index), played)
        })
        .collect();
    Replays { games }
}

/// The viewer page of one game, with a link back to its set.
pub fn replay_page(ctx: &Context, set_id: &str, game: u32, played: &PlayedGame) -> String {
    if let Some(Ok(other)) = &played.other
        && played.problem().is_none()
    {
        let info = PageInfo {
            title: format!("{set_id}, game {game}"),
            meta: format!(
                "{} · {} · seed {} · engine version {}",
                ctx.snap.tournament.name,
                ctx.snap.tournament.game.title(),
                played.seed,
                ctx.snap.tournament.engine_version
            ),
            back: Some((
                format!("{}{}", up(1), set_file(set_id)),
                format!("Back to {set_id}"),
            )),
            seats: played
                .teams
                .iter()
                .map(|&t| ctx.snap.team_name(t).to_string())
                .collect(),
            stored_scores: None,
        };
        return contest::viewer_page(&other.arena, &other.trace, &info);
    }
    let (Some(board), Ok(replayed)) = (&played.board_model, &played.replay) else {
        let why = played.problem().unwrap_or_default();
        return super::html::page(
            ctx,
            &format!("{set_id}, game {game}"),
            1,
            &format!(
                "<h1>{set_id}, game {game}</h1><p class=\"verdict bad\">This game cannot be \
                 replayed: {}</p><p><a href=\"{}{}\">Back to the set</a></p>",
                crate::report::viewer::escape(&why),
                up(1),
                set_file(set_id)
            ),
        );
    };
    let info = PageInfo {
        title: format!("{set_id}, game {game}"),
        meta: format!(
            "{} · board {} · seed {} · engine version {}",
            ctx.snap.tournament.name, played.board, played.seed, ctx.snap.tournament.engine_version
        ),
        back: Some((
            format!("{}{}", up(1), set_file(set_id)),
            format!("Back to {set_id}"),
        )),
        seats: played
            .teams
            .iter()
            .map(|&t| ctx.snap.team_name(t).to_string())
            .collect(),
        stored_scores: Some(played.stored_scores.clone()),
    };
    page(board, replayed, &info)
}

/// The file of a game's replay page, relative to a page `depth` folders down.
pub fn replay_href(set_id: &str, game: u32, depth: usize) -> String {
    format!("{}{}", up(depth), replay_file(set_id, game))
}

/// A fault summary like `2 timeout, 1 invalid`.
pub fn fault_text(faults: &BTreeMap<&'static str, u32>) -> String {
    faults
        .iter()
        .map(|(k, n)| format!("{n} {k}"))
        .collect::<Vec<_>>()
        .join(", ")
}
