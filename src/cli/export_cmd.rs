//! `lrs-tourney export standings|games|sets FILE|DB --out F.csv [--no-bom] [--delimiter
//! comma|semicolon|tab]` (`--out -`:
//! stdout). A file starts with a UTF-8 byte-order mark unless `--no-bom`, so Excel reads
//! accented names right; standard output never has one (it feeds pipes).

use super::{CliError, target};
use crate::report::{UTF8_BOM, write_games, write_sets, write_standings};
use clap::{Args, ValueEnum};
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
    let (snap, _) = target::load_snapshot(&args.target, &args.db).await?;
    let to_stdout = args.out.as_os_str() == "-";
    let mut buffer = Vec::new();
    if !to_stdout && !args.no_bom {
        buffer.extend_from_slice(UTF8_BOM);
    }
    let delimiter = args
        .delimiter
        .or(args.excel.then_some(Delimiter::Semicolon))
        .map(Delimiter::byte)
        .or_else(|| roster_delimiter(&args.target))
        .unwrap_or(b',');
    let written = match args.what {
        What::Standings => write_standings(&snap, &mut buffer, delimiter),
        What::Games => write_games(&snap, &mut buffer, delimiter),
        What::Sets => write_sets(&snap, &mut buffer, delimiter),
    };
    written.map_err(CliError::failure)?;
    if to_stdout {
        use std::io::Write;
        std::io::stdout()
            .write_all(&buffer)
            .map_err(CliError::failure)?;
    } else {
        // Write beside the target, then rename: a reader never sees half a file.
        let tmp = args.out.with_extension("csv.partial");
        std::fs::write(&tmp, &buffer)
            .and_then(|()| std::fs::rename(&tmp, &args.out))
            .map_err(|e| CliError::failure(format!("{}: {e}", args.out.display())))?;
        eprintln!("wrote {}", args.out.display());
    }
    Ok(())
}
