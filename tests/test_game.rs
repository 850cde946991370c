//! The seam, proved by a game the orchestrator has never heard of: a coin toss for 1 to 8
//! seats, registered from this test, plays a whole tournament (bracket file, roster,
//! configuration check, bracket, store, standings, exports, the report and a replay)
//! through the same commands as the shipped games, with no line of the orchestrator
//! written for it.
//!
//! Each game is five tosses drawn from the game's seed; a built-in AI calls every toss
//! (`heads` always heads, `tails` always tails, `alternate` switches); a call that lands
//! scores a point. The decision log is the calls, so a replay checks them.

use lrs_tourney::games::view::{PageInfo, ReplayAbout, ReplayView, Replayed};
use lrs_tourney::games::{
    Arena, ArenaRules, BuiltinBot, Decisions, Game, GameFacts, GameKind, GameOutcome, GameSettings,
    Match, Played, ScenarioFailure, SeatBot, SeatOutcome, SettingsProblem, SettingsSeam, Stats,
    StoredGame, TieStep,
};
use serde_json::{Value, json};
use std::path::Path;
use std::process::ExitCode;

const TOSSES: usize = 5;

struct Coin;

fn coin() -> GameKind {
    lrs_tourney::games::register(&Coin)
}

static FACTS: GameFacts = GameFacts {
    id: "coin",
    title: "Coin toss",
    seats: 1..=8,
    engine_version: 1,
    score_rule: "calls that land",
    best_builtin: "heads",
    statistics: &["calls_won"],
    tie_steps: &[TieStep::more("calls_won", 0, "calls won")],
    viewer: None,
};

impl Game for Coin {
    fn facts(&self) -> &'static GameFacts {
        &FACTS
    }
    fn arenas(&self) -> String {
        "one table".into()
    }
    fn builtin_ais(&self) -> Vec<(&'static str, &'static str)> {
        vec![
            ("heads", "always calls heads"),
            ("tails", "always calls tails"),
            ("alternate", "heads, tails, heads..."),
        ]
    }
    fn run_scenario(&self, _: &str, file: &str, _: &Path) -> Result<Value, ScenarioFailure> {
        Err(format!("{file}: coin has no scenarios").into())
    }
}

/// A game may answer for its settings directly, without a settings type of its own.
impl SettingsSeam for Coin {
    fn default_settings(&self) -> GameSettings {
        GameSettings::of(coin(), &())
    }
    fn settings_from_table(&self, text: &str) -> Result<GameSettings, SettingsProblem> {
        let doc: toml::Table = toml::from_str(text).map_err(|e| SettingsProblem {
            offset: None,
            what: e.to_string(),
            expected: "a TOML file".into(),
        })?;
        match doc.get("game").and_then(toml::Value::as_table) {
            Some(t) if t.len() == 1 => Ok(self.default_settings()),
            _ => Err(SettingsProblem {
                offset: None,
                what: "coin takes no settings".into(),
                expected: "`id` alone".into(),
            }),
        }
    }
    fn describe_settings(&self, _: &GameSettings) -> String {
        "coin (five tosses)".into()
    }
    fn max_turns(&self, _: &GameSettings, _: u16) -> u32 {
        TOSSES as u32
    }
    fn arena_pool(&self, _: &GameSettings, _: &[String]) -> Vec<String> {
        vec!["table".into()]
    }
    fn load_arena(&self, _: &GameSettings, name: &str, _: u16) -> Result<Arena, String> {
        match name {
            "table" => Ok(Arena::new(Table)),
            other => Err(format!("no arena {other:?}")),
        }
    }
}

struct Table;

/// The tosses of a game: true is heads.
fn tosses(seed: u64) -> Vec<bool> {
    (0..TOSSES as u64)
        .map(|t| {
            let mut z = seed.wrapping_add(t.wrapping_mul(0x9E37_79B9_7F4A_7C15));
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            (z ^ (z >> 31)) & 1 == 1
        })
        .collect()
}

/// The game from its seed and every seat's calls (`H`/`T`, seat by seat, toss by toss).
fn game(seats: usize, seed: u64, calls: &[u8]) -> Result<GameOutcome, String> {
    if calls.len() != seats * TOSSES || calls.iter().any(|c| !b"HT".contains(c)) {
        return Err("the decision log does not fit the game".into());
    }
    let tosses = tosses(seed);
    let points: Vec<u32> = (0..seats)
        .map(|s| {
            (0..TOSSES)
                .filter(|&t| (calls[s * TOSSES + t] == b'H') == tosses[t])
                .count() as u32
        })
        .collect();
    let top = points.iter().copied().max().unwrap_or(0);
    Ok(GameOutcome {
        engine_version: 1,
        turns: TOSSES as u32,
        decisions: calls.to_vec(),
        seats: points
            .iter()
            .map(|&p| SeatOutcome {
                score: i64::from(p),
                won: p == top,
                faults: 0,
                stats: Stats::from_values(&[p]),
            })
            .collect(),
    })
}

