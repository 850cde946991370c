//! Defines [`Silence`]: why a seat answered nothing usable in a turn, the same three ways in
//! every game that takes answers in turns. What the seat then does is its game's rule.

/// Why a seat answered nothing usable at all.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Silence {
    Timeout,
    Crash,
    /// The answer could not be read, or broke the game's rules for an answer's form.
    Malformed,
}
