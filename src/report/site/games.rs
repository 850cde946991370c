//! Defines the report's replays: every stored game of the current runs rebuilt from its
//! decisions, checked against its stored scores, and written as a viewer page.
//!
//! A game that does not replay to its stored scores is not hidden: the report names it on
//! its set page and on the index, because a silent wrong replay is worse than none.

use super::SiteError;
use super::html::{Context, replay_file, set_file, up};
use crate::games::Arena;
use crate::games::view::{PageInfo, Replayed};
use crate::report::Snapshot;
use crate::tourney::model::{BracketFormat, SetGame, SetId, TeamId};
use rayon::prelude::*;
use std::collections::{BTreeMap, HashMap};

/// Decision logs of stored games, current runs only.
pub type StoredLogs = HashMap<SetGame, Vec<u8>>;

/// One stored game, replayed.
pub struct PlayedGame {
    pub seed: u64,
    /// The arena it was played on, as stored (a board name for Last Robot Standing).
    pub board: String,
    /// Team by seat.
    pub teams: Vec<TeamId>,
    pub stored_scores: Vec<i64>,
    /// The replay, or why there is none.
    pub replay: Result<Replayed, String>,
}

impl PlayedGame {
    /// Faults of one seat, by kind name, from the replay.
    pub fn faults_of(&self, seat: usize) -> BTreeMap<&'static str, u32> {
        self.replay
            .as_ref()
            .map(|r| r.faults_of(seat))
            .unwrap_or_default()
    }

    /// Whether the replay failed or its scores differ from the stored ones.
    pub fn problem(&self) -> Option<String> {
        match &self.replay {
            Err(e) => Some(e.clone()),
            Ok(r) if r.scores() != self.stored_scores => Some(format!(
                "REPLAY DIFFERS FROM THE STORED GAME: stored scores {:?}, replayed {:?}",
                self.stored_scores,
                r.scores()
            )),
            Ok(_) => None,
        }
    }
}

/// Every replayed game.
pub struct Replays {
    pub games: BTreeMap<SetGame, PlayedGame>,
}

impl Replays {
    pub fn get(&self, set_id: &SetId, game: u32) -> Option<&PlayedGame> {
        self.games.get(&SetGame {
            set: set_id.clone(),
            index: game,
        })
    }

    /// Games whose replay failed or differs.
    pub fn problems(&self) -> Vec<(&SetGame, String)> {
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
    // Arenas by stored name, loaded once (a board and its maps are shared by its games).
    let mut arenas: HashMap<String, Result<Arena, String>> = HashMap::new();
    let mut jobs = Vec::new();
    for g in snap.games.iter().filter(|g| g.is_current_result()) {
        let key = SetGame {
            set: g.set_id.clone(),
            index: g.game_index,
        };
        let Some(log) = logs.get(&key) else {
            continue;
        };
        let arena = arenas
            .entry(g.arena.clone())
            .or_insert_with(|| {
                Arena::load(&format.game, &g.arena, format.turns_per_game)
                    .map_err(|e| format!("arena {:?} cannot be loaded by this build: {e}", g.arena))
            })
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
        lines.sort_by_key(|r| r.line.seat);
        jobs.push((g, log, arena, lines));
    }
    let games = jobs
        .into_par_iter()
        .map(|(g, log, arena, lines)| {
            let replay = arena.and_then(|arena| arena.replay_for_view(lines.len(), g.seed, log));
            let played = PlayedGame {
                seed: g.seed,
                board: g.arena.clone(),
                teams: lines.iter().map(|r| r.line.team).collect(),
                stored_scores: lines.iter().map(|r| r.line.outcome.score).collect(),
                replay,
            };
            let key = SetGame {
                set: g.set_id.clone(),
                index: g.game_index,
            };
            (key, played)
        })
        .collect();
    Ok(Replays { games })
}

/// The game's seed for its page's meta line, published only once the tournament's seed is
/// revealed (before, it would let a student predict the deals of the games to come).
fn seed_meta(ctx: &Context, played: &PlayedGame) -> String {
    if ctx.reveal_seed {
        format!(" · seed {}", played.seed)
    } else {
        String::new()
    }
}

/// The viewer page of one game, with a link back to its set.
pub fn replay_page(ctx: &Context, set_id: &SetId, game: u32, played: &PlayedGame) -> String {
    let replayed = match (&played.replay, played.problem()) {
        (Ok(replayed), None) => replayed,
        (_, why) => {
            return super::html::page(
                ctx,
                &format!("{set_id}, game {game}"),
                1,
                &format!(
                    "<h1>{set_id}, game {game}</h1><p class=\"verdict bad\">This game cannot be \
                     replayed: {}</p><p><a href=\"{}{}\">Back to the set</a></p>",
                    crate::report::viewer::escape(&why.unwrap_or_default()),
                    up(1),
                    set_file(set_id)
                ),
            );
        }
    };
    let info = PageInfo {
        title: format!("{set_id}, game {game}"),
        meta: format!(
            "{} · {}{} · engine version {}",
            ctx.snap.tournament.name,
            ctx.snap.tournament.game.arena_label(&played.board),
            seed_meta(ctx, played),
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
        stored_scores: replayed
            .checks_stored_scores()
            .then(|| played.stored_scores.iter().map(|&s| s as i32).collect()),
    };
    replayed.page(&info)
}

/// The file of a game's replay page, relative to a page `depth` folders down.
pub fn replay_href(set_id: &SetId, game: u32, depth: usize) -> String {
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
