//! Defines [`play_game`]: one game of Robots between built-in AIs and external JSON-lines
//! bots, each seat on its own board with the same levels.
//!
//! The messages are Robots' (`games::robots::protocol`); the life cycle is every JSON-lines
//! bot's ([`crate::games::jsonl::Player`]). Only the seats still playing are asked each turn.

use super::protocol;
use super::{Answer, BuiltinAi, Game, GameError, Move, Player, Seat, Settings, Setup};
use crate::bots::JsonlOptions;
use crate::games::SeatLog;
use crate::games::jsonl::{Reading, Silence};
use crate::games::jsonl::{TurnBased, play_in_process, play_turns};
use crate::games::shared::answer::answer_text;

/// Who plays a seat.
pub type Seatholder = crate::games::jsonl::Seatholder<BuiltinAi>;

/// Plays one game of `seats.len()` players with `seed`. Returns the finished game and, by
/// seat, the log of each external bot.
pub async fn play_game(
    seats: &[Seatholder],
    seed: u64,
    settings: Settings,
    time_limit_ms: u64,
    options: &JsonlOptions,
) -> Result<(Game, Vec<Option<SeatLog>>), GameError> {
    let mut game = Game::new(&Setup {
        seats: seats.len() as u8,
        seed,
        settings,
    })?;
    let mut table = Table { game: &mut game };
    let builtin = |ai: &BuiltinAi, s: usize| ai.player(seed, Seat(s as u8));
    let logs = play_turns(&mut table, seats, builtin, time_limit_ms, options).await?;
    Ok((game, logs))
}

/// Plays `game` to its end, `players[s]` answering for seat `s` while it plays: the loop
/// of [`play_game`] with in-process players only.
pub fn run_game<P>(game: &mut Game, players: &mut [P]) -> Result<(), GameError>
where
    P: std::ops::DerefMut<Target = dyn Player + Send>,
{
    play_in_process(&mut Table { game }, players)
}

/// A game of Robots as [`play_turns`] drives it: each seat is asked about its own board,
/// while it still plays.
struct Table<'a> {
    game: &'a mut Game,
}

impl TurnBased for Table<'_> {
    type Order = Move;
    type Player = dyn Player + Send;
    type Error = GameError;

    fn max_turns(&self) -> u32 {
        self.game.max_turns()
    }

    fn seats(&self) -> usize {
        usize::from(self.game.seats())
    }

    fn is_over(&self) -> bool {
        self.game.is_over()
    }

    fn hello(&self, seat: usize, time_limit_ms: u64) -> String {
        let seat = Seat(seat as u8);
        protocol::hello(seat, self.game.board(seat), time_limit_ms).to_string()
    }

    fn queries(&self, bots: &[bool]) -> Vec<Option<(String, u32)>> {
        bots.iter()
            .enumerate()
            .map(|(s, &bot)| {
                let seat = Seat(s as u8);
                (bot && self.game.playing(seat)).then(|| {
                    let board = self.game.board(seat);
                    (protocol::turn(board).to_string(), board.turns() + 1)
                })
            })
            .collect()
    }

    fn read(line: &[u8], turn: u32) -> Reading<Vec<Move>> {
        read(line, turn)
    }

    fn act(&self, player: &mut Self::Player, seat: usize, out: &mut Vec<Move>) {
        let seat = Seat(seat as u8);
        if self.game.playing(seat) {
            player.act(self.game.board(seat), out);
        }
    }

    fn step(&mut self, answers: &[Result<&[Move], Silence>]) -> Result<(), GameError> {
        let answers: Vec<Answer<'_>> = answers
            .iter()
            .map(|a| match *a {
                Ok(moves) => Answer::Moves(moves),
                Err(silence) => Answer::Silent(silence),
            })
            .collect();
        self.game.step(&answers)
    }

    fn scores(&self) -> Vec<i64> {
        self.game.scores()
    }
}

/// What a Robots bot's line is for turn `turn`: an answer naming another turn is a late
/// one (discarded, as for every JSON-lines bot), anything else unreadable is malformed.
fn read(line: &[u8], turn: u32) -> Reading<Vec<Move>> {
    let text = match answer_text(line, turn) {
        Ok(text) => text,
        Err(reading) => return reading,
    };
    let mut moves = Vec::new();
    match protocol::read_answer(text, turn, &mut moves) {
        Ok(()) => Reading::Answer(moves),
        Err(_) => Reading::Malformed(protocol::why_malformed(text, turn)),
    }
}
