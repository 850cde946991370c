//! `lrs-tourney export standings|games|sets FILE|DB --out F.csv [--no-bom] [--delimiter
//! comma|semicolon|tab]` (`--out -`:
//! stdout). A file starts with a UTF-8 byte-order mark unless `--no-bom`, so Excel reads
//! accented names right; standard output never has one (it feeds pipes).

use super::{CliError, target};
use crate::report::{Snapshot, UTF8_BOM, write_games, write_sets, write_standings};
use crate::store::{Store, StreamError};
use clap::{Args, ValueEnum};
use std::io::Write;
use std::path::PathBuf;

#[derive(Debug, Clone, Copy, ValueEnum)]
enum What {
    /// One row per team, best first.
    Standings,
    /// One row per team per game.
    Games,
    /// One row per team per set.
    Sets,
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    what: What,
    /// The tournament file (.toml) or its database (an SQLite file or a postgres:// URL).
    target: PathBuf,
    #[command(flatten)]
    db: target::DbArg,
    /// The CSV file to write, or `-` for standard output.
    #[arg(long)]
    out: PathBuf,
    /// Write a file without the UTF-8 byte-order mark that makes Excel read it as UTF-8
    /// (standard output never gets one).
    #[arg(long)]
    no_bom: bool,
    /// The field separator. Default: the separator of the tournament's roster CSV when the
    /// target is a tournament file with one (a `;` roster from a French or German Excel gets
    /// `;` back), else a comma.
    #[arg(long, value_enum)]
    delimiter: Option<Delimiter>,
    /// For a French, German or other European Excel, which reads `;` and not `,` as the
    /// separator: the same as `--delimiter semicolon` with the byte-order mark.
    #[arg(long, conflicts_with_all = ["delimiter", "no_bom"])]
    excel: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Delimiter {
    Comma,
    Semicolon,
    Tab,
}

impl Delimiter {
    fn byte(self) -> u8 {
        match self {
            Delimiter::Comma => b',',
            Delimiter::Semicolon => b';',
            Delimiter::Tab => b'\t',
        }
    }
}

/// The separator of the first roster CSV of the tournament file `target` (`None`: a
/// database, or no roster).
fn roster_delimiter(target: &std::path::Path) -> Option<u8> {
    if target.extension().is_none_or(|e| e != "toml") {
        return None;
    }
    let t = crate::tourney::config::load_tournament(target).ok()?;
    let bytes = std::fs::read(t.rosters.first()?).ok()?;
    Some(crate::tourney::config::roster_delimiter(
        &String::from_utf8_lossy(&bytes),
    ))
}

pub async fn run(args: ExportArgs) -> Result<(), CliError> {
    let delimiter = args
        .delimiter
        .or(args.excel.then_some(Delimiter::Semicolon))
        .map(Delimiter::byte)
        .or_else(|| roster_delimiter(&args.target))
        .unwrap_or(b',');
    let db = target::database_of(&args.target, &args.db)?;
    let store = target::open_store(&db).await?;
    let written = export(&args, &store, delimiter).await;
    store.close().await;
    written
}

/// Reads what `args` asks for from `store` and writes it as it comes: to standard output,
/// or to a file beside the target renamed into place once complete, so a reader never
/// sees half a file.
async fn export(args: &ExportArgs, store: &Store, delimiter: u8) -> Result<(), CliError> {
    if args.out.as_os_str() == "-" {
        let mut out = std::io::BufWriter::new(std::io::stdout());
        write_csv(args.what, store, &mut out, delimiter).await?;
        return out.flush().map_err(CliError::failure);
    }
    let tmp = args.out.with_extension("csv.partial");
    let failed = |e: std::io::Error| CliError::failure(format!("{}: {e}", args.out.display()));
    let mut out = std::io::BufWriter::new(std::fs::File::create(&tmp).map_err(failed)?);
    let written = async {
        if !args.no_bom {
            out.write_all(UTF8_BOM).map_err(failed)?;
        }
        write_csv(args.what, store, &mut out, delimiter).await?;
        out.flush().map_err(failed)?;
        drop(out);
        std::fs::rename(&tmp, &args.out).map_err(failed)
    }
    .await;
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written?;
    eprintln!("wrote {}", args.out.display());
    Ok(())
}

/// Writes the CSV of `what` from `store` to `out`.
async fn write_csv(
    what: What,
    store: &Store,
    out: &mut impl Write,
    delimiter: u8,
) -> Result<(), CliError> {
    let written = match what {
        What::Games => {
            let game = Snapshot::tournament_of(store)
                .await
                .map_err(CliError::input)?
                .game;
            return write_games(store, game, out, delimiter)
                .await
                .map_err(|e| match e {
                    StreamError::Store(e) => CliError::input(e),
                    StreamError::Each(e) => CliError::failure(e),
                });
        }
        What::Standings | What::Sets => {
            let snap = Snapshot::summary(store).await.map_err(CliError::input)?;
            if let What::Standings = what {
                write_standings(&snap, out, delimiter)
            } else {
                write_sets(&snap, out, delimiter)
            }
        }
    };
    written.map_err(CliError::failure)
}
