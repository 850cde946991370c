//! Defines [`BotSpec`]: a bot as `play` names it on the command line (`builtin:NAME`,
//! `jsonl:COMMAND` or `windward:COMMAND`), parsed once for the game it plays, and how it
//! takes a seat of that game.

use crate::bots::SplitError;
use crate::bots::process::BotCommand;
use crate::games::{BuiltinBot, GameKind, SeatBot};
use crate::tourney::model::ProgramError;
use std::fmt;
use std::path::PathBuf;
use thiserror::Error;

/// A bot as named on the command line, for one game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BotSpec {
    /// One of the game's built-in AIs.
    Builtin(BuiltinBot),
    /// A program speaking JSON lines (docs/bots.md), started afresh for every game.
    Jsonl(JsonlBot),
    /// A client of the game's series protocol (Last Robot Standing: a 2012 Windward client,
    /// docs/bots.md), started once for all the games and given `<host> <name> <token>`
    /// after its command.
    Windward(JsonlBot),
}

/// An external bot: its command as given, split into words, and the directory it runs
/// from (copied to a scratch directory for every game, or for the series). The same
/// [`Program`](crate::tourney::model::Program) a tournament's command bots are.
pub use crate::tourney::model::Program as JsonlBot;

/// Why a bot spec is not understood.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BotSpecError {
    #[error("unknown built-in AI {name:?} of {game}; expected one of: {expected}")]
    UnknownBuiltin {
        name: String,
        game: &'static str,
        expected: String,
    },
    #[error(
        "bot {spec:?} has no kind; expected builtin:NAME (e.g. builtin:{example}), jsonl:COMMAND or windward:COMMAND"
    )]
    MissingKind { spec: String, example: &'static str },
    #[error(
        "unknown bot kind {kind:?} in {spec:?}; expected builtin:NAME, jsonl:COMMAND or windward:COMMAND"
    )]
    UnknownKind { kind: String, spec: String },
    #[error("bot {spec:?} has an empty command")]
    EmptyCommand { spec: String },
    #[error("bot command {command:?}: {error}")]
    BadCommand { command: String, error: SplitError },
    #[error(
        "windward: does not apply to {game}: it has no series protocol (the 2012 clients play Last Robot Standing)"
    )]
    NoSeriesProtocol { game: &'static str },
}

impl BotSpec {
    /// Parses `builtin:NAME` (an AI of `kind`), `jsonl:COMMAND` or `windward:COMMAND` (a
    /// program run from the current directory; see [`BotSpec::with_dir`]). COMMAND is
    /// split into words like a shell does, without globbing or expansion. A series client
    /// is refused for a game without a series protocol.
    pub fn parse(kind: GameKind, spec: &str) -> Result<BotSpec, BotSpecError> {
        let Some((prefix, rest)) = spec.split_once(':') else {
            return Err(BotSpecError::MissingKind {
                spec: spec.to_string(),
                example: kind.best_builtin(),
            });
        };
        match prefix {
            "builtin" => BuiltinBot::parse(kind, rest)
                .map(BotSpec::Builtin)
                .ok_or_else(|| BotSpecError::UnknownBuiltin {
                    name: rest.to_string(),
                    game: kind.id(),
                    expected: BuiltinBot::names_of(kind),
                }),
            "windward" if !kind.speaks_windward() => {
                Err(BotSpecError::NoSeriesProtocol { game: kind.id() })
            }
            "jsonl" | "windward" => {
                let bot = JsonlBot::parse(rest, PathBuf::from(".")).map_err(|e| match e {
                    ProgramError::Split { command, error } => {
                        BotSpecError::BadCommand { command, error }
                    }
                    ProgramError::Empty => BotSpecError::EmptyCommand {
                        spec: spec.to_string(),
                    },
                })?;
                Ok(if prefix == "jsonl" {
                    BotSpec::Jsonl(bot)
                } else {
                    BotSpec::Windward(bot)
                })
            }
            _ => Err(BotSpecError::UnknownKind {
                kind: prefix.to_string(),
                spec: spec.to_string(),
            }),
        }
    }

    /// The same bot run from `dir` (only external bots have a directory).
    pub fn with_dir(self, dir: impl Into<PathBuf>) -> BotSpec {
        match self {
            BotSpec::Jsonl(bot) => BotSpec::Jsonl(JsonlBot {
                dir: dir.into(),
                ..bot
            }),
            BotSpec::Windward(bot) => BotSpec::Windward(JsonlBot {
                dir: dir.into(),
                ..bot
            }),
            other => other,
        }
    }

    /// The program of an external bot.
    pub fn program(&self) -> Option<&JsonlBot> {
        match self {
            BotSpec::Builtin(_) => None,
            BotSpec::Jsonl(bot) | BotSpec::Windward(bot) => Some(bot),
        }
    }

    /// Whether this bot runs outside the orchestrator.
    pub fn is_external(&self) -> bool {
        self.program().is_some()
    }

    /// Whether this bot is a series client, seated by its series rather than per game.
    pub fn is_series_client(&self) -> bool {
        matches!(self, BotSpec::Windward(_))
    }

    /// The command that starts an external bot.
    pub fn command(&self) -> Option<BotCommand> {
        self.program().map(|bot| BotCommand {
            argv: bot.argv.clone(),
            dir: bot.dir.clone(),
        })
    }

    /// How the bot takes a seat of one game: `None` for a series client, which its series
    /// seats.
    pub fn seat(&self) -> Option<SeatBot> {
        match self {
            BotSpec::Builtin(ai) => Some(SeatBot::Builtin(*ai)),
            BotSpec::Jsonl(_) => self.command().map(|c| SeatBot::External(c.into())),
            BotSpec::Windward(_) => None,
        }
    }
}

impl fmt::Display for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotSpec::Builtin(ai) => write!(f, "{ai}"),
            BotSpec::Jsonl(bot) => write!(f, "jsonl:{}", bot.command),
            BotSpec::Windward(bot) => write!(f, "windward:{}", bot.command),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(id: &str) -> GameKind {
        GameKind::parse(id).unwrap()
    }

    #[test]
    fn one_parser_for_every_game() {
        let lrs = kind("lrs");
        assert_eq!(
            BotSpec::parse(lrs, "builtin:runner").unwrap().to_string(),
            "builtin:runner"
        );
        let err = BotSpec::parse(lrs, "builtin:nope").unwrap_err().to_string();
        assert!(err.contains("unknown built-in AI \"nope\""), "{err}");
        assert!(err.contains("builtin:runner"), "{err}");
        let robots = kind("robots");
        assert!(BotSpec::parse(robots, "builtin:dodger").is_ok());
        assert!(BotSpec::parse(robots, "builtin:runner").is_err());
        let jsonl = BotSpec::parse(robots, "jsonl:python3 'my bot.py'").unwrap();
        assert_eq!(jsonl.program().unwrap().argv, ["python3", "my bot.py"]);
        assert!(matches!(jsonl.seat(), Some(SeatBot::External(_))));
        let client = BotSpec::parse(lrs, "windward:java Main").unwrap();
        assert!(client.is_series_client() && client.seat().is_none());
        let err = BotSpec::parse(kind("robotgame"), "windward:java Main").unwrap_err();
        assert!(
            err.to_string()
                .contains("the 2012 clients play Last Robot Standing")
        );
        assert!(matches!(
            BotSpec::parse(lrs, "jsonl:"),
            Err(BotSpecError::EmptyCommand { .. })
        ));
        assert!(matches!(
            BotSpec::parse(lrs, "runner"),
            Err(BotSpecError::MissingKind { .. })
        ));
    }
}
