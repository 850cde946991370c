//! `standings FILE|DB [--stage S] [--round R]` and `export standings --out FILE.csv` on a
//! small stored tournament of built-in AIs, through the real binary.
//!
//! The tournament: Northgate High (9 teams: round 1 in three sets, round 2 in two, a final
//! of four) and Riverside Academy (4 teams: straight to its final), then a nationals final
//! of the four qualifiers. Two short games per series.

mod common;

use common::{lrs, ok};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

const BRACKET: &str = r#"name = "Quick"
set_size = 4
games_per_series = 2
advance_per_set = 2
turns_per_game = 10
fill_nationals_to_multiple_of = 1
boards = ["gear-works", "corridor-dash"]
"#;

const NORTHGATE: [&str; 9] = [
    "Alpha Ants",
    "Bravo Bees",
    "Charlie Crabs",
    "Delta Ducks",
    "Echo Eels",
    "Foxtrot Frogs",
    "Golf Geckos",
    "Hotel Herons",
    "India Ibis",
];

const RIVERSIDE: [&str; 4] = ["Juliet Jays", "Kilo Koalas", "Lima Lemurs", "Mike Moles"];

const AIS: [&str; 3] = ["builtin:runner", "builtin:hunter", "builtin:random"];

fn tournament_toml() -> String {
    let mut text = String::from("name = \"Standings Cup\"\nseed = 42\nbracket = \"quick.toml\"\n");
    for (school, teams) in [
        ("Northgate High", &NORTHGATE[..]),
        ("Riverside Academy", &RIVERSIDE),
    ] {
        text.push_str(&format!("\n[[school]]\nname = \"{school}\"\n"));
        for (i, team) in teams.iter().enumerate() {
            text.push_str(&format!(
                "  [[school.team]]\n  name = \"{team}\"\n  bot = \"{}\"\n",
                AIS[i % AIS.len()]
            ));
        }
    }
    text
}

/// The directory of the tournament, played once for all tests (they only read it).
fn played() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("standings-cli");
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("quick.toml"), BRACKET).unwrap();
        std::fs::write(dir.join("cup.toml"), tournament_toml()).unwrap();
        ok(&dir, &["run", "cup.toml", "--quiet"]);
        dir
    })
}

