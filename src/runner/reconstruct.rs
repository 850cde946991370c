//! Rebuilding a tournament's definition from its database, so that commands given only a
//! `.sqlite` file (`rerun DB SET`) know the teams, bots and bracket format it was run with.

use super::RunError;
use crate::ai::BuiltinAi;
use crate::store::Store;
use crate::tourney::model::{Bot, BracketFormat, Limits, Protocol, School, Team, Tournament};
use std::path::{Path, PathBuf};

/// The tournament stored in `database`.
pub fn tournament_from_store(database: &Path) -> Result<Tournament, RunError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| RunError::Setup(format!("cannot start the async runtime: {e}")))?;
    runtime.block_on(async {
        let store = Store::open_existing(database).await?;
        let result = read(&store, database).await;
        store.close().await;
        result
    })
}

async fn read(store: &Store, database: &Path) -> Result<Tournament, RunError> {
    let corrupt = |what: String| RunError::Setup(format!("{}: {what}", database.display()));
    let stored = store
        .tournament()
        .await?
        .ok_or_else(|| corrupt("no tournament stored yet".to_string()))?;
    let bracket: BracketFormat = serde_json::from_str(&stored.format_json)
        .map_err(|e| corrupt(format!("unreadable bracket format: {e}")))?;
    let mut schools: Vec<School> = store
        .schools()
        .await?
        .into_iter()
        .map(|(_, name, slug)| School {
            name,
            slug,
            teams: Vec::new(),
        })
        .collect();
    let mut teams = Vec::new();
    for row in store.teams().await? {
        let bot = match row.bot.strip_prefix("builtin:") {
            Some(name) => Bot::Builtin(
                BuiltinAi::from_name(name)
                    .ok_or_else(|| corrupt(format!("unknown built-in AI {name}")))?,
            ),
            None => {
                let (protocol, command) = row
                    .bot
                    .split_once(':')
                    .ok_or_else(|| corrupt(format!("unreadable bot {:?}", row.bot)))?;
                let protocol = match protocol {
                    "jsonl" => Protocol::Jsonl,
                    "windward" => Protocol::Windward,
                    other => return Err(corrupt(format!("unknown protocol {other}"))),
                };
                Bot::Command {
                    command: command.to_string(),
                    dir: PathBuf::new(),
                    protocol,
                }
            }
        };
        let school = schools
            .get_mut(row.school)
            .ok_or_else(|| corrupt(format!("team {} has no school", row.name)))?;
        school.teams.push(row.id);
        teams.push(Team {
            name: row.name,
            school: row.school,
            bot,
            origin: format!("{} (stored)", database.display()),
        });
    }
    Ok(Tournament {
        name: stored.name,
        seed: stored.seed,
        bracket,
        database: database.to_path_buf(),
        limits: Limits::default(),
        schools,
        teams,
        source: database.to_path_buf(),
    })
}
