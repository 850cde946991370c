//! Defines the report's replays: every stored game of the current runs rebuilt from its
//! decisions, checked against its stored scores, and written as a viewer page.
//!
//! A game that does not replay to its stored scores is not hidden: the report names it on
//! its set page and on the index, because a silent wrong replay is worse than none.

use super::html::{Context, replay_file, set_file, up};
use super::{SiteError, Writer};
use crate::games::view::{PageInfo, Replayed};
use crate::games::{Arena, StoredGame};
use crate::store::{GameRow, ResultRow, SetRow};
use crate::tourney::model::{BracketFormat, SetGame, SetId};
use rayon::prelude::*;
use std::collections::{BTreeMap, HashMap};

/// Decision logs of stored games, current runs only.
pub type StoredLogs = HashMap<SetGame, Vec<u8>>;

/// Which games of the report get a replay page (`report --replays`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReplayPages {
    /// Every stored game of the current runs.
    All,
    /// The games of final sets only: each school's final and the nationals' rounds' finals.
    Finals,
    /// None: the site has no replay pages.
    None,
}

/// Up to this many stored games `report` writes every game's replay by default; above, only
/// the finals' (a 2,000-team nationals has about 5,300 games; a replay page is 50 to 100 KB).
pub const ALL_REPLAYS_UP_TO: usize = 10_000;

impl ReplayPages {
    /// The default for a tournament of `games` stored games.
    pub fn default_for(games: usize) -> ReplayPages {
        if games <= ALL_REPLAYS_UP_TO {
            ReplayPages::All
        } else {
            ReplayPages::Finals
        }
    }

    /// Whether the games of `set` get a replay page.
    pub fn includes(self, set: &SetRow) -> bool {
        match self {
            ReplayPages::All => true,
            ReplayPages::Finals => set.is_final,
            ReplayPages::None => false,
        }
    }
}

/// What the other pages need of a replayed game once its page is written: its faults by
/// kind and whether it replays to its stored scores.
#[derive(Debug, Clone, Default)]
pub struct Checked {
    /// Faults by kind name, by seat.
    faults: Vec<BTreeMap<&'static str, u32>>,
    /// Why the game does not replay to its stored scores, if it does not.
    problem: Option<String>,
}

impl Checked {
    /// Faults of one seat, by kind name, from the replay.
    pub fn faults_of(&self, seat: usize) -> BTreeMap<&'static str, u32> {
        self.faults.get(seat).cloned().unwrap_or_default()
    }

    /// Whether the replay failed or its scores differ from the stored ones.
    pub fn problem(&self) -> Option<&str> {
        self.problem.as_deref()
    }
}

/// Every game with a replay page, checked.
#[derive(Debug, Default)]
pub struct Replays {
    pub games: BTreeMap<SetGame, Checked>,
}

impl Replays {
    pub fn get(&self, set_id: &SetId, game: u32) -> Option<&Checked> {
        self.games.get(&SetGame {
            set: set_id.clone(),
            index: game,
        })
    }

    /// Games whose replay failed or differs.
    pub fn problems(&self) -> Vec<(&SetGame, &str)> {
        self.games
            .iter()
            .filter_map(|(k, g)| g.problem().map(|p| (k, p)))
            .collect()
    }
}

/// One stored game to replay.
struct Job<'a> {
    game: &'a GameRow,
    log: &'a [u8],
    arena: Result<Arena, String>,
    /// Its result lines in seat order.
    lines: Vec<&'a ResultRow>,
}

