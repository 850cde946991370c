//! Defines the game seam's registry: the [`Game`] trait, what the orchestrator may ask of a
//! game kind (seats, arenas, built-in AIs, engine version, statistics, tie-break steps), and
//! [`GameKind`], a handle to one registered game.
//!
//! Each game implements [`Game`] in its own folder (`games/lrs`, `games/robotgame`,
//! `games/robots`); [`REGISTRY`] lists them once, so `lrs-tourney games`, `play --game`,
//! bracket files, scenario files and the store agree on the names, and an unknown name is
//! answered with the known ones. The orchestrator holds a [`GameKind`] and asks it; it never
//! asks which game it is.

use super::stats::TieStep;
use super::typed::SettingsSeam;
use super::{Arena, SettingsProblem};
use std::path::Path;
use thiserror::Error;

/// What the orchestrator may ask of a game kind, answered by each game in its folder (about
/// its settings: [`SettingsSeam`]).
pub trait Game: SettingsSeam + Send + Sync + 'static {
    /// What the game is called, who plays it and how it ranks them: constants of its
    /// folder, read through [`GameKind`].
    fn facts(&self) -> &'static GameFacts;

    /// Where games are played, in one line (`lrs-tourney games`).
    fn arenas(&self) -> String;

    /// The built-in AIs as (name, what it does).
    fn builtin_ais(&self) -> Vec<(&'static str, &'static str)>;

    /// The arena as named in a replay's heading (`board gear-works`, `RobotGame`).
    fn arena_label(&self, name: &str) -> String {
        let _ = name;
        self.facts().title.to_string()
    }

    /// Checks and runs the scenario file `text` (`file` names it in messages, `base_dir` is
    /// where paths in it start) and gives its outcome as JSON.
    fn run_scenario(
        &self,
        text: &str,
        file: &str,
        base_dir: &Path,
    ) -> Result<serde_json::Value, super::ScenarioFailure>;

    /// The arena `lrs-tourney play` uses for `flags`, and its name in the results. The
    /// default is a game with one arena, which refuses `--board` and `--turns`. Errors name
    /// the flag.
    fn play_arena(&self, flags: ArenaFlags<'_>) -> Result<(Arena, String), String> {
        let id = self.facts().id;
        if flags.board.is_some() {
            return Err(format!(
                "--board does not apply to {id}: it plays {}",
                self.arenas()
            ));
        }
        if flags.turns.is_some() {
            return Err(format!(
                "--turns does not apply to {id}: its games last as its rules say"
            ));
        }
        let settings = self.default_settings();
        let pool = self.arena_pool(&settings, &[]);
        let name = pool.first().ok_or("the game has no arena")?;
        Ok((self.load_arena(&settings, name, 0)?, name.clone()))
    }

    /// The arenas the game ships, for `lrs-tourney boards`; empty for a game whose one
    /// arena is built into its rules.
    fn shipped_arenas(&self) -> Vec<ShippedArena> {
        Vec::new()
    }

    /// An arena (a shipped arena's name or a file) drawn as text with a legend, for
    /// `lrs-tourney boards show`.
    fn show_arena(&self, name: &str) -> Result<String, String> {
        Err(format!(
            "{} has no boards to show ({name:?}): it plays {}",
            self.facts().title,
            self.arenas()
        ))
    }

    /// The game's replay viewer ([`GameFacts::viewer`]).
    fn viewer(&self) -> Option<super::view::Viewer> {
        self.facts().viewer
    }

    /// Whether the game's bots may be the 2012 Windward TCP/XML clients besides JSON-lines
    /// programs.
    fn speaks_windward(&self) -> bool {
        false
    }

    /// The game's arena pool, if it has one: the bracket file's top-level `boards` (arenas
    /// cycled game by game) and `turns_per_game`; games without one refuse both keys.
    fn pool(&self) -> Option<&dyn ArenaPool> {
        None
    }
}

/// What a game is called, who plays it and how it ranks them ([`Game::facts`]).
#[derive(Debug)]
pub struct GameFacts {
    /// The name used in files, on the command line and in the store.
    pub id: &'static str,
    pub title: &'static str,
    /// Players in one game.
    pub seats: std::ops::RangeInclusive<usize>,
    /// The version of the game's rules implementation, stored with its games: a stored
    /// tournament resumes only under the version that played it.
    pub engine_version: u32,
    /// How a game's score is counted, in one line (under `play`'s table).
    pub score_rule: &'static str,
    /// The built-in AI that plays the game best (the default of generated tournaments).
    pub best_builtin: &'static str,
    /// The game's own statistics per seat, after score and wins, in the order of
    /// [`Stats`](super::Stats) (and of the store's `stat_1`.. columns).
    pub statistics: &'static [&'static str],
    /// The tie-break steps after series score and games won (and before the seeded draw).
    pub tie_steps: &'static [TieStep],
    /// The game's replay viewer (its drawing script), which a report writes once for all its
    /// replay pages; `None` for a game without one.
    pub viewer: Option<super::view::Viewer>,
}

