//! What every game's built-in AIs share: the generator each seat's AI owns ([`seat_rng`]),
//! the `random` AI's seeded choices ([`RandomAi`]) and the table of a game's AIs by name
//! (`builtin_ais!`).
//!
//! Each AI is deterministic given the game seed and its seat: it owns a generator derived
//! from both, never the engine's, so a game of built-in AIs replays exactly from its seed.

use crate::rng::{GameRng, splitmix64};

/// The generator of the AI in `seat`: independent of the engine's and of other seats'.
/// `salt` is the game's own, so that two games with one seed draw apart.
pub fn seat_rng(game_seed: u64, salt: u64, seat: u64) -> GameRng {
    let mut state = game_seed ^ salt ^ (seat + 1);
    GameRng::new(splitmix64(&mut state))
}

/// `builtin:random` of every game: uniform choices from its seat's generator. Each game
/// implements its `Player` trait on it, choosing among what its rules allow; a choice is
/// one draw, so a game replays the same draws in the same order.
#[derive(Debug, Clone)]
pub struct RandomAi {
    rng: GameRng,
}

impl RandomAi {
    pub fn new(rng: GameRng) -> RandomAi {
        RandomAi { rng }
    }

    /// A uniform index in `0..n` (`n >= 1`).
    pub fn below(&mut self, n: usize) -> usize {
        self.rng.below(n as u32) as usize
    }

    /// One of `choices` (not empty), uniformly.
    pub fn pick<T: Copy>(&mut self, choices: &[T]) -> T {
        choices[self.below(choices.len())]
    }
}

/// A game's built-in AI found by its name (what `builtin:NAME` names), as the seat glue
/// (`games::shared::seats`) finds it; `builtin_ais!` implements it.
pub trait NamedAi: Sized {
    fn from_name(name: &str) -> Option<Self>;
}

/// Defines a game's enum of built-in AIs from one row per AI, `Variant = "name": "summary"`,
/// with `ALL` (in row order), `name` (used in `builtin:NAME`), `summary` (one line for help
/// texts), `from_name` (also as [`NamedAi`]) and `table`.
macro_rules! builtin_ais {
    (
        $(#[$meta:meta])*
        $vis:vis enum $ai:ident {
            $( $(#[$row_meta:meta])* $variant:ident = $name:literal : $summary:expr ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        $vis enum $ai {
            $( $(#[$row_meta])* $variant ),+
        }

        impl $ai {
            pub const ALL: [$ai; [$(stringify!($variant)),+].len()] = [$($ai::$variant),+];

            pub fn name(self) -> &'static str {
                match self {
                    $($ai::$variant => $name),+
                }
            }

            /// One line saying what the AI does, for help texts.
            pub fn summary(self) -> &'static str {
                match self {
                    $($ai::$variant => $summary),+
                }
            }

            pub fn from_name(name: &str) -> Option<$ai> {
                $ai::ALL.into_iter().find(|ai| ai.name() == name)
            }

            /// Every AI as (name, summary), in row order: the game's
            /// [`builtin_ais`](crate::games::Game::builtin_ais).
            pub fn table() -> Vec<(&'static str, &'static str)> {
                $ai::ALL.iter().map(|ai| (ai.name(), ai.summary())).collect()
            }
        }

        impl $crate::games::shared::ai::NamedAi for $ai {
            fn from_name(name: &str) -> Option<$ai> {
                $ai::from_name(name)
            }
        }
    };
}

pub(crate) use builtin_ais;
