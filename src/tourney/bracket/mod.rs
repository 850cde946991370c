//! Bracket planning: dealing sets, ranking and tie-breaks, advancement, wild cards, set ids,
//! game seeds and seats, as pure functions over data.
//!
//! Everything here follows docs/tournament.md and is deterministic: the same tournament
//! seed, roster and results always give the same sets, seats, seeds and advancements,
//! whatever the number of workers or the order games finish. No I/O, no clocks, no global
//! RNG; seeded choices use `crate::rng` ([`GameRng`], [`splitmix64`]) and FNV-1a so they
//! never change with a dependency.
//!
//! - `seeds`: game seeds, the round-one shuffle seed, start squares (formulas in its doc);
//! - `sets`: shuffled round-robin and snake dealing with school separation;
//! - `ranking`: the tie-break chain and the seeded draw;
//! - `stage`: the stage planner, the single source of truth of a stage's rounds;
//! - `nationals`: qualifiers, wild cards and the nationals entry;
//! - `ids`: `westfield-high/r1/s2`-style set ids and their parser;
//! - `driver`: a whole-bracket loop for tests and dry runs.
//!
//! **Invariant:** with a format accepted by [`check_format`] (set size >= 3,
//! 1 <= advance per set <= set size / 2), every set has between 2 and `set_size` teams,
//! the sets of a round differ in size by at most 1, and every round before the final
//! shrinks the field.
//!
//! [`GameRng`]: crate::rng::GameRng
//! [`splitmix64`]: crate::rng::splitmix64

mod driver;
mod ids;
mod nationals;
mod ranking;
mod seeds;
mod sets;
mod stage;

pub use driver::{BracketOutcome, Roster, RosterSchool, simulate_bracket};
pub use ids::{SetAddress, SetPlace, parse_set_id, set_id};
pub use nationals::{NationalsField, nationals_field, wild_card_count, wild_cards};
#[cfg(test)]
pub(crate) use ranking::lrs_totals;
pub use ranking::{
    Ranked, Separation, SeriesTotals, TieDraw, advancing, compare, draw_value, rank, teams_of,
    top_with_reasons,
};
pub use seeds::{
    NATIONALS_LABEL, SeedScheme, TournamentSeed, deal_seed, derive_seed, fnv1a64, game_seed,
    start_square,
};
pub use sets::{
    balanced_sizes, deal_round_one, deal_round_robin, deal_snake, set_count, shuffle_round_one,
    snake_set,
};
pub use stage::{
    PlannedSet, RoundPlan, Seeding, SetPlan, SetResult, StageEntry, StageOutcome, StagePlan,
    plan_stage, round_sizes,
};

use crate::tourney::model::{BracketFormat, SetId, StageId, TeamId};

/// Why a bracket could not be planned.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BracketError {
    #[error("bracket format `{name}`: {reason}")]
    InvalidFormat { name: String, reason: String },
    #[error("stage `{stage}`: team {team} is entered twice")]
    DuplicateEntrant { stage: StageId, team: TeamId },
    /// Stored totals are not for exactly the set's teams (e.g. stale after a rerun).
    #[error("set `{set}`: results are for teams {got:?}, the set holds {expected:?}")]
    ResultsMismatch {
        set: SetId,
        expected: Vec<TeamId>,
        got: Vec<TeamId>,
    },
    #[error("stage `{stage}` is not finished")]
    StageNotFinished { stage: StageId },
    #[error("stage `{stage}` has neither sets to play nor an outcome")]
    Stalled { stage: StageId },
    #[error("`{id}` is not a set id: {reason}")]
    BadSetId { id: String, reason: &'static str },
}

/// Checks that a format gives a sound bracket: `set_size >= 3` (so no set of 1) and
/// `1 <= advance_per_set <= set_size / 2` (so every round before the final shrinks).
pub fn check_format(format: &BracketFormat) -> Result<(), BracketError> {
    let invalid = |reason: String| BracketError::InvalidFormat {
        name: format.name.clone(),
        reason,
    };
    if format.set_size < 3 {
        return Err(invalid(format!(
            "set_size is {}, at least 3 is needed",
            format.set_size
        )));
    }
    if format.advance_per_set == 0 || format.advance_per_set > format.set_size / 2 {
        return Err(invalid(format!(
            "advance_per_set is {}, it must be between 1 and set_size / 2 = {}",
            format.advance_per_set,
            format.set_size / 2
        )));
    }
    Ok(())
}
