//! The tournament's data: schools, teams, bots, the bracket format and the names of stages,
//! rounds and sets.
//!
//! Plain values shared by config parsing, bracket planning, the store and the runner. A
//! team is identified by its index in [`Tournament::teams`] ([`TeamId`]), which follows the
//! order of the configuration, so the same file always gives the same ids. Stages and sets
//! are named by text ids ([`StageId`], [`SetId`]), the keys the store and the command line
//! use.

use crate::games::{BuiltinBot, GameSettings};
use std::fmt;
use std::path::PathBuf;

/// An index id: a `usize` of its own type, so that one kind of index cannot be mixed up
/// with another (a team with a school, a seat or a set position). `Debug`, `Display` and
/// the JSON show the bare number, as messages and stored rows always have.
macro_rules! index_id {
    ($(#[$doc:meta])* $name:ident, $(#[$index_doc:meta])*) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
        #[serde(transparent)]
        pub struct $name(pub usize);

        impl $name {
            $(#[$index_doc])*
            pub fn index(self) -> usize {
                self.0
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Debug::fmt(&self.0, f)
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Display::fmt(&self.0, f)
            }
        }
    };
}

index_id!(
    /// A school: its index in [`Tournament::schools`].
    SchoolId,
    /// The school's index in [`Tournament::schools`].
);

index_id!(
    /// A team: its index in [`Tournament::teams`] and its key in the store.
    TeamId,
    /// The team's index in [`Tournament::teams`] (and in every per-team table).
);

/// A text id: a `String` of its own type that compares, hashes, orders, prints and
/// serializes as its text (so maps keyed by it can be searched with a `&str`, sorting is by
/// text, and `{:?}` in messages shows the quoted text as it always has).
macro_rules! text_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
        #[serde(transparent)]
        pub struct $name(String);

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Debug::fmt(&self.0, f)
            }
        }

        impl $name {
            pub fn new(id: impl Into<String>) -> $name {
                $name(id.into())
            }

            /// The id as stored and shown.
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.pad(&self.0)
            }
        }

        impl From<String> for $name {
            fn from(id: String) -> $name {
                $name(id)
            }
        }

        impl From<&str> for $name {
            fn from(id: &str) -> $name {
                $name(id.to_string())
            }
        }

        impl From<$name> for String {
            fn from(id: $name) -> String {
                id.0
            }
        }

        impl std::borrow::Borrow<str> for $name {
            fn borrow(&self) -> &str {
                &self.0
            }
        }

        impl AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                &self.0
            }
        }

        impl PartialEq<str> for $name {
            fn eq(&self, other: &str) -> bool {
                self.0 == other
            }
        }

        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                self.0 == *other
            }
        }
    };
}

text_id!(
    /// A stage's id: its school's slug, or `nationals` ([`NATIONALS_LABEL`]). It also labels
    /// the stage's sets and seeds its games.
    ///
    /// [`NATIONALS_LABEL`]: crate::tourney::bracket::NATIONALS_LABEL
    StageId
);

text_id!(
    /// A set's id as stored and typed by organisers: `westfield-high/r1/s2`,
    /// `westfield-high/final`, `nationals/r2/s1` (built and parsed in `tourney::bracket`).
    SetId
);

impl StageId {
    /// The nationals stage's id.
    pub fn nationals() -> StageId {
        StageId::new(crate::tourney::bracket::NATIONALS_LABEL)
    }

    /// Whether this is the nationals stage.
    pub fn is_nationals(&self) -> bool {
        self.0 == crate::tourney::bracket::NATIONALS_LABEL
    }
}

/// One run of a set: a rerun stores the set's games again under the next run number and
/// keeps the earlier runs as history.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SetRun {
    pub set: SetId,
    pub run: u32,
}

/// A game of a set's current run, by its index in the series (0-based).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SetGame {
    pub set: SetId,
    pub index: u32,
}

/// How a team's bot talks to the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Protocol {
    /// JSON lines over stdin/stdout (the default).
    Jsonl,
    /// The 2012 Windward TCP/XML clients.
    Windward,
}

impl Protocol {
    /// Every protocol, in the order messages list them.
    pub const ALL: [Protocol; 2] = [Protocol::Jsonl, Protocol::Windward];

    /// The name rosters, `--bot` and the store use.
    pub fn name(self) -> &'static str {
        match self {
            Protocol::Jsonl => "jsonl",
            Protocol::Windward => "windward",
        }
    }

    /// The protocol called `name`, if any.
    pub fn parse(name: &str) -> Option<Protocol> {
        Protocol::ALL.into_iter().find(|p| p.name() == name)
    }

    /// Whether its clients play a whole set over one connection to the run's series host,
    /// rather than a process started for each game.
    pub fn plays_series(self) -> bool {
        matches!(self, Protocol::Windward)
    }
}

/// An external program: its command line as written, the words it is started with (split
/// once, when the configuration or command line is read), and the directory it runs in.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Program {
    pub command: String,
    pub argv: Vec<String>,
    pub dir: PathBuf,
}