/// What `lrs-tourney play` asks of the arena ([`Game::play_arena`]): `board` (a shipped
/// arena's name or a file) with games of `turns` turns where the game takes them, for
/// `bots` bots.
#[derive(Debug, Clone, Copy)]
pub struct ArenaFlags<'a> {
    pub board: Option<&'a str>,
    pub turns: Option<u16>,
    pub bots: usize,
}

impl ArenaFlags<'_> {
    /// Refuses a board named `name` with only `starts` start squares for the bots.
    pub fn check_starts(&self, name: &str, starts: usize) -> Result<(), String> {
        if starts < self.bots {
            return Err(format!(
                "board {name:?} has {starts} start squares, too few for {} bots",
                self.bots
            ));
        }
        Ok(())
    }
}

/// One arena a game ships, as `lrs-tourney boards` lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShippedArena {
    /// The name files and flags use (`gear-works`).
    pub name: String,
    /// Its title (`Gear Works`).
    pub title: String,
    /// Width by height, e.g. `12x12`.
    pub size: String,
    /// One line saying what it is.
    pub about: String,
}

/// The arena pool of a game that has one (see [`Game::pool`]).
pub trait ArenaPool: Send + Sync {
    /// Checks one entry of a bracket's arena pool (the `boards` key) for sets of up to
    /// `seats` teams; `dir` is the bracket file's folder for relative paths (`None`: the
    /// built-in format). Gives the name to store.
    fn entry(&self, entry: &str, dir: Option<&Path>, seats: i64)
    -> Result<String, SettingsProblem>;

    /// The arena names the pool accepts, for messages.
    fn names(&self) -> String;

    /// What a pool entry contributes to a configuration fingerprint: its content, so the
    /// same arena under another path is the same configuration.
    fn fingerprint(&self, entry: &str) -> String;

    /// Whether two pool entries name the same arena (by name, or by content).
    fn same_entry(&self, a: &str, b: &str) -> bool;
}

/// Every game, in the order `lrs-tourney games` lists them; the first is the default of
/// files that name none. A new game is one more line here.
pub static REGISTRY: [&dyn Game; 5] = [
    &super::lrs::kind::Lrs,
    &super::robotgame::kind::RobotGame,
    &super::robots::kind::Robots,
    &super::roborally::kind::RoboRally,
    &super::roborunner::kind::RoboRunner,
];

/// Games registered while the program runs ([`register`]), after [`REGISTRY`]'s.
static REGISTERED: std::sync::RwLock<Vec<&'static dyn Game>> = std::sync::RwLock::new(Vec::new());

/// Adds `game` to the games every command knows (after the built-in ones), for a program
/// that embeds the library with a game of its own, or a test. Registering an id twice
/// keeps the first.
pub fn register(game: &'static dyn Game) -> GameKind {
    let id = game.facts().id;
    if let Ok(kind) = GameKind::parse(id) {
        return kind;
    }
    let mut extra = REGISTERED.write().unwrap_or_else(|e| e.into_inner());
    if !extra.iter().any(|g| g.facts().id == id) {
        extra.push(game);
    }
    GameKind(game)
}

/// The built-in games and then the registered ones.
fn registry() -> Vec<&'static dyn Game> {
    let extra = REGISTERED.read().unwrap_or_else(|e| e.into_inner());
    REGISTRY
        .iter()
        .copied()
        .chain(extra.iter().copied())
        .collect()
}

