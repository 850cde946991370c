//! Defines [`Arena`]: where and how long the games of a tournament are played, made by the
//! game kind from its settings and an arena name, and the one way the orchestrator plays,
//! replays and views a game of any kind ([`ArenaRules`], implemented by each game in its
//! folder).

use super::view::Replayed;
use super::{BuiltinBot, GameKind, GameOutcome, GameSettings, SeatBot, SeatLog};
use crate::bots::JsonlOptions;
use futures_util::future::BoxFuture;
use std::sync::Arc;

/// An external game's result: the outcome and, by seat, the log of each JSON-lines bot
/// started for the game (series clients keep theirs for their series).
pub type Played = (GameOutcome, Vec<Option<SeatLog>>);

/// One game to play: its seed, who sits where, what every bot is told the players are
/// called, and the limits external bots answer under.
pub struct Match<'a> {
    pub seed: u64,
    /// By seat.
    pub seats: Vec<SeatBot>,
    /// The players' names by seat.
    pub names: &'a [String],
    pub time_limit_ms: u64,
    pub options: &'a JsonlOptions,
}

/// A played game as the store keeps it: enough to play it again without its bots.
#[derive(Debug, Clone, Copy)]
pub struct StoredGame<'a> {
    /// Players in the game.
    pub seats: usize,
    pub seed: u64,
    /// The encoded decision log ([`GameOutcome::decisions`]).
    pub decisions: &'a [u8],
}

/// Whether a played game's outcome carries its decision log ([`GameOutcome::decisions`]).
/// Encoding the log is a share of a game's time, which a caller that keeps only the totals
/// (`play` without `--replay`) need not pay.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decisions {
    /// The log, encoded as stored: to store the game, replay it or compare it.
    Keep,
    /// The scores and statistics alone: `decisions` may be left empty (a game whose log
    /// costs nothing to keep may keep it).
    Skip,
}

