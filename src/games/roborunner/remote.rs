//! One game of Robo Runner between built-in AIs and external JSON-lines bots, driven by the
//! one turn loop of every game whose seats answer at once (`games::jsonl::play_turns`,
//! through `games::shared::seats`): each turn's round of questions is one step, and only
//! the robots dealt are asked.

use super::ai::Player;
use super::engine::{Answer, Game, GameError, Pending, Reply};
use super::protocol;
use crate::games::jsonl::TurnBased;
use crate::games::jsonl::{Reading, Silence};
use crate::games::shared::answer::read_single;

/// A game of Robo Runner as `play_turns` drives it: each turn's round of questions is one
/// step.
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
        u32::from(self.game.rules().turns) + 1
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
        if let Pending::Decisions(qs) = self.game.pending() {
            for q in qs.iter().filter(|q| bots[q.seat]) {
                out[q.seat] = Some((protocol::turn(self.game, q).to_string(), turn));
            }
        }
        out
    }

    fn read(line: &[u8], turn: u32) -> Reading<Vec<Answer>> {
        read_single(line, turn, protocol::read_answer)
    }

    fn act(&self, player: &mut Self::Player, seat: usize, out: &mut Vec<Answer>) {
        if let Pending::Decisions(qs) = self.game.pending()
            && let Some(q) = qs.iter().find(|q| q.seat == seat)
            && let Reply::Answer(a) = player.decide(self.game, q)
        {
            out.push(a);
        }
    }

    fn refused(&self, seat: usize) -> Option<String> {
        self.game.refusal(seat).map(ToString::to_string)
    }

    fn step(&mut self, answers: &[Result<&[Answer], Silence>]) -> Result<(), GameError> {
        let Pending::Decisions(qs) = self.game.pending() else {
            return Ok(());
        };
        let replies: Vec<Reply> = qs
            .iter()
            .map(|q| match answers[q.seat] {
                Ok([a]) => Reply::Answer(a.clone()),
                Ok(_) => Reply::Fault(Silence::Malformed),
                Err(s) => Reply::Fault(s),
            })
            .collect();
        self.game.answer(&replies)
    }

    fn scores(&self) -> Vec<i64> {
        self.game.scores()
    }

    fn game_over(&self) -> String {
        protocol::game_over(self.game).to_string()
    }
}
