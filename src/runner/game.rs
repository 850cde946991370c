//! Playing one game of a set and turning it into a [`PlayedGame`]: each team's line.
//!
//! What game it is stays behind [`Arena`]: every game, with built-in AIs or external bots,
//! is played by its arena, which gives the same [`GameOutcome`] for every kind. What
//! stays here is a set's shape: seats rotating, and a set whose teams include series
//! clients (bots whose protocol plays a whole set over one connection, see
//! [`SeriesHost`]) played as one series: one client and connection per team for all its
//! games.

use crate::bots::process::BotCommand;
use crate::bots::{JsonlOptions, JsonlSeat, KeptBot};
use crate::games::{
    Arena, BuiltinBot, Decisions, GameOutcome, Match, SeatBot, SeatOutcome, SeriesSeat,
};
use crate::play::series::{SeriesClient, SeriesHost};
use crate::tourney::bracket::start_square;
use crate::tourney::model::{Bot, SetGame, SetId, TeamId};
use crate::tourney::played::{BotLog, PlayedGame, TeamResult};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

/// Everything needed to play one game, independent of any other game.
#[derive(Debug, Clone)]
pub struct GameJob {
    pub set_id: SetId,
    pub run_no: u32,
    pub game_index: u32,
    pub seed: u64,
    /// Where the game is played (and, for Last Robot Standing, for how many turns).
    pub arena: Arena,
    /// The set's teams in set position order, with their bots.
    pub teams: Vec<(TeamId, Bot)>,
}

/// Why a game could not be played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameJobError {
    #[error("set {set} game {game}: {reason}")]
    Failed {
        set: SetId,
        game: u32,
        reason: String,
    },
    /// Not begun: the worker playing its set was asked to stop (SIGTERM) first. Not a
    /// failure: another worker plays it.
    #[error("set {set} game {game}: not played (the worker is stopping)")]
    NotPlayed { set: SetId, game: u32 },
}

impl GameJob {
    /// The seat (0-based start square) of the team at set position `position`.
    pub fn seat_of(&self, position: usize) -> usize {
        start_square(position, self.game_index as usize, self.teams.len()) - 1
    }

    /// Which game of which set this is.
    pub fn key(&self) -> SetGame {
        SetGame {
            set: self.set_id.clone(),
            index: self.game_index,
        }
    }

    /// Whether any seat of this game is an external program (played on tokio, not rayon).
    pub fn is_external(&self) -> bool {
        self.teams
            .iter()
            .any(|(_, bot)| matches!(bot, Bot::Command { .. }))
    }

    /// This game failed, for `reason`.
    pub(super) fn fail(&self, reason: String) -> GameJobError {
        GameJobError::Failed {
            set: self.set_id.clone(),
            game: self.game_index,
            reason,
        }
    }

    /// This game was not begun: its player is stopping.
    pub(super) fn not_played(&self) -> GameJobError {
        GameJobError::NotPlayed {
            set: self.set_id.clone(),
            game: self.game_index,
        }
    }

    /// Plays the game to its end with built-in AIs (on the calling thread).
    pub fn play(&self) -> Result<PlayedGame, GameJobError> {
        let k = self.teams.len();
        let mut by_seat: Vec<Option<BuiltinBot>> = vec![None; k];
        for (position, (_, bot)) in self.teams.iter().enumerate() {
            match bot {
                Bot::Builtin(ai) => by_seat[self.seat_of(position)] = Some(*ai),
                Bot::Command { program, .. } => {
                    return Err(self.fail(format!(
                        "the command bot `{}` must be played with play_external",
                        program.command
                    )));
                }
            }
        }
        let by_seat: Vec<BuiltinBot> = by_seat.into_iter().flatten().collect();
        if by_seat.len() != k {
            return Err(self.fail("seat rotation left a seat empty".to_string()));
        }
        let outcome = self
            .arena
            .play_builtin(self.seed, &by_seat, Decisions::Keep)
            .map_err(|e| self.fail(e))?;
        Ok(self.record(outcome))
    }

