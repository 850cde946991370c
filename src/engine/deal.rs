//! Dealing (R4): shuffle the deck, deal `9 - damage` cards in seat order, lock the last
//! card at damage 9, then draw unique priorities for every card.

use super::cards::{Card, DECK_SIZE, Hand};
use super::game::Game;
use super::query::TurnQuery;
use super::robot::LOCKED_DAMAGE;

impl Game {
    /// Deals this turn's hands into `turn_queries` (empty when nobody is dealt).
    pub(super) fn deal(&mut self) {
        self.turn_queries.clear();
        // R4.2: the whole deck is shuffled every turn, dealt or not, so that the generator
        // is consumed in the same order whatever happens.
        self.rng.partial_shuffle(&mut self.deck, DECK_SIZE);
        let mut top = 0;
        let mut cards = 0;
        for seat in 0..self.robots.len() {
            let robot = &self.robots[seat];
            if !robot.is_operational() {
                continue;
            }
            let mut hand = Hand::default();
            let locked = robot.damage >= LOCKED_DAMAGE;
            if locked {
                // R4.3: the last played card, or one dealt card, locked.
                let mv = robot.last_card.unwrap_or_else(|| {
                    top += 1;
                    self.deck[top - 1]
                });
                hand.push(Card { mv, priority: 0 });
            } else {
                for _ in 0..(LOCKED_DAMAGE - robot.damage) {
                    hand.push(Card {
                        mv: self.deck[top],
                        priority: 0,
                    });
                    top += 1;
                }
            }
            cards += hand.len();
            self.turn_queries.push(TurnQuery { seat, hand, locked });
        }
        // R4.4: unique priorities, drawn without replacement, in seat and hand order.
        self.rng.partial_shuffle(&mut self.priorities, cards);
        let mut next = 0;
        for q in &mut self.turn_queries {
            for card in q.hand.as_mut_slice() {
                card.priority = self.priorities[next];
                next += 1;
            }
        }
    }
}
