//! Defines [`GameKind`]: the games the orchestrator knows, with what each one offers (seats,
//! arenas, built-in AIs, engine version, statistics).
//!
//! One list, so `lrs-tourney games`, `play --game` and scenario files agree on the names and
//! an unknown name is answered with the known ones.

use super::stats::{Better, TieStep};
use thiserror::Error;

/// A game the orchestrator can play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum GameKind {
    /// Last Robot Standing (`crate::engine`).
    #[default]
    Lrs,
    /// RobotGame (`crate::games::robotgame`).
    RobotGame,
    /// Robots (`crate::games::robots`).
    Robots,
}

/// A game name that is not one of [`GameKind::ALL`].
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown game {given:?}; the games are: {}", GameKind::ALL.map(GameKind::id).join(", "))]
pub struct UnknownGame {
    pub given: String,
}

impl GameKind {
    pub const ALL: [GameKind; 3] = [GameKind::Lrs, GameKind::RobotGame, GameKind::Robots];

    /// The name used in files and on the command line.
    pub fn id(self) -> &'static str {
        match self {
            GameKind::Lrs => "lrs",
            GameKind::RobotGame => "robotgame",
            GameKind::Robots => "robots",
        }
    }

    pub fn title(self) -> &'static str {
        match self {
            GameKind::Lrs => "Last Robot Standing",
            GameKind::RobotGame => "RobotGame",
            GameKind::Robots => "Robots",
        }
    }

    pub fn parse(text: &str) -> Result<GameKind, UnknownGame> {
        GameKind::ALL
            .into_iter()
            .find(|k| k.id() == text)
            .ok_or_else(|| UnknownGame {
                given: text.to_string(),
            })
    }

    /// Players in one game.
    pub fn seats(self) -> std::ops::RangeInclusive<usize> {
        match self {
            GameKind::Lrs => crate::engine::MIN_PLAYERS..=crate::engine::MAX_PLAYERS,
            GameKind::RobotGame => 2..=crate::games::robotgame::engine::MAX_SEATS,
            GameKind::Robots => 1..=crate::games::robots::game::MAX_SEATS,
        }
    }

    /// The version of the game's rules implementation, stored with its games.
    pub fn engine_version(self) -> u32 {
        match self {
            GameKind::Lrs => crate::engine::ENGINE_VERSION,
            GameKind::RobotGame => crate::games::robotgame::ENGINE_VERSION,
            GameKind::Robots => crate::games::robots::ENGINE_VERSION,
        }
    }

    /// Where games are played, in one line.
    pub fn arenas(self) -> String {
        match self {
            GameKind::Lrs => {
                let names: Vec<&str> = crate::boards::shipped_boards()
                    .iter()
                    .map(|b| b.file_name.trim_end_matches(".toml"))
                    .collect();
                format!("boards: {} (or a board file)", names.join(", "))
            }
            GameKind::RobotGame => "the 19x19 round arena (225 squares, 48 spawn squares)".into(),
            GameKind::Robots => {
                let s = crate::games::robots::Settings::default();
                format!(
                    "one {}x{} board per seat, the same levels for all",
                    s.width, s.height
                )
            }
        }
    }

    /// The built-in AIs as (name, what it does).
    pub fn builtin_ais(self) -> Vec<(&'static str, &'static str)> {
        match self {
            GameKind::Lrs => crate::ai::BuiltinAi::ALL
                .iter()
                .map(|ai| (ai.name(), ai.summary()))
                .collect(),
            GameKind::RobotGame => crate::games::robotgame::BuiltinAi::ALL
                .iter()
                .map(|ai| (ai.name(), ai.summary()))
                .collect(),
            GameKind::Robots => crate::games::robots::BuiltinAi::ALL
                .iter()
                .map(|ai| (ai.name(), ai.summary()))
                .collect(),
        }
    }

    /// The game's own statistics per seat, after score and wins, in the order of
    /// [`Stats`](super::Stats) (and of the store's `stat_1`.. columns).
    pub fn statistics(self) -> &'static [&'static str] {
        match self {
            GameKind::Lrs => &["flags", "hits", "pushes", "push_kills", "deaths"],
            GameKind::RobotGame => &["damage_dealt", "kills"],
            GameKind::Robots => &["levels_cleared", "kills", "turns"],
        }
    }

    /// Checks one entry of a bracket's arena pool (the `boards` key) for a game whose
    /// sets have up to `seats` teams; `dir` is the bracket file's folder for relative paths
    /// (`None`: the built-in format). Gives the name to store: a shipped arena by its name,
    /// a file by its absolute path. Only Last Robot Standing has an arena pool.
    pub fn pool_entry(
        self,
        entry: &str,
        dir: Option<&std::path::Path>,
        seats: i64,
    ) -> Result<String, super::SettingsProblem> {
        match self {
            GameKind::Lrs => super::lrs::board_entry(entry, dir, seats),
            other => Err(super::SettingsProblem {
                offset: None,
                what: format!("{} has no arena pool", other.title()),
                expected: "no `boards` key".to_string(),
            }),
        }
    }

    /// The arena names the pool accepts, for messages.
    pub fn pool_names(self) -> String {
        match self {
            GameKind::Lrs => super::lrs::shipped_board_names(),
            _ => String::new(),
        }
    }

    /// What a pool entry contributes to a configuration fingerprint: its content, so the
    /// same arena under another path is the same configuration.
    pub fn pool_fingerprint(self, entry: &str) -> String {
        match self {
            GameKind::Lrs => super::lrs::board_fingerprint(entry),
            _ => format!("arena={entry}|"),
        }
    }

    /// Whether two pool entries name the same arena (by name, or by content).
    pub fn same_pool_entry(self, a: &str, b: &str) -> bool {
        match self {
            GameKind::Lrs => super::lrs::same_board(a, b),
            _ => a == b,
        }
    }

    /// The built-in AI that plays the game best (the default of generated tournaments).
    pub fn best_builtin(self) -> &'static str {
        match self {
            GameKind::Lrs => "runner",
            GameKind::RobotGame => "hunter",
            GameKind::Robots => "dodger",
        }
    }

    /// Whether the game's bots may be the 2012 Windward TCP/XML clients (Last Robot
    /// Standing's own protocol) besides JSON-lines programs.
    pub fn speaks_windward(self) -> bool {
        self == GameKind::Lrs
    }

    /// The tie-break steps after series score and games won (and before the seeded draw).
    pub fn tie_steps(self) -> &'static [TieStep] {
        const LRS: [TieStep; 2] = [
            TieStep {
                name: "flags",
                stat: 0,
                better: Better::More,
                noun: "flags",
            },
            TieStep {
                name: "fewer_deaths",
                stat: 4,
                better: Better::Fewer,
                noun: "deaths",
            },
        ];
        const ROBOTGAME: [TieStep; 2] = [
            TieStep {
                name: "damage_dealt",
                stat: 0,
                better: Better::More,
                noun: "damage dealt",
            },
            TieStep {
                name: "kills",
                stat: 1,
                better: Better::More,
                noun: "kills",
            },
        ];
        const ROBOTS: [TieStep; 2] = [
            TieStep {
                name: "levels_cleared",
                stat: 0,
                better: Better::More,
                noun: "levels cleared",
            },
            TieStep {
                name: "kills",
                stat: 1,
                better: Better::More,
                noun: "kills",
            },
        ];
        match self {
            GameKind::Lrs => &LRS,
            GameKind::RobotGame => &ROBOTGAME,
            GameKind::Robots => &ROBOTS,
        }
    }

    /// The statistic that is listed next to the score in short tables (the first
    /// tie-break's).
    pub fn headline_stat(self) -> usize {
        self.tie_steps()[0].stat
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_unknown_names_list_the_games() {
        for k in GameKind::ALL {
            assert_eq!(GameKind::parse(k.id()), Ok(k));
        }
        let err = GameKind::parse("chess").unwrap_err().to_string();
        assert_eq!(
            err,
            "unknown game \"chess\"; the games are: lrs, robotgame, robots"
        );
    }
}