impl ArenaRules for Table {
    fn kind(&self) -> GameKind {
        coin()
    }
    fn turn_limit(&self) -> u32 {
        TOSSES as u32
    }
    /// The log is the calls, kept whatever `Decisions` says.
    fn play_builtin(
        &self,
        seed: u64,
        seats: &[BuiltinBot],
        _: Decisions,
    ) -> Result<GameOutcome, String> {
        let mut calls = Vec::new();
        for b in seats {
            for t in 0..TOSSES {
                calls.push(match b.name() {
                    "heads" => b'H',
                    "tails" => b'T',
                    "alternate" if t % 2 == 0 => b'H',
                    "alternate" => b'T',
                    other => return Err(format!("builtin:{other} does not toss coins")),
                });
            }
        }
        game(seats.len(), seed, &calls)
    }
    fn play<'a>(
        &'a self,
        game: Match<'a>,
    ) -> futures_util::future::BoxFuture<'a, Result<Played, String>> {
        Box::pin(async move {
            let bots = game
                .seats
                .into_iter()
                .map(|s| match s {
                    SeatBot::Builtin(b) => Ok(b),
                    _ => Err("coin is played by built-in AIs only".to_string()),
                })
                .collect::<Result<Vec<_>, _>>()?;
            let outcome = self.play_builtin(game.seed, &bots, Decisions::Keep)?;
            Ok((outcome, vec![None; bots.len()]))
        })
    }
    fn replay(&self, stored: StoredGame<'_>) -> Result<GameOutcome, String> {
        game(stored.seats, stored.seed, stored.decisions)
    }
    fn replay_for_view(&self, stored: StoredGame<'_>) -> Result<Replayed, String> {
        let outcome = game(stored.seats, stored.seed, stored.decisions)?;
        Ok(Replayed::new(CoinReplay {
            tosses: tosses(stored.seed),
            calls: stored.decisions.to_vec(),
            scores: outcome.seats.iter().map(|s| s.score).collect(),
        }))
    }
}

struct CoinReplay {
    tosses: Vec<bool>,
    calls: Vec<u8>,
    scores: Vec<i64>,
}

impl ReplayView for CoinReplay {
    fn scores(&self) -> Vec<i64> {
        self.scores.clone()
    }
    fn turns(&self) -> usize {
        TOSSES
    }
    fn page(&self, info: &PageInfo) -> String {
        format!(
            "<!doctype html><title>{}</title><p id=\"scores\">{:?}</p>",
            lrs_tourney::games::view::escape(&info.title),
            self.scores
        )
    }
    fn text(&self, names: &[String]) -> String {
        let mut out = String::new();
        for (t, heads) in self.tosses.iter().enumerate() {
            out += &format!("toss {t}: {}\n", if *heads { "heads" } else { "tails" });
        }
        for (s, name) in names.iter().enumerate() {
            let calls = &self.calls[s * TOSSES..(s + 1) * TOSSES];
            out += &format!("{name}: {}\n", String::from_utf8_lossy(calls));
        }
        out
    }
    fn report_json(&self, about: &ReplayAbout) -> Value {
        json!({ "game_kind": "coin", "seats": about.seats, "tosses": self.tosses })
    }
    fn full_state_bytes(&self) -> usize {
        self.calls.len() + self.tosses.len()
    }
}

fn run(dir: &Path, args: &[&str]) {
    let mut argv = vec!["lrs-tourney".to_string()];
    argv.extend(args.iter().map(|a| {
        if a.ends_with(".toml") || a.ends_with(".csv") || *a == "site" {
            dir.join(a).display().to_string()
        } else {
            a.to_string()
        }
    }));
    assert_eq!(
        lrs_tourney::cli::main_with(&argv),
        ExitCode::SUCCESS,
        "{argv:?}"
    );
}

/// Two schools of five teams: each school plays two sets and a final; the top two of each
/// school go to the nationals, filled with wild cards to eight.
#[test]
fn a_game_registered_from_outside_plays_a_whole_tournament() {
    coin();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("coin.toml"),
        "name = \"Coin Cup\"\ngame = \"coin\"\nset_size = 8\ngames_per_series = 4\n\
         advance_per_set = 2\nfill_nationals_to_multiple_of = 8\n",
    )
    .unwrap();
    let mut file = String::from("name = \"Coin Nationals\"\nseed = 7\nbracket = \"coin.toml\"\n");
    let ais = ["heads", "tails", "alternate"];
    for school in ["North", "South"] {
        file += &format!("[[school]]\nname = \"{school}\"\n");
        for t in 0..9 {
            file += &format!(
                "  [[school.team]]\n  name = \"{school} {t}\"\n  bot = \"builtin:{}\"\n",
                ais[t % 3]
            );
        }
    }
    std::fs::write(d.join("cup.toml"), file).unwrap();

    run(d, &["check", "cup.toml"]);
    run(d, &["run", "cup.toml"]);
    run(
        d,
        &["export", "standings", "cup.toml", "--out", "standings.csv"],
    );
    run(d, &["export", "games", "cup.toml", "--out", "games.csv"]);
    run(d, &["report", "cup.toml", "--out", "site"]);

    // Every stored game replays to its stored scores, and the standings add them up.
    let standings = std::fs::read_to_string(d.join("standings.csv")).unwrap();
    let header = standings
        .lines()
        .next()
        .unwrap()
        .trim_start_matches('\u{feff}');
    assert!(header.contains("calls_won"), "{header}");
    assert_eq!(standings.lines().count(), 1 + 18, "{standings}");
    let games = std::fs::read_to_string(d.join("games.csv")).unwrap();
    assert!(games.lines().count() > 1 + 4 * 4, "{games}");
    assert!(d.join("site/index.html").is_file());
    run(d, &["replay", "cup.toml", "north/final", "0", "--json"]);

    // Same seed, same games: a second run of a copy stores the same standings.
    let again = tempfile::tempdir().unwrap();
    for f in ["coin.toml", "cup.toml"] {
        std::fs::copy(d.join(f), again.path().join(f)).unwrap();
    }
    run(again.path(), &["run", "cup.toml"]);
    run(
        again.path(),
        &["export", "standings", "cup.toml", "--out", "standings.csv"],
    );
    assert_eq!(
        std::fs::read_to_string(again.path().join("standings.csv")).unwrap(),
        standings
    );
}
