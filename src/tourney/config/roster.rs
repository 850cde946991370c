//! Defines the roster reader: [`read_roster`] adds the teams of a CSV file (one team per
//! row, header `school,team,bot,dir,protocol`) to the schools of the tournament file.
//!
//! Organisers keep rosters in spreadsheets, so the reader accepts what spreadsheets write:
//! columns in any order and any case, other columns (ignored with a warning), `;` or tab
//! separators, a UTF-8 byte-order mark, Windows-1252 bytes (read with a warning), empty
//! header cells and empty cells after the last column, blank rows, cells padded with spaces.
//! It names the row and column of every problem.

use super::error::{Loc, Place, Problems};
use super::teams::{Field, Registry, parse_bot};
use std::path::Path;

/// The roster columns: `school`, `team` and `bot` are required, `dir` and `protocol` may
/// be left out of the header or left empty in a row.
pub const COLUMNS: [&str; 5] = ["school", "team", "bot", "dir", "protocol"];
const REQUIRED: usize = 3;

const EXPECTED_HEADER: &str = "a header row naming the columns school,team,bot,dir,protocol in any order (dir and protocol may be left out)";

/// How to save a roster so that it reads without surprises, for messages.
const SAVE_AS_UTF8: &str = "Excel: File > Save As > \"CSV UTF-8 (Comma delimited)\"";