/// One arena of one game kind with the rules to play games in it: what each game
/// implements for the orchestrator. Every method is a pure function of its arguments and
/// the bots' answers, so a game is the same wherever and whenever it is played.
pub trait ArenaRules: Send + Sync + 'static {
    fn kind(&self) -> GameKind;

    /// The most turns a game lasts here.
    fn turn_limit(&self) -> u32;

    /// Plays a game whose seats are all built-in AIs, on the calling thread; its outcome
    /// carries the encoded decision log as `decisions` says.
    fn play_builtin(
        &self,
        seed: u64,
        seats: &[BuiltinBot],
        decisions: Decisions,
    ) -> Result<GameOutcome, String>;

    /// Plays the game `game` asks for, with any seats.
    fn play<'a>(&'a self, game: Match<'a>) -> BoxFuture<'a, Result<Played, String>>;

    /// Plays a stored game again from its seed and decision log alone (no bot); damaged
    /// bytes are an error, never a panic or another game.
    fn replay(&self, game: StoredGame<'_>) -> Result<GameOutcome, String>;

    /// A stored game played again for its viewer and `replay`.
    fn replay_for_view(&self, game: StoredGame<'_>) -> Result<Replayed, String>;
}

/// A handle to one arena of one game kind: cheap to clone and share between threads.
#[derive(Clone)]
pub struct Arena(Arc<dyn ArenaRules>);

impl Arena {
    pub fn new(rules: impl ArenaRules) -> Arena {
        Arena(Arc::new(rules))
    }

    /// The arena stored as `name` in a tournament playing `game` (`turns`: the bracket's
    /// `turns_per_game`, for games with an arena pool).
    pub fn load(game: &GameSettings, name: &str, turns: u16) -> Result<Arena, String> {
        game.kind().game().load_arena(game, name, turns)
    }

    /// The arena names a tournament's games cycle through, game `g` on `pool[g % len]`:
    /// the bracket's pool (`boards`) for games that have one, else the one arena the
    /// settings describe.
    pub fn pool(game: &GameSettings, boards: &[String]) -> Vec<String> {
        game.kind().game().arena_pool(game, boards)
    }

    pub fn rules(&self) -> &dyn ArenaRules {
        &*self.0
    }
}

impl std::ops::Deref for Arena {
    type Target = dyn ArenaRules;

    fn deref(&self) -> &(dyn ArenaRules + 'static) {
        &*self.0
    }
}

impl std::fmt::Debug for Arena {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Arena({}, {} turns)",
            self.kind().id(),
            self.turn_limit()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arena_of(kind: GameKind) -> Arena {
        let settings = GameSettings::default_for(kind);
        let pool = Arena::pool(&settings, &["gear-works".to_string()]);
        Arena::load(&settings, &pool[0], 60).unwrap()
    }

    /// Every game replays from its stored bytes to the same outcome; damaged bytes are an
    /// error, never a panic or a different game.
    #[test]
    fn games_of_every_kind_replay_from_their_stored_decisions() {
        for kind in GameKind::all() {
            let arena = arena_of(kind);
            let ais: Vec<BuiltinBot> = kind
                .builtin_ais()
                .iter()
                .map(|(name, _)| BuiltinBot::parse(kind, name).unwrap())
                .collect();
            let seats: Vec<BuiltinBot> = (0..4).map(|s| ais[s % ais.len()]).collect();
            let played = arena.play_builtin(77, &seats, Decisions::Keep).unwrap();
            assert_eq!(played.engine_version, kind.engine_version());
            let stored = |decisions| StoredGame {
                seats: seats.len(),
                seed: 77,
                decisions,
            };
            let replayed = arena.replay(stored(&played.decisions)).unwrap();
            assert_eq!(replayed, played, "{kind:?}");
            let viewed = arena.replay_for_view(stored(&played.decisions)).unwrap();
            let scores: Vec<i64> = played.seats.iter().map(|s| s.score).collect();
            assert_eq!(viewed.scores(), scores, "{kind:?}");
            let cut = &played.decisions[..played.decisions.len() - 1];
            assert!(arena.replay(stored(cut)).is_err(), "{kind:?}");
            let mut longer = played.decisions.clone();
            longer.push(0);
            assert!(arena.replay(stored(&longer)).is_err(), "{kind:?}");
        }
    }

    /// A game played for its totals alone (`play` without `--replay`) scores as the same
    /// game played to be kept, and a kept game's decision log is the bytes it always was
    /// (pinned by their SHA-256).
    #[test]
    fn skipping_the_decision_log_changes_no_total_and_keeping_it_no_byte() {
        use sha2::{Digest, Sha256};
        let pinned = [
            (
                "lrs",
                "c91f93ac56652aa5ca1698b5279b02d1e829fc654769d7cef685622680ff83eb",
            ),
            (
                "robotgame",
                "96daad47f45eec49c0b8190145d80b0f39b28f5dfbdbae9fc89c10b545983c28",
            ),
            (
                "robots",
                "65dd31015f2a02b079bfd1d3be36c7c225d1a2edcf8c9baa9e171c277f873932",
            ),
            (
                "roborally",
                "5f140d14ce1a605a2010636e9906f42f327530b7b431ac0c66874e32a0ff5fc8",
            ),
            (
                "roborunner",
                "0efd0ffac11b0429695be0dc6368b6a948ec6adaa3b1506b76cb8693c423af89",
            ),
        ];
        for (id, digest) in pinned {
            let kind = GameKind::parse(id).unwrap();
            let arena = arena_of(kind);
            let ais = kind.builtin_ais();
            let seats: Vec<BuiltinBot> = (0..3)
                .map(|s| BuiltinBot::parse(kind, ais[s % ais.len()].0).unwrap())
                .collect();
            let kept = arena.play_builtin(5, &seats, Decisions::Keep).unwrap();
            let totals = arena.play_builtin(5, &seats, Decisions::Skip).unwrap();
            assert_eq!(
                (totals.engine_version, totals.turns, &totals.seats),
                (kept.engine_version, kept.turns, &kept.seats),
                "{id}"
            );
            let hex: String = Sha256::digest(&kept.decisions)
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect();
            assert_eq!(hex, digest, "{id}");
        }
    }

    /// A built-in AI of one game cannot sit at another's table.
    #[test]
    fn another_games_ai_is_refused() {
        let kinds: Vec<GameKind> = GameKind::all().collect();
        let stranger = BuiltinBot::parse(kinds[1], kinds[1].builtin_ais()[0].0).unwrap();
        let err = arena_of(kinds[0])
            .play_builtin(1, &[stranger, stranger], Decisions::Keep)
            .unwrap_err();
        assert!(err.contains("builtin:"), "{err}");
    }
}