/// Why a command line is not a program.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProgramError {
    #[error("the command {command:?} cannot be split into words: {error}")]
    Split {
        command: String,
        error: crate::bots::SplitError,
    },
    #[error("the command is empty")]
    Empty,
}

impl Program {
    /// `command` split into words like a POSIX shell does (quotes and backslashes, no
    /// expansion), to be run in `dir`.
    pub fn parse(command: &str, dir: PathBuf) -> Result<Program, ProgramError> {
        let argv = crate::bots::split_command(command).map_err(|error| ProgramError::Split {
            command: command.to_string(),
            error,
        })?;
        if argv.is_empty() {
            return Err(ProgramError::Empty);
        }
        Ok(Program {
            command: command.to_string(),
            argv,
            dir,
        })
    }
}

/// A team's bot: the one model of a bot, for tournaments, `play` and the store.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Bot {
    /// `builtin:NAME`: a built-in AI of the tournament's game.
    Builtin(BuiltinBot),
    /// A program run in its directory, speaking `protocol`.
    Command {
        program: Program,
        protocol: Protocol,
    },
}

impl Bot {
    /// Whether this bot's protocol plays a whole set over one connection (a series
    /// client: the 2012 Windward clients), rather than a process per game.
    pub fn plays_series(&self) -> bool {
        matches!(self, Bot::Command { protocol, .. } if protocol.plays_series())
    }

    /// The program of an external bot.
    pub fn program(&self) -> Option<&Program> {
        match self {
            Bot::Builtin(_) => None,
            Bot::Command { program, .. } => Some(program),
        }
    }
}

impl fmt::Display for Bot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Bot::Builtin(ai) => write!(f, "{ai}"),
            Bot::Command { program, protocol } => {
                write!(f, "{}:{}", protocol.name(), program.command)
            }
        }
    }
}

/// One team as configured.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Team {
    pub name: String,
    pub school: SchoolId,
    pub bot: Bot,
    /// Where the team was defined (`file:line` or `file row N`), for messages.
    pub origin: String,
}

/// One school and its teams, in configuration order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct School {
    pub name: String,
    /// Short lower-case name used in set ids (`westfield-high/r1/s2`); unique.
    pub slug: String,
    pub teams: Vec<TeamId>,
}

/// The bracket format (`brackets/*.toml`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BracketFormat {
    pub name: String,
    /// Most teams in one set (8).
    pub set_size: usize,
    pub games_per_series: u32,
    /// Teams that advance from each set (2).
    pub advance_per_set: usize,
    pub turns_per_game: u16,
    /// Nationals round 1 is filled with wild cards to a multiple of this (8).
    pub fill_nationals_to_multiple_of: usize,
    /// Board names or paths, cycled game by game (Last Robot Standing; empty for other
    /// games, whose arenas come from their settings).
    pub boards: Vec<String>,
    /// The game the tournament plays, with its settings. Left out of the stored JSON for
    /// Last Robot Standing, so its databases read as they always did.
    #[serde(default, skip_serializing_if = "GameSettings::is_plain_default")]
    pub game: GameSettings,
}

impl Default for BracketFormat {
    /// The Windward Code War format.
    fn default() -> BracketFormat {
        BracketFormat {
            name: "Windward Code War".to_string(),
            set_size: 8,
            games_per_series: 10,
            advance_per_set: 2,
            turns_per_game: 60,
            fill_nationals_to_multiple_of: 8,
            boards: vec![
                "corridor-dash".to_string(),
                "gear-works".to_string(),
                "sinkhole-steps".to_string(),
                "foundry-loop".to_string(),
            ],
            game: GameSettings::default(),
        }
    }
}

/// Limits applied to external bots, and where their Windward clients connect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub time_limit_ms: u64,
    pub start_limit_ms: u64,
    pub memory_mb: u64,
    /// The address the Windward gateway listens on (`[windward] listen`); the 2012 clients
    /// are given its IP and connect to port 1707, hard-coded in them.
    pub windward_listen: std::net::SocketAddr,
    /// Whether bots may start when the machine lacks a protection of the sandbox. Not part
    /// of the fingerprint: it says which machine may run the bots, not how games are played.
    pub sandbox: SandboxMode,
}

/// `[limits] sandbox`: what to do when the machine lacks a protection of the bot sandbox.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum SandboxMode {
    /// Use what the machine allows, and say what is missing (the default).
    #[default]
    BestEffort,
    /// Refuse to start bots unless every protection is active (national finals).
    Strict,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            time_limit_ms: 1000,
            start_limit_ms: 10_000,
            memory_mb: 1024,
            windward_listen: std::net::SocketAddr::from((std::net::Ipv4Addr::LOCALHOST, 1707)),
            sandbox: SandboxMode::BestEffort,
        }
    }
}

