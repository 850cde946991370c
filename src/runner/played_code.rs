//! Which code each team's bot played a set with, and which teams' code changed since: a
//! rerun from the tournament file plays the bots' folders as they are now, and the audit
//! log and the command say when that is not what the set was played with.
//!
//! A command bot's code is the content hash of its folder (`tourney::dir_hash`), taken
//! when its set is dealt and stored with the set's members; built-in AIs have none.

use crate::tourney::dir_hash::bot_code;
use crate::tourney::model::{Bot, TeamId, Tournament};

/// A team whose bot folder holds other files than when its set was last played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeChange {
    pub team: TeamId,
    /// The team's name and its bot's folder, for messages.
    pub name: String,
    pub dir: String,
    /// The content hash then and now (`None` now: the folder cannot be read).
    pub then: String,
    pub now: Option<String>,
}

impl CodeChange {
    /// One line for the audit log and the command's output.
    pub fn describe(&self) -> String {
        format!(
            "{} ({}): content hash {} then, {} now",
            self.name,
            self.dir,
            self.then,
            self.now.as_deref().unwrap_or("unreadable")
        )
    }
}

/// Each member's code now, in member order.
pub(super) fn members_code(t: &Tournament, members: &[TeamId]) -> Vec<Option<String>> {
    members.iter().map(|&m| bot_code(&t.team(m).bot)).collect()
}

/// The members whose code now differs from what they played with (`played`, by team; a
/// team with no stored hash is not compared).
pub(super) fn changes(
    t: &Tournament,
    played: &[(TeamId, Option<String>)],
    now: &[(TeamId, Option<String>)],
) -> Vec<CodeChange> {
    played
        .iter()
        .filter_map(|(team, then)| {
            let then = then.as_ref()?;
            let now = now.iter().find(|(m, _)| m == team)?.1.clone();
            if now.as_ref() == Some(then) {
                return None;
            }
            let Bot::Command { program, .. } = &t.team(*team).bot else {
                return None;
            };
            Some(CodeChange {
                team: *team,
                name: t.team(*team).name.clone(),
                dir: program.dir.display().to_string(),
                then: then.clone(),
                now,
            })
        })
        .collect()
}
