//! CSV exports: standings, games and sets, readable by any spreadsheet.
//!
//! The writers write plain UTF-8. Excel reads a CSV file as the machine's legacy code page
//! (`Équipe` shows as `Ã‰quipe`) unless it starts with a UTF-8 byte-order mark, so
//! `lrs-tourney export` puts [`UTF8_BOM`] before a file it writes (unless `--no-bom`), and
//! never before standard output, which goes to pipes and programs rather than Excel.

use super::snapshot::{Advancement, Snapshot};
use super::standings::{standings, standings_columns};
use crate::games::GameKind;
use crate::store::{GameLine, GameStatus, Store, StreamError};
use crate::tourney::bracket::rank;
use crate::tourney::model::{TeamId, TieBreak};
use std::collections::HashMap;
use std::io::Write;

/// The UTF-8 byte-order mark: tells Excel that a CSV file is UTF-8.
pub const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// A CSV writer separating fields with `delimiter` (`,`, or `;` for spreadsheets of locales
/// whose decimal separator is the comma).
fn writer<W: Write>(out: W, delimiter: u8) -> csv::Writer<W> {
    csv::WriterBuilder::new()
        .delimiter(delimiter)
        .from_writer(out)
}

/// Writes the standings CSV.
pub fn write_standings<W: Write>(snap: &Snapshot, out: W, delimiter: u8) -> csv::Result<()> {
    let mut w = writer(out, delimiter);
    w.write_record(standings_columns(snap.tournament.game))?;
    for row in standings(snap) {
        w.write_record(row.cells())?;
    }
    w.flush()?;
    Ok(())
}

/// Writes one row per team per stored game (superseded re-runs included, marked), as the
/// database hands the rows over: never more than one row in memory.
pub async fn write_games<W: Write>(
    store: &Store,
    game: GameKind,
    out: W,
    delimiter: u8,
) -> Result<(), StreamError<csv::Error>> {
    let mut w = writer(out, delimiter);
    let statistics = game.statistics();
    let mut columns = vec![
        "set",
        "run",
        "game",
        "board",
        "status",
        "attempts",
        "turns",
        "superseded",
        "engine_version",
        "team",
        "school",
        "seat",
        "score",
    ];
    columns.extend(statistics);
    columns.extend(["faults", "won"]);
    w.write_record(&columns).map_err(StreamError::Each)?;
    let width = columns.len();
    let mut rec: Vec<String> = Vec::with_capacity(width);
    store
        .for_each_game_line(|g: GameLine| {
            let status = GameStatus::parse(&g.status).map_err(|e| {
                csv::Error::from(std::io::Error::new(std::io::ErrorKind::InvalidData, e))
            })?;
            let stats = g.stats();
            rec.clear();
            rec.extend([
                g.set_id,
                g.run_no.to_string(),
                g.game_index.to_string(),
                g.arena,
                status.to_string(),
                g.attempts.to_string(),
                g.turns.map(|t| t.to_string()).unwrap_or_default(),
                u8::from(g.superseded).to_string(),
                g.engine_version.map(|v| v.to_string()).unwrap_or_default(),
            ]);
            match (g.team, g.school, g.seat, g.score, g.won, g.faults, stats) {
                (
                    Some(team),
                    Some(school),
                    Some(seat),
                    Some(score),
                    Some(won),
                    Some(faults),
                    Some(stats),
                ) => {
                    rec.extend([team, school, seat.to_string(), score.to_string()]);
                    rec.extend(stats.values(statistics.len()).iter().map(u32::to_string));
                    rec.extend([faults.to_string(), u8::from(won).to_string()]);
                }
                _ => rec.resize(width, String::new()),
            }
            w.write_record(&rec)
        })
        .await?;
    w.flush()
        .map_err(|e| StreamError::Each(csv::Error::from(e)))?;
    Ok(())
}

/// Writes one row per team per set: its series totals, place and whether it advanced.
pub fn write_sets<W: Write>(snap: &Snapshot, out: W, delimiter: u8) -> csv::Result<()> {
    let mut w = writer(out, delimiter);
    let game = snap.tournament.game;
    let steps = game.tie_steps();
    let mut columns = vec![
        "set",
        "stage",
        "round",
        "final",
        "status",
        "run",
        "position",
        "team",
        "school",
        "series_score",
        "games_won",
    ];
    // The statistics of the game's tie-break steps (Last Robot Standing: flags, deaths).
    columns.extend(steps.iter().map(|s| game.statistics()[s.stat]));
    columns.extend(["place", "advanced", "tie_break"]);
    w.write_record(&columns)?;
    let draw = snap.draw();
    // Each set's advancing teams, looked up once (the first row of a set and team).
    let mut advanced: HashMap<(&str, TeamId), &Advancement> = HashMap::new();
    for a in &snap.advancement {
        if let Some(set) = &a.set_id {
            advanced.entry((set.as_str(), a.team)).or_insert(a);
        }
    }
    for set in &snap.sets {
        let totals = snap.set_totals(set);
        let places: Vec<TeamId> = rank(&totals, &draw).iter().map(|r| r.totals.team).collect();
        let status = super::status::set_state(snap, set);
        for (position, t) in totals.iter().enumerate() {
            let adv = advanced.get(&(set.id.as_str(), t.team)).copied();
            let place = if set.is_done() {
                places
                    .iter()
                    .position(|&p| p == t.team)
                    .map(|p| (p + 1).to_string())
                    .unwrap_or_default()
            } else {
                String::new()
            };
            let mut rec = vec![
                set.id.to_string(),
                set.stage_id.to_string(),
                set.round.to_string(),
                u8::from(set.is_final).to_string(),
                status.to_string(),
                set.run_no.to_string(),
                (position + 1).to_string(),
                snap.team_name(t.team).to_string(),
                snap.school_of(t.team).to_string(),
                t.score.to_string(),
                t.games_won.to_string(),
            ];
            rec.extend(steps.iter().map(|s| t.stats.get(s.stat).to_string()));
            rec.extend([
                place,
                adv.map(|_| "yes").unwrap_or("").to_string(),
                adv.and_then(|a| a.tie_break)
                    .map_or("", TieBreak::name)
                    .to_string(),
            ]);
            w.write_record(rec)?;
        }
    }
    w.flush()?;
    Ok(())
}
