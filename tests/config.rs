//! Tests of the tournament configuration reader (config.md): the shipped example configs
//! load, every documented mistake is reported at its file and line:column (or CSV row),
//! and generated configurations load.

use lrs_tourney::tourney::config::{check_summary, load_tournament, parse_tournament};
use lrs_tourney::tourney::generate::{ROSTER_FILE, generate, generate_with_bot};
use lrs_tourney::tourney::model::{Bot, BracketFormat, Program, Protocol, Tournament};
use std::path::{Path, PathBuf};
use tempfile::TempDir;

const HEAD: &str = "name = \"Test Cup\"\nseed = 7\n";

/// Writes `text` to `dir/name` (creating parent directories) and returns the path.
fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("create dir");
    }
    std::fs::write(&path, text).expect("write file");
    path
}

/// Loads `text` as `t.toml` in a fresh temp dir (with files written by `setup`).
fn load(text: &str, setup: impl FnOnce(&Path)) -> (TempDir, Result<Tournament, String>) {
    let dir = tempfile::tempdir().expect("temp dir");
    setup(dir.path());
    let path = write(dir.path(), "t.toml", text);
    let result = load_tournament(&path).map_err(|e| {
        // Print file names relative to the temp dir, for readable assertions.
        let prefix = format!("{}/", dir.path().display());
        e.to_string().replace(&prefix, "")
    });
    (dir, result)
}

/// The error of loading `text` (which must be invalid).
#[track_caller]
fn error(text: &str, setup: impl FnOnce(&Path)) -> String {
    match load(text, setup).1 {
        Ok(t) => panic!("accepted an invalid config: {t:?}"),
        Err(e) => e,
    }
}

/// Asserts that `message` contains every piece.
#[track_caller]
fn assert_has(message: &str, pieces: &[&str]) {
    for piece in pieces {
        assert!(message.contains(piece), "{piece:?} not in:\n{message}");
    }
}

fn school(name: &str, teams: &[(&str, &str)]) -> String {
    let mut s = format!("[[school]]\nname = \"{name}\"\n");
    for (team, bot) in teams {
        s.push_str(&format!(
            "[[school.team]]\nname = \"{team}\"\nbot = \"{bot}\"\n"
        ));
    }
    s
}

#[test]
fn every_example_config_loads() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs");
    let mut loaded = 0;
    for entry in std::fs::read_dir(&dir).expect("configs/") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "toml") {
            let t = load_tournament(&path).unwrap_or_else(|e| panic!("{e}"));
            assert!(!t.teams.is_empty());
            assert!(!check_summary(&t).is_empty());
            loaded += 1;
        }
    }
    assert!(loaded >= 2);
}

#[test]
fn the_school_example_is_one_school_of_19_in_three_sets() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/school.toml");
    let t = load_tournament(&path).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(t.schools.len(), 1);
    assert_eq!(t.teams.len(), 19);
    assert!(!t.has_nationals());
    assert_eq!(t.bracket, BracketFormat::default());
    assert_eq!(t.database, path.with_extension("sqlite").into());
    let summary = check_summary(&t);
    assert_has(
        &summary,
        &[
            "19 teams: round 1 = 3 sets (7,6,6), then school final of 6",
            "Nationals: none",
        ],
    );
}

#[test]
fn the_nationals_example_needs_wild_cards() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/nationals.toml");
    let t = load_tournament(&path).unwrap_or_else(|e| panic!("{e}"));
    assert!(t.schools.len() >= 12);
    assert!(t.schools.iter().all(|s| (1..=30).contains(&s.teams.len())));
    // Riverside Academy: 2 teams in the TOML file, 3 more from the roster.
    assert_eq!(t.schools[0].name, "Riverside Academy");
    assert_eq!(t.schools[0].teams.len(), 5);
    assert_has(
        &check_summary(&t),
        &["25 qualifiers + 7 wild cards = 32 teams"],
    );
}