/// Reads the roster at `path` (named by the `roster` key at `from`) into `registry`: each
/// row adds a team to the school it names (created on first mention). Command bot
/// directories are relative to the roster file. Problems go to `problems`.
pub fn read_roster(path: &Path, from: &Loc, registry: &mut Registry, problems: &mut Problems) {
    let file = path.display().to_string();
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) => {
            problems.push(from.error(
                format!("cannot read the roster file {file} ({e})"),
                "a CSV file path relative to this file",
            ));
            registry.rejected();
            return;
        }
    };
    let text = match decode(&bytes) {
        Ok(Decoded::Utf8(text)) => text,
        Ok(Decoded::Windows1252(text)) => {
            problems.warn(Loc::file(&file).warning(
                "the file is not UTF-8 text, so it was read as Windows-1252 (what Excel writes for \"CSV (Comma delimited)\"); \
                 check the school and team names, and to be sure of every character save the roster as \"CSV UTF-8 (Comma delimited)\" \
                 (Excel: File > Save As; LibreOffice: Text CSV with character set UTF-8)",
            ));
            text
        }
        Err(NotText::Workbook) => {
            problems.push(Loc::file(&file).error(
                "this is a spreadsheet workbook (.xlsx, .xls or .ods), not a CSV file",
                format!("a CSV file ({SAVE_AS_UTF8})"),
            ));
            registry.rejected();
            return;
        }
        Err(NotText::Byte { row, byte }) => {
            let loc = Loc {
                file: file.clone(),
                place: Place::Row { row, column: None },
            };
            problems.push(loc.error(
                format!("the file is neither UTF-8 nor Windows-1252 text (byte 0x{byte:02X})"),
                format!("a CSV file ({SAVE_AS_UTF8})"),
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

/// The text of a roster file.
#[derive(Debug, PartialEq, Eq)]
enum Decoded {
    /// UTF-8 (a leading byte-order mark removed), or UTF-16 with its byte-order mark.
    Utf8(String),
    /// Bytes that are not UTF-8, read as Windows-1252.
    Windows1252(String),
}

/// Why a roster file is not text.
#[derive(Debug, PartialEq, Eq)]
enum NotText {
    /// A ZIP (.xlsx, .ods) or OLE (.xls) file.
    Workbook,
    /// The first byte that is a control character, or undefined in Windows-1252, and the
    /// 1-based line it is on.
    Byte { row: usize, byte: u8 },
}

/// Decodes a roster: UTF-8 (with or without a byte-order mark), UTF-16 with a byte-order
/// mark (Excel's "Unicode Text"), else Windows-1252 (Excel's "CSV" on Western-European
/// Windows). Control characters other than tab, CR and LF mean the file is not text.
fn decode(bytes: &[u8]) -> Result<Decoded, NotText> {
    if bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1") {
        return Err(NotText::Workbook);
    }
    let utf16 = |big_endian: bool| {
        let body = &bytes[2..];
        let units = body.chunks(2).map(|c| match (c, big_endian) {
            ([a, b], false) => u16::from_le_bytes([*a, *b]),
            ([a, b], true) => u16::from_be_bytes([*a, *b]),
            _ => 0, // an odd byte at the end: reported as a control character
        });
        let text: String = char::decode_utf16(units)
            .map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
            .collect();
        match text.char_indices().find(|&(_, c)| is_control(c)) {
            Some((i, c)) => Err(NotText::Byte {
                row: 1 + text[..i].matches('\n').count(),
                byte: u8::try_from(u32::from(c)).unwrap_or(0),
            }),
            None => Ok(Decoded::Utf8(text)),
        }
    };
    if bytes.starts_with(b"\xFF\xFE") {
        return utf16(false);
    }
    if bytes.starts_with(b"\xFE\xFF") {
        return utf16(true);
    }
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let at = |offset: usize| NotText::Byte {
        row: 1 + bytes[..offset].iter().filter(|&&b| b == b'\n').count(),
        byte: bytes[offset],
    };
    if let Some(offset) = bytes
        .iter()
        .position(|&b| b < 0x20 && is_control(char::from(b)))
    {
        return Err(at(offset));
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => Ok(Decoded::Utf8(text.to_owned())),
        Err(_) => {
            if let Some(offset) = bytes
                .iter()
                .position(|&b| matches!(b, 0x81 | 0x8D | 0x8F | 0x90 | 0x9D))
            {
                return Err(at(offset));
            }
            Ok(Decoded::Windows1252(
                bytes.iter().map(|&b| windows_1252(b)).collect(),
            ))
        }
    }
}

/// A control character that has no place in a CSV file (tab, CR and LF do).
fn is_control(c: char) -> bool {
    c.is_control() && !matches!(c, '\t' | '\r' | '\n') && u32::from(c) < 0x80
}

/// The character of a Windows-1252 byte (not one of the five undefined ones).
fn windows_1252(byte: u8) -> char {
    const HIGH: [char; 32] = [
        '€', '\u{81}', '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', '\u{8D}', 'Ž',
        '\u{8F}', '\u{90}', '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', '\u{9D}',
        'ž', 'Ÿ',
    ];
    match byte {
        0x80..=0x9F => HIGH[usize::from(byte - 0x80)],
        _ => char::from(byte), // ASCII and Latin-1
    }
}

/// The separator of a roster: `,`, `;` (Excel where the decimal separator is a comma) or a
/// tab, whichever splits the header into the most roster column names, then into the most
/// cells; `,` when in doubt.
pub fn sniff_delimiter(text: &str) -> u8 {
    let mut best = (b',', (0, 0));
    for delimiter in [b',', b';', b'\t'] {
        let mut reader = csv::ReaderBuilder::new()
            .delimiter(delimiter)
            .flexible(true)
            .has_headers(false)
            .from_reader(text.as_bytes());
        let mut record = csv::StringRecord::new();
        let header = loop {
            match reader.read_record(&mut record) {
                Ok(true) if record.iter().all(|c| c.trim().is_empty()) => continue,
                Ok(true) => break Some(&record),
                _ => break None,
            }
        };
        let Some(header) = header else { continue };
        let known = header
            .iter()
            .filter(|name| column_index(name).is_some())
            .count();
        let score = (known, header.len());
        if score > best.1 {
            best = (delimiter, score);
        }
    }
    best.0
}

/// The index in [`COLUMNS`] of a header name (any case, surrounding spaces ignored).
fn column_index(name: &str) -> Option<usize> {
    let name = name.trim();
    COLUMNS.iter().position(|c| c.eq_ignore_ascii_case(name))
}

/// `"a" (column 3)` or `"a" (column 3), "b" (column 5)`.
fn named_columns(columns: &[(usize, String)]) -> String {
    let all: Vec<String> = columns
        .iter()
        .map(|(i, name)| format!("{name:?} (column {i})"))
        .collect();
    all.join(", ")
}

/// Reads the roster `text` of `file`; command bot directories are relative to `base`.
///
/// The separator is `,`, `;` or a tab (see [`sniff_delimiter`]). Header names are matched
/// ignoring case and surrounding spaces; other columns are ignored with a warning, and empty
/// header cells after the last name are ignored (so are empty cells under them).
pub fn parse_roster(
    text: &str,
    file: &str,
    base: &Path,
    registry: &mut Registry,
    problems: &mut Problems,
) {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(sniff_delimiter(text))
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
    let names: Vec<&str> = header.iter().map(str::trim).collect();
    // Cells after the last named one are what spreadsheets write for empty columns.
    let width = names
        .iter()
        .rposition(|n| !n.is_empty())
        .map_or(0, |i| i + 1);
    if width == 0 {
        problems
            .push(at_row(header_row, None).error("the roster has no header row", EXPECTED_HEADER));
        registry.rejected();
        return;
    }
    // index in COLUMNS -> index in the file
    let mut index: [Option<usize>; 5] = [None; 5];
    let mut header_ok = true;
    let mut ignored = Vec::new();
    // Columns without a name, with the first row that has text in them.
    let mut nameless: Vec<(usize, Option<usize>)> = Vec::new();
    for (i, name) in names.iter().take(width).enumerate() {
        let place = Some((i + 1, (*name).to_owned()));
        match column_index(name) {
            Some(c) if index[c].is_some() => {
                problems.push(
                    at_row(header_row, place)
                        .error(format!("column {name:?} appears twice"), EXPECTED_HEADER),
                );
                header_ok = false;
            }
            Some(c) => index[c] = Some(i),
            None if name.is_empty() => nameless.push((i, None)),
            None => ignored.push((i + 1, (*name).to_owned())),
        }
    }
    for (c, name) in COLUMNS.iter().enumerate().take(REQUIRED) {
        if index[c].is_none() {
            let hint = match ignored.as_slice() {
                [] => String::new(),
                [(_, one)] => format!(" (the column {one:?} is not a roster column)"),
                more => {
                    let all: Vec<String> = more.iter().map(|(_, n)| format!("{n:?}")).collect();
                    format!(" (the columns {} are not roster columns)", all.join(", "))
                }
            };
            problems.push(at_row(header_row, None).error(
                format!("missing column {name:?} in the header{hint}"),
                EXPECTED_HEADER,
            ));
            header_ok = false;
        }
    }
    if !header_ok {
        registry.rejected();
        return;
    }
    match ignored.as_slice() {
        [] => {}
        [one] => problems.warn(at_row(header_row, None).warning(format!(
            "ignoring the column {}: it is not a roster column ({})",
            named_columns(std::slice::from_ref(one)),
            COLUMNS.join(", ")
        ))),
        more => problems.warn(at_row(header_row, None).warning(format!(
            "ignoring the columns {}: they are not roster columns ({})",
            named_columns(more),
            COLUMNS.join(", ")
        ))),
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
                    "a CSV row of text with properly quoted cells",
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
        // Empty cells past the header's last name do not count.
        let last_text = (0..record.len()).rev().find(|&i| !record[i].is_empty());
        let cells = match last_text {
            Some(last) if last >= width => last + 1,
            _ => record.len().min(width),
        };
        if cells != width {
            problems.push(at_row(row, None).error(
                match cells {
                    1 => "the row has 1 cell".to_owned(),
                    n => format!("the row has {n} cells"),
                },
                format!("{width} cells, like the header"),
            ));
            registry.rejected();
            continue;
        }
        for (i, first) in &mut nameless {
            if first.is_none() && record.get(*i).is_some_and(|c| !c.is_empty()) {
                *first = Some(row);
            }
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
        if let Some(bot) = problems.keep(parse_bot(
            registry.game,
            &bot,
            given(3).as_ref(),
            given(4).as_ref(),
            base,
        )) {
            problems.keep(registry.add_team(school_id, &team, bot));
        }
    }
    for (i, first) in nameless {
        if let Some(row) = first {
            problems.warn(at_row(row, None).warning(format!(
                "ignoring column {}, which has text but no name in the header row",
                i + 1
            )));
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads `text` as `r.csv`: the (school, team) pairs, the warnings and the errors.
    fn read(text: &str) -> (Vec<(String, String)>, Vec<String>, Vec<String>) {
        let mut registry = Registry::default();
        let mut problems = Problems::default();
        parse_roster(text, "r.csv", Path::new(""), &mut registry, &mut problems);
        let (schools, teams) = registry.finish("t.toml", &mut problems);
        let pairs = teams
            .iter()
            .map(|t| (schools[t.school.index()].name.clone(), t.name.clone()))
            .collect();
        match problems.finish_with_warnings(()) {
            Ok(((), warnings)) => (
                pairs,
                warnings.iter().map(ToString::to_string).collect(),
                Vec::new(),
            ),
            Err(e) => (
                pairs,
                Vec::new(),
                e.diagnostics.iter().map(ToString::to_string).collect(),
            ),
        }
    }

    #[test]
    fn utf8_is_read_as_is_and_other_bytes_as_windows_1252() {
        assert_eq!(
            decode("\u{feff}École,€".as_bytes()),
            Ok(Decoded::Utf8("École,€".into()))
        );
        assert_eq!(
            decode(b"\xC9cole \x80 \x93ok\x94 \xFF"),
            Ok(Decoded::Windows1252("École € “ok” ÿ".into()))
        );
        // The five bytes Windows-1252 leaves undefined, and control characters, are not text.
        assert_eq!(
            decode(b"ab\n\xC9 \x8Dx"),
            Err(NotText::Byte { row: 2, byte: 0x8D })
        );
        assert_eq!(
            decode(b"\xEF\xBB\xBFa,b\n\x01"),
            Err(NotText::Byte { row: 2, byte: 1 })
        );
        assert_eq!(
            decode(b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1\0\0"),
            Err(NotText::Workbook)
        );
    }

    #[test]
    fn utf16_with_a_byte_order_mark_is_read() {
        // Excel's "Unicode Text": UTF-16LE with a mark, tab-separated.
        let mut le = vec![0xFF, 0xFE];
        let mut be = vec![0xFE, 0xFF];
        for unit in "school\tÉcole\n".encode_utf16() {
            le.extend_from_slice(&unit.to_le_bytes());
            be.extend_from_slice(&unit.to_be_bytes());
        }
        for bytes in [le, be] {
            assert_eq!(decode(&bytes), Ok(Decoded::Utf8("school\tÉcole\n".into())));
        }
        assert_eq!(
            decode(b"\xFF\xFEa\0\n\0\0\0"),
            Err(NotText::Byte { row: 2, byte: 0 })
        );
    }

    #[test]
    fn the_separator_is_the_one_that_finds_the_columns() {
        assert_eq!(sniff_delimiter("school,team,bot\n"), b',');
        assert_eq!(sniff_delimiter("\n\nSchool;Team;Bot;;\n"), b';');
        assert_eq!(sniff_delimiter("team\tschool\tbot\n"), b'\t');
        // Names with commas in them do not fool it.
        assert_eq!(sniff_delimiter("\"School, name\";Team;Bot\n"), b';');
        assert_eq!(sniff_delimiter("a;b,c;d\n"), b';');
        assert_eq!(sniff_delimiter(""), b',');
    }

    #[test]
    fn unknown_and_nameless_columns_are_ignored_with_warnings() {
        let (teams, warnings, errors) = read(
            "Coach, SCHOOL ,,team,Notes,bot,,\n\
             Ann,A,,x,n1,builtin:runner,,\n\
             Bob,A,,y,,builtin:hunter,,\n",
        );
        assert_eq!(errors, Vec::<String>::new());
        assert_eq!(teams, [("A".into(), "x".into()), ("A".into(), "y".into())]);
        assert_eq!(
            warnings,
            [
                "r.csv row 1: ignoring the columns \"Coach\" (column 1), \"Notes\" (column 5): they are not roster columns (school, team, bot, dir, protocol)"
            ]
        );
        let (teams, warnings, _) =
            read("school,,team,bot\nA,,x,builtin:runner\n\nA,oops,y,builtin:runner\n");
        assert_eq!(teams.len(), 2);
        assert_eq!(
            warnings,
            ["r.csv row 4: ignoring column 2, which has text but no name in the header row"]
        );
    }

    #[test]
    fn rows_must_still_be_as_wide_as_the_header() {
        let (_, _, errors) =
            read("school,team,bot,,\nA,x,builtin:runner\nA,y\nA,z,builtin:runner,,extra\n");
        assert_eq!(
            errors,
            [
                "r.csv row 3: the row has 2 cells; expected 3 cells, like the header",
                "r.csv row 4: the row has 5 cells; expected 3 cells, like the header"
            ]
        );
        let (_, _, errors) = read(",,\nA,x,builtin:runner\n");
        assert_eq!(
            errors,
            [
                "r.csv row 1: the roster has no header row; expected a header row naming the columns school,team,bot,dir,protocol in any order (dir and protocol may be left out)"
            ]
        );
    }
}
