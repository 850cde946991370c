//! Playing one game of a set on the embedded engine and turning it into a storable record.

use crate::ai::FlagDistances;
use crate::bots::jsonl::split_command;
use crate::bots::process::BotCommand;
use crate::bots::{GameSetup, JsonlOptions, JsonlPlayer, SeatPlayer, drive_game};
use crate::engine::{Board, ENGINE_VERSION, Game, GameConfig, Player, run_game};
use crate::play::summarize_game;
use crate::store::decisions;
use crate::store::{GameRecord, TeamResult};
use crate::tourney::bracket::start_square;
use crate::tourney::model::{Bot, Protocol, TeamId};
use std::sync::Arc;

/// Everything needed to play one game, independent of any other game.
#[derive(Debug, Clone)]
pub struct GameJob {
    pub set_id: String,
    pub run_no: u32,
    pub game_index: u32,
    pub seed: u64,
    pub board: Arc<Board>,
    /// The board's AI maps, shared by all games on it.
    pub maps: Arc<FlagDistances>,
    pub turn_limit: u16,
    /// The set's teams in set position order, with their bots.
    pub teams: Vec<(TeamId, Bot)>,
}

/// Why a game could not be played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameJobError {
    #[error("set {set} game {game}: {reason}")]
    Failed {
        set: String,
        game: u32,
        reason: String,
    },
}

impl GameJob {
    /// The seat (0-based start square) of the team at set position `position`.
    pub fn seat_of(&self, position: usize) -> usize {
        start_square(position, self.game_index as usize, self.teams.len()) - 1
    }

    /// Whether any seat of this game is an external program (played on tokio, not rayon).
    pub fn is_external(&self) -> bool {
        self.teams
            .iter()
            .any(|(_, bot)| matches!(bot, Bot::Command { .. }))
    }

    fn fail(&self, reason: String) -> GameJobError {
        GameJobError::Failed {
            set: self.set_id.clone(),
            game: self.game_index,
            reason,
        }
    }

    fn new_game(&self) -> Result<Game, GameJobError> {
        let config = GameConfig {
            turn_limit: self.turn_limit,
        };
        Game::new(self.board.clone(), self.teams.len(), self.seed, config)
            .map_err(|e| self.fail(e.to_string()))
    }

    /// Plays the game to its end with built-in AIs (on the calling thread).
    pub fn play(&self) -> Result<GameRecord, GameJobError> {
        let k = self.teams.len();
        let mut game = self.new_game()?;
        let mut by_seat: Vec<Option<Box<dyn Player + Send>>> = (0..k).map(|_| None).collect();
        for (position, (_, bot)) in self.teams.iter().enumerate() {
            let seat = self.seat_of(position);
            let player = match bot {
                Bot::Builtin(ai) => ai.player_with(self.seed, seat, Some(self.maps.clone())),
                Bot::Command { command, .. } => {
                    return Err(self.fail(format!(
                        "the command bot `{command}` must be played with play_external"
                    )));
                }
            };
            by_seat[seat] = Some(player);
        }
        let mut players: Vec<Box<dyn Player + Send>> = by_seat.into_iter().flatten().collect();
        if players.len() != k {
            return Err(self.fail("seat rotation left a seat empty".to_string()));
        }
        run_game(&mut game, &mut players).map_err(|e| self.fail(e.to_string()))?;
        Ok(self.record(&game))
    }

    /// Plays the game with its external bots as sandboxed subprocesses (JSON lines),
    /// asking them concurrently; built-in AIs answer in place. Faults never fail the game.
    pub async fn play_external(
        &self,
        options: &JsonlOptions,
        time_limit_ms: u64,
        names: &[String],
    ) -> Result<GameRecord, GameJobError> {
        let k = self.teams.len();
        let mut game = self.new_game()?;
        let mut by_seat: Vec<Option<SeatPlayer>> = (0..k).map(|_| None).collect();
        let mut seat_names = vec![String::new(); k];
        for (position, (team, bot)) in self.teams.iter().enumerate() {
            let seat = self.seat_of(position);
            seat_names[seat] = names.get(*team).cloned().unwrap_or_default();
            by_seat[seat] = Some(match bot {
                Bot::Builtin(ai) => {
                    SeatPlayer::Local(ai.player_with(self.seed, seat, Some(self.maps.clone())))
                }
                Bot::Command {
                    command,
                    dir,
                    protocol: Protocol::Jsonl,
                } => {
                    let argv = split_command(command)
                        .map_err(|e| self.fail(format!("command `{command}`: {e}")))?;
                    SeatPlayer::Remote(Box::new(JsonlPlayer::new(
                        BotCommand {
                            argv,
                            dir: dir.clone(),
                        },
                        options.clone(),
                    )))
                }
                Bot::Command { command, .. } => {
                    return Err(self.fail(format!(
                        "`{command}` is a Windward client; tournaments cannot start those yet"
                    )));
                }
            });
        }
        let mut seats: Vec<SeatPlayer> = by_seat.into_iter().flatten().collect();
        let setups: Vec<GameSetup> = (0..k)
            .map(|seat| GameSetup {
                seat,
                players: seat_names.clone(),
                board: self.board.clone(),
                turn_limit: self.turn_limit,
                time_limit_ms,
            })
            .collect();
        drive_game(&mut game, &mut seats, &setups)
            .await
            .map_err(|e| self.fail(e.to_string()))?;
        Ok(self.record(&game))
    }

    /// The storable record of a finished game.
    fn record(&self, game: &Game) -> GameRecord {
        let k = self.teams.len();
        let seat_of_position: Vec<usize> = (0..k).map(|p| self.seat_of(p)).collect();
        let summary = summarize_game(game, &seat_of_position);
        let results = self
            .teams
            .iter()
            .zip(&summary.per_slot)
            .enumerate()
            .map(|(position, ((team, _), r))| TeamResult {
                team: *team,
                seat: seat_of_position[position],
                score: r.score,
                flags: r.flags,
                hits: r.hits,
                pushes: r.pushes,
                push_kills: r.push_kills,
                deaths: r.deaths,
                faults: r.faults,
                won: r.won,
            })
            .collect();
        GameRecord {
            set_id: self.set_id.clone(),
            run_no: self.run_no,
            game_index: self.game_index,
            engine_version: ENGINE_VERSION,
            turns: u32::from(game.turn()),
            decisions: decisions::encode(game.decisions()),
            results,
        }
    }
}