#[test]
fn builtin_and_command_bots_are_resolved() {
    let text = format!(
        "{HEAD}[[school]]\nname = \"A\"\n\
         [[school.team]]\nname = \"x\"\nbot = \"builtin:hunter\"\n\
         [[school.team]]\nname = \"y\"\nbot = \"python3 bot.py\"\ndir = \"bots/y\"\nprotocol = \"windward\"\n"
    );
    let (dir, t) = load(&text, |d| {
        std::fs::create_dir_all(d.join("bots/y")).expect("mkdir")
    });
    let t = t.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        t.teams[0].bot,
        Bot::Builtin(lrs_tourney::games::BuiltinBot::parse(Default::default(), "hunter").unwrap())
    );
    assert_eq!(
        t.teams[1].bot,
        Bot::Command {
            program: Program {
                command: "python3 bot.py".into(),
                argv: vec!["python3".into(), "bot.py".into()],
                dir: dir.path().join("bots/y"),
            },
            protocol: Protocol::Windward,
        }
    );
    assert_eq!(
        t.teams[1].origin,
        format!("{}:9:8", dir.path().join("t.toml").display())
    );
    assert_eq!(t.database, dir.path().join("t.sqlite").into());
    assert_has(
        &check_summary(&t),
        &["1 command bot (1 windward): each is smoke-tested below"],
    );
}

#[test]
fn unknown_keys_are_located() {
    let text = format!(
        "{HEAD}colour = \"red\"\n{}",
        school("A", &[("x", "builtin:runner")])
    );
    assert_has(
        &error(&text, |_| ()),
        &["t.toml:3:1: unknown key `colour`; expected one of `name`, `seed`"],
    );
    let text = format!(
        "{HEAD}{}botz = 1\n",
        school("A", &[("x", "builtin:runner")])
    );
    assert_has(
        &error(&text, |_| ()),
        &["t.toml:8:1: unknown key `botz`; expected one of `name`, `bot`, `dir`, `protocol`"],
    );
}

#[test]
fn single_table_schools_are_explained() {
    let text = format!("{HEAD}[school]\nname = \"A\"\n");
    assert_has(
        &error(&text, |_| ()),
        &[
            "t.toml:3:1: `[school]` is a single table; expected an array of tables, written [[school]]",
        ],
    );
}

#[test]
fn duplicate_teams_name_both_places() {
    let text = format!(
        "{HEAD}{}",
        school("A", &[("Zap", "builtin:runner"), ("zap", "builtin:random")])
    );
    assert_has(
        &error(&text, |_| ()),
        &["t.toml:9:8: duplicate team \"zap\" in school \"A\": already defined at t.toml:6:8"],
    );
    let text = format!(
        "{HEAD}roster = \"r.csv\"\n{}",
        school("A", &[("Zap", "builtin:runner")])
    );
    let e = error(&text, |d| {
        write(
            d,
            "r.csv",
            "school,team,bot\nB,Zap,builtin:runner\na,Zap,builtin:hunter\n",
        );
    });
    assert_has(
        &e,
        &[
            "r.csv row 3, column 2 (team): duplicate team \"Zap\" in school \"A\": already defined at t.toml:7:8",
        ],
    );
}

#[test]
fn a_command_bot_needs_a_dir() {
    let text = format!("{HEAD}{}", school("A", &[("x", "java -jar bot.jar")]));
    assert_has(
        &error(&text, |_| ()),
        &["t.toml:7:7: the command bot \"java -jar bot.jar\" has no `dir`; expected dir ="],
    );
}

#[test]
fn unknown_builtin_ais_list_the_valid_ones() {
    let text = format!("{HEAD}{}", school("A", &[("x", "builtin:terminator")]));
    assert_has(
        &error(&text, |_| ()),
        &[
            "t.toml:7:7: unknown built-in AI \"terminator\"; expected one of builtin:random, builtin:runner, builtin:hunter",
        ],
    );
}

