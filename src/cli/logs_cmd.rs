//! `lrs-tourney logs FILE|DB SET`: what the external bots of a set left behind — how each
//! process ended and its stderr (capped at 1 MiB per bot per game) — so an organiser can
//! answer "why did our bot crash?" without rerunning anything.

use super::{CliError, target};
use crate::bots::shown::escape_controls;
use crate::store::{BotLogRow, Store, TeamRow};
use crate::tourney::model::{BracketFormat, SetId, TeamId};
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
    /// Only this team's logs (its name, as in the roster; upper or lower case alike).
    #[arg(long)]
    team: Option<String>,
    /// Only this game of the series, counted from 0 as `export games` numbers them (and as
    /// seeds and seats are documented).
    #[arg(long)]
    game: Option<u32>,
}

pub async fn run(args: LogsArgs) -> Result<(), CliError> {
    let db = target::database_of(&args.target, &args.db)?;
    let (stored, sets, teams, schools, logs) = async {
        let store = Store::open_read_only(&db).await?;
        let stored = store.tournament().await?;
        let sets = store.sets().await?;
        let teams = store.teams().await?;
        let schools = store.schools().await?;
        let logs = store.bot_logs(&args.set).await?;
        store.close().await;
        Ok::<_, crate::store::StoreError>((stored, sets, teams, schools, logs))
    }
    .await
    .map_err(CliError::input)?;
    let Some(set) = sets.iter().find(|s| s.id == args.set) else {
        return Err(CliError::input(format!(
            "no set {:?} in {}; `lrs-tourney status` lists the set ids",
            args.set, db
        )));
    };
    if let (Some(game), Some(stored)) = (args.game, &stored) {
        let games = serde_json::from_str::<BracketFormat>(&stored.format_json)
            .map_or(u32::MAX, |f| f.games_per_series);
        if game >= games {
            return Err(CliError::input(format!(
                "{} has games 0 to {} ({games} games a series): there is no game {game}",
                args.set,
                games.saturating_sub(1)
            )));
        }
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
    let team = match &args.team {
        Some(name) => Some(
            team_named(&teams, name)
                .ok_or_else(|| CliError::input(format!("no team named {name:?} in {}", db)))?,
        ),
        None => None,
    };
    // A team that played an earlier run of the set (before a re-deal) keeps its logs.
    if let Some(team) = team
        && !logs.iter().any(|row| row.log.team == team.id)
    {
        if !set.members.contains(&team.id) {
            return Err(CliError::input(format!(
                "{} does not play in {}; its teams are: {}",
                team_label(team.id),
                args.set,
                set.members
                    .iter()
                    .map(|&id| team_label(id))
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
        if team.bot.starts_with("builtin:") {
            println!(
                "{} plays the built-in AI {}, which leaves no bot logs",
                team.name, team.bot
            );
            return Ok(());
        }
    }
    let wanted = |row: &&BotLogRow| {
        args.game.is_none_or(|g| row.game_index == g) && team.is_none_or(|t| row.log.team == t.id)
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

/// The team called `name`: its exact name, else the one team whose name differs only in
/// case (a name typed at the terminal rarely keeps the roster's capitals).
fn team_named<'a>(teams: &'a [TeamRow], name: &str) -> Option<&'a TeamRow> {
    teams.iter().find(|t| t.name == name).or_else(|| {
        let lower = name.to_lowercase();
        let mut alike = teams.iter().filter(|t| t.name.to_lowercase() == lower);
        match (alike.next(), alike.next()) {
            (Some(t), None) => Some(t),
            _ => None,
        }
    })
}
