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

#[cfg(test)]
mod tests {
    use super::super::board::{Board, Square, Tile};
    use super::super::cards::{Move, PRIORITY_COUNT};
    use super::super::game::{Game, GameConfig, MAX_PLAYERS};
    use super::super::robot::{Power, Status};
    use std::collections::HashSet;
    use std::sync::Arc;

    /// A bare 8x2 floor: starts S1..S8 on the first row, F1 on the second.
    fn board() -> Arc<Board> {
        let mut squares = vec![Square::FLOOR; 16];
        for (i, sq) in squares.iter_mut().take(MAX_PLAYERS).enumerate() {
            sq.start = Some(i as u8 + 1);
        }
        squares[8].tile = Tile::Flag(1);
        Arc::new(Board::new("deal", "", 8, 2, squares).unwrap())
    }

    fn game(players: usize, seed: u64) -> Game {
        Game::new(board(), players, seed, GameConfig::default()).unwrap()
    }

    /// The cards R4.2 deals a robot at `damage` below 9.
    fn dealt(damage: u8) -> usize {
        9 - usize::from(damage)
    }

    #[test]
    fn r4_2_hand_size_is_nine_minus_damage() {
        for damage in 0..=8u8 {
            for seed in 0..8 {
                let mut g = game(MAX_PLAYERS, seed);
                for r in &mut g.robots {
                    r.damage = damage;
                }
                g.deal();
                assert_eq!(g.turn_queries.len(), MAX_PLAYERS);
                for q in &g.turn_queries {
                    assert_eq!(q.hand.len(), dealt(damage), "damage {damage}");
                    assert!(!q.locked, "damage {damage} is not locked");
                }
            }
        }
    }

    #[test]
    fn r4_2_seats_are_dealt_in_order_from_the_top_of_the_deck() {
        let damages = [0u8, 3, 8, 1, 5, 0, 7, 2];
        for seed in 0..16 {
            let mut g = game(MAX_PLAYERS, seed);
            for (r, &d) in g.robots.iter_mut().zip(&damages) {
                r.damage = d;
            }
            g.deal();
            let seats: Vec<usize> = g.turn_queries.iter().map(|q| q.seat).collect();
            assert_eq!(seats, (0..MAX_PLAYERS).collect::<Vec<_>>());
            // The shuffled deck stays in `deck`: hands are consecutive runs from its top.
            let mut top = 0;
            for q in &g.turn_queries {
                let n = dealt(damages[q.seat]);
                let moves: Vec<Move> = q.hand.as_slice().iter().map(|c| c.mv).collect();
                assert_eq!(moves, g.deck[top..top + n].to_vec(), "seat {}", q.seat);
                top += n;
            }
        }
    }

    #[test]
    fn r4_2_destroyed_dead_and_powered_down_robots_get_nothing() {
        for seed in 0..16 {
            let mut g = game(MAX_PLAYERS, seed);
            g.robots[1].status = Status::Destroyed;
            g.robots[2].status = Status::Dead;
            g.robots[2].lives = 0;
            g.robots[3].power = Power::Down(3);
            g.robots[4].power = Power::Down(1);
            // Announced robots power down at the end of the turn: they still play this one.
            g.robots[5].power = Power::Announced;
            g.robots[6].damage = 4;
            g.deal();
            let seats: Vec<usize> = g.turn_queries.iter().map(|q| q.seat).collect();
            assert_eq!(seats, vec![0, 5, 6, 7]);
            let sizes: Vec<usize> = g.turn_queries.iter().map(|q| q.hand.len()).collect();
            assert_eq!(sizes, vec![9, 9, 5, 9]);
            // Skipped seats take nothing from the deck either.
            let mut top = 0;
            for q in &g.turn_queries {
                let moves: Vec<Move> = q.hand.as_slice().iter().map(|c| c.mv).collect();
                assert_eq!(moves, g.deck[top..top + q.hand.len()].to_vec());
                top += q.hand.len();
            }
        }
    }

    #[test]
    fn r4_2_nobody_dealt_gives_no_queries() {
        let mut g = game(2, 7);
        g.robots[0].power = Power::Down(2);
        g.robots[1].status = Status::Destroyed;
        g.deal();
        assert!(g.turn_queries.is_empty());
    }

    #[test]
    fn r4_3_damage_nine_gets_one_locked_card() {
        for seed in 0..16 {
            let mut g = game(3, seed);
            g.robots[0].damage = 9;
            g.robots[0].last_card = Some(Move::UTurn);
            g.robots[1].damage = 9;
            g.robots[1].last_card = None;
            g.deal();
            let q = &g.turn_queries;
            assert_eq!(q.len(), 3);
            // The last played card, not taken from the deck.
            assert!(q[0].locked);
            assert_eq!(q[0].hand.len(), 1);
            assert_eq!(q[0].hand.as_slice()[0].mv, Move::UTurn);
            // No last card: one card from the top of the deck, locked too.
            assert!(q[1].locked);
            assert_eq!(q[1].hand.len(), 1);
            assert_eq!(q[1].hand.as_slice()[0].mv, g.deck[0]);
            assert!(!q[2].locked);
            let moves: Vec<Move> = q[2].hand.as_slice().iter().map(|c| c.mv).collect();
            assert_eq!(moves, g.deck[1..10].to_vec());
        }
    }

    #[test]
    fn r4_4_priorities_are_unique_multiples_of_ten() {
        let damages = [0u8, 9, 4, 0, 8, 9, 1, 0];
        for seed in 0..64 {
            let mut g = game(MAX_PLAYERS, seed);
            for (r, &d) in g.robots.iter_mut().zip(&damages) {
                r.damage = d;
            }
            g.robots[1].last_card = Some(Move::Forward3);
            let mut seen = HashSet::new();
            let mut cards = 0;
            for turn in 0..3 {
                g.deal();
                seen.clear();
                cards = 0;
                for q in &g.turn_queries {
                    for c in q.hand.as_slice() {
                        assert_eq!(c.priority % 10, 0, "seed {seed} turn {turn}: {c:?}");
                        assert!(
                            (10..=10 * PRIORITY_COUNT as u16).contains(&c.priority),
                            "seed {seed} turn {turn}: {c:?}"
                        );
                        assert!(
                            seen.insert(c.priority),
                            "seed {seed} turn {turn}: priority {} twice (locked: {})",
                            c.priority,
                            q.locked
                        );
                        cards += 1;
                    }
                }
            }
            assert_eq!(cards, 9 + 1 + 5 + 9 + 1 + 1 + 8 + 9);
        }
    }

    #[test]
    fn r4_4_every_priority_can_be_drawn() {
        // Drawn from all of 10..=990, not a fixed subset: over many deals each value shows up.
        let mut seen = HashSet::new();
        for seed in 0..64 {
            let mut g = game(MAX_PLAYERS, seed);
            g.deal();
            seen.extend(
                g.turn_queries
                    .iter()
                    .flat_map(|q| q.hand.as_slice().iter().map(|c| c.priority)),
            );
        }
        let all: HashSet<u16> = (1..=PRIORITY_COUNT as u16).map(|i| 10 * i).collect();
        assert_eq!(seen, all);
    }
}