#[test]
fn a_protocol_must_be_one_the_game_speaks() {
    let team = |protocol: &str| {
        format!(
            "[[school]]\nname = \"A\"\n[[school.team]]\nname = \"y\"\nbot = \"python3 bot.py\"\n\
             dir = \"bots/y\"\nprotocol = \"{protocol}\"\n"
        )
    };
    let mkdir = |d: &Path| std::fs::create_dir_all(d.join("bots/y")).expect("mkdir");
    assert_has(
        &error(&format!("{HEAD}{}", team("xml")), mkdir),
        &["t.toml:9:12: unknown protocol \"xml\"; expected jsonl (the default) or windward"],
    );
    let robots = format!("{HEAD}bracket = \"robots.toml\"\n{}", team("windward"));
    assert_has(
        &error(&robots, |d| {
            mkdir(d);
            write(
                d,
                "robots.toml",
                "name = \"R\"\ngame = \"robots\"\nset_size = 8\ngames_per_series = 10\n\
                 advance_per_set = 2\nfill_nationals_to_multiple_of = 8\n",
            );
        }),
        &[
            "t.toml:10:12: Robots has no Windward protocol (it is Last Robot Standing's); expected jsonl (the default)",
        ],
    );
}

#[test]
fn builtin_ais_take_no_protocol_or_dir() {
    let text = format!(
        "{HEAD}{}protocol = \"jsonl\"\n",
        school("A", &[("x", "builtin:runner")])
    );
    assert_has(
        &error(&text, |_| ()),
        &["t.toml:8:12: `protocol` applies to command bots"],
    );
}

#[test]
fn bot_directories_must_exist() {
    let text = format!(
        "{HEAD}{}dir = \"bots/gone\"\n",
        school("A", &[("x", "./bot")])
    );
    assert_has(
        &error(&text, |_| ()),
        &["t.toml:8:7: bot directory bots/gone does not exist; expected an existing directory"],
    );
    let e = error(&text, |d| {
        write(d, "bots/gone", "a file");
    });
    assert_has(
        &e,
        &["t.toml:8:7: bot directory bots/gone is not a directory"],
    );
}

#[test]
fn unknown_boards_are_located_in_the_bracket_file() {
    let bracket =
        lrs_tourney::tourney::config::BUILTIN_BRACKET.replace("\"gear-works\"", "\"gear-wrks\"");
    let text = format!(
        "{HEAD}bracket = \"b/fmt.toml\"\n{}",
        school("A", &[("x", "builtin:runner")])
    );
    let e = error(&text, |d| {
        write(d, "b/fmt.toml", &bracket);
    });
    assert_has(
        &e,
        &[
            "b/fmt.toml:12:28: unknown board \"gear-wrks\": it is not a shipped board and b/gear-wrks is not a file; expected a shipped board (corridor-dash, gear-works",
        ],
    );
}

#[test]
fn bracket_boards_may_be_files_next_to_the_bracket_file() {
    let board = "name = \"Tiny\"\ngrid = \"\"\"\nS1 S2 F1\nS3 .  S4\n\"\"\"\n";
    let bracket =
        lrs_tourney::tourney::config::BUILTIN_BRACKET.replace("\"gear-works\"", "\"tiny.toml\"");
    let text = format!(
        "{HEAD}bracket = \"b/fmt.toml\"\n{}",
        school("A", &[("x", "builtin:runner")])
    );
    let e = error(&text, |d| {
        write(d, "b/fmt.toml", &bracket);
        write(d, "b/tiny.toml", board);
    });
    assert_has(
        &e,
        &["b/fmt.toml:12:28: board \"tiny.toml\" has 4 start squares, too few for sets of 8"],
    );
    let small = bracket.replace("set_size = 8", "set_size = 4");
    let (dir, t) = load(&text, |d| {
        write(d, "b/fmt.toml", &small);
        write(d, "b/tiny.toml", board);
    });
    let t = t.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(t.bracket.set_size, 4);
    assert_eq!(
        t.bracket.boards[1],
        dir.path().join("b/tiny.toml").display().to_string()
    );
}

