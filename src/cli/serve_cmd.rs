//! `lrs-tourney serve`: a stand-alone game server of the series protocol (Windward) for
//! students testing their client from an IDE. It waits for `--players` clients to join (any
//! password; first come, first seated), fills the other seats with built-in AIs, plays the
//! games, prints the scores and exits. The arguments become a [`ServeRequest`]; the server
//! is the protocol's ([`crate::play::series`]).

use super::CliError;
use crate::play::BotSpec;
use crate::play::series::{DEFAULT_SERIES_PORT, ServeError, ServeRequest, series_game};
use clap::Args;
use std::net::{SocketAddr, ToSocketAddrs};

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Shipped board name (see `lrs-tourney boards`) or path to a board .toml file.
    #[arg(long)]
    board: String,
    /// Clients to wait for; they take seats 1.. in the order they join.
    #[arg(long, default_value_t = 2)]
    players: usize,
    /// TCP port to listen on (the sample clients use 1707; 0 picks a free port).
    #[arg(long, default_value_t = DEFAULT_SERIES_PORT)]
    port: u16,
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// Games to play over the same connections; game g uses seed S+g.
    #[arg(long, default_value_t = 1)]
    games: u32,
    /// Seed of the first game.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Turns per game.
    #[arg(long, default_value_t = 60)]
    turns: u16,
    /// Allow 1000 s per answer instead of 1 s (stepping through a client in a debugger).
    #[arg(long)]
    debug: bool,
    /// A built-in AI for one more seat after the clients: builtin:random, builtin:runner or
    /// builtin:hunter. Repeat to fill several seats.
    #[arg(long = "bot", value_name = "SPEC")]
    bots: Vec<String>,
}

/// The address to listen on.
fn listen_addr(host: &str, port: u16) -> Result<SocketAddr, CliError> {
    (host, port)
        .to_socket_addrs()
        .map_err(|e| CliError::input(format!("--host {host}: {e}")))?
        .next()
        .ok_or_else(|| CliError::input(format!("--host {host}: no address")))
}

pub async fn run(args: ServeArgs) -> Result<(), CliError> {
    let game = series_game().ok_or_else(|| CliError::input("no game has a series protocol"))?;
    let bots = args
        .bots
        .iter()
        .map(|s| match BotSpec::parse(game, s) {
            Ok(BotSpec::Builtin(ai)) => Ok(ai),
            Ok(_) => Err(CliError::input(format!(
                "--bot {s}: serve fills seats with built-in AIs only (builtin:NAME)"
            ))),
            Err(e) => Err(CliError::input(format!("--bot {s}: {e}"))),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let request = ServeRequest {
        addr: listen_addr(&args.host, args.port)?,
        board: args.board,
        players: args.players,
        games: args.games,
        seed: args.seed,
        turns: args.turns,
        debug: args.debug,
        bots,
    };
    crate::play::series::serve(request)
        .await
        .map_err(|e| match e {
            ServeError::Input(e) => CliError::input(e),
            ServeError::Failure(e) => CliError::failure(e),
        })
}
