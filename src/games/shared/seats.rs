//! Who sits in the seats of a game: a game's built-in AIs found from the orchestrator's
//! [`BuiltinBot`]s, and the seats of the games whose seats all answer each turn at once.
//! The same steps in every game; only the AI type and how it becomes a player differ.

use crate::games::jsonl::Seatholder;
use crate::games::{BuiltinBot, GameKind, SeatBot};

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
