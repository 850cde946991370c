//! `lrs-tourney games`: the games this build plays, with their seats, arenas, built-in AIs
//! and statistics.

use super::CliError;
use crate::games::GameKind;
use clap::Args;

#[derive(Debug, Args)]
pub struct GamesArgs {
    /// One JSON object per game instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: GamesArgs) -> Result<(), CliError> {
    if args.json {
        let games: Vec<serde_json::Value> = GameKind::all()
            .map(|k| {
                serde_json::json!({
                    "id": k.id(),
                    "name": k.title(),
                    "seats": [k.seats().start(), k.seats().end()],
                    "engine_version": k.engine_version(),
                    "arenas": k.arenas(),
                    "builtin_ais": k.builtin_ais().iter().map(|(n, _)| format!("builtin:{n}")).collect::<Vec<_>>(),
                    "statistics": k.statistics(),
                })
            })
            .collect();
        let text = serde_json::to_string_pretty(&games).map_err(CliError::failure)?;
        println!("{text}");
        return Ok(());
    }
    for k in GameKind::all() {
        println!("{} ({})", k.id(), k.title());
        println!(
            "  seats: {} to {} · engine version {}",
            k.seats().start(),
            k.seats().end(),
            k.engine_version()
        );
        println!("  {}", k.arenas());
        println!("  statistics: score, wins, {}", k.statistics().join(", "));
        println!("  built-in AIs:");
        for (name, summary) in k.builtin_ais() {
            println!("    builtin:{name:<8} {summary}");
        }
        println!();
    }
    println!(
        "Play one: lrs-tourney play --game robotgame --bot builtin:hunter --bot builtin:random --games 10"
    );
    Ok(())
}
