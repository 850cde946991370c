//! Defines the roster reader: [`read_roster`] adds the teams of a CSV file (one team per
//! row, header `school,team,bot,dir,protocol`) to the schools of the tournament file.
//!
//! Organisers keep rosters in spreadsheets, so the reader accepts what spreadsheets write
//! (columns in any order, a byte-order mark, blank trailing rows, cells padded with spaces)
//! and names the row and column of every problem.

use super::error::{Loc, Place, Problems};
use super::teams::{Field, Registry, parse_bot};
use std::path::Path;

/// The roster columns: `school`, `team` and `bot` are required, `dir` and `protocol` may
/// be left out of the header or left empty in a row.
pub const COLUMNS: [&str; 5] = ["school", "team", "bot", "dir", "protocol"];
const REQUIRED: usize = 3;

const EXPECTED_HEADER: &str = "a header row naming the columns school,team,bot,dir,protocol in any order (dir and protocol may be left out)";

/// Reads the roster at `path` (named by the `roster` key at `from`) into `registry`: each
/// row adds a team to the school it names (created on first mention). Command bot
/// directories are relative to the roster file. Problems go to `problems`.
pub fn read_roster(path: &Path, from: &Loc, registry: &mut Registry, problems: &mut Problems) {
    let file = path.display().to_string();
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) => {
            problems.push(from.error(
                format!("cannot read the roster file {file} ({e})"),
                "a CSV file path relative to this file",
            ));
            registry.rejected();
            return;
        }
    };
    parse_roster(
        &text,
        &file,
        path.parent().unwrap_or(Path::new("")),
        registry,
        problems,
    );
}

/// Reads the roster `text` of `file`; command bot directories are relative to `base`.
pub fn parse_roster(
    text: &str,
    file: &str,
    base: &Path,
    registry: &mut Registry,
    problems: &mut Problems,
) {
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let mut rows = RowCounter::default();
    let at_row = |row: usize, column: Option<(usize, String)>| Loc {
        file: file.to_owned(),
        place: Place::Row { row, column },
    };
    let header = match reader.headers() {
        Ok(h) => h.clone(),
        Err(e) => {
            let row = e.position().map_or(1, |p| rows.row(text, p.byte()));
            problems.push(at_row(row, None).error(format!("unreadable CSV: {e}"), EXPECTED_HEADER));
            registry.rejected();
            return;
        }
    };
    let header_row = header.position().map_or(1, |p| rows.row(text, p.byte()));
    if header.iter().all(str::is_empty) {
        problems
            .push(at_row(header_row, None).error("the roster has no header row", EXPECTED_HEADER));
        registry.rejected();
        return;
    }
    // index in COLUMNS -> index in the file
    let mut index: [Option<usize>; 5] = [None; 5];
    let mut header_ok = true;
    for (i, name) in header.iter().enumerate() {
        let place = Some((i + 1, name.to_owned()));
        match COLUMNS.iter().position(|c| c.eq_ignore_ascii_case(name)) {
            Some(c) if index[c].is_some() => {
                problems.push(
                    at_row(header_row, place)
                        .error(format!("column {name:?} appears twice"), EXPECTED_HEADER),
                );
                header_ok = false;
            }
            Some(c) => index[c] = Some(i),
            None => {
                problems.push(
                    at_row(header_row, place)
                        .error(format!("unknown column {name:?}"), EXPECTED_HEADER),
                );
                header_ok = false;
            }
        }
    }
    for (c, name) in COLUMNS.iter().enumerate().take(REQUIRED) {
        if index[c].is_none() {
            problems.push(at_row(header_row, None).error(
                format!("missing column {name:?} in the header"),
                EXPECTED_HEADER,
            ));
            header_ok = false;
        }
    }
    if !header_ok {
        registry.rejected();
        return;
    }
    for record in reader.records() {
        let record = match record {
            Ok(r) => r,
            Err(e) => {
                let row = e
                    .position()
                    .map_or(header_row, |p| rows.row(text, p.byte()));
                problems.push(at_row(row, None).error(
                    format!("unreadable CSV: {e}"),
                    "a CSV row of UTF-8 text with properly quoted cells",
                ));
                registry.rejected();
                continue;
            }
        };
        let row = record
            .position()
            .map_or(header_row, |p| rows.row(text, p.byte()));
        if record.iter().all(str::is_empty) {
            continue; // spreadsheets write empty rows as ",,,,"
        }
        if record.len() != header.len() {
            problems.push(at_row(row, None).error(
                match record.len() {
                    1 => "the row has 1 cell".to_owned(),
                    n => format!("the row has {n} cells"),
                },
                format!("{} cells, like the header", header.len()),
            ));
            registry.rejected();
            continue;
        }
        let cell = |c: usize| {
            let i = index[c]?;
            let value = record.get(i)?;
            Some(Field {
                value: value.to_owned(),
                loc: at_row(row, Some((i + 1, COLUMNS[c].to_owned()))),
            })
        };
        let given = |c: usize| cell(c).filter(|f| !f.trimmed().is_empty());
        let (Some(school), Some(team), Some(bot)) = (cell(0), cell(1), cell(2)) else {
            continue; // required columns exist and the row has every cell
        };
        let Some(school_id) = problems.keep(registry.school_named(&school)) else {
            registry.rejected();
            continue;
        };
        registry.tried(school_id);
        if let Some(bot) =
            problems.keep(parse_bot(&bot, given(3).as_ref(), given(4).as_ref(), base))
        {
            problems.keep(registry.add_team(school_id, &team, bot));
        }
    }
}

/// Turns byte offsets of records into 1-based rows (lines where the record's text starts),
/// counting forward from the previous record.
#[derive(Debug)]
struct RowCounter {
    byte: usize,
    line: usize,
}

impl Default for RowCounter {
    fn default() -> RowCounter {
        RowCounter { byte: 0, line: 1 }
    }
}

impl RowCounter {
    /// The line of the first non-blank character at or after `byte` (the CSV reader
    /// reports a record after blank lines at the start of those lines).
    fn row(&mut self, text: &str, byte: u64) -> usize {
        let mut target = usize::try_from(byte).unwrap_or(text.len()).min(text.len());
        let bytes = text.as_bytes();
        while target < bytes.len() && matches!(bytes[target], b'\r' | b'\n') {
            target += 1;
        }
        if target < self.byte {
            *self = RowCounter::default();
        }
        let newlines = bytes
            .get(self.byte..target)
            .map_or(0, |s| s.iter().filter(|&&b| b == b'\n').count());
        self.line += newlines;
        self.byte = target;
        self.line
    }
}
