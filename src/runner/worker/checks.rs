//! What a worker checks before it plays a set: that it plays what the tournament was
//! started with. Its engine version and the configuration fingerprint must be the
//! tournament's (checked once, when the worker starts), and each member's bot folder must
//! hold the code the set was dealt with (checked for every set). On a difference the worker
//! refuses the set: it gives it back without a failure, and `status` shows who refused
//! which set for which team, and why.

use super::super::{config_fingerprint, resolve_seed};
use crate::store::{SetToPlay, StoredTournament};
use crate::tourney::dir_hash::dir_hash;
use crate::tourney::model::{Bot, TeamId, Tournament};

/// Why this worker cannot play any set of the tournament, if it cannot: another rules
/// engine, or another configuration than the stored one.
pub(super) fn worker_differs(t: &Tournament, stored: &StoredTournament) -> Option<String> {
    let engine = t.bracket.game.kind().engine_version();
    if engine != stored.engine_version {
        return Some(format!(
            "this worker's rules engine is version {engine}, the tournament's games are played by version {} (run the same lrs-tourney build on every machine)",
            stored.engine_version
        ));
    }
    let seed = resolve_seed(Some(stored), t, "").ok()?;
    let fingerprint = config_fingerprint(t, &seed);
    // Databases from before limits were stored keep their older fingerprint.
    if stored.limits.is_some() && fingerprint != stored.config_hash {
        return Some(format!(
            "this worker's configuration fingerprint is {fingerprint}, the tournament's is {} (run the same lrs-tourney build on every machine)",
            stored.config_hash
        ));
    }
    None
}

/// The first member of `set` whose bot folder here does not hold the code the set was
/// dealt with, and how it differs.
pub(super) fn bot_differs(t: &Tournament, set: &SetToPlay) -> Option<(TeamId, String)> {
    set.members.iter().find_map(|(team, dealt)| {
        let Bot::Command { program, .. } = &t.team(*team).bot else {
            return None;
        };
        let dealt = dealt.as_ref()?;
        let dir = &program.dir;
        let why = match dir_hash(dir) {
            Ok(now) if &now == dealt => return None,
            Ok(now) => format!(
                "its bot folder {} holds other code than the set was dealt with (content hash {dealt} then, {now} here)",
                dir.display()
            ),
            Err(e) => format!("its bot folder {} cannot be read here: {e}", dir.display()),
        };
        Some((*team, why))
    })
}
