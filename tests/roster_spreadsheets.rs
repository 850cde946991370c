//! Rosters as spreadsheets write them (configuration.md, "The roster CSV"): Windows-1252
//! bytes, `;` and tab separators, a UTF-8 byte-order mark, extra columns, empty header
//! cells, header names in any case with spaces; and slugs of accented school names, also in
//! a database started before slugs were transliterated. Real files, through the real binary
//! (`check` and `run` on a small tournament of built-in AIs).

mod common;

use common::{lrs, ok_both};
use lrs_tourney::runner::{ProgressMode, RunOptions, run_tournament};
use lrs_tourney::tourney::config::load_tournament;
use std::path::Path;

const BRACKET: &str = r#"name = "Quick"
set_size = 4
games_per_series = 1
advance_per_set = 2
turns_per_game = 5
fill_nationals_to_multiple_of = 1
boards = ["gear-works"]
"#;

const CUP: &str =
    "name = \"Spreadsheet Cup\"\nseed = 5\nbracket = \"quick.toml\"\nroster = \"roster.csv\"\n";

/// The teams every roster below lists, as (school, team), sorted.
const TEAMS: [(&str, &str); 5] = [
    ("École Sainte-Anne", "Les Zèbres"),
    ("École Sainte-Anne", "Lynx"),
    ("École Sainte-Anne", "Résistance"),
    ("Ñuñoa Técnico", "Cóndores"),
    ("Ñuñoa Técnico", "Pumas"),
];

const ENCODING_WARNING: &str = "warning: roster.csv: the file is not UTF-8 text, so it was read as Windows-1252 (what Excel writes for \"CSV (Comma delimited)\"); check the school and team names, and to be sure of every character save the roster as \"CSV UTF-8 (Comma delimited)\" (Excel: File > Save As; LibreOffice: Text CSV with character set UTF-8)\n";

/// A fresh directory holding the bracket, the tournament file and `roster` as bytes.
fn cup(roster: &[u8]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("quick.toml"), BRACKET).unwrap();
    std::fs::write(dir.path().join("cup.toml"), CUP).unwrap();
    std::fs::write(dir.path().join("roster.csv"), roster).unwrap();
    dir
}

/// `check` and `run` succeed with exactly `warnings` on stderr (run: with --quiet), check
/// shows both schools with their transliterated slugs, and the standings hold [`TEAMS`].
#[track_caller]
fn check_and_run(dir: &Path, warnings: &str) {
    let (stdout, stderr) = ok_both(dir, &["check", "cup.toml"]);
    assert_eq!(stderr, warnings, "check's stderr; stdout:\n{stdout}");
    for line in [
        "École Sainte-Anne [ecole-sainte-anne]: 3 teams: one set, the school final; 2 qualify",
        "Ñuñoa Técnico [nunoa-tecnico]: 2 teams: one set, the school final; 2 qualify",
        "Bots: 5 built-in AIs (2 builtin:hunter, 1 builtin:random, 2 builtin:runner)",
        "ok: cup.toml is valid",
    ] {
        assert!(stdout.contains(line), "{line:?} not in:\n{stdout}");
    }
    let (stdout, stderr) = ok_both(dir, &["run", "cup.toml", "--quiet"]);
    assert_eq!(stderr, warnings, "run's stderr; stdout:\n{stdout}");
    assert!(stdout.contains("champion: "), "{stdout}");
    let expected: Vec<(String, String)> = TEAMS
        .iter()
        .map(|&(school, team)| (school.to_owned(), team.to_owned()))
        .collect();
    assert_eq!(standings_teams(dir), expected);
}

/// (school, team) of every standings row, sorted (the export is written with the roster's
/// separator).
fn standings_teams(dir: &Path) -> Vec<(String, String)> {
    let (csv, _) = ok_both(dir, &["export", "standings", "cup.toml", "--out", "-"]);
    let roster = std::fs::read(dir.join("roster.csv")).unwrap();
    let header = roster.split(|&b| b == b'\n').next().unwrap();
    let separator = [b';', b'\t']
        .into_iter()
        .find(|s| header.contains(s))
        .unwrap_or(b',');
    assert!(
        csv.lines().next().unwrap().contains(separator as char),
        "{csv}"
    );
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(separator)
        .from_reader(csv.as_bytes());
    let mut teams: Vec<(String, String)> = reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            (r[2].to_owned(), r[1].to_owned())
        })
        .collect();
    teams.sort();
    teams
}

