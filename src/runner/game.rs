//! Playing one game of a set on the embedded engine and turning it into a storable record.

use crate::ai::FlagDistances;
use crate::bots::process::BotCommand;
use crate::bots::windward::{SeriesClient, SeriesSeat, SeriesShape, WindwardHost};
use crate::bots::{GameSetup, JsonlOptions, JsonlPlayer, SeatPlayer, drive_game};
use crate::engine::{Board, ENGINE_VERSION, Game, GameConfig, Player, run_game};
use crate::play::summarize_game;
use crate::store::decisions;
use crate::store::{BotLog, GameRecord, TeamResult};
use crate::tourney::bracket::start_square;
use crate::tourney::model::{Bot, Protocol, TeamId};
use std::collections::HashMap;
use std::sync::Arc;

/// Everything needed to play one game, independent of any other game.
#[derive(Debug, Clone)]
pub struct GameJob {
    /// The game's number in the store (see [`crate::store::PlannedGame`]).
    pub game_no: i64,
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
                Bot::Command { program, .. } => {
                    return Err(self.fail(format!(
                        "the command bot `{}` must be played with play_external",
                        program.command
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

    /// Whether any seat of this game is a Windward client (its games are played as one
    /// series over one connection, see [`play_series`]).
    pub fn has_windward(&self) -> bool {
        self.teams.iter().any(|(_, bot)| bot.is_windward())
    }

    /// Plays the game with its external bots, asking them concurrently; built-in AIs
    /// answer in place. JSON-lines bots are sandboxed subprocesses started for this game;
    /// Windward seats are played by the series' clients in `windward` (by team). Faults
    /// never fail the game.
    pub async fn play_external(
        &self,
        external: &ExternalSetup,
        windward: &HashMap<TeamId, SeriesSeat>,
    ) -> Result<GameRecord, GameJobError> {
        let k = self.teams.len();
        let mut game = self.new_game()?;
        let mut by_seat: Vec<Option<SeatPlayer>> = (0..k).map(|_| None).collect();
        let mut seat_names = vec![String::new(); k];
        let mut logs = Vec::new();
        for (position, (team, bot)) in self.teams.iter().enumerate() {
            let seat = self.seat_of(position);
            seat_names[seat] = external.names.get(*team).cloned().unwrap_or_default();
            by_seat[seat] = Some(match bot {
                Bot::Builtin(ai) => {
                    SeatPlayer::Local(ai.player_with(self.seed, seat, Some(self.maps.clone())))
                }
                Bot::Command {
                    program,
                    protocol: Protocol::Jsonl,
                } => {
                    let player = JsonlPlayer::new(
                        BotCommand {
                            argv: program.argv.clone(),
                            dir: program.dir.clone(),
                        },
                        external.options.clone(),
                    );
                    logs.push((*team, player.log_handle()));
                    SeatPlayer::Remote(Box::new(player))
                }
                Bot::Command {
                    program,
                    protocol: Protocol::Windward,
                } => match windward.get(team) {
                    Some(seat) => SeatPlayer::Remote(Box::new(seat.clone())),
                    None => {
                        return Err(self.fail(format!(
                            "the Windward client `{}` has no series connection",
                            program.command
                        )));
                    }
                },
            });
        }
        let mut seats: Vec<SeatPlayer> = by_seat.into_iter().flatten().collect();
        let setups: Vec<GameSetup> = (0..k)
            .map(|seat| GameSetup {
                seat,
                players: seat_names.clone(),
                board: self.board.clone(),
                turn_limit: self.turn_limit,
                time_limit_ms: external.time_limit_ms,
            })
            .collect();
        drive_game(&mut game, &mut seats, &setups)
            .await
            .map_err(|e| self.fail(e.to_string()))?;
        // The JSON-lines bots were ended by `game_over`: their logs are complete.
        drop(seats);
        let mut record = self.record(&game);
        record.logs = logs
            .into_iter()
            .map(|(team, handle)| {
                let log = handle.lock().unwrap_or_else(|e| e.into_inner()).clone();
                BotLog {
                    team,
                    exit_status: match (&log.spawn_error, &log.exit) {
                        (Some(e), _) => format!("not started: {e}"),
                        (None, Some(exit)) => exit.status.clone(),
                        (None, None) => "unknown".to_string(),
                    },
                    stderr: log.stderr_text(),
                }
            })
            .collect();
        Ok(record)
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
            game_no: self.game_no,
            set_id: self.set_id.clone(),
            run_no: self.run_no,
            game_index: self.game_index,
            engine_version: ENGINE_VERSION,
            turns: u32::from(game.turn()),
            decisions: decisions::encode(game.decisions()),
            results,
            logs: Vec::new(),
        }
    }
}

/// How a run's external bots are played: the tournament's limits, the teams' display
/// names (by team id), and the Windward gateway when some team uses a Windward client.
pub struct ExternalSetup {
    pub options: JsonlOptions,
    pub time_limit_ms: u64,
    pub names: Vec<String>,
    /// Team names alone (by team id): what a Windward client is given as `<team name>`.
    pub team_names: Vec<String>,
    pub windward: Option<WindwardHost>,
}

/// Plays `jobs` (games of one set, in order) as one series: each Windward client of the
/// set is started once, joins once and plays every game over its connection; JSON-lines
/// bots start afresh for each game. `on_game` receives each game as it ends, except the
/// last, which is held back until the clients are ended so that their logs (stderr of
/// the whole series) are stored with it.
pub async fn play_series(
    jobs: &[GameJob],
    external: &ExternalSetup,
    mut on_game: impl FnMut(&GameJob, Result<GameRecord, GameJobError>),
) {
    let Some(first) = jobs.first() else { return };
    let mut clients: Vec<(TeamId, SeriesClient)> = Vec::new();
    if first.has_windward() {
        let Some(host) = &external.windward else {
            for job in jobs {
                on_game(
                    job,
                    Err(job.fail("no Windward gateway is listening for this run".to_string())),
                );
            }
            return;
        };
        let shape = SeriesShape {
            games: jobs.len() as u64,
            turn_limit: first.turn_limit,
            time_limit_ms: external.time_limit_ms,
        };
        let starts = first.teams.iter().filter_map(|(team, bot)| match bot {
            Bot::Command {
                program,
                protocol: Protocol::Windward,
            } => Some((*team, program)),
            _ => None,
        });
        let mut pending = Vec::new();
        for (team, program) in starts {
            let name = external.team_names.get(team).cloned().unwrap_or_default();
            let command = BotCommand {
                argv: program.argv.clone(),
                dir: program.dir.clone(),
            };
            pending.push(async move {
                let client = host.start(&command, &name, &external.options, shape).await;
                (team, client)
            });
        }
        clients = futures_util::future::join_all(pending).await;
    }
    let seats: HashMap<TeamId, SeriesSeat> = clients
        .iter()
        .map(|(team, client)| (*team, client.seat()))
        .collect();
    let mut held: Option<(&GameJob, Result<GameRecord, GameJobError>)> = None;
    for job in jobs {
        let outcome = job.play_external(external, &seats).await;
        if let Some((job, outcome)) = held.replace((job, outcome)) {
            on_game(job, outcome);
        }
    }
    drop(seats);
    let finished = futures_util::future::join_all(
        clients
            .into_iter()
            .map(|(team, client)| async move { (team, client.finish().await) }),
    )
    .await;
    if let Some((job, mut outcome)) = held {
        if let Ok(record) = &mut outcome {
            for (team, log) in finished {
                let mut stderr = log.stderr;
                if !log.joined {
                    stderr.insert_str(0, "[lrs-tourney] the client did not join in time\n");
                }
                record.logs.push(BotLog {
                    team,
                    exit_status: log.status,
                    stderr,
                });
            }
        }
        on_game(job, outcome);
    }
}