#[test]
fn bracket_values_are_checked() {
    let bracket = lrs_tourney::tourney::config::BUILTIN_BRACKET
        .replace("set_size = 8", "set_size = 9")
        .replace("turns_per_game = 60", "turns = 60");
    let text = format!(
        "{HEAD}bracket = \"fmt.toml\"\n{}",
        school("A", &[("x", "builtin:runner")])
    );
    let e = error(&text, |d| {
        write(d, "fmt.toml", &bracket);
    });
    assert_has(
        &e,
        &["fmt.toml:8:1: unknown key `turns`; expected one of `name`, `set_size`"],
    );
    let bracket = bracket.replace("turns = 60", "turns_per_game = 60");
    let e = error(&text, |d| {
        write(d, "fmt.toml", &bracket);
    });
    assert_has(
        &e,
        &["fmt.toml:5:12: `set_size` = 9 is out of range; expected an integer from 3 to 8"],
    );
}

#[test]
fn a_school_needs_teams() {
    let text = format!(
        "{HEAD}{}{}",
        school("A", &[("x", "builtin:runner")]),
        school("Empty", &[])
    );
    assert_has(
        &error(&text, |_| ()),
        &["t.toml:9:8: school \"Empty\" has no teams; expected at least one [[school.team]]"],
    );
    assert_has(
        &error(HEAD, |_| ()),
        &["t.toml:1:1: no schools; expected at least one [[school]]"],
    );
}

#[test]
fn the_seed_is_optional_and_checked_when_given() {
    // Without one, the first run draws a secret seed (tests/secret_seed.rs).
    let text = format!("name = \"x\"\n{}", school("A", &[("x", "builtin:runner")]));
    let (_dir, loaded) = load(&text, |_| ());
    assert_eq!(loaded.map(|t| t.seed), Ok(None));
    let text = format!(
        "name = \"x\"\nseed = 12\n{}",
        school("A", &[("x", "builtin:runner")])
    );
    let (_dir, loaded) = load(&text, |_| ());
    assert_eq!(loaded.map(|t| t.seed), Ok(Some(12)));
    let text = format!(
        "name = \"x\"\nseed = -4\n{}",
        school("A", &[("x", "builtin:runner")])
    );
    assert_has(
        &error(&text, |_| ()),
        &["t.toml:2:8: `seed`: invalid value: integer `-4`; expected an integer >= 0"],
    );
}

#[test]
fn bad_csv_rows_are_named_by_row_and_column() {
    let text = format!("{HEAD}roster = \"r.csv\"\n");
    let csv = "team,school,bot,dir,protocol\n\
               a,S,builtin:runner,,\n\
               \n\
               b,S,builtin:runner,,tcp\n\
               c,S,builtin:runer,,\n\
               d,S\n\
               ,,,,\n";
    let e = error(&text, |d| {
        write(d, "r.csv", csv);
    });
    assert_has(
        &e,
        &[
            "r.csv row 4, column 5 (protocol): `protocol` applies to command bots",
            "r.csv row 5, column 3 (bot): unknown built-in AI \"runer\"",
            "r.csv row 6: the row has 2 cells; expected 5 cells, like the header",
        ],
    );
    let e = error(&text, |d| {
        write(d, "r.csv", "school,team,robot\n");
    });
    assert_has(
        &e,
        &[
            "r.csv row 1: missing column \"bot\" in the header (the column \"robot\" is not a roster column); expected a header row naming the columns school,team,bot,dir,protocol",
        ],
    );
    assert_has(
        &error(&text, |_| ()),
        &["t.toml:3:10: cannot read the roster file r.csv"],
    );
}

