//! `lrs-tourney boards`: list every game's shipped boards or show one as text.

use super::CliError;
use crate::games::{GameKind, ShippedArena};
use clap::{Args, Subcommand};

#[derive(Debug, Args)]
pub struct BoardsArgs {
    /// Only this game's boards (`lrs-tourney games` lists the games).
    #[arg(long, global = true)]
    game: Option<String>,
    #[command(subcommand)]
    action: Option<BoardsAction>,
}

#[derive(Debug, Subcommand)]
enum BoardsAction {
    /// Print a board's grid and a legend (shipped board name or path).
    Show {
        /// Shipped board name or path to a board .toml file (of the default game unless
        /// `--game` says another).
        board: String,
    },
}

pub fn run(args: BoardsArgs) -> Result<(), CliError> {
    let only = args
        .game
        .as_deref()
        .map(GameKind::parse)
        .transpose()
        .map_err(CliError::input)?;
    match args.action {
        None => {
            let games: Vec<(GameKind, Vec<ShippedArena>)> = GameKind::all()
                .filter(|kind| only.is_none_or(|o| o == *kind))
                .map(|kind| (kind, kind.game().shipped_arenas()))
                .filter(|(_, arenas)| !arenas.is_empty())
                .collect();
            let width = |f: fn(&ShippedArena) -> usize| {
                games
                    .iter()
                    .flat_map(|(_, a)| a.iter().map(f))
                    .max()
                    .unwrap_or(0)
            };
            let (name_w, title_w) = (width(|a| a.name.len()), width(|a| a.title.len()));
            for (i, (kind, arenas)) in games.iter().enumerate() {
                if i > 0 {
                    println!();
                }
                println!("{} (--game {}):", kind.title(), kind.id());
                for a in arenas {
                    println!(
                        "  {:<name_w$}  {:<title_w$}  {:>5}  {}",
                        a.name, a.title, a.size, a.about
                    );
                }
            }
            if let (true, Some(kind)) = (games.is_empty(), only) {
                println!(
                    "{} ships no boards: it plays {}",
                    kind.title(),
                    kind.arenas()
                );
            }
            Ok(())
        }
        Some(BoardsAction::Show { board }) => {
            let kind = only
                .or_else(|| {
                    GameKind::all()
                        .find(|kind| kind.game().shipped_arenas().iter().any(|a| a.name == board))
                })
                .unwrap_or_default();
            let text = kind.game().show_arena(&board).map_err(CliError::input)?;
            print!("{text}");
            Ok(())
        }
    }
}