/// `check` fails with exit code 2 and exactly `stderr`.
#[track_caller]
fn check_fails(dir: &Path, stderr: &str) {
    let out = lrs(dir, &["check", "cup.toml"]);
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        stderr,
        "stdout: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_windows_1252_roster_is_read_with_a_warning() {
    // Excel's "CSV (Comma delimited)" on a Western-European Windows: É is the byte 0xC9.
    let roster: &[u8] = b"school,team,bot\r\n\
        \xC9cole Sainte-Anne,R\xE9sistance,builtin:runner\r\n\
        \xC9cole Sainte-Anne,Les Z\xE8bres,builtin:hunter\r\n\
        \xC9cole Sainte-Anne,Lynx,builtin:runner\r\n\
        \xD1u\xF1oa T\xE9cnico,C\xF3ndores,builtin:random\r\n\
        \xD1u\xF1oa T\xE9cnico,Pumas,builtin:hunter\r\n";
    assert_eq!(roster[17], 0xC9);
    let dir = cup(roster);
    check_and_run(dir.path(), ENCODING_WARNING);
}

#[test]
fn a_semicolon_roster_with_extra_and_empty_columns_is_read_with_a_warning() {
    // Excel in locales whose decimal separator is `,`: `;`-separated, every row as wide as
    // the sheet's used range, a Coach column the organisers keep for themselves, and header
    // names as typed.
    let roster = " School ;TEAM;Coach;Bot;;\r\n\
        École Sainte-Anne;Résistance;Mme Roy;builtin:runner;;\r\n\
        École Sainte-Anne;Les Zèbres;Mme Roy;builtin:hunter;;\r\n\
        École Sainte-Anne;Lynx;;builtin:runner;;\r\n\
        ;;;;;\r\n\
        Ñuñoa Técnico;Cóndores;Sr. Soto;builtin:random;;\r\n\
        Ñuñoa Técnico;Pumas;Sr. Soto;builtin:hunter;;\r\n";
    let dir = cup(roster.as_bytes());
    check_and_run(
        dir.path(),
        "warning: roster.csv row 1: ignoring the column \"Coach\" (column 3): it is not a roster column (school, team, bot, dir, protocol)\n",
    );
}

/// An organiser whose Excel writes `;` gets `;` back, whatever the export; `--delimiter`
/// chooses another.
#[test]
fn exports_use_the_separator_of_the_roster_unless_told_otherwise() {
    let roster = "School;Team;Bot\r\n\
        École Sainte-Anne;Résistance;builtin:runner\r\n\
        École Sainte-Anne;Les Zèbres;builtin:hunter\r\n\
        École Sainte-Anne;Lynx;builtin:runner\r\n\
        Ñuñoa Técnico;Cóndores;builtin:random\r\n\
        Ñuñoa Técnico;Pumas;builtin:hunter\r\n";
    let dir = cup(roster.as_bytes());
    ok_both(dir.path(), &["run", "cup.toml", "--quiet"]);
    for what in ["standings", "games", "sets"] {
        let (csv, _) = ok_both(dir.path(), &["export", what, "cup.toml", "--out", "-"]);
        let header = csv.lines().next().unwrap();
        assert!(
            header.starts_with("rank;") || header.starts_with("set;"),
            "{what}: {header}"
        );
        assert!(!header.contains(','), "{what}: {header}");
    }
    let (csv, _) = ok_both(
        dir.path(),
        &[
            "export",
            "standings",
            "cup.toml",
            "--out",
            "-",
            "--delimiter",
            "comma",
        ],
    );
    assert!(csv.starts_with("rank,team,school,"), "{csv}");
    let (csv, _) = ok_both(
        dir.path(),
        &[
            "export",
            "standings",
            "cup.toml",
            "--out",
            "-",
            "--delimiter",
            "tab",
        ],
    );
    assert!(csv.starts_with("rank\tteam\tschool\t"), "{csv}");
}

#[test]
fn a_utf8_roster_with_a_byte_order_mark_is_read_silently() {
    // Excel's "CSV UTF-8 (Comma delimited)".
    let mut roster = b"\xEF\xBB\xBFschool,team,bot,dir,protocol\r\n".to_vec();
    roster.extend_from_slice(
        "École Sainte-Anne,Résistance,builtin:runner,,\r\n\
         École Sainte-Anne,Les Zèbres,builtin:hunter,,\r\n\
         École Sainte-Anne,Lynx,builtin:runner,,\r\n\
         Ñuñoa Técnico,Cóndores,builtin:random,,\r\n\
         Ñuñoa Técnico,Pumas,builtin:hunter,,\r\n"
            .as_bytes(),
    );
    let dir = cup(&roster);
    check_and_run(dir.path(), "");
}

