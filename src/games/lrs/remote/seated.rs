//! Defines [`play_lrs_match`]: one game of Last Robot Standing with any mix of players —
//! built-in AIs, JSON-lines programs started for the game, and Windward clients seated by
//! their series — the one place both `lrs-tourney play` and tournament games play it.
//!
//! Remote players are asked concurrently (`bots::drive_game`); their failures are fault
//! replies, so the game always completes.

use crate::bots::JsonlOptions;
use crate::bots::JsonlSeat;
use crate::games::SeatLog;
use crate::games::lrs::ai::{BuiltinAi, FlagDistances};
use crate::games::lrs::engine::{Board, Game, GameConfig, GameError};
use crate::games::lrs::remote::{GameSetup, JsonlPlayer, SeatPlayer, drive_game};
use crate::games::lrs::windward::SeriesSeat;
use std::sync::Arc;

/// Who plays one seat.
#[derive(Clone)]
pub enum LrsSeat {
    Builtin(BuiltinAi),
    /// A program started for this game.
    Jsonl(JsonlSeat),
    /// A Windward client, connected for its whole series.
    Windward(SeriesSeat),
    /// A Windward client that never joined: every query is a crash.
    Absent,
}

/// One game: where, how long, with which seed, who sits where (by seat) and under which
/// limits.
pub struct LrsMatch<'a> {
    pub board: &'a Arc<Board>,
    pub maps: &'a Arc<FlagDistances>,
    pub turn_limit: u16,
    pub seed: u64,
    pub seats: Vec<LrsSeat>,
    /// The players' names by seat, as every bot is told them.
    pub names: Vec<String>,
    pub time_limit_ms: u64,
    pub options: &'a JsonlOptions,
}

/// Plays the match to its end. Returns the finished game and, by seat, the log of each
/// JSON-lines bot (complete: the bots were ended by `game_over`).
pub async fn play_lrs_match(m: LrsMatch<'_>) -> Result<(Game, Vec<Option<SeatLog>>), GameError> {
    let k = m.seats.len();
    let config = GameConfig {
        turn_limit: m.turn_limit,
    };
    let mut game = Game::new(m.board.clone(), k, m.seed, config)?;
    let mut handles = vec![None; k];
    let mut players: Vec<SeatPlayer> = Vec::with_capacity(k);
    for (seat, holder) in m.seats.into_iter().enumerate() {
        players.push(match holder {
            LrsSeat::Builtin(ai) => {
                SeatPlayer::Local(ai.player_with(m.seed, seat, Some(m.maps.clone())))
            }
            LrsSeat::Jsonl(command) => {
                let player = JsonlPlayer::new(command, m.options.clone());
                handles[seat] = Some(player.log_handle());
                SeatPlayer::Remote(Box::new(player))
            }
            LrsSeat::Windward(series) => SeatPlayer::Remote(Box::new(series)),
            LrsSeat::Absent => {
                SeatPlayer::Remote(Box::new(crate::games::lrs::remote::Absent::default()))
            }
        });
    }
    let setups: Vec<GameSetup> = (0..k)
        .map(|seat| GameSetup {
            seat,
            players: m.names.clone(),
            board: m.board.clone(),
            turn_limit: m.turn_limit,
            time_limit_ms: m.time_limit_ms,
        })
        .collect();
    drive_game(&mut game, &mut players, &setups).await?;
    drop(players);
    let logs = handles
        .into_iter()
        .map(|h| h.map(|h| h.lock().unwrap_or_else(|e| e.into_inner()).clone()))
        .collect();
    Ok((game, logs))
}