    /// Whether any seat of this game is a series client (its games are played as one
    /// series over one connection, see [`play_series`]).
    pub fn has_series_client(&self) -> bool {
        self.teams.iter().any(|(_, bot)| bot.plays_series())
    }

    /// Plays the game with its external bots, asking them concurrently; built-in AIs
    /// answer in place. JSON-lines bots are sandboxed subprocesses, started for this game
    /// or kept from the last game of the set in `set`; series clients play the seats of
    /// their teams in `set`. Faults never fail the game.
    pub async fn play_external(
        &self,
        external: &ExternalSetup,
        set: &SetBots,
    ) -> Result<PlayedGame, GameJobError> {
        let k = self.teams.len();
        let mut by_seat: Vec<Option<SeatBot>> = vec![None; k];
        let mut names = vec![String::new(); k];
        let mut team_of_seat = vec![TeamId(0); k];
        for (position, (team, bot)) in self.teams.iter().enumerate() {
            let seat = self.seat_of(position);
            names[seat] = external
                .names
                .get(team.index())
                .cloned()
                .unwrap_or_default();
            team_of_seat[seat] = *team;
            by_seat[seat] = Some(match bot {
                Bot::Builtin(ai) => SeatBot::Builtin(*ai),
                Bot::Command { program, protocol } if protocol.plays_series() => {
                    match set.series.get(team) {
                        Some(seat) => SeatBot::Series(seat.clone()),
                        None => {
                            return Err(self.fail(format!(
                                "the {} client `{}` has no series connection",
                                protocol.name(),
                                program.command
                            )));
                        }
                    }
                }
                Bot::Command { program, .. } => SeatBot::External(JsonlSeat {
                    command: BotCommand {
                        argv: program.argv.clone(),
                        dir: program.dir.clone(),
                    },
                    kept: set.kept.get(team).cloned(),
                }),
            });
        }
        let by_seat: Vec<SeatBot> = by_seat.into_iter().flatten().collect();
        let (outcome, logs) = self
            .arena
            .play(Match {
                seed: self.seed,
                seats: by_seat,
                names: &names,
                time_limit_ms: external.time_limit_ms,
                options: &external.options,
            })
            .await
            .map_err(|e| self.fail(e))?;
        let mut record = self.record(outcome);
        record.logs = logs
            .into_iter()
            .enumerate()
            .filter_map(|(seat, log)| {
                log.map(|log| BotLog {
                    team: team_of_seat[seat],
                    exit_status: log.exit_status(),
                    stderr: log.stored_text(),
                })
            })
            .collect();
        Ok(record)
    }

    /// The finished game: each team's line from its seat's outcome.
    fn record(&self, outcome: GameOutcome) -> PlayedGame {
        let results = self
            .teams
            .iter()
            .enumerate()
            .map(|(position, (team, _))| {
                let seat = self.seat_of(position);
                TeamResult {
                    team: *team,
                    seat,
                    outcome: outcome.seats.get(seat).copied().unwrap_or(SeatOutcome {
                        score: 0,
                        won: false,
                        faults: 0,
                        stats: Default::default(),
                    }),
                }
            })
            .collect();
        PlayedGame {
            set_id: self.set_id.clone(),
            run_no: self.run_no,
            game_index: self.game_index,
            engine_version: outcome.engine_version,
            turns: outcome.turns,
            decisions: outcome.decisions,
            results,
            logs: Vec::new(),
        }
    }
}

/// How a run's external bots are played: the tournament's limits, the teams' display
/// names (by team id), and the series host when some team uses a series client.
pub struct ExternalSetup {
    pub options: JsonlOptions,
    pub time_limit_ms: u64,
    pub names: Vec<String>,
    /// Team names alone (by team id): what a series client is given as its team's name.
    pub team_names: Vec<String>,
    pub series: Option<SeriesHost>,
}