#[test]
fn a_tab_separated_roster_is_read() {
    let roster = "Team\tSchool\tBot\n\
        Résistance\tÉcole Sainte-Anne\tbuiltin:runner\n\
        Les Zèbres\tÉcole Sainte-Anne\tbuiltin:hunter\n\
        Lynx\tÉcole Sainte-Anne\tbuiltin:runner\n\
        Cóndores\tÑuñoa Técnico\tbuiltin:random\n\
        Pumas\tÑuñoa Técnico\tbuiltin:hunter\n";
    let dir = cup(roster.as_bytes());
    let (stdout, stderr) = ok_both(dir.path(), &["check", "cup.toml"]);
    assert_eq!(stderr, "");
    assert!(
        stdout.contains("Ñuñoa Técnico [nunoa-tecnico]: 2 teams"),
        "{stdout}"
    );
}

#[test]
fn rows_wider_than_the_header_and_missing_columns_are_still_errors() {
    // Text under an empty header cell is not dropped silently.
    let dir = cup("school;team;bot;;\nA;x;builtin:runner;;\nA;y;builtin:runner;oops;\n".as_bytes());
    check_fails(
        dir.path(),
        "error: roster.csv row 3: the row has 4 cells; expected 3 cells, like the header\n",
    );
    // A misspelt required column: the unknown column is named in the error.
    let dir = cup(b"school,team,robot\nA,x,builtin:runner\n");
    check_fails(
        dir.path(),
        "error: roster.csv row 1: missing column \"bot\" in the header (the column \"robot\" is not a roster column); expected a header row naming the columns school,team,bot,dir,protocol in any order (dir and protocol may be left out)\n",
    );
}

#[test]
fn files_that_are_not_text_are_refused_with_a_hint() {
    // An .xlsx workbook renamed to .csv (a ZIP archive).
    let dir = cup(b"PK\x03\x04\x14\x00\x06\x00\x08\x00\x00\x00!\x00");
    check_fails(
        dir.path(),
        "error: roster.csv: this is a spreadsheet workbook (.xlsx, .xls or .ods), not a CSV file; expected a CSV file (Excel: File > Save As > \"CSV UTF-8 (Comma delimited)\")\n",
    );
    // Bytes that are neither UTF-8 nor Windows-1252 text.
    let dir = cup(b"school,team,bot\nA,x\x00y,builtin:runner\n");
    check_fails(
        dir.path(),
        "error: roster.csv row 2: the file is neither UTF-8 nor Windows-1252 text (byte 0x00); expected a CSV file (Excel: File > Save As > \"CSV UTF-8 (Comma delimited)\")\n",
    );
}

#[test]
fn a_database_started_with_the_old_slugs_still_opens() {
    // Before slugs were transliterated, "École Sainte-Anne" was `cole-sainte-anne` and
    // "Ñuñoa Técnico" `u-oa-t-cnico`: in set ids, stage ids, the draw and the stored
    // configuration fingerprint. Such a database is made here by running the library with
    // those slugs, then resumed by the binary, whose slugs differ.
    let roster = "school,team,bot\n\
        École Sainte-Anne,Résistance,builtin:runner\n\
        École Sainte-Anne,Les Zèbres,builtin:hunter\n\
        École Sainte-Anne,Lynx,builtin:runner\n\
        Ñuñoa Técnico,Cóndores,builtin:random\n\
        Ñuñoa Técnico,Pumas,builtin:hunter\n";
    let dir = cup(roster.as_bytes());
    let mut t = load_tournament(&dir.path().join("cup.toml")).unwrap();
    assert_eq!(t.schools[0].slug, "ecole-sainte-anne");
    t.schools[0].slug = "cole-sainte-anne".into();
    t.schools[1].slug = "u-oa-t-cnico".into();
    let opts = RunOptions {
        jobs: 1,
        progress: ProgressMode::Quiet,
    };
    common::block_on(run_tournament(&t, opts)).unwrap();
    let sets = |dir: &Path| ok_both(dir, &["export", "sets", "cup.toml", "--out", "-"]).0;
    let before = sets(dir.path());
    assert!(
        before.contains("\ncole-sainte-anne/final,cole-sainte-anne,"),
        "{before}"
    );

    let (stdout, stderr) = ok_both(dir.path(), &["run", "cup.toml", "--quiet"]);
    assert_eq!(stderr, "");
    assert!(stdout.contains("played now"), "{stdout}");
    assert!(stdout.contains(", 0 played now)"), "{stdout}");
    assert_eq!(sets(dir.path()), before, "the stored ids stay as stored");
    let (stdout, _) = ok_both(
        dir.path(),
        &["standings", "cup.toml", "--stage", "u-oa-t-cnico"],
    );
    assert!(stdout.contains("Cóndores"), "{stdout}");
}
