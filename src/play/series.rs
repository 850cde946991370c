//! Defines [`SeriesHost`]: bots whose protocol plays a whole set over one connection (a
//! "series protocol"), as the orchestrator sees them. The host listens for the clients of a
//! run, starts each team's client once for all the games of its set, and hands out a
//! [`SeriesSeat`] per game; what the client is told and answers belongs to the game.
//!
//! Last Robot Standing's Windward 2012 clients are the one series protocol today: the host
//! is its gateway. Any other game refuses a series client with a clear error, as its
//! configuration already does.

use crate::bots::JsonlOptions;
use crate::bots::process::BotCommand;
use crate::bots::sandbox::Sandbox;
use crate::games::Arena;
use crate::games::lrs::windward::{SeriesShape, WindwardHost, client_sandbox};
use std::net::SocketAddr;
use std::sync::Arc;

pub use crate::games::lrs::windward::serve::{ServeError, ServeRequest, serve};
pub use crate::games::lrs::windward::{SeriesClient, SeriesClientLog};

/// The game whose bots may speak the series protocol.
pub fn series_game() -> Option<crate::games::GameKind> {
    crate::games::GameKind::all().find(|kind| kind.speaks_windward())
}

/// The port series clients connect to unless told otherwise (the 2012 Windward clients
/// always connect to it).
pub use crate::games::lrs::windward::DEFAULT_PORT as DEFAULT_SERIES_PORT;

/// Where a run's series clients connect, and what starts them.
pub struct SeriesHost {
    windward: WindwardHost,
}

/// A line about a client's join or refusal, for the run's progress output.
pub type SeriesLogger = Arc<dyn Fn(String) + Send + Sync>;

impl SeriesHost {
    /// Listens on `addr`; a client has `startup_ms` (at least 1 s) to join after it
    /// connects. Joins and refusals are handed to `log`, one line each.
    pub async fn bind(
        addr: SocketAddr,
        startup_ms: u64,
        log: SeriesLogger,
    ) -> std::io::Result<SeriesHost> {
        let logger: crate::games::lrs::windward::Logger =
            Arc::new(move |event| log(format!("windward: {event}")));
        let windward = WindwardHost::bind(addr, startup_ms, logger).await?;
        Ok(SeriesHost { windward })
    }

    /// The address the host listens on.
    pub fn local_addr(&self) -> SocketAddr {
        self.windward.local_addr()
    }

    /// The Windward gateway itself (for `check`'s smoke games).
    pub fn windward(&self) -> &WindwardHost {
        &self.windward
    }

    /// Starts the client `command` of team `name` for `games` games in `arena`, and waits
    /// up to the start-up time for it to join. A client that cannot be started or does
    /// not join still gives seats: they answer every query with a crash fault.
    pub async fn start(
        &self,
        arena: &Arena,
        games: u64,
        time_limit_ms: u64,
        command: &BotCommand,
        name: &str,
        options: &JsonlOptions,
    ) -> Result<SeriesClient, String> {
        if !arena.kind().speaks_windward() {
            return Err("only Last Robot Standing has a series protocol (windward)".to_string());
        }
        let shape = SeriesShape {
            games,
            turn_limit: u16::try_from(arena.turn_limit()).unwrap_or(u16::MAX),
            time_limit_ms,
        };
        Ok(self.windward.start(command, name, options, shape).await)
    }

    /// Starts the clients of one series at once, each with its key (a team, a `play`
    /// slot), command and name; see [`SeriesHost::start`]. Every client is started, or
    /// none when the game has no series protocol.
    pub async fn start_all<K>(
        &self,
        arena: &Arena,
        games: u64,
        time_limit_ms: u64,
        options: &JsonlOptions,
        clients: Vec<(K, BotCommand, String)>,
    ) -> Result<Vec<(K, SeriesClient)>, String> {
        let starts = clients.into_iter().map(|(key, command, name)| async move {
            let client = self
                .start(arena, games, time_limit_ms, &command, &name, options)
                .await;
            client.map(|c| (key, c))
        });
        futures_util::future::join_all(starts)
            .await
            .into_iter()
            .collect()
    }
}

/// The sandbox of a series client whose host listens on `port`: `base`, except that the
/// client may connect to that port (and, where the machine allows, nothing else).
pub fn series_client_sandbox(base: &Sandbox, port: u16) -> Sandbox {
    client_sandbox(base, port)
}
