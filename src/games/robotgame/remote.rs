//! Defines [`play_game`]: one RobotGame between built-in AIs and external JSON-lines bots,
//! each bot a sandboxed process started for the game.
//!
//! The messages are RobotGame's (`games::robotgame::protocol`); the life cycle, deadlines
//! and faults are those of every JSON-lines bot: `hello` is not awaited; each turn wants one
//! line before the deadline (the first one also gets the start-up allowance); a late
//! answer is never used for a later turn; a bot that exits is silent for the rest of the
//! game, which goes on.

use super::engine::TURNS;
use super::protocol;
use super::{Answer, BuiltinAi, Command, FaultKind, Game, GameError, Player, Seat};
use crate::bots::JsonlOptions;
use crate::games::SeatLog;
use crate::games::jsonl::{Reading, Silence};
use crate::games::jsonl::{TurnBased, play_in_process};
use crate::games::shared::seats::play_seated;

/// Who plays a seat.
pub type Seatholder = crate::games::jsonl::Seatholder<BuiltinAi>;

/// Plays one game of `seats.len()` players with `seed`; `names` by seat go into `hello`.
/// Returns the finished game and, by seat, the log of each external bot.
pub async fn play_game(
    seats: &[Seatholder],
    names: &[String],
    seed: u64,
    time_limit_ms: u64,
    options: &JsonlOptions,
) -> Result<(Game, Vec<Option<SeatLog>>), String> {
    let arena = super::play::RobotGameArena;
    play_seated(&arena, seats, names, seed, time_limit_ms, options).await
}

/// Plays `game` to its end, `players[s]` answering for seat `s`: the loop of
/// [`play_game`] with in-process players only.
pub fn run_game<P>(game: &mut Game, players: &mut [P]) -> Result<(), GameError>
where
    P: std::ops::DerefMut<Target = dyn Player + Send>,
{
    play_in_process(&mut Table { game, names: &[] }, players)
}

/// A RobotGame as `play_turns` drives it: every seat is asked every turn, with the same
/// `turn` line.
pub struct Table<'a> {
    pub(super) game: &'a mut Game,
    /// The teams' names by seat, for `hello`.
    pub(super) names: &'a [String],
}

impl TurnBased for Table<'_> {
    type Order = Command;
    type Player = dyn Player + Send;
    type Error = GameError;

    fn max_turns(&self) -> u32 {
        u32::from(TURNS)
    }

    fn seats(&self) -> usize {
        usize::from(self.game.seats())
    }

    fn is_over(&self) -> bool {
        self.game.is_over()
    }

    fn hello(&self, seat: usize, time_limit_ms: u64) -> String {
        protocol::hello(Seat(seat as u8), self.names, time_limit_ms)
    }

    fn queries(&self, bots: &[bool]) -> Vec<Option<(String, u32)>> {
        if !bots.contains(&true) {
            return vec![None; bots.len()];
        }
        let line = protocol::turn(self.game);
        let turn = u32::from(self.game.turn());
        bots.iter()
            .map(|&bot| bot.then(|| (line.clone(), turn)))
            .collect()
    }

    fn read(line: &[u8], turn: u32) -> Reading<Vec<Command>> {
        match protocol::read_answer(line, u8::try_from(turn).unwrap_or(u8::MAX)) {
            protocol::Reading::Answer(commands) => match protocol::first_dropped_entry(line) {
                Some(why) => Reading::Flawed(commands, why),
                None => Reading::Answer(commands),
            },
            protocol::Reading::OtherTurn(_) => Reading::OtherTurn,
            protocol::Reading::Malformed(why) => Reading::Malformed(why.to_string()),
        }
    }

    fn act(&self, player: &mut Self::Player, seat: usize, out: &mut Vec<Command>) {
        player.act(self.game, Seat(seat as u8), out);
    }

    fn refused(&self, seat: usize) -> Option<String> {
        let (robot, kind) = self.game.fault_of(Seat(seat as u8))?;
        let robot = robot.map_or_else(|| "a robot".to_string(), |id| format!("robot {id}"));
        Some(match kind {
            FaultKind::Missing => format!(
                "{robot} of yours got no action, so it guarded: give each of your robots one action every turn"
            ),
            FaultKind::NotOwnRobot => {
                format!("{robot} is another seat's robot: its action was ignored")
            }
            FaultKind::UnknownRobot => {
                format!("{robot} is dead or does not exist: its action was ignored")
            }
            FaultKind::BadTarget => format!(
                "{robot}'s target is not next to it (up, down, left or right), is off the arena or is an obstacle, so it guarded"
            ),
            FaultKind::Duplicate => format!("{robot} got two actions, so it guarded"),
            FaultKind::Timeout | FaultKind::Crash | FaultKind::Malformed => return None,
        })
    }

    fn step(&mut self, answers: &[Result<&[Command], Silence>]) -> Result<(), GameError> {
        let answers: Vec<Answer<'_>> = answers
            .iter()
            .map(|a| match *a {
                Ok(commands) => Answer::Actions(commands),
                Err(silence) => Answer::Silent(silence),
            })
            .collect();
        self.game.step(&answers).map(|_| ())
    }

    fn scores(&self) -> Vec<i64> {
        self.game.scores().into_iter().map(i64::from).collect()
    }
}
