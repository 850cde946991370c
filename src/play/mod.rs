//! `play`: many games of the same bots on one board, with per-bot statistics.
//!
//! Game `g` uses seed `seed + g` and rotates the seats, so every bot starts from every start
//! square in turn. Games run on a rayon pool, but each game's outcome depends only on its
//! seed and its bots, and results are folded in game order, so `--jobs` never changes a figure.

mod stats;

pub use stats::{BotStats, GameSummary, summarize_game};

use crate::ai::{BuiltinAi, FlagDistances};
use crate::engine::{
    Board, Game, GameConfig, GameError, MAX_PLAYERS, MIN_PLAYERS, Player, run_game,
};
use rayon::prelude::*;
use std::fmt;
use std::sync::Arc;
use thiserror::Error;

/// A bot as named on the command line (`builtin:NAME`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BotSpec {
    Builtin(BuiltinAi),
}

/// Why a bot spec is not understood.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BotSpecError {
    #[error("unknown built-in AI {name:?}; expected one of: {}", builtin_names())]
    UnknownBuiltin { name: String },
    #[error("bot {spec:?} has no kind; expected builtin:NAME (e.g. builtin:runner)")]
    MissingKind { spec: String },
    #[error("bot kind {kind:?} in {spec:?} is not supported yet; expected builtin:NAME")]
    UnknownKind { kind: String, spec: String },
}

fn builtin_names() -> String {
    BuiltinAi::ALL
        .iter()
        .map(|ai| ai.name())
        .collect::<Vec<_>>()
        .join(", ")
}

impl BotSpec {
    /// Parses `builtin:NAME`.
    pub fn parse(spec: &str) -> Result<BotSpec, BotSpecError> {
        let Some((kind, rest)) = spec.split_once(':') else {
            return Err(BotSpecError::MissingKind {
                spec: spec.to_string(),
            });
        };
        match kind {
            "builtin" => BuiltinAi::from_name(rest)
                .map(BotSpec::Builtin)
                .ok_or_else(|| BotSpecError::UnknownBuiltin {
                    name: rest.to_string(),
                }),
            _ => Err(BotSpecError::UnknownKind {
                kind: kind.to_string(),
                spec: spec.to_string(),
            }),
        }
    }

    fn player(
        &self,
        game_seed: u64,
        seat: usize,
        maps: &Arc<FlagDistances>,
    ) -> Box<dyn Player + Send> {
        match self {
            BotSpec::Builtin(ai) => ai.player_with(game_seed, seat, Some(maps.clone())),
        }
    }
}

impl fmt::Display for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotSpec::Builtin(ai) => write!(f, "builtin:{}", ai.name()),
        }
    }
}

/// A checked request to play games.
#[derive(Debug, Clone)]
pub struct PlayOptions {
    pub board: Arc<Board>,
    /// One entry per bot, in command-line order (the bot's index is its "slot").
    pub bots: Vec<BotSpec>,
    pub games: u32,
    pub seed: u64,
    pub config: GameConfig,
}

/// Why games cannot be played as asked.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PlayError {
    #[error("a game needs {MIN_PLAYERS} to {MAX_PLAYERS} bots, got {0}")]
    BotCount(usize),
    #[error("board {board:?} has {starts} start squares, too few for {bots} bots")]
    NotEnoughStarts {
        board: String,
        starts: usize,
        bots: usize,
    },
    #[error("--games must be at least 1")]
    NoGames,
    #[error("cannot start worker threads: {0}")]
    Threads(String),
    #[error("game with seed {seed} failed: {source}")]
    Game { seed: u64, source: GameError },
}

impl PlayOptions {
    /// Checks that the bots fit the board before any game starts.
    pub fn validate(&self) -> Result<(), PlayError> {
        let n = self.bots.len();
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&n) {
            return Err(PlayError::BotCount(n));
        }
        if self.board.starts().len() < n {
            return Err(PlayError::NotEnoughStarts {
                board: self.board.name().to_string(),
                starts: self.board.starts().len(),
                bots: n,
            });
        }
        if self.games == 0 {
            return Err(PlayError::NoGames);
        }
        Ok(())
    }

    /// The seat of bot `slot` in game `g`: seats rotate by one each game.
    pub fn seat_of(&self, slot: usize, g: u32) -> usize {
        (slot + g as usize) % self.bots.len()
    }
}

/// Plays one game (index `g`) and summarises it per bot slot; `maps` are the board's AI
/// maps, shared by all games.
pub fn play_one(
    opts: &PlayOptions,
    g: u32,
    maps: &Arc<FlagDistances>,
) -> Result<GameSummary, PlayError> {
    let seed = opts.seed.wrapping_add(u64::from(g));
    let k = opts.bots.len();
    let mut game = Game::new(opts.board.clone(), k, seed, opts.config)
        .map_err(|source| PlayError::Game { seed, source })?;
    // players[seat]: the bot whose rotation puts it in that seat.
    let mut by_seat: Vec<Option<Box<dyn Player + Send>>> = (0..k).map(|_| None).collect();
    for (slot, bot) in opts.bots.iter().enumerate() {
        let seat = opts.seat_of(slot, g);
        by_seat[seat] = Some(bot.player(seed, seat, maps));
    }
    let mut players: Vec<Box<dyn Player + Send>> = by_seat.into_iter().flatten().collect();
    run_game(&mut game, &mut players).map_err(|source| PlayError::Game { seed, source })?;
    let seat_of_slot: Vec<usize> = (0..k).map(|slot| opts.seat_of(slot, g)).collect();
    Ok(summarize_game(&game, &seat_of_slot))
}

/// Plays every game on up to `jobs` threads and returns the per-bot totals in slot order.
pub fn play(opts: &PlayOptions, jobs: usize) -> Result<Vec<BotStats>, PlayError> {
    opts.validate()?;
    let maps = Arc::new(FlagDistances::new(&opts.board));
    let run = || -> Result<Vec<GameSummary>, PlayError> {
        (0..opts.games)
            .into_par_iter()
            .map(|g| play_one(opts, g, &maps))
            .collect()
    };
    let summaries = if jobs == 1 {
        (0..opts.games)
            .map(|g| play_one(opts, g, &maps))
            .collect::<Result<Vec<_>, _>>()?
    } else {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(jobs)
            .build()
            .map_err(|e| PlayError::Threads(e.to_string()))?;
        pool.install(run)?
    };
    let mut totals: Vec<BotStats> = opts
        .bots
        .iter()
        .map(|b| BotStats::new(b.to_string()))
        .collect();
    for summary in &summaries {
        for (slot, stats) in totals.iter_mut().enumerate() {
            stats.add(&summary.per_slot[slot]);
        }
    }
    Ok(totals)
}