/// Runs a command expected to fail with exit code 2 and returns its stderr.
#[track_caller]
fn bad_input(args: &[&str]) -> String {
    let out = lrs(played(), args);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(
        out.status.code(),
        Some(2),
        "{args:?}: stdout {}\nstderr {stderr}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(out.stdout.is_empty(), "{args:?} printed a table");
    stderr
}

/// The standings CSV as records (header first).
fn export_standings() -> Vec<csv::StringRecord> {
    let text = ok(played(), &["export", "standings", "cup.toml", "--out", "-"]);
    csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(text.as_bytes())
        .records()
        .map(Result::unwrap)
        .collect()
}

/// One line of the overall table, cut at the header's column starts.
#[derive(Debug, PartialEq)]
struct TableRow {
    rank: String,
    team: String,
    school: String,
    /// The series score in the set reached.
    score: String,
    set_reached: String,
    /// games, won, flags, faults.
    numbers: Vec<String>,
    how: String,
}

/// The rows of the overall table (up to the blank line before the legend) and the legend.
fn parse_overall(table: &str) -> (Vec<TableRow>, String) {
    let (rows, legend) = table.split_once("\n\n").expect("a legend under the table");
    let mut lines = rows.lines();
    let header = lines.next().expect("a header line");
    let at = |name: &str| header.find(name).unwrap_or_else(|| panic!("{header}"));
    let (team_at, school_at, set_at, how_at) =
        (at("team"), at("school"), at("set reached"), at("how"));
    assert!(
        team_at < school_at && school_at < set_at && set_at < how_at,
        "{header}"
    );
    let rows = lines
        .map(|l| {
            // School then score (right-aligned under `score`).
            let (school, score) = l[school_at..set_at].trim().rsplit_once(' ').unwrap();
            let mut middle = l[set_at..how_at].split_whitespace().map(str::to_string);
            TableRow {
                rank: l[..team_at].trim().to_string(),
                team: l[team_at..school_at].trim().to_string(),
                school: school.trim().to_string(),
                score: score.to_string(),
                set_reached: middle.next().unwrap(),
                numbers: middle.collect(),
                how: l[how_at..].to_string(),
            }
        })
        .collect();
    (rows, legend.trim().to_string())
}

/// The series score of every (set, team) in the sets CSV export.
fn series_scores() -> std::collections::HashMap<(String, String), String> {
    let text = ok(played(), &["export", "sets", "cup.toml", "--out", "-"]);
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header = reader.headers().unwrap().clone();
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let (set, team, score) = (col("set"), col("team"), col("series_score"));
    reader
        .records()
        .map(Result::unwrap)
        .map(|r| {
            (
                (r[set].to_string(), r[team].to_string()),
                r[score].to_string(),
            )
        })
        .collect()
}

/// The lines of a stage table cut before its `how` column, with that column.
fn stage_lines(table: &str) -> Vec<(&str, &str)> {
    let mut lines = table.lines().skip(1);
    let header = lines.next().expect("a column header");
    assert_eq!(
        header.split_whitespace().collect::<Vec<_>>(),
        ["rank", "team", "score", "won", "flags", "deaths", "how"]
    );
    let how_at = header.find("how").unwrap();
    lines.map(|l| l.split_at(how_at)).collect()
}

/// The team names of a stage table, in its order: each line is a rank, the name and four
/// numbers (score, won, flags, deaths), then how the team did.
fn stage_teams(table: &str) -> Vec<String> {
    stage_lines(table)
        .into_iter()
        .map(|(l, _)| {
            let words: Vec<&str> = l.split_whitespace().collect();
            assert!(words.len() >= 6, "{l}");
            assert!(
                words[words.len() - 4..]
                    .iter()
                    .all(|w| w.parse::<i64>().is_ok()),
                "{l}"
            );
            words[1..words.len() - 4].join(" ")
        })
        .collect()
}

#[test]
fn standings_table_lists_every_team_in_the_export_rank_order() {
    let table = ok(played(), &["standings", "cup.toml"]);
    let header = table.lines().next().unwrap();
    assert_eq!(
        header.split_whitespace().collect::<Vec<_>>(),
        [
            "rank", "team", "school", "score", "set", "reached", "games", "won", "flags", "faults",
            "how"
        ]
    );
    let (rows, legend) = parse_overall(&table);
    assert!(
        legend.starts_with("score: series score in the set reached;"),
        "{legend}"
    );
    let csv = export_standings();
    let scores = series_scores();
    assert_eq!(rows.len(), NORTHGATE.len() + RIVERSIDE.len(), "{table}");
    assert_eq!(csv.len(), rows.len() + 1, "one CSV row per table row");
    for team in NORTHGATE.iter().chain(&RIVERSIDE) {
        assert!(
            rows.iter().any(|r| r.team == *team),
            "{team} missing:\n{table}"
        );
    }
    // Same order, ranks and figures as the CSV export.
    for (i, (row, rec)) in rows.iter().zip(csv.iter().skip(1)).enumerate() {
        let context = format!("{}:\n{table}", row.team);
        assert_eq!(row.rank, (i + 1).to_string(), "{context}");
        assert_eq!(row.rank, &rec[0], "{context}");
        assert_eq!(row.team, &rec[1], "{context}");
        assert_eq!(row.school, &rec[2], "{context}");
        // games, won, flags, faults.
        let faults = csv[0].iter().position(|h| h == "faults").unwrap();
        let mut expected: Vec<&str> = (8..=10).map(|c| &rec[c]).collect();
        expected.push(&rec[faults]);
        assert_eq!(row.numbers, expected, "{context}");
        // The set reached is in the stage and round reached.
        let (stage, round) = (&rec[3], &rec[4]);
        assert_eq!(
            row.set_reached.starts_with("nationals/"),
            stage == "nationals",
            "{context}"
        );
        if round == "final" {
            assert!(row.set_reached.ends_with("/final"), "{context}");
        } else {
            assert!(row.set_reached.contains(&format!("/{round}/")), "{context}");
        }
        // The score is the team's series score in that set.
        let key = (row.set_reached.clone(), row.team.clone());
        assert_eq!(Some(&row.score), scores.get(&key), "{context}");
        // How: the final's place, or the school final's qualification, or the exit.
        let how = row.how.as_str();
        assert!(how.contains(&row.set_reached), "{context}");
        match (i, &rec[16]) {
            (0, _) => assert!(how.starts_with("won nationals/final"), "{context}"),
            (1..=3, _) => {
                let place = ["2nd", "3rd", "4th"][i - 1];
                let start = format!("{place} of 4 in nationals/final");
                assert!(how.starts_with(&start), "{context}");
            }
            (_, "") => assert!(
                how.starts_with(&format!("out in {}: ", row.set_reached))
                    || how.starts_with("stopped by "),
                "{context}"
            ),
            (_, qualified) => panic!("{qualified} but not in the national final: {context}"),
        }
        if &rec[16] == "top2" {
            let slug = if row.school == "Northgate High" {
                "northgate-high"
            } else {
                "riverside-academy"
            };
            assert!(
                how.ends_with(&format!("in {slug}/final")) && how.contains("; qualified "),
                "{context}"
            );
        }
    }
    // The nationals final decides the top four: all played at nationals.
    for row in &rows[..4] {
        assert_eq!(row.set_reached, "nationals/final", "{table}");
    }
    // The database itself gives the same table.
    assert_eq!(ok(played(), &["standings", "cup.sqlite"]), table);
}

#[test]
fn stage_standings_show_only_that_stage() {
    let table = ok(
        played(),
        &["standings", "cup.toml", "--stage", "northgate-high"],
    );
    assert!(
        table.starts_with("northgate-high: 9 team(s) in 6 set(s)\n"),
        "{table}"
    );
    let teams = stage_teams(&table);
    let mut sorted = teams.clone();
    sorted.sort();
    assert_eq!(sorted, NORTHGATE.to_vec(), "{table}");
    for team in RIVERSIDE {
        assert!(
            !table.contains(team),
            "{team} is not at Northgate:\n{table}"
        );
    }
    let nationals = ok(played(), &["standings", "cup.toml", "--stage", "nationals"]);
    assert!(
        nationals.starts_with("nationals: 4 team(s) in 1 set(s)\n"),
        "{nationals}"
    );
    assert_eq!(stage_teams(&nationals).len(), 4, "{nationals}");
    // The nationals final's order is the top of the overall standings.
    let (overall, _) = parse_overall(&ok(played(), &["standings", "cup.toml"]));
    let top: Vec<String> = overall[..4].iter().map(|r| r.team.clone()).collect();
    assert_eq!(stage_teams(&nationals), top, "{nationals}");
}

#[test]
fn round_r1_and_round_1_give_the_same_table() {
    let stage = ["standings", "cup.toml", "--stage", "northgate-high"];
    let with = |round: &str| {
        let mut args = stage.to_vec();
        args.extend(["--round", round]);
        ok(played(), &args)
    };
    let r1 = with("r1");
    assert!(
        r1.starts_with("northgate-high r1: 9 team(s) in 3 set(s)\n"),
        "{r1}"
    );
    let mut teams = stage_teams(&r1);
    teams.sort();
    assert_eq!(teams, NORTHGATE.to_vec(), "{r1}");
    assert_eq!(with("1"), r1);
    assert_eq!(with("R1"), r1);

    let r2 = with("r2");
    assert!(
        r2.starts_with("northgate-high r2: 6 team(s) in 2 set(s)\n"),
        "{r2}"
    );
    assert_eq!(with("2"), r2);

    let last = with("final");
    assert!(
        last.starts_with("northgate-high final: 4 team(s) in 1 set(s)\n"),
        "{last}"
    );
    assert_eq!(stage_teams(&last).len(), 4, "{last}");
    // The two school qualifiers are the final's top two.
    let mut qualified: Vec<String> = export_standings()
        .iter()
        .filter(|r| &r[2] == "Northgate High" && &r[16] == "top2")
        .map(|r| r[1].to_string())
        .collect();
    let mut top_two: Vec<String> = stage_teams(&last)[..2].to_vec();
    top_two.sort();
    qualified.sort();
    assert_eq!(top_two, qualified, "{last}");
    // Their `how` says so, the others' says what stopped them in the final.
    for (place, (_, how)) in stage_lines(&last).into_iter().enumerate() {
        if place < 2 {
            assert!(how.starts_with("top 2 of northgate-high/final ("), "{last}");
        } else {
            assert!(
                how.starts_with("out in northgate-high/final: ") || how.starts_with("stopped by "),
                "{last}"
            );
        }
    }
}

#[test]
fn a_bad_round_is_refused_with_exit_code_2() {
    for bad in ["x", "r", "0", "r0", "1.5", "r1x", "semi", ""] {
        let stderr = bad_input(&[
            "standings",
            "cup.toml",
            "--stage",
            "northgate-high",
            "--round",
            bad,
        ]);
        assert!(
            stderr.contains(&format!("invalid value '{bad}' for '--round <ROUND>'")),
            "{bad}: {stderr}"
        );
        assert!(
            stderr.contains("r1, r2, ...") && stderr.contains("final"),
            "{bad}: {stderr}"
        );
    }
    // Well formed, but the stage has no such round: its rounds are listed.
    let stderr = bad_input(&[
        "standings",
        "cup.toml",
        "--stage",
        "riverside-academy",
        "--round",
        "r2",
    ]);
    assert!(
        stderr.contains("stage \"riverside-academy\" has no round r2; its rounds are: r1 (final)"),
        "{stderr}"
    );
    let stderr = bad_input(&[
        "standings",
        "cup.toml",
        "--stage",
        "northgate-high",
        "--round",
        "9",
    ]);
    assert!(
        stderr.contains("has no round r9; its rounds are: r1, r2, r3 (final)"),
        "{stderr}"
    );
    // An unknown stage lists the stages.
    let stderr = bad_input(&["standings", "cup.toml", "--stage", "southgate"]);
    assert!(
        stderr.contains("no sets for stage \"southgate\"; stages are: ")
            && stderr.contains("northgate-high")
            && stderr.contains("nationals"),
        "{stderr}"
    );
    // --round needs --stage.
    let stderr = bad_input(&["standings", "cup.toml", "--round", "r1"]);
    assert!(stderr.contains("--stage"), "{stderr}");
}

#[test]
fn export_standings_writes_a_csv_file() {
    let out = tempfile::tempdir().unwrap();
    let file = out.path().join("standings.csv");
    let target = played().join("cup.toml");
    let result = lrs(
        played(),
        &[
            "export",
            "standings",
            target.to_str().unwrap(),
            "--out",
            file.to_str().unwrap(),
        ],
    );
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(result.status.success(), "{stderr}");
    assert!(result.stdout.is_empty());
    assert!(
        stderr.contains(&format!("wrote {}", file.display())),
        "{stderr}"
    );
    // A UTF-8 byte-order mark first, so that Excel reads the file as UTF-8.
    let bytes = std::fs::read(&file).unwrap();
    assert_eq!(bytes[..3], [0xEF, 0xBB, 0xBF], "{:?}", &bytes[..8]);
    let text = String::from_utf8(bytes[3..].to_vec()).unwrap();
    let header = text.lines().next().unwrap();
    assert!(
        header.starts_with(
            "rank,team,school,stage_reached,round_reached,total_score,school_score,nationals_score,games_played,games_won,flags,hits,pushes,push_kills,deaths,faults,qualified_by"
        ),
        "{header}"
    );
    assert_eq!(
        text.lines().count(),
        1 + NORTHGATE.len() + RIVERSIDE.len(),
        "{text}"
    );
    // No partial file is left beside it, and the file after its mark is `--out -`, which
    // has no mark.
    let names: Vec<_> = std::fs::read_dir(out.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, vec![std::ffi::OsString::from("standings.csv")]);
    assert_eq!(
        text,
        ok(played(), &["export", "standings", "cup.toml", "--out", "-"])
    );
}

#[test]
fn exports_to_files_start_with_a_byte_order_mark_unless_no_bom() {
    let out = tempfile::tempdir().unwrap();
    for what in ["standings", "games", "sets"] {
        let stdout = lrs(played(), &["export", what, "cup.toml", "--out", "-"]);
        assert!(stdout.status.success());
        assert!(
            stdout.stdout.starts_with(b"rank,") || stdout.stdout.starts_with(b"set,"),
            "{what}: standard output starts with its header, not a mark"
        );
        let with = out.path().join(format!("{what}.csv"));
        let without = out.path().join(format!("{what}-plain.csv"));
        for (file, extra) in [(&with, None), (&without, Some("--no-bom"))] {
            let mut args = vec!["export", what, "cup.toml", "--out", file.to_str().unwrap()];
            args.extend(extra);
            let result = lrs(played(), &args);
            assert!(result.status.success(), "{args:?}");
        }
        let mut expected = vec![0xEF, 0xBB, 0xBF];
        expected.extend_from_slice(&stdout.stdout);
        assert_eq!(std::fs::read(&with).unwrap(), expected, "{what}");
        assert_eq!(
            std::fs::read(&without).unwrap(),
            stdout.stdout,
            "{what} --no-bom"
        );
    }
}

#[test]
fn standings_json_has_the_export_rows_in_the_same_order() {
    let json = ok(played(), &["standings", "cup.toml", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let rows = v.as_array().unwrap();
    let csv = export_standings();
    assert_eq!(rows.len() + 1, csv.len(), "one object per team");
    let header = &csv[0];
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let (table, _) = parse_overall(&ok(played(), &["standings", "cup.toml"]));
    for ((row, record), line) in rows.iter().zip(csv.iter().skip(1)).zip(&table) {
        assert_eq!(row["team"], record[col("team")], "{row}");
        assert_eq!(row["rank"].to_string(), record[col("rank")], "{row}");
        assert_eq!(
            row["total_score"].to_string(),
            record[col("total_score")],
            "{row}"
        );
        // The CSV's fields, plus the set reached and how, as the table shows them.
        let mut keys: Vec<&str> = row
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        let mut expected: Vec<&str> = header.iter().chain(["set_reached", "how"]).collect();
        keys.sort_unstable();
        expected.sort_unstable();
        assert_eq!(keys, expected, "{row}");
        assert_eq!(row["set_reached"], line.set_reached.as_str(), "{row}");
        assert_eq!(row["how"], line.how.as_str(), "{row}");
    }
    bad_input(&["standings", "cup.toml", "--json", "--stage", "nationals"]);
}

#[test]
fn status_json_lists_every_stage_and_set_with_its_games() {
    let json = ok(played(), &["status", "cup.toml", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["run"], "finished");
    // docs/tournament.md names every key.
    let documented =
        common::documented_names("docs/tournament.md", "`--json` prints the same facts");
    common::assert_keys_documented(&v, &documented);
    for stage in v["stages"].as_array().unwrap() {
        common::assert_keys_documented(stage, &documented);
        for set in stage["sets"].as_array().unwrap() {
            common::assert_keys_documented(set, &documented);
        }
    }
    // The text status says the same: "games: N of M planned so far stored".
    let text = ok(played(), &["status", "cup.toml"]);
    let stored: usize = text
        .lines()
        .find_map(|l| l.strip_prefix("games: "))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{text}"));
    assert_eq!(v["games_stored"].as_u64(), Some(stored as u64));
    assert_eq!(v["games_planned"], v["games_stored"]);
    let sets: Vec<&serde_json::Value> = v["stages"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["sets"].as_array().unwrap())
        .collect();
    assert!(!sets.is_empty());
    let per_set: u64 = sets.iter().map(|s| s["games_done"].as_u64().unwrap()).sum();
    assert_eq!(per_set, stored as u64);
    assert!(
        sets.iter()
            .all(|s| s["state"] == "done" && !s["teams"].as_array().unwrap().is_empty())
    );
}

/// `--excel` writes what a European Excel opens in columns by double-click: the mark, then
/// the same rows separated by `;` (the text of `--delimiter semicolon`), and it cannot be
/// combined with another separator or with `--no-bom`.
#[test]
fn excel_exports_are_semicolon_separated_with_the_mark() {
    let out = tempfile::tempdir().unwrap();
    let file = out.path().join("standings.csv");
    let written = lrs(
        played(),
        &[
            "export",
            "standings",
            "cup.toml",
            "--out",
            file.to_str().unwrap(),
            "--excel",
        ],
    );
    assert!(written.status.success());
    let semicolons = lrs(
        played(),
        &[
            "export",
            "standings",
            "cup.toml",
            "--out",
            "-",
            "--delimiter",
            "semicolon",
        ],
    );
    let mut expected = vec![0xEF, 0xBB, 0xBF];
    expected.extend_from_slice(&semicolons.stdout);
    assert_eq!(std::fs::read(&file).unwrap(), expected);
    assert!(semicolons.stdout.starts_with(b"rank;team;school;"));
    let others: [&[&str]; 2] = [&["--delimiter", "tab"], &["--no-bom"]];
    for other in others {
        let mut args = vec!["export", "standings", "cup.toml", "--out", "-", "--excel"];
        args.extend(other);
        assert_eq!(lrs(played(), &args).status.code(), Some(2), "{args:?}");
    }
}
