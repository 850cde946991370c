//! `lrs-tourney boards`: list the shipped boards or show one as text.

use super::CliError;
use crate::games::lrs::boards::{load_board, render_board, shipped_boards};
use clap::{Args, Subcommand};

#[derive(Debug, Args)]
pub struct BoardsArgs {
    #[command(subcommand)]
    action: Option<BoardsAction>,
}

#[derive(Debug, Subcommand)]
enum BoardsAction {
    /// Print a board's grid and a legend (shipped board name or path).
    Show {
        /// Shipped board name or path to a board .toml file.
        board: String,
    },
}

pub fn run(args: BoardsArgs) -> Result<(), CliError> {
    match args.action {
        None => {
            let boards = shipped_boards();
            let width = boards.iter().map(|b| b.name.len()).max().unwrap_or(4);
            for b in boards {
                let board = load_board(b.name).map_err(CliError::failure)?;
                println!(
                    "{:<width$}  {:>2}x{:<2}  {}",
                    b.name,
                    board.width(),
                    board.height(),
                    board.description()
                );
            }
            Ok(())
        }
        Some(BoardsAction::Show { board }) => {
            let board = load_board(&board).map_err(CliError::input)?;
            print!("{}", render_board(&board));
            Ok(())
        }
    }
}
