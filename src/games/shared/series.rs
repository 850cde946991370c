//! The seat rotation of a series of games between built-in AIs: game `g` seats the bot of
//! slot `i` in seat `(i + g) mod n`, so that every bot plays from every seat.

/// The seat of slot `slot` in game `g` of `n` bots.
pub fn seat_of(slot: usize, g: u32, n: usize) -> usize {
    (slot + g as usize) % n
}

/// The bots of `slots` in seat order for game `g`.
pub fn seated<T: Copy>(slots: &[T], g: u32) -> Vec<T> {
    let n = slots.len();
    let mut by_seat = slots.to_vec();
    for (slot, bot) in slots.iter().enumerate() {
        by_seat[seat_of(slot, g, n)] = *bot;
    }
    by_seat
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_rotate_by_one_each_game() {
        assert_eq!(seat_of(0, 1, 3), 1);
        assert_eq!(seat_of(2, 1, 3), 0);
        assert_eq!(seated(&['a', 'b', 'c'], 1), ['c', 'a', 'b']);
    }
}
