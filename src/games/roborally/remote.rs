//! One game of RoboRally between built-in AIs and external JSON-lines bots, driven by the
//! one turn loop of every game whose seats answer at once (`games::jsonl::play_turns`,
//! through `games::shared::seats`): each round of questions (start squares,
//! re-entries, programs) is one step, and only the seats the engine asks are asked.

use super::ai::Player;
use super::engine::{Game, GameError, Pending, ProgramReply, StartReply};
use super::protocol::{self, Answer};
use crate::games::jsonl::TurnBased;
use crate::games::jsonl::{Reading, Silence};
use crate::games::shared::answer::read_single;

/// A game of RoboRally as `play_turns` drives it: each round of questions is one step.
pub struct Table<'a> {
    pub(super) game: &'a mut Game,
    /// The players' names by seat, for `hello`.
    pub(super) names: &'a [String],
}

impl TurnBased for Table<'_> {
    type Order = Answer;
    type Player = dyn Player + Send;
    type Error = GameError;

    fn max_turns(&self) -> u32 {
        u32::from(self.game.max_turns()) + 1
    }

    fn seats(&self) -> usize {
        self.game.robots().len()
    }

    fn is_over(&self) -> bool {
        self.game.is_over()
    }

    fn hello(&self, seat: usize, time_limit_ms: u64) -> String {
        protocol::hello(self.game, seat, self.names, time_limit_ms).to_string()
    }

    fn queries(&self, bots: &[bool]) -> Vec<Option<(String, u32)>> {
        let mut out = vec![None; bots.len()];
        let turn = u32::from(self.game.turn());
        match self.game.pending() {
            Pending::Start(qs) => {
                for q in qs.iter().filter(|q| bots[q.seat]) {
                    out[q.seat] = Some((protocol::start(self.game, q).to_string(), turn));
                }
            }
            Pending::Program(qs) => {
                for q in qs.iter().filter(|q| bots[q.seat]) {
                    out[q.seat] = Some((protocol::turn(self.game, q).to_string(), turn));
                }
            }
            Pending::Cards | Pending::Over => {}
        }
        out
    }

    fn read(line: &[u8], turn: u32) -> Reading<Vec<Answer>> {
        read_single(line, turn, protocol::read_answer)
    }

    fn act(&self, player: &mut Self::Player, seat: usize, out: &mut Vec<Answer>) {
        match self.game.pending() {
            Pending::Start(qs) => {
                if let Some(q) = qs.iter().find(|q| q.seat == seat)
                    && let StartReply::Choice { at, facing } = player.start(self.game, q)
                {
                    out.push(Answer::Start { at, facing });
                }
            }
            Pending::Program(qs) => {
                if let Some(q) = qs.iter().find(|q| q.seat == seat)
                    && let ProgramReply::Program { cards, power_down } =
                        player.program(self.game, q)
                {
                    out.push(Answer::Program { cards, power_down });
                }
            }
            Pending::Cards | Pending::Over => {}
        }
    }

    fn step(&mut self, answers: &[Result<&[Answer], Silence>]) -> Result<(), GameError> {
        match self.game.pending() {
            Pending::Start(qs) => {
                let replies: Vec<StartReply> = qs
                    .iter()
                    .map(|q| match answers[q.seat] {
                        Ok([Answer::Start { at, facing }]) => StartReply::Choice {
                            at: *at,
                            facing: *facing,
                        },
                        Ok(_) => StartReply::Fault(Silence::Malformed),
                        Err(s) => StartReply::Fault(s),
                    })
                    .collect();
                self.game.answer_start(&replies)
            }
            Pending::Program(qs) => {
                let replies: Vec<ProgramReply> = qs
                    .iter()
                    .map(|q| match answers[q.seat] {
                        Ok([Answer::Program { cards, power_down }]) => ProgramReply::Program {
                            cards: cards.clone(),
                            power_down: *power_down,
                        },
                        Ok(_) => ProgramReply::Fault(Silence::Malformed),
                        Err(s) => ProgramReply::Fault(s),
                    })
                    .collect();
                self.game.answer_program(&replies)
            }
            Pending::Cards | Pending::Over => Ok(()),
        }
    }

    fn refused(&self, seat: usize) -> Option<String> {
        self.game.refusal_of(seat).map(ToString::to_string)
    }

    fn scores(&self) -> Vec<i64> {
        self.game.scores()
    }

    fn game_over(&self) -> String {
        protocol::game_over(self.game).to_string()
    }
}