#[test]
fn limits_must_be_positive() {
    let text = format!(
        "{HEAD}[limits]\ntime_limit_ms = 0\n{}",
        school("A", &[("x", "builtin:runner")])
    );
    assert_has(
        &error(&text, |_| ()),
        &["t.toml:4:17: `time_limit_ms`: invalid value: integer `0`; expected a positive integer"],
    );
    let text = format!(
        "{HEAD}[limits]\nmemory = 5\n{}",
        school("A", &[("x", "builtin:runner")])
    );
    assert_has(
        &error(&text, |_| ()),
        &[
            "t.toml:4:1: unknown key `memory`; expected one of `time_limit_ms`, `start_limit_ms`, `memory_mb`",
        ],
    );
    let text = format!(
        "{HEAD}[limits]\nmemory_mb = 512\n{}",
        school("A", &[("x", "builtin:runner")])
    );
    let t = load(&text, |_| ()).1.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((t.limits.memory_mb, t.limits.time_limit_ms), (512, 1000));
}

#[test]
fn independent_problems_are_all_reported() {
    let text = format!(
        "{HEAD}{}{}",
        school("A", &[("x", "builtin:nope"), ("y", "run")]),
        school("a", &[("z", "builtin:runner")])
    );
    let e = error(&text, |_| ());
    assert_eq!(e.lines().count(), 3, "{e}");
    assert_has(
        &e,
        &["duplicate school \"a\" (first defined at t.toml:4:8 as \"A\")"],
    );
}

#[test]
fn school_slugs_are_unique() {
    let text = format!(
        "{HEAD}{}{}{}",
        school("Nationals", &[("x", "builtin:runner")]),
        school("St. Mary", &[("x", "builtin:runner")]),
        school("St Mary!", &[("x", "builtin:runner")])
    );
    let t = load(&text, |_| ()).1.unwrap_or_else(|e| panic!("{e}"));
    let slugs: Vec<&str> = t.schools.iter().map(|s| s.slug.as_str()).collect();
    assert_eq!(slugs, ["nationals-school", "st-mary", "st-mary-2"]);
}

#[test]
fn parse_tournament_resolves_paths_against_the_given_path() {
    let text = format!(
        "{HEAD}database = \"db/x.sqlite\"\n{}",
        school("A", &[("x", "builtin:runner")])
    );
    let t =
        parse_tournament(&text, Path::new("some/where/t.toml")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(t.database, Path::new("some/where/db/x.sqlite").into());
    assert_eq!(t.teams[0].origin, "some/where/t.toml:7:8");
}

#[test]
fn generated_configs_load_and_are_deterministic() {
    for (teams, schools, seed) in [(1, 1, 0), (40, 7, 3), (500, 37, 99)] {
        let g = generate(teams, schools, seed);
        assert_eq!(g, generate(teams, schools, seed));
        assert_eq!(g.school_sizes.iter().sum::<usize>(), teams);
        assert!(g.school_sizes.iter().all(|&n| n >= 1));
        let dir = tempfile::tempdir().expect("temp dir");
        write(dir.path(), g.roster_file, &g.roster_csv);
        assert_eq!(g.roster_file, ROSTER_FILE);
        let path = write(dir.path(), "tournament.toml", &g.toml);
        let t = load_tournament(&path).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            (t.teams.len(), t.schools.len(), t.seed),
            (teams, schools, Some(seed))
        );
        let sizes: Vec<usize> = t.schools.iter().map(|s| s.teams.len()).collect();
        assert_eq!(sizes, g.school_sizes);
        assert!(t.teams.iter().all(|team| team.bot
            == Bot::Builtin(
                lrs_tourney::games::BuiltinBot::parse(Default::default(), "runner").unwrap()
            )));
    }
    assert_ne!(
        generate(100, 10, 1).school_sizes,
        generate(100, 10, 2).school_sizes
    );
    let g = generate_with_bot(10, 2, 5, "builtin:hunter");
    assert!(
        g.roster_csv
            .contains("School 0001,Team 0001-01,builtin:hunter,,")
    );
}