impl ExternalSetup {
    /// How `t`'s external bots are played, with `series` when some team uses a series
    /// client.
    pub fn for_tournament(
        t: &crate::tourney::model::Tournament,
        series: Option<SeriesHost>,
    ) -> ExternalSetup {
        ExternalSetup {
            options: JsonlOptions::for_tournament(t),
            time_limit_ms: t.limits.time_limit_ms,
            names: t
                .teams
                .iter()
                .map(|team| format!("{} ({})", team.name, t.schools[team.school.index()].name))
                .collect(),
            team_names: t.teams.iter().map(|team| team.name.clone()).collect(),
            series,
        }
    }
}

/// What the games of one set, played in order, share: by team, the seat of each series
/// client and the place where each JSON-lines bot's process waits between games.
pub struct SetBots {
    series: HashMap<TeamId, SeriesSeat>,
    kept: HashMap<TeamId, KeptBot>,
}

/// Plays `jobs` (games of one set, in order) as one series: each series client of the
/// set is started once, joins once and plays every game over its connection; a JSON-lines
/// bot is started for its first game and, when it says it plays a whole set, kept for the
/// next (docs/bots.md), else started afresh for each game. Once `stop` is set, the games
/// not begun yet come back unplayed ([`GameJobError::NotPlayed`]). `on_game` receives each
/// game as it ends, except, with series clients, the last, which is held back until the
/// clients are ended so that their logs (stderr of the whole series) are stored with it.
pub async fn play_series(
    jobs: &[GameJob],
    external: &ExternalSetup,
    stop: &AtomicBool,
    mut on_game: impl FnMut(&GameJob, Result<PlayedGame, GameJobError>),
) {
    let Some(first) = jobs.first() else { return };
    let mut clients: Vec<(TeamId, SeriesClient)> = Vec::new();
    if first.has_series_client() {
        let Some(host) = &external.series else {
            for job in jobs {
                on_game(
                    job,
                    Err(job.fail("no series host is listening for this run".to_string())),
                );
            }
            return;
        };
        let starts = first
            .teams
            .iter()
            .filter_map(|(team, bot)| match bot {
                Bot::Command { program, .. } if bot.plays_series() => Some((*team, program)),
                _ => None,
            })
            .map(|(team, program)| {
                let command = BotCommand {
                    argv: program.argv.clone(),
                    dir: program.dir.clone(),
                };
                let name = external.team_names.get(team.index()).cloned();
                (team, command, name.unwrap_or_default())
            })
            .collect();
        let started = host
            .start_all(
                &first.arena,
                jobs.len() as u64,
                external.time_limit_ms,
                &external.options,
                starts,
            )
            .await;
        clients = match started {
            Ok(clients) => clients,
            Err(reason) => {
                for job in jobs {
                    on_game(job, Err(job.fail(reason.clone())));
                }
                return;
            }
        };
    }
    let games = u32::try_from(jobs.len()).unwrap_or(u32::MAX);
    let set = SetBots {
        series: clients
            .iter()
            .map(|(team, client)| (*team, client.series_seat()))
            .collect(),
        kept: first
            .teams
            .iter()
            .filter(|(_, bot)| matches!(bot, Bot::Command { .. }) && !bot.plays_series())
            .map(|(team, _)| (*team, KeptBot::for_games(games)))
            .collect(),
    };
    let mut held: Option<(&GameJob, Result<PlayedGame, GameJobError>)> = None;
    for job in jobs {
        let outcome = if stop.load(Ordering::Relaxed) {
            Err(job.not_played())
        } else {
            job.play_external(external, &set).await
        };
        if clients.is_empty() {
            on_game(job, outcome);
        } else if let Some((job, outcome)) = held.replace((job, outcome)) {
            on_game(job, outcome);
        }
    }
    // A bot still kept: the set stopped before its last game.
    futures_util::future::join_all(set.kept.values().map(KeptBot::end)).await;
    drop(set);
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
