//! Defines [`Refusal`]: why the rules refused an answer that was read well (a start square
//! not offered, a program that breaks RR5.1). The engine finds it when it refuses the
//! answer and keeps it for that round ([`Game::refusal_of`](super::Game::refusal_of)), so
//! the reason a bot's author is told is the one the rules applied, found once.

use crate::games::shared::grid::Pos;
use std::fmt;

/// Why the rules refused a seat's answer; shown in words for the bot's author.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// A start or re-entry square that is not one of `options` (RR2.1, RR10.3).
    NotAnOption { at: Pos, options: Vec<Pos> },
    /// A program of `listed` cards where the turn needs `needed`, one per unlocked register.
    Length { listed: usize, needed: usize },
    /// A hand index past the last of a hand of `hand` cards.
    NotInHand { card: u8, hand: usize },
    /// A hand card used twice.
    Twice { card: u8 },
}

impl Refusal {
    /// Why `cards` is not a legal program of `n` registers from a hand of `m` cards (RR5.1:
    /// exactly `n` distinct indices below `m`); `None` for a legal one.
    pub fn of_program(cards: &[u8], n: usize, m: usize) -> Option<Refusal> {
        if cards.len() != n {
            return Some(Refusal::Length {
                listed: cards.len(),
                needed: n,
            });
        }
        if let Some(&card) = cards.iter().find(|&&i| usize::from(i) >= m) {
            return Some(Refusal::NotInHand { card, hand: m });
        }
        cards
            .iter()
            .enumerate()
            .find(|(k, c)| cards[..*k].contains(c))
            .map(|(_, &card)| Refusal::Twice { card })
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::NotAnOption { at, options } => {
                let options: Vec<[i32; 2]> = options.iter().map(|p| [p.x, p.y]).collect();
                write!(
                    f,
                    "the square [{}, {}] is not one of the options {options:?}",
                    at.x, at.y
                )
            }
            Refusal::Length { listed, needed } => write!(
                f,
                "the program lists {listed} card(s); this turn it needs exactly {needed}, one per unlocked register (`free`)"
            ),
            Refusal::NotInHand { card, hand } => write!(
                f,
                "card {card} is not in the hand, whose indices are 0 to {}",
                hand.saturating_sub(1)
            ),
            Refusal::Twice { card } => write!(
                f,
                "card {card} is listed twice: each hand card may be used once"
            ),
        }
    }
}