/// Replays the stored games of the current runs that `pages` selects, in parallel, writes
/// each one's page as soon as it is replayed and keeps only its check: memory stays that of
/// the games being replayed, not of every replay.
pub fn write_replays(
    ctx: &Context,
    logs: &StoredLogs,
    pages: ReplayPages,
    writer: &Writer,
) -> Result<Replays, SiteError> {
    let snap = ctx.snap;
    let format: BracketFormat = serde_json::from_str(&snap.tournament.format_json)
        .map_err(|e| SiteError::Replay(format!("unreadable bracket format: {e}")))?;
    let sets: HashMap<&SetId, &SetRow> = snap.sets.iter().map(|s| (&s.id, s)).collect();
    // Arenas by stored name, loaded once (a board and its maps are shared by its games).
    let mut arenas: HashMap<String, Result<Arena, String>> = HashMap::new();
    let mut jobs = Vec::new();
    for g in snap.games.iter().filter(|g| g.is_current_result()) {
        if !sets.get(&g.set_id).is_some_and(|s| pages.includes(s)) {
            continue;
        }
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
        let mut lines: Vec<&ResultRow> = snap
            .results
            .get(&g.set_id)
            .map(|rows| {
                rows.iter()
                    .filter(|r| r.game_index == g.game_index)
                    .collect()
            })
            .unwrap_or_default();
        lines.sort_by_key(|r| r.line.seat);
        jobs.push(Job {
            game: g,
            log,
            arena,
            lines,
        });
    }
    let games = jobs
        .into_par_iter()
        .map(|job| {
            let g = job.game;
            let replay = job.arena.and_then(|arena| {
                arena.replay_for_view(StoredGame {
                    seats: job.lines.len(),
                    seed: g.seed,
                    decisions: job.log,
                })
            });
            let stored: Vec<i64> = job.lines.iter().map(|r| r.line.outcome.score).collect();
            let problem = match &replay {
                Err(e) => Some(e.clone()),
                Ok(r) if r.scores() != stored => Some(format!(
                    "REPLAY DIFFERS FROM THE STORED GAME: stored scores {stored:?}, replayed {:?}",
                    r.scores()
                )),
                Ok(_) => None,
            };
            let checked = Checked {
                faults: match &replay {
                    Ok(r) => (0..job.lines.len()).map(|s| r.faults_of(s)).collect(),
                    Err(_) => Vec::new(),
                },
                problem,
            };
            let page = replay_page(ctx, g, &job.lines, &replay, &checked);
            writer.write(&replay_file(&g.set_id, g.game_index), &page)?;
            let key = SetGame {
                set: g.set_id.clone(),
                index: g.game_index,
            };
            Ok((key, checked))
        })
        .collect::<Result<BTreeMap<_, _>, SiteError>>()?;
    Ok(Replays { games })
}

/// The game's seed for its page's meta line, published only once the tournament's seed is
/// revealed (before, it would let a student predict the deals of the games to come).
fn seed_meta(ctx: &Context, game: &GameRow) -> String {
    if ctx.reveal_seed {
        format!(" · seed {}", game.seed)
    } else {
        String::new()
    }
}

/// The viewer page of one game, with a link back to its set; a game that cannot be
/// replayed, or replays to other scores, gets a page that says so instead.
fn replay_page(
    ctx: &Context,
    game: &GameRow,
    lines: &[&ResultRow],
    replay: &Result<Replayed, String>,
    checked: &Checked,
) -> String {
    let (set_id, index) = (&game.set_id, game.game_index);
    let replayed = match (replay, checked.problem()) {
        (Ok(replayed), None) => replayed,
        (_, why) => {
            return super::html::page(
                ctx,
                &format!("{set_id}, game {index}"),
                1,
                &format!(
                    "<h1>{set_id}, game {index}</h1><p class=\"verdict bad\">This game cannot be \
                     replayed: {}</p><p><a href=\"{}{}\">Back to the set</a></p>",
                    crate::report::viewer::escape(why.unwrap_or_default()),
                    up(1),
                    set_file(set_id)
                ),
            );
        }
    };
    let info = PageInfo {
        title: format!("{set_id}, game {index}"),
        meta: format!(
            "{} · {}{} · engine version {}",
            ctx.snap.tournament.name,
            ctx.snap.tournament.game.arena_label(&game.arena),
            seed_meta(ctx, game),
            ctx.snap.tournament.engine_version
        ),
        back: Some((
            format!("{}{}", up(1), set_file(set_id)),
            format!("Back to {set_id}"),
        )),
        seats: lines
            .iter()
            .map(|r| ctx.snap.team_name(r.line.team).to_string())
            .collect(),
        stored_scores: replayed
            .checks_stored_scores()
            .then(|| lines.iter().map(|r| r.line.outcome.score as i32).collect()),
        assets: Some(format!("{}{}", up(1), super::VIEWER_DIR)),
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
