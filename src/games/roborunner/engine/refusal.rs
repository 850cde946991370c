//! Defines [`Refusal`]: why the rules refused an answer that was read well (RN6.2, RN12.2).
//! The engine finds it when it refuses the answer and keeps it for that turn
//! ([`Game::refusal`](super::Game::refusal)), so the reason a bot's author is told is the one
//! the rules applied, as RoboRally's engine does.

use super::{Answer, Move, Query};
use std::fmt;

/// Why the rules refused a seat's answer; shown in words for the bot's author.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// A program of `sent` chips where `free` registers are unlocked.
    Length { sent: usize, free: usize },
    /// `chip` played more often than `hand` holds it.
    Overused { chip: Move, hand: Vec<Move> },
    /// An activation of `phases` that is not phases 1 to 5 each once, or costs more than
    /// the `ammo` held.
    Activation { phases: Vec<u8>, ammo: u8 },
}

impl Refusal {
    /// RN6.2: why `a`'s program is not one hand chip per unlocked register of `q` (a
    /// sub-multiset of the hand); `None` for a legal one.
    pub fn of_program(q: &Query, a: &Answer) -> Option<Refusal> {
        if a.program.len() != q.free {
            return Some(Refusal::Length {
                sent: a.program.len(),
                free: q.free,
            });
        }
        let mut counts = [0u8; 7];
        for m in &q.hand {
            counts[*m as usize] += 1;
        }
        for m in &a.program {
            let c = &mut counts[*m as usize];
            if *c == 0 {
                return Some(Refusal::Overused {
                    chip: *m,
                    hand: q.hand.clone(),
                });
            }
            *c -= 1;
        }
        None
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Length { sent, free } => write!(
                f,
                "the program has {sent} chip(s) but {free} register(s) are unlocked: send one chip per register whose `locked` entry is null"
            ),
            Refusal::Overused { chip, hand } => {
                let hand: Vec<&str> = hand.iter().map(|m| m.short()).collect();
                write!(
                    f,
                    "{} is played more often than it is in the hand ({}): each hand chip can be played once",
                    chip.short(),
                    hand.join(" ")
                )
            }
            Refusal::Activation { phases, ammo } => write!(
                f,
                "the activation {phases:?} is refused: phases 1 to 5, each once, costing no more than the {ammo} ammo held"
            ),
        }
    }
}
