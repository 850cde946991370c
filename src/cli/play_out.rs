//! What `lrs-tourney play` prints and writes, the same for every game: the table of each
//! bot's totals (the game's statistics by name), the JSON report, and `--replay DIR`'s
//! replays (what `replay --json` prints, and the viewer page).

use super::CliError;
use crate::games::view::{ReplayAbout, SeatEntry};
use crate::games::{GameOutcome, StoredGame};
use crate::play::{FaultReport, Lineup, SlotTotals};
use serde::Serialize;
use std::path::Path;

/// `play --json` (docs/bots.md).
#[derive(Serialize)]
pub struct PlayReport<'a, P: Serialize> {
    pub game: &'static str,
    pub games: u32,
    /// The arena's name (a board's name for Last Robot Standing).
    pub arena: &'a str,
    pub seed: u64,
    pub bots: &'a [SlotTotals],
    /// Every external bot's report, in slot order.
    pub external: &'a [FaultReport],
    /// The sandbox of external bots (only when there are some).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sandbox: Option<P>,
}

/// Each bot's totals, a column per statistic of the game, under a heading naming the
/// games, and the score rule.
pub fn table(lineup: &Lineup, arena: &str, totals: &[SlotTotals]) -> String {
    let kind = lineup.arena.kind();
    let last = lineup.seed_of(lineup.games - 1);
    let mut out = format!(
        "{} game(s) of {} on {arena} (seeds {}..={last}), seats rotating\n\n",
        lineup.games,
        kind.id(),
        lineup.seed
    );
    let width = totals.iter().map(|t| t.bot.len()).max().unwrap_or(3).max(3);
    let stats = kind.statistics();
    out += &format!(
        "{:<width$}  {:>8} {:>8} {:>5}",
        "bot", "mean", "total", "wins"
    );
    for name in stats {
        out += &format!(" {:>w$}", name, w = name.len().max(6));
    }
    out += &format!(" {:>6}\n", "faults");
    for t in totals {
        out += &format!(
            "{:<width$}  {:>8.2} {:>8} {:>5}",
            t.bot, t.mean_score, t.total_score, t.wins
        );
        for (i, name) in stats.iter().enumerate() {
            out += &format!(" {:>w$}", t.stats.get(i), w = name.len().max(6));
        }
        out += &format!(" {:>6}\n", t.faults);
    }
    out += &format!("\nscore: {}\n", kind.score_rule());
    out
}

/// Two replay files per game played: `DIR/game-G.json`, what `replay --json` prints for a
/// stored game with the game's `seed`, and `DIR/game-G.html`, the viewer; `arena` names
/// the arena in both.
pub fn write_replays(
    dir: &Path,
    lineup: &Lineup,
    arena: &str,
    outcomes: &[GameOutcome],
) -> Result<(), CliError> {
    std::fs::create_dir_all(dir)
        .map_err(|e| CliError::failure(format!("cannot create {}: {e}", dir.display())))?;
    let kind = lineup.arena.kind();
    for (g, outcome) in outcomes.iter().enumerate() {
        let g = g as u32;
        let seed = lineup.seed_of(g);
        let replayed = lineup
            .arena
            .replay_for_view(StoredGame {
                seats: lineup.labels.len(),
                seed,
                decisions: &outcome.decisions,
            })
            .map_err(|e| CliError::failure(format!("game {g}: {e}")))?;
        let names = lineup.by_seat(g, &lineup.labels);
        let about = ReplayAbout {
            set: "play".to_string(),
            game: g,
            arena: arena.to_string(),
            seats: names
                .iter()
                .enumerate()
                .map(|(seat, team)| SeatEntry {
                    seat,
                    team: team.clone(),
                    score: outcome.seats[seat].score,
                })
                .collect(),
            stored_bytes: outcome.decisions.len(),
        };
        let mut report = replayed.report_json(&about);
        // A game of `play` is found again by its seed (a stored game, by its set and number).
        if let serde_json::Value::Object(fields) = &mut report {
            fields.entry("seed").or_insert(seed.into());
        }
        let path = dir.join(format!("game-{g}.json"));
        std::fs::write(&path, report.to_string())
            .map_err(|e| CliError::failure(format!("cannot write {}: {e}", path.display())))?;
        let info = crate::report::viewer::PageInfo {
            title: format!("play, game {g}"),
            meta: format!(
                "{} · seed {seed} · engine version {}",
                kind.arena_label(arena),
                kind.engine_version()
            ),
            back: None,
            seats: names,
            stored_scores: None,
            assets: None,
        };
        super::replay_cmd::write_page(&dir.join(format!("game-{g}.html")), &replayed.page(&info))?;
    }
    eprintln!(
        "replays: {} game(s) in {} (game-G.html opens in a browser; game-G.json is the trace)",
        outcomes.len(),
        dir.display()
    );
    Ok(())
}