/// A validated tournament configuration: everything needed to plan and play.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tournament {
    pub name: String,
    /// The seed written in the file, if any. Without one the first run draws a secret
    /// seed and stores it; every seed of a tournament derives from the stored one
    /// (`tourney::bracket::TournamentSeed`).
    pub seed: Option<u64>,
    pub bracket: BracketFormat,
    /// Where the tournament is stored: an SQLite file or a PostgreSQL database.
    pub database: crate::store::DbLocation,
    pub limits: Limits,
    pub schools: Vec<School>,
    pub teams: Vec<Team>,
    /// The configuration file, for messages.
    pub source: PathBuf,
    /// The roster files the configuration file names.
    pub rosters: Vec<PathBuf>,
}

impl Tournament {
    /// Whether the run has a nationals stage (two or more schools).
    pub fn has_nationals(&self) -> bool {
        self.schools.len() >= 2
    }

    /// Every path of the contest that no bot may see: the tournament file's folder, its
    /// rosters, the database's folder and every team's bot folder. The sandbox covers
    /// those that lie inside a directory bound into a bot's container (an organiser may
    /// keep the contest under /opt); a bot gets its own folder as a copy.
    pub fn contest_paths(&self) -> Vec<PathBuf> {
        let folder = |p: &std::path::Path| match p.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let mut paths = vec![folder(&self.source)];
        paths.extend(self.rosters.iter().cloned());
        if let Some(file) = self.database.as_file() {
            paths.push(folder(file));
        }
        for team in &self.teams {
            if let Bot::Command { program, .. } = &team.bot {
                paths.push(program.dir.clone());
            }
        }
        paths
    }

    /// The team `id` (every `TeamId` of a tournament indexes its teams).
    pub fn team(&self, id: TeamId) -> &Team {
        &self.teams[id.index()]
    }
}

/// A stage: one school's, or the nationals.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Stage {
    School(SchoolId),
    Nationals,
}

/// Where a set sits in the bracket. `round` is 1-based; the final is the stage's last round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SetKey {
    pub stage: Stage,
    pub round: u32,
    /// 1-based index of the set within its round.
    pub set: u32,
}

/// Why a team left a set upwards, or was added to the nationals.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum QualifiedBy {
    /// Among the top of its set; `tie_break` names the step that separated it from the
    /// first team that did not advance, when scores alone did not.
    Top { tie_break: Option<TieBreak> },
    /// Added to nationals round 1 by school-stage total.
    WildCard { tie_break: Option<TieBreak> },
    /// The only team of its school.
    SingleTeam,
}

/// Why a team left a round upwards (or joined a stage without playing), as the
/// advancement table stores it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AdvancementKind {
    /// Among the top of its set.
    Top,
    /// A wild card into the nationals.
    WildCard,
    /// The only team of its school.
    SingleTeam,
}

impl AdvancementKind {
    /// The stored name: `top`, `wildcard`, `single_team`.
    pub fn as_str(self) -> &'static str {
        match self {
            AdvancementKind::Top => "top",
            AdvancementKind::WildCard => "wildcard",
            AdvancementKind::SingleTeam => "single_team",
        }
    }

    pub fn parse(text: &str) -> Option<AdvancementKind> {
        [
            AdvancementKind::Top,
            AdvancementKind::WildCard,
            AdvancementKind::SingleTeam,
        ]
        .into_iter()
        .find(|k| k.as_str() == text)
    }
}

/// The steps of the tie-break chain after the score (tournament rules, in order): games
/// won, the game's own steps (by their position in its chain), the seeded draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TieBreak {
    GamesWon,
    Stat(u8, crate::games::TieStep),
    SeededDraw,
}

impl TieBreak {
    /// The name stored with an advancement (`games_won`, `flags`, `seeded_draw`).
    pub fn name(self) -> &'static str {
        match self {
            TieBreak::GamesWon => "games_won",
            TieBreak::Stat(_, step) => step.name,
            TieBreak::SeededDraw => "seeded_draw",
        }
    }

    /// The step stored as `name` in a tournament whose game breaks ties by `steps` (its
    /// [`crate::games::GameKind::tie_steps`]); `None` for a name it does not know.
    pub fn parse(name: &str, steps: &[crate::games::TieStep]) -> Option<TieBreak> {
        match name {
            "games_won" => Some(TieBreak::GamesWon),
            "seeded_draw" => Some(TieBreak::SeededDraw),
            _ => steps
                .iter()
                .enumerate()
                .find(|(_, step)| step.name == name)
                .map(|(position, step)| TieBreak::Stat(position as u8, *step)),
        }
    }
}

impl std::fmt::Display for TieBreak {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::GameKind;

    #[test]
    fn every_tie_break_reads_back_from_its_stored_name() {
        for kind in GameKind::all() {
            let steps = kind.tie_steps();
            let chain = [TieBreak::GamesWon, TieBreak::SeededDraw]
                .into_iter()
                .chain((0..).zip(steps).map(|(i, step)| TieBreak::Stat(i, *step)));
            for step in chain {
                assert_eq!(TieBreak::parse(step.name(), steps), Some(step), "{kind:?}");
                assert_eq!(step.to_string(), step.name());
            }
            assert_eq!(TieBreak::parse("score", steps), None);
        }
    }
}
