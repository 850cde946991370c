//! The 84 program cards with their printed priorities (RR4.1): every card's priority is
//! written on it and no two are equal, so the deck is the table of priorities.
//!
//! A card is named by its place in ascending priority order ([`CardId`]), which is also
//! the order of the deck before the first shuffle.

use crate::games::shared::robo::{Card, Move};

/// Cards in the deck.
pub const DECK_SIZE: usize = 84;

/// A card of the deck: its index in ascending priority order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CardId(pub u8);

/// The moves' printed priority ranges: first, last, step.
const PRINTED: [(Move, u16, u16, u16); 7] = [
    (Move::UTurn, 10, 60, 10),
    (Move::Left, 70, 410, 20),
    (Move::Right, 80, 420, 20),
    (Move::Back, 430, 480, 10),
    (Move::Forward1, 490, 660, 10),
    (Move::Forward2, 670, 780, 10),
    (Move::Forward3, 790, 840, 10),
];

/// Every card in ascending priority order.
pub static DECK: std::sync::LazyLock<[Card; DECK_SIZE]> = std::sync::LazyLock::new(|| {
    let mut cards: Vec<Card> = PRINTED
        .iter()
        .flat_map(|&(mv, first, last, step)| {
            (first..=last)
                .step_by(step as usize)
                .map(move |priority| Card { mv, priority })
        })
        .collect();
    cards.sort_by_key(|c| c.priority);
    cards.try_into().expect("84 printed cards")
});

impl CardId {
    pub fn card(self) -> Card {
        DECK[self.0 as usize]
    }

    /// The card printed with `priority` and `mv`, if the deck has it.
    pub fn printed(mv: Move, priority: u16) -> Option<CardId> {
        DECK.iter()
            .position(|c| c.priority == priority && c.mv == mv)
            .map(|i| CardId(i as u8))
    }
}

/// `F1@490`, as scenarios and replays write a card.
pub fn card_text(card: Card) -> String {
    format!("{}@{}", card.mv.short(), card.priority)
}

/// Reads `F1@490` (any positive priority without leading zeros: scenarios write their
/// own).
pub fn parse_card(text: &str) -> Option<Card> {
    let (mv, priority) = text.split_once('@')?;
    let mv = Move::from_short(mv)?;
    if priority.starts_with('0') || !priority.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let priority: u16 = priority.parse().ok()?;
    Some(Card { mv, priority })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rr4_1_the_printed_deck() {
        assert_eq!(DECK.len(), 84);
        let count = |m: Move| DECK.iter().filter(|c| c.mv == m).count();
        for m in Move::ALL {
            assert_eq!(count(m), m.copies(), "{m:?}");
        }
        let mut p: Vec<u16> = DECK.iter().map(|c| c.priority).collect();
        p.dedup();
        assert_eq!(p.len(), 84);
        assert_eq!(CardId::printed(Move::Forward1, 490), Some(CardId(48)));
        assert_eq!(
            parse_card("F1@490").map(card_text).as_deref(),
            Some("F1@490")
        );
        assert!(parse_card("F1@049").is_none());
        assert!(parse_card("X@10").is_none());
    }
}
