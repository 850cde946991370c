//! `lrs-tourney generate`: write a generated nationals tournament (dry runs, benchmarks).

use super::CliError;
use crate::games::{BuiltinBot, GameKind};
use crate::tourney::generate::{BRACKET_FILE, generate_game};
use clap::Args;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// Number of teams.
    #[arg(long)]
    teams: usize,
    /// Number of schools the teams are spread over (unevenly, every school at least one).
    #[arg(long)]
    schools: usize,
    /// Folder to write `tournament.toml` and its roster into (created if missing).
    #[arg(long, default_value = ".")]
    out: PathBuf,
    /// Seed of the generated tournament (also spreads the teams).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The game (`lrs-tourney games` lists them; the help names them from the registry).
    #[arg(long, default_value = "lrs")]
    game: String,
    /// Bot of every team (default: the game's best built-in AI).
    #[arg(long)]
    bot: Option<String>,
}

pub fn run(args: GenerateArgs) -> Result<(), CliError> {
    if args.schools == 0 || args.teams < args.schools {
        return Err(CliError::input(format!(
            "need at least one school and at least as many teams as schools (got {} teams, {} schools)",
            args.teams, args.schools
        )));
    }
    let game = GameKind::parse(&args.game).map_err(|e| CliError::input(format!("--game: {e}")))?;
    let bot = args
        .bot
        .clone()
        .unwrap_or_else(|| format!("builtin:{}", game.best_builtin()));
    let known = bot
        .strip_prefix("builtin:")
        .and_then(|name| BuiltinBot::parse(game, name));
    if known.is_none() {
        return Err(CliError::input(format!(
            "--bot {bot}: expected a built-in AI of {} ({})",
            game.title(),
            BuiltinBot::names_of(game)
        )));
    }
    let g = generate_game(game, args.teams, args.schools, args.seed, &bot);
    std::fs::create_dir_all(&args.out)
        .map_err(|e| CliError::failure(format!("{}: {e}", args.out.display())))?;
    let toml_path = args.out.join("tournament.toml");
    let roster_path = args.out.join(g.roster_file);
    let bracket_path = args.out.join(BRACKET_FILE);
    let mut files = vec![(&toml_path, &g.toml), (&roster_path, &g.roster_csv)];
    if let Some(bracket) = &g.bracket_toml {
        files.push((&bracket_path, bracket));
    }
    for (path, text) in &files {
        std::fs::write(path, text)
            .map_err(|e| CliError::failure(format!("{}: {e}", path.display())))?;
    }
    let written: Vec<String> = files.iter().map(|(p, _)| p.display().to_string()).collect();
    println!(
        "wrote {} ({} teams in {} schools, {})",
        written.join(", "),
        args.teams,
        args.schools,
        game.title()
    );
    println!("run it with: lrs-tourney run {}", toml_path.display());
    Ok(())
}
