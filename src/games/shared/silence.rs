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

impl Silence {
    /// The byte a decision log stores for the silence: 1 timeout, 2 crash, 3 malformed (0
    /// is left for an answer), the same in every game's log.
    pub fn code(self) -> u8 {
        match self {
            Silence::Timeout => 1,
            Silence::Crash => 2,
            Silence::Malformed => 3,
        }
    }

    /// The name a game's events give the fault: `timeout`, `crash`, or `invalid` (an answer
    /// unread or refused), so that traces and scenario output spell faults alike in every
    /// game that names them.
    pub fn fault_name(self) -> &'static str {
        match self {
            Silence::Timeout => "timeout",
            Silence::Crash => "crash",
            Silence::Malformed => "invalid",
        }
    }

    /// The silence stored as `code` ([`Silence::code`]), if it is one.
    pub fn from_code(code: u8) -> Option<Silence> {
        match code {
            1 => Some(Silence::Timeout),
            2 => Some(Silence::Crash),
            3 => Some(Silence::Malformed),
            _ => None,
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_leave_zero_for_an_answer() {
        for s in [Silence::Timeout, Silence::Crash, Silence::Malformed] {
            assert_eq!(Silence::from_code(s.code()), Some(s));
        }
        assert_eq!(Silence::from_code(0), None);
        assert_eq!(Silence::from_code(4), None);
    }
}
