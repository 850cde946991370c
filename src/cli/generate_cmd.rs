//! `lrs-tourney generate`: write a generated nationals tournament (dry runs, benchmarks).

use super::CliError;
use crate::tourney::generate::generate_with_bot;
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
    /// Bot of every team.
    #[arg(long, default_value = "builtin:runner")]
    bot: String,
}

pub fn run(args: GenerateArgs) -> Result<(), CliError> {
    if args.schools == 0 || args.teams < args.schools {
        return Err(CliError::input(format!(
            "need at least one school and at least as many teams as schools (got {} teams, {} schools)",
            args.teams, args.schools
        )));
    }
    if crate::ai::BuiltinAi::from_name(args.bot.trim_start_matches("builtin:")).is_none()
        || !args.bot.starts_with("builtin:")
    {
        return Err(CliError::input(format!(
            "--bot {}: expected a built-in AI (builtin:random, builtin:runner, builtin:hunter)",
            args.bot
        )));
    }
    let g = generate_with_bot(args.teams, args.schools, args.seed, &args.bot);
    std::fs::create_dir_all(&args.out)
        .map_err(|e| CliError::failure(format!("{}: {e}", args.out.display())))?;
    let toml_path = args.out.join("tournament.toml");
    let roster_path = args.out.join(g.roster_file);
    for (path, text) in [(&toml_path, &g.toml), (&roster_path, &g.roster_csv)] {
        std::fs::write(path, text)
            .map_err(|e| CliError::failure(format!("{}: {e}", path.display())))?;
    }
    println!(
        "wrote {} and {} ({} teams in {} schools)",
        toml_path.display(),
        roster_path.display(),
        args.teams,
        args.schools
    );
    println!("run it with: lrs-tourney run {}", toml_path.display());
    Ok(())
}