#[test]
fn the_windward_gateway_address_is_read_and_checked() {
    let text = format!(
        "{HEAD}[windward]\nlisten = \"127.0.0.2:1707\"\n{}",
        school("A", &[("x", "builtin:runner")])
    );
    let (_dir, t) = load(&text, |_| ());
    assert_eq!(
        t.unwrap().limits.windward_listen,
        "127.0.0.2:1707".parse().unwrap()
    );
    let (_dir, t) = load(
        &format!("{HEAD}{}", school("A", &[("x", "builtin:runner")])),
        |_| (),
    );
    assert_eq!(
        t.unwrap().limits.windward_listen,
        "127.0.0.1:1707".parse().unwrap(),
        "the port the 2012 clients connect to, on this machine only"
    );
    let text = format!(
        "{HEAD}[windward]\nlisten = \"localhost\"\n{}",
        school("A", &[("x", "builtin:runner")])
    );
    assert_has(
        &error(&text, |_| ()),
        &["t.toml:4:10: `listen` \"localhost\" is not an address; expected IP:PORT"],
    );
    let text = format!(
        "{HEAD}[windward]\nport = 1707\n{}",
        school("A", &[("x", "builtin:runner")])
    );
    assert_has(
        &error(&text, |_| ()),
        &["t.toml:4:1: unknown key `port`; expected `listen`"],
    );
}

/// A school written twice with other accents, spaces or case is a mistake, not a second
/// school: two one-team "schools" would each go to the nationals without playing.
#[test]
fn a_school_spelt_another_way_is_an_error_naming_both_places() {
    let text = format!(
        "{HEAD}roster = \"r.csv\"\n{}",
        school("École Sainte-Anne", &[("x", "builtin:runner")])
    );
    let e = error(&text, |d| {
        write(
            d,
            "r.csv",
            "school,team,bot\nEcole Sainte-Anne,y,builtin:runner\n\"École  Sainte-Anne\",z,builtin:random\nÉcole Sainte-Anne,w,builtin:random\n",
        );
    });
    assert_has(
        &e,
        &[
            "r.csv row 2, column 1 (school): school \"Ecole Sainte-Anne\" is spelt differently from \"École Sainte-Anne\" (first written at t.toml:5:8); expected one spelling per school",
            "r.csv row 3, column 1 (school): school \"École  Sainte-Anne\" is spelt differently from \"École Sainte-Anne\"",
        ],
    );
    assert!(!e.contains("row 4"), "{e}");
}

/// A school of one team beside others goes to the nationals without playing: the
/// configuration is valid, with a warning at the school's name; a lone school does not get
/// it, nor does a school of two.
#[test]
fn a_one_team_school_beside_others_is_a_warning() {
    use lrs_tourney::tourney::config::parse_tournament_with_warnings;
    let text = format!(
        "{HEAD}[[school]]\nname = \"Big\"\n  [[school.team]]\n  name = \"A\"\n  bot = \"builtin:random\"\n\
         \x20 [[school.team]]\n  name = \"B\"\n  bot = \"builtin:random\"\n\
         [[school]]\nname = \"Tiny\"\n  [[school.team]]\n  name = \"Solo\"\n  bot = \"builtin:random\"\n"
    );
    let loaded = parse_tournament_with_warnings(&text, Path::new("t.toml")).unwrap();
    let warnings: Vec<String> = loaded.warnings.iter().map(|w| w.to_string()).collect();
    assert_eq!(
        warnings,
        [
            "t.toml:12:8: school \"Tiny\" has one team (\"Solo\"): it qualifies for the nationals \
          without playing a game; if its name is a misspelling of another school's, correct it"
        ]
    );
    let alone = format!(
        "{HEAD}[[school]]\nname = \"Tiny\"\n  [[school.team]]\n  name = \"Solo\"\n  bot = \"builtin:random\"\n"
    );
    let loaded = parse_tournament_with_warnings(&alone, Path::new("t.toml")).unwrap();
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
}
