//! A stored decision log read back into a replayed game: the decisions were logged in the
//! order the engine asked for them, so a replay reads them in that same order, one round
//! of questions at a time, and any mismatch means the log belongs to another game.

/// A decision log being read back, round by round.
pub struct DecisionLog<'d, D> {
    next: std::slice::Iter<'d, D>,
}

impl<'d, D> DecisionLog<'d, D> {
    pub fn new(log: &'d [D]) -> DecisionLog<'d, D> {
        DecisionLog { next: log.iter() }
    }

    /// The replies to one round of questions, asked of `seats` in that order: `reply(d,
    /// seat)` is the reply the decision `d` holds if it answers `seat`'s question. A
    /// decision that answers another question, or a log that ends first, is an error.
    pub fn round<R>(
        &mut self,
        seats: impl IntoIterator<Item = usize>,
        reply: impl Fn(&'d D, usize) -> Option<R>,
    ) -> Result<Vec<R>, String> {
        seats
            .into_iter()
            .map(|seat| {
                self.next
                    .next()
                    .and_then(|d| reply(d, seat))
                    .ok_or_else(|| "the decision log is out of step with the game".to_string())
            })
            .collect()
    }

    /// Ends the reading when the game is over: decisions left over are an error.
    pub fn finish(mut self) -> Result<(), String> {
        match self.next.next() {
            Some(_) => Err("the decision log goes on after the game's end".to_string()),
            None => Ok(()),
        }
    }
}