/// A handle to one registered game: cheap to copy, compared by the game's id.
#[derive(Clone, Copy)]
pub struct GameKind(&'static dyn Game);

/// A game name that is not registered.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown game {given:?}; the games are: {}", GameKind::all().map(GameKind::id).collect::<Vec<_>>().join(", "))]
pub struct UnknownGame {
    pub given: String,
}

impl GameKind {
    /// Every registered game, in registry order.
    pub fn all() -> impl Iterator<Item = GameKind> + Clone {
        registry().into_iter().map(GameKind)
    }

    /// The game named `text`.
    pub fn parse(text: &str) -> Result<GameKind, UnknownGame> {
        GameKind::all()
            .find(|k| k.id() == text)
            .ok_or_else(|| UnknownGame {
                given: text.to_string(),
            })
    }

    /// Whether this is the game files play when they name none.
    pub fn is_default(self) -> bool {
        self == GameKind::default()
    }

    /// The handle of a registered game (games name themselves with it).
    pub fn of(game: &'static dyn Game) -> GameKind {
        GameKind(game)
    }

    /// The registered game behind the handle.
    pub fn game(self) -> &'static dyn Game {
        self.0
    }

    fn position(self) -> usize {
        registry()
            .iter()
            .position(|g| g.facts().id == self.id())
            .unwrap_or(usize::MAX)
    }

    pub fn id(self) -> &'static str {
        self.0.facts().id
    }

    pub fn title(self) -> &'static str {
        self.0.facts().title
    }

    pub fn score_rule(self) -> &'static str {
        self.0.facts().score_rule
    }

    pub fn arena_label(self, name: &str) -> String {
        self.0.arena_label(name)
    }

    pub fn seats(self) -> std::ops::RangeInclusive<usize> {
        self.0.facts().seats.clone()
    }

    pub fn engine_version(self) -> u32 {
        self.0.facts().engine_version
    }

    pub fn arenas(self) -> String {
        self.0.arenas()
    }

    pub fn builtin_ais(self) -> Vec<(&'static str, &'static str)> {
        self.0.builtin_ais()
    }

    pub fn best_builtin(self) -> &'static str {
        self.0.facts().best_builtin
    }

    pub fn statistics(self) -> &'static [&'static str] {
        self.0.facts().statistics
    }

    pub fn tie_steps(self) -> &'static [TieStep] {
        self.0.facts().tie_steps
    }

    pub fn speaks_windward(self) -> bool {
        self.0.speaks_windward()
    }

    /// See [`ArenaPool::entry`]; games without an arena pool refuse every entry.
    pub fn pool_entry(
        self,
        entry: &str,
        dir: Option<&Path>,
        seats: i64,
    ) -> Result<String, SettingsProblem> {
        match self.0.pool() {
            Some(pool) => pool.entry(entry, dir, seats),
            None => Err(SettingsProblem {
                offset: None,
                what: format!("{} has no arena pool", self.title()),
                expected: "no `boards` key".to_string(),
            }),
        }
    }

    pub fn has_arena_pool(self) -> bool {
        self.0.pool().is_some()
    }

    /// See [`ArenaPool::names`] (empty without a pool).
    pub fn pool_names(self) -> String {
        self.0.pool().map(ArenaPool::names).unwrap_or_default()
    }

    /// See [`ArenaPool::fingerprint`]; without a pool, the entry's name.
    pub fn pool_fingerprint(self, entry: &str) -> String {
        match self.0.pool() {
            Some(pool) => pool.fingerprint(entry),
            None => format!("arena={entry}|"),
        }
    }

    /// See [`ArenaPool::same_entry`]; without a pool, the same name.
    pub fn same_pool_entry(self, a: &str, b: &str) -> bool {
        self.0.pool().map_or(a == b, |pool| pool.same_entry(a, b))
    }

    /// The statistic that is listed next to the score in short tables (the first
    /// tie-break's).
    pub fn headline_stat(self) -> usize {
        self.tie_steps().first().map_or(0, |step| step.stat)
    }
}

/// The first registered game.
impl Default for GameKind {
    fn default() -> GameKind {
        GameKind(REGISTRY[0])
    }
}

impl PartialEq for GameKind {
    fn eq(&self, other: &GameKind) -> bool {
        self.id() == other.id()
    }
}

impl Eq for GameKind {}

impl std::hash::Hash for GameKind {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.id().hash(state);
    }
}

/// Registry order.
impl Ord for GameKind {
    fn cmp(&self, other: &GameKind) -> std::cmp::Ordering {
        self.position().cmp(&other.position())
    }
}

impl PartialOrd for GameKind {
    fn partial_cmp(&self, other: &GameKind) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl std::fmt::Debug for GameKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "GameKind({})", self.id())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_unknown_names_list_the_games() {
        for k in GameKind::all() {
            assert_eq!(GameKind::parse(k.id()), Ok(k));
        }
        let err = GameKind::parse("chess").unwrap_err().to_string();
        assert_eq!(
            err,
            "unknown game \"chess\"; the games are: lrs, robotgame, robots, roborally, roborunner"
        );
    }

    #[test]
    fn ids_are_unique_and_every_game_has_a_tie_step() {
        let mut ids: Vec<&str> = GameKind::all().map(GameKind::id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), GameKind::all().count());
        assert!(GameKind::all().all(|k| !k.tie_steps().is_empty()));
    }
}
