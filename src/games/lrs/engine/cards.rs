//! Program cards: the seven moves, the 84-card deck (R4.1) and hands with priorities (R4.4).

pub use crate::games::shared::robo::{Card, Motion, Move};

/// What only Last Robot Standing asks of a move: its Windward names.
impl Move {
    /// The Windward protocol name (`FORWARD_TWO`, `ROTATE_LEFT`, ...).
    pub fn windward(self) -> &'static str {
        match self {
            Move::UTurn => "ROTATE_UTURN",
            Move::Left => "ROTATE_LEFT",
            Move::Right => "ROTATE_RIGHT",
            Move::Back => "BACKWARD_ONE",
            Move::Forward1 => "FORWARD_ONE",
            Move::Forward2 => "FORWARD_TWO",
            Move::Forward3 => "FORWARD_THREE",
        }
    }

    /// Parses a Windward protocol name.
    pub fn from_windward(s: &str) -> Option<Move> {
        Move::ALL.into_iter().find(|m| m.windward() == s)
    }
}

/// Number of cards in the deck (R4.1).
pub const DECK_SIZE: usize = 84;
/// Most cards in one hand (`9 - damage` at damage 0, R4.2).
pub const MAX_HAND: usize = 9;
/// Priorities are drawn from 10, 20, ..., 990 (R4.4).
pub const PRIORITY_COUNT: usize = 99;

/// The deck in its fixed initial order (R4.1 order), before the turn's shuffle.
pub fn fresh_deck() -> [Move; DECK_SIZE] {
    let mut deck = [Move::UTurn; DECK_SIZE];
    let mut i = 0;
    for m in Move::ALL {
        for _ in 0..m.copies() {
            deck[i] = m;
            i += 1;
        }
    }
    deck
}

/// A hand of at most nine cards, stored inline so dealing never allocates.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Hand {
    cards: [Card; MAX_HAND],
    len: u8,
}

impl Default for Hand {
    fn default() -> Hand {
        Hand {
            cards: [Card {
                mv: Move::UTurn,
                priority: 0,
            }; MAX_HAND],
            len: 0,
        }
    }
}

impl Hand {
    pub fn push(&mut self, card: Card) {
        self.cards[self.len as usize] = card;
        self.len += 1;
    }

    pub fn as_slice(&self) -> &[Card] {
        &self.cards[..self.len as usize]
    }

    pub(crate) fn as_mut_slice(&mut self) -> &mut [Card] {
        &mut self.cards[..self.len as usize]
    }

    pub fn len(&self) -> usize {
        self.len as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn get(&self, i: usize) -> Option<Card> {
        self.as_slice().get(i).copied()
    }
}

impl std::fmt::Debug for Hand {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn r4_1_the_deck_has_84_cards_in_the_given_mix() {
        let deck = fresh_deck();
        assert_eq!(deck.len(), 84);
        let count = |m| deck.iter().filter(|c| **c == m).count();
        assert_eq!(count(Move::UTurn), 6);
        assert_eq!(count(Move::Left), 18);
        assert_eq!(count(Move::Right), 18);
        assert_eq!(count(Move::Back), 6);
        assert_eq!(count(Move::Forward1), 18);
        assert_eq!(count(Move::Forward2), 12);
        assert_eq!(count(Move::Forward3), 6);
    }

    #[test]
    fn short_and_windward_names_round_trip() {
        for m in Move::ALL {
            assert_eq!(Move::from_short(m.short()), Some(m));
            assert_eq!(Move::from_windward(m.windward()), Some(m));
        }
    }
}
