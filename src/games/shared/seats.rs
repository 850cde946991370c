//! Who sits in the seats of a game, and the seat glue of every game whose seats all answer
//! each turn at once: the same steps in every such game, only the AI type, the engine and
//! how a game is laid on the turn loop differ.
//!
//! A game uses it by implementing [`TurnArena`] for its arena: its built-in AI type (made
//! by `builtin_ais!`, so a [`NamedAi`]) and how one plays a seat, how the arena makes a
//! game, how a game is laid on the turn loop (its `games::jsonl::TurnBased` table), what a
//! finished game scores and how a stored one is replayed. The arena is then the game's
//! `ArenaRules` (implemented here for every `TurnArena`): games are played with
//! [`play_builtin`] (built-in AIs only, on the calling thread) and [`play_match`] (any
//! seats: built-in AIs and JSON-lines bots), and a caller that already holds the seats
//! plays with [`play_seated`]. Last Robot Standing, whose seats answer one by one and may
//! be Windward clients, seats its players itself (`games::lrs::remote`).

use crate::bots::JsonlOptions;
use crate::games::arena::{ArenaRules, Decisions, Match, Played, StoredGame};
use crate::games::jsonl::{Seatholder, TurnBased, play_in_process, play_turns};
use crate::games::shared::ai::NamedAi;
use crate::games::view::Replayed;
use crate::games::{BuiltinBot, GameKind, GameOutcome, SeatBot, SeatLog, SeatOutcome};
use futures_util::future::BoxFuture;

