//! A game of Robots on the one turn loop of every game whose seats answer each turn at once
//! (`games::jsonl::play_turns`, through `games::shared::seats`): each seat on its own
//! board with the same levels, only the seats still playing asked each turn.
//!
//! The messages are Robots' (`games::robots::protocol`); the life cycle is every JSON-lines
//! bot's ([`crate::games::jsonl::Player`]).

use super::protocol;
use super::{Answer, Game, GameError, Move, Player, Seat};
use crate::games::jsonl::{Reading, Silence};
use crate::games::jsonl::{TurnBased, play_in_process};
use crate::games::shared::answer::answer_text;

/// Plays `game` to its end, `players[s]` answering for seat `s` while it plays: the turn
/// loop with in-process players only.
pub fn run_game<P>(game: &mut Game, players: &mut [P]) -> Result<(), GameError>
where
    P: std::ops::DerefMut<Target = dyn Player + Send>,
{
    play_in_process(&mut Table { game }, players)
}

/// A game of Robots as `play_turns` drives it: each seat is asked about its own board,
/// while it still plays.
pub struct Table<'a> {
    pub(super) game: &'a mut Game,
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
