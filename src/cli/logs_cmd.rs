//! `lrs-tourney logs FILE|DB SET`: what the external bots of a set left behind — how each
//! process ended and its stderr (capped at 1 MiB per bot per game) — so an organiser can
//! answer "why did our bot crash?" without rerunning anything.

use super::{CliError, target};
use crate::bots::shown::escape_controls;
use crate::store::{BotLogRow, Store};
use crate::tourney::model::{SetId, TeamId};
use clap::Args;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct LogsArgs {
    /// The tournament file (.toml) or its database (an SQLite file or a postgres:// URL).
    target: PathBuf,
    #[command(flatten)]
    db: target::DbArg,
    /// The set, as `status` shows it (e.g. `westfield/r1/s2`, `nationals/final`).
    set: SetId,
    /// Only this team's logs (its name, as in the roster).
    #[arg(long)]
    team: Option<String>,
    /// Only this game of the series, counted from 0 as `export games` numbers them (and as
    /// seeds and seats are documented).
    #[arg(long)]
    game: Option<u32>,
}

pub async fn run(args: LogsArgs) -> Result<(), CliError> {
    let db = target::database_of(&args.target, &args.db)?;
    let (sets, teams, schools, logs) = async {
        let store = Store::open_read_only(&db).await?;
        let sets = store.sets().await?;
        let teams = store.teams().await?;
        let schools = store.schools().await?;
        let logs = store.bot_logs(&args.set).await?;
        store.close().await;
        Ok::<_, crate::store::StoreError>((sets, teams, schools, logs))
    }
    .await
    .map_err(CliError::input)?;
    if !sets.iter().any(|s| s.id == args.set) {
        return Err(CliError::input(format!(
            "no set {:?} in {}; `lrs-tourney status` lists the set ids",
            args.set, db
        )));
    }
    let team_label = |id: TeamId| -> String {
        teams.iter().find(|t| t.id == id).map_or_else(
            || format!("team {id}"),
            |t| {
                let school = schools
                    .iter()
                    .find(|s| s.id == t.school)
                    .map_or("", |s| s.name.as_str());
                format!("{} ({school})", t.name)
            },
        )
    };
    if let Some(name) = &args.team
        && !teams.iter().any(|t| &t.name == name)
    {
        return Err(CliError::input(format!("no team named {name:?} in {}", db)));
    }
    let wanted = |row: &&BotLogRow| {
        args.game.is_none_or(|g| row.game_index == g)
            && args.team.as_ref().is_none_or(|name| {
                teams
                    .iter()
                    .any(|t| t.id == row.log.team && &t.name == name)
            })
    };
    let rows: Vec<&BotLogRow> = logs.iter().filter(wanted).collect();
    if rows.is_empty() {
        println!(
            "no bot logs for {} (built-in AIs leave none; games not played yet have none)",
            args.set
        );
        return Ok(());
    }
    for row in rows {
        let history = if row.superseded { ", superseded" } else { "" };
        println!(
            "== {} game {} (run {}{history}): {}: {}",
            row.set_id,
            row.game_index,
            row.run_no,
            team_label(row.log.team),
            escape_controls(&row.log.exit_status)
        );
        // Stored before controls were escaped at capture, a log may still hold them.
        let stderr = escape_controls(&row.log.stderr);
        if stderr.is_empty() {
            println!("(no stderr)");
        } else {
            print!("{stderr}");
            if !stderr.ends_with('\n') {
                println!();
            }
        }
    }
    Ok(())
}