/// An arena of a game played in simultaneous turns, as the seat glue of this module plays
/// it (every `TurnArena` is an `ArenaRules`).
pub trait TurnArena: Send + Sync + 'static {
    /// One of the game's built-in AIs.
    type Ai: NamedAi + Copy + Send + Sync;
    /// The game's in-process player (a trait object).
    type Player: ?Sized + Send;
    /// A game in play.
    type Game: Send;
    /// A game laid on the turn loop, its seats told `names` (by seat) in `hello`.
    type Table<'a>: TurnBased<Player = Self::Player, Error: std::fmt::Display> + Send + Sync;

    /// The game these AIs and arenas belong to.
    fn kind(&self) -> GameKind;
    /// `ai` playing `seat` of a game with `seed`.
    fn player(ai: Self::Ai, seed: u64, seat: usize) -> Box<Self::Player>;
    /// A new game of `seats` seats with `seed` in this arena.
    fn new_game(&self, seats: usize, seed: u64) -> Result<Self::Game, String>;
    /// `game` on the turn loop.
    fn table<'a>(game: &'a mut Self::Game, names: &'a [String]) -> Self::Table<'a>;
    /// A finished game's totals: the turns it lasted, and by seat what each seat scored.
    fn totals(game: &Self::Game) -> (u32, Vec<SeatOutcome>);
    /// The decision log of a game, encoded as stored.
    fn decisions(game: &Self::Game) -> Vec<u8>;
    /// The most turns a game lasts here.
    fn turn_limit(&self) -> u32;
    /// A stored game played again from its seed and decision log alone; damaged bytes are
    /// an error, never a panic or another game.
    fn replayed(&self, game: StoredGame<'_>) -> Result<Self::Game, String>;
    /// A stored game played again for its viewer and `replay`.
    fn replay_for_view(&self, game: StoredGame<'_>) -> Result<Replayed, String>;

    /// What a finished game scores, with its decision log encoded only if `decisions`
    /// keeps it: the one place every such game's outcome is put together.
    fn outcome(&self, game: &Self::Game, decisions: Decisions) -> GameOutcome {
        let (turns, seats) = Self::totals(game);
        GameOutcome {
            engine_version: TurnArena::kind(self).engine_version(),
            turns,
            decisions: match decisions {
                Decisions::Keep => Self::decisions(game),
                Decisions::Skip => Vec::new(),
            },
            seats,
        }
    }
}

impl<T: TurnArena> ArenaRules for T {
    fn kind(&self) -> GameKind {
        TurnArena::kind(self)
    }

    fn turn_limit(&self) -> u32 {
        TurnArena::turn_limit(self)
    }

    fn play_builtin(
        &self,
        seed: u64,
        seats: &[BuiltinBot],
        decisions: Decisions,
    ) -> Result<GameOutcome, String> {
        play_builtin(self, seed, seats, decisions)
    }

    fn play<'a>(&'a self, game: Match<'a>) -> BoxFuture<'a, Result<Played, String>> {
        Box::pin(play_match(self, game))
    }

    fn replay(&self, game: StoredGame<'_>) -> Result<GameOutcome, String> {
        self.replayed(game)
            .map(|game| self.outcome(&game, Decisions::Keep))
    }

    fn replay_for_view(&self, game: StoredGame<'_>) -> Result<Replayed, String> {
        TurnArena::replay_for_view(self, game)
    }
}

/// The name of seat `seat` among `names` (by seat): a seat without one, as in a game of
/// built-in AIs only, is called `seat N` so that every line about it still names it.
pub fn seat_name(names: &[String], seat: usize) -> String {
    names
        .get(seat)
        .cloned()
        .unwrap_or_else(|| format!("seat {seat}"))
}

/// The `players` of a `hello` line: each of `seats` seats by number and name ([`seat_name`]).
pub fn players_json(names: &[String], seats: usize) -> Vec<serde_json::Value> {
    (0..seats)
        .map(|s| serde_json::json!({"seat": s, "name": seat_name(names, s)}))
        .collect()
}

/// The AI `bot` names among the AIs of `kind` (`from_name` reads a name); an AI of another
/// game is refused.
pub fn own_ai<A>(
    bot: &BuiltinBot,
    kind: GameKind,
    from_name: impl Fn(&str) -> Option<A>,
) -> Result<A, String> {
    from_name(bot.name())
        .filter(|_| bot.kind() == kind)
        .ok_or_else(|| format!("{bot} is not a built-in AI of this game"))
}

/// The players of a game whose seats are all built-in AIs: `ai` finds each seat's AI
/// (refusing another game's), `player(ai, seat)` makes it play.
pub fn builtin_players<A, P>(
    seats: &[BuiltinBot],
    ai: impl Fn(&BuiltinBot) -> Result<A, String>,
    player: impl Fn(A, usize) -> P,
) -> Result<Vec<P>, String> {
    seats
        .iter()
        .enumerate()
        .map(|(seat, bot)| Ok(player(ai(bot)?, seat)))
        .collect()
}

/// The seats of a game whose seats all answer each turn at once: built-in AIs of the game
/// (`ai` finds them) and JSON-lines programs; series clients play Last Robot Standing only.
pub fn seatholders<A>(
    seats: Vec<SeatBot>,
    ai: impl Fn(&BuiltinBot) -> Result<A, String>,
) -> Result<Vec<Seatholder<A>>, String> {
    seats
        .into_iter()
        .map(|s| match s {
            SeatBot::Builtin(b) => ai(&b).map(Seatholder::Builtin),
            SeatBot::External(c) => Ok(Seatholder::External(c)),
            SeatBot::Series(_) => Err("Windward clients play Last Robot Standing only".into()),
        })
        .collect()
}

/// Plays a game of `arena` with `seed` between the built-in AIs `seats` (by seat), on the
/// calling thread, and scores it (its decision log encoded as `decisions` says).
pub fn play_builtin<T: TurnArena>(
    arena: &T,
    seed: u64,
    seats: &[BuiltinBot],
    decisions: Decisions,
) -> Result<GameOutcome, String> {
    let mut game = arena.new_game(seats.len(), seed)?;
    let ai = |bot: &BuiltinBot| own_ai(bot, arena.kind(), T::Ai::from_name);
    let mut players = builtin_players(seats, ai, |ai, seat| T::player(ai, seed, seat))?;
    play_in_process(&mut T::table(&mut game, &[]), &mut players).map_err(|e| e.to_string())?;
    Ok(arena.outcome(&game, decisions))
}

/// Plays `game` in `arena` with any seats and scores it; gives, by seat, the log of each
/// JSON-lines bot.
pub async fn play_match<T: TurnArena>(arena: &T, game: Match<'_>) -> Result<Played, String> {
    let seats = seatholders(game.seats, |bot| {
        own_ai(bot, arena.kind(), T::Ai::from_name)
    })?;
    let limit = game.time_limit_ms;
    let (played, logs) =
        play_seated(arena, &seats, game.names, game.seed, limit, game.options).await?;
    Ok((arena.outcome(&played, Decisions::Keep), logs))
}

/// Plays a game of `arena` with `seed` to its end, `seats[s]` holding seat `s` (`names` by
/// seat, as `hello` tells them). Gives the finished game and, by seat, the log of each
/// JSON-lines bot.
pub async fn play_seated<T: TurnArena>(
    arena: &T,
    seats: &[Seatholder<T::Ai>],
    names: &[String],
    seed: u64,
    time_limit_ms: u64,
    options: &JsonlOptions,
) -> Result<(T::Game, Vec<Option<SeatLog>>), String> {
    let mut game = arena.new_game(seats.len(), seed)?;
    let builtin = |ai: &T::Ai, seat: usize| T::player(*ai, seed, seat);
    let logs = {
        let mut table = T::table(&mut game, names);
        let played = play_turns(&mut table, seats, builtin, time_limit_ms, options).await;
        played.map_err(|e| e.to_string())?
    };
    Ok((game, logs))
}
