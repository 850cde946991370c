//! `lrs-tourney replay FILE|DB SET GAME`: a stored game rebuilt turn by turn from its seed
//! and decision log (no bot is run), checked against the stored scores; printed as a
//! summary, as text turn by turn (`--text`), or as a per-turn JSON trace (`--json`) for
//! students' own analysis tools.

use super::{CliError, target};
use crate::games::StoredGame;
use crate::games::view::{PageInfo, ReplayAbout, SeatEntry};
use crate::store::{GameStatus, Store};
use crate::tourney::model::{BracketFormat, SetId, SetRun, TeamId};
use clap::Args;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// The tournament file (.toml) or its database (an SQLite file or a postgres:// URL).
    target: PathBuf,
    #[command(flatten)]
    db: target::DbArg,
    /// The set, as `status` and `export games` show it (e.g. `nationals/final`).
    set: SetId,
    /// `GAME`, or `RUN GAME` as `export games` names a game: the game of the series,
    /// counted from 0, of the set's current run, or of run `RUN` (an earlier run that a
    /// rerun replaced can still be watched).
    #[arg(value_name = "[RUN] GAME", num_args = 1..=2, required = true)]
    numbers: Vec<u32>,
    /// Every turn's state and events as one JSON object.
    #[arg(long, conflicts_with = "text")]
    json: bool,
    /// Every turn as text: the robots and what happened.
    #[arg(long)]
    text: bool,
    /// Also write the replay viewer: one self-contained HTML page (open it in a browser,
    /// no network needed).
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
}

pub async fn run(args: ReplayArgs) -> Result<(), CliError> {
    let db = target::database_of(&args.target, &args.db)?;
    let (run_arg, game_index) = match args.numbers[..] {
        [game] => (None, game),
        [run, game] => (Some(run), game),
        _ => return Err(CliError::input("expected GAME or RUN GAME")),
    };
    let (stored, games, results, log, teams) = async {
        let store = Store::open_read_only(&db).await?;
        let stored = store.tournament().await?;
        let games = store.game_history().await?;
        let results = store.result_history().await?;
        // The set's current run unless one is named.
        let run = run_arg.unwrap_or_else(|| {
            games
                .iter()
                .filter(|g| g.set_id == args.set && !g.superseded)
                .map(|g| g.run_no)
                .max()
                .unwrap_or(0)
        });
        let log = store.decisions_of_run(&args.set, run, game_index).await?;
        let teams = store.teams().await?;
        store.close().await;
        Ok::<_, crate::store::StoreError>((stored, (run, games), results, log, teams))
    }
    .await
    .map_err(CliError::input)?;
    let (run, games) = games;
    let stored = stored.ok_or_else(|| CliError::input(format!("{}: no tournament stored", db)))?;
    let format: BracketFormat = serde_json::from_str(&stored.format_json)
        .map_err(|e| CliError::failure(format!("{}: unreadable bracket format: {e}", db)))?;
    let game = games
        .iter()
        .find(|g| g.set_id == args.set && g.run_no == run && g.game_index == game_index)
        .ok_or_else(|| {
            CliError::input(format!(
                "no game {game_index} of set {:?} (run {run}) in {}; `lrs-tourney export games` \
                 lists them",
                args.set, db
            ))
        })?;
    let log = match (game.status, log) {
        (GameStatus::Done, Some(log)) => log,
        _ => {
            return Err(CliError::input(format!(
                "game {} of {} has not been played yet",
                game_index, args.set
            )));
        }
    };
    let mut lines: Vec<_> = results
        .get(&SetRun {
            set: args.set.clone(),
            run,
        })
        .map(|rows| {
            rows.iter()
                .filter(|r| r.game_index == game_index)
                .copied()
                .collect()
        })
        .unwrap_or_default();
    lines.sort_by_key(|r| r.line.seat);
    let team_name = |id: TeamId| {
        teams
            .iter()
            .find(|t| t.id == id)
            .map_or_else(|| format!("team {id}"), |t| t.name.clone())
    };
    let kind = format.game.kind();
    let arena = crate::games::Arena::load(&format.game, &game.arena, format.turns_per_game)
        .map_err(CliError::failure)?;
    let label = format!("{} game {}", args.set, game_index);
    let replayed = arena
        .replay_for_view(StoredGame {
            seats: lines.len(),
            seed: game.seed,
            decisions: &log,
        })
        .map_err(|e| CliError::failure(format!("{label}: {e}")))?;
    // The replay must be the game: every seat's score as stored.
    let scores = replayed.scores();
    let differ: Vec<String> = lines
        .iter()
        .filter(|r| scores.get(r.line.seat) != Some(&r.line.outcome.score))
        .map(|r| {
            format!(
                "seat {}: stored {}, replayed {:?}",
                r.line.seat,
                r.line.outcome.score,
                scores.get(r.line.seat)
            )
        })
        .collect();
    if !differ.is_empty() {
        return Err(CliError::failure(format!(
            "REPLAY DIFFERS FROM THE STORED GAME ({label}): {}; the database was written by \
             engine version {} (this is {}), or it is corrupt",
            differ.join("; "),
            stored.engine_version,
            kind.engine_version()
        )));
    }
    let seats: Vec<SeatEntry> = lines
        .iter()
        .map(|r| SeatEntry {
            seat: r.line.seat,
            team: team_name(r.line.team),
            score: r.line.outcome.score,
        })
        .collect();
    if let Some(path) = &args.html {
        let info = PageInfo {
            title: match run_arg {
                Some(r) => format!("{}, run {r}, game {game_index}", args.set),
                None => format!("{}, game {game_index}", args.set),
            },
            meta: format!(
                "{} · {} · engine version {}",
                stored.name,
                kind.arena_label(&game.arena),
                stored.engine_version
            ),
            back: None,
            seats: seats.iter().map(|s| s.team.clone()).collect(),
            stored_scores: replayed
                .checks_stored_scores()
                .then(|| lines.iter().map(|r| r.line.outcome.score as i32).collect()),
            assets: None,
        };
        write_page(path, &replayed.page(&info))?;
        eprintln!("wrote {}", path.display());
    }
    if args.json {
        let about = ReplayAbout {
            set: args.set.to_string(),
            game: game_index,
            arena: game.arena.clone(),
            seats,
            stored_bytes: log.len(),
        };
        println!("{}", replayed.report_json(&about));
        return Ok(());
    }
    if args.text {
        let mut names = vec![String::new(); lines.len()];
        for s in &seats {
            if let Some(n) = names.get_mut(s.seat) {
                n.clone_from(&s.team);
            }
        }
        print!("{}", replayed.text(&names));
    }
    println!(
        "{label}: {} turns of {} ({}) replayed from {} stored bytes; the scores match the \
         stored results",
        replayed.turns(),
        kind.title(),
        kind.arena_label(&game.arena),
        log.len()
    );
    for s in &seats {
        println!("  seat {} {:<24} {}", s.seat, s.team, s.score);
    }
    let full_state_bytes = replayed.full_state_bytes();
    println!(
        "stored: {} bytes of decisions; the same game as full state per turn (JSON): {} bytes \
         ({:.0}x)",
        log.len(),
        full_state_bytes,
        full_state_bytes as f64 / log.len().max(1) as f64
    );
    Ok(())
}

/// Writes a page whole or not at all: a temporary file renamed into place.
pub(crate) fn write_page(path: &std::path::Path, html: &str) -> Result<(), CliError> {
    let tmp = path.with_extension("html.part");
    std::fs::write(&tmp, html)
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|e| CliError::input(format!("{}: cannot write: {e}", path.display())))
}
