//! CSV exports: standings, games and sets, readable by any spreadsheet.
//!
//! The writers write plain UTF-8. Excel reads a CSV file as the machine's legacy code page
//! (`Équipe` shows as `Ã‰quipe`) unless it starts with a UTF-8 byte-order mark, so
//! `lrs-tourney export` puts [`UTF8_BOM`] before a file it writes (unless `--no-bom`), and
//! never before standard output, which goes to pipes and programs rather than Excel.

use super::snapshot::Snapshot;
use super::standings::{standings, standings_columns};
use crate::tourney::bracket::rank;
use crate::tourney::model::{SetRun, TeamId, TieBreak};
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

/// Writes one row per team per stored game (superseded re-runs included, marked).
pub fn write_games<W: Write>(snap: &Snapshot, out: W, delimiter: u8) -> csv::Result<()> {
    let mut w = writer(out, delimiter);
    let statistics = snap.tournament.game.statistics();
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
    w.write_record(&columns)?;
    for g in &snap.games {
        let lines: Vec<_> = snap
            .history
            .get(&SetRun {
                set: g.set_id.clone(),
                run: g.run_no,
            })
            .map(|v| v.iter().filter(|r| r.game_index == g.game_index).collect())
            .unwrap_or_default();
        let head = [
            g.set_id.to_string(),
            g.run_no.to_string(),
            g.game_index.to_string(),
            g.arena.clone(),
            g.status.to_string(),
            g.attempts.to_string(),
            g.turns.map(|t| t.to_string()).unwrap_or_default(),
            u8::from(g.superseded).to_string(),
            g.engine_version.map(|v| v.to_string()).unwrap_or_default(),
        ];
        if lines.is_empty() {
            let mut rec: Vec<String> = head.to_vec();
            rec.extend(std::iter::repeat_n(
                String::new(),
                columns.len() - head.len(),
            ));
            w.write_record(rec)?;
            continue;
        }
        for r in lines {
            let (team, o) = (r.line.team, &r.line.outcome);
            let mut rec: Vec<String> = head.to_vec();
            rec.extend([
                snap.team_name(team).to_string(),
                snap.school_of(team).to_string(),
                r.line.seat.to_string(),
                o.score.to_string(),
            ]);
            rec.extend(o.stats.values(statistics.len()).iter().map(u32::to_string));
            rec.extend([o.faults.to_string(), u8::from(o.won).to_string()]);
            w.write_record(rec)?;
        }
    }
    w.flush()?;
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
    for set in &snap.sets {
        let totals = snap.set_totals(set);
        let places: Vec<TeamId> = rank(&totals, &draw).iter().map(|r| r.totals.team).collect();
        let status = super::status::set_state(snap, set);
        for (position, t) in totals.iter().enumerate() {
            let adv = snap
                .advancement
                .iter()
                .find(|a| a.set_id.as_ref() == Some(&set.id) && a.team == t.team);
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
