//! Defines [`BuiltinBot`]: a built-in AI of some game kind, the one name the orchestrator
//! keeps for `builtin:NAME` bots (rosters, the store, reruns) without knowing how it plays.
//! The game that owns it makes a player of it from its name.

use super::GameKind;
use std::fmt;

/// A built-in AI of one game kind: the game and one of the names of its
/// [`builtin_ais`](crate::games::Game::builtin_ais).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BuiltinBot {
    kind: GameKind,
    name: &'static str,
}

impl BuiltinBot {
    /// The AI of `kind` called `name`, if there is one.
    pub fn parse(kind: GameKind, name: &str) -> Option<BuiltinBot> {
        kind.builtin_ais()
            .into_iter()
            .find(|(known, _)| *known == name)
            .map(|(name, _)| BuiltinBot { kind, name })
    }

    pub fn kind(self) -> GameKind {
        self.kind
    }

    pub fn name(self) -> &'static str {
        self.name
    }

    /// `builtin:a, builtin:b` for messages: the AIs of `kind`.
    pub fn names_of(kind: GameKind) -> String {
        let names: Vec<String> = kind
            .builtin_ais()
            .iter()
            .map(|(name, _)| format!("builtin:{name}"))
            .collect();
        names.join(", ")
    }
}

impl fmt::Display for BuiltinBot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "builtin:{}", self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_per_game() {
        let dodger = BuiltinBot::parse(GameKind::parse("robots").unwrap(), "dodger").unwrap();
        assert_eq!(dodger.kind(), GameKind::parse("robots").unwrap());
        assert_eq!(dodger.to_string(), "builtin:dodger");
        assert_eq!(
            BuiltinBot::parse(GameKind::parse("lrs").unwrap(), "dodger"),
            None
        );
        assert_eq!(
            BuiltinBot::names_of(GameKind::parse("robotgame").unwrap()),
            "builtin:random, builtin:hunter"
        );
    }
}
