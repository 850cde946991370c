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

/// Implements `From<Silence>` for a game's fault kind whose variants include `Timeout`,
/// `Crash` and `Malformed` (each silence is the fault of the same name): a game whose
/// faults name the silences writes `silence_faults!(FaultKind);` beside its enum.
macro_rules! silence_faults {
    ($fault:ident) => {
        impl From<$crate::games::shared::silence::Silence> for $fault {
            fn from(silence: $crate::games::shared::silence::Silence) -> $fault {
                use $crate::games::shared::silence::Silence;
                match silence {
                    Silence::Timeout => $fault::Timeout,
                    Silence::Crash => $fault::Crash,
                    Silence::Malformed => $fault::Malformed,
                }
            }
        }
    };
}
pub(crate) use silence_faults;
