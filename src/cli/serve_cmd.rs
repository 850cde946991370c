//! `lrs-tourney serve`: a stand-alone Windward game server for students testing their
//! client from an IDE. It waits for `--players` clients to join (any password; first come,
//! first seated), fills the other seats with built-in AIs, plays the games, prints the scores
//! and exits.

use super::CliError;
use crate::games::GameKind;
use crate::games::lrs::ai::BuiltinAi;
use crate::games::lrs::boards::load_board;
use crate::games::lrs::engine::{EventKind, Game, GameConfig, MAX_PLAYERS, MIN_PLAYERS};
use crate::games::lrs::remote::{GameSetup, SeatPlayer, drive_game};
use crate::games::lrs::stats::summarize_game;
use crate::games::lrs::windward::{
    DEBUG_TIME_LIMIT, DEFAULT_PORT, DEFAULT_TIME_LIMIT, Gateway, GatewayConfig, GatewayEvent,
};
use crate::play::BotSpec;
use clap::Args;
use std::net::{SocketAddr, ToSocketAddrs};
use std::sync::Arc;

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Shipped board name (see `lrs-tourney boards`) or path to a board .toml file.
    #[arg(long)]
    board: String,
    /// Clients to wait for; they take seats 1.. in the order they join.
    #[arg(long, default_value_t = 2)]
    players: usize,
    /// TCP port to listen on (the sample clients use 1707; 0 picks a free port).
    #[arg(long, default_value_t = DEFAULT_PORT)]
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
    let board = load_board(&args.board).map_err(CliError::input)?;
    let lrs = GameKind::of(&crate::games::lrs::kind::Lrs);
    let bots = args
        .bots
        .iter()
        .map(|s| match BotSpec::parse(lrs, s) {
            Ok(BotSpec::Builtin(ai)) => BuiltinAi::from_name(ai.name())
                .ok_or_else(|| CliError::input(format!("--bot {s}: not an AI of lrs"))),
            Ok(_) => Err(CliError::input(format!(
                "--bot {s}: serve fills seats with built-in AIs only (builtin:NAME)"
            ))),
            Err(e) => Err(CliError::input(format!("--bot {s}: {e}"))),
        })
        .collect::<Result<Vec<BuiltinAi>, _>>()?;
    if args.players == 0 {
        return Err(CliError::input("--players must be at least 1"));
    }
    let seats = args.players + bots.len();
    if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&seats) {
        return Err(CliError::input(format!(
            "a game needs {MIN_PLAYERS} to {MAX_PLAYERS} seats; --players {} and {} --bot make {seats}",
            args.players,
            bots.len()
        )));
    }
    if board.starts().len() < seats {
        return Err(CliError::input(format!(
            "board {:?} has {} start squares, too few for {seats} seats",
            board.name(),
            board.starts().len()
        )));
    }
    if args.games == 0 {
        return Err(CliError::input("--games must be at least 1"));
    }
    if args.turns == 0 {
        return Err(CliError::input("--turns must be at least 1"));
    }
    let addr = listen_addr(&args.host, args.port)?;
    serve(args, board, bots, addr).await
}

async fn serve(
    args: ServeArgs,
    board: Arc<crate::games::lrs::engine::Board>,
    bots: Vec<BuiltinAi>,
    addr: SocketAddr,
) -> Result<(), CliError> {
    let config = GatewayConfig {
        addr,
        open_lobby: true,
        // First joins are printed below with their seat; everything else goes to stderr.
        logger: Arc::new(|event: &GatewayEvent| {
            if !matches!(
                event,
                GatewayEvent::Joined {
                    reconnect: false,
                    ..
                }
            ) {
                eprintln!("windward: {event}");
            }
        }),
        ..GatewayConfig::default()
    };
    let gateway = Gateway::bind(config)
        .await
        .map_err(|e| CliError::failure(format!("cannot listen on {addr}: {e}")))?;
    let time_limit = if args.debug {
        DEBUG_TIME_LIMIT
    } else {
        DEFAULT_TIME_LIMIT
    };
    println!(
        "listening on {} (board {}, {} game(s), {} s per answer)",
        gateway.local_addr(),
        board.name(),
        args.games,
        time_limit.as_secs()
    );
    println!(
        "waiting for {} client(s) to join; any password is accepted",
        args.players
    );
    let mut names = Vec::new();
    let mut seats = Vec::new();
    while seats.len() < args.players {
        let Some(mut client) = gateway.next_open_join().await else {
            return Err(CliError::failure(
                "the lobby closed before every client joined",
            ));
        };
        let seat = seats.len();
        let (name, peer) = match client.join_info() {
            Some(info) if !info.name.is_empty() => (info.name.clone(), info.peer.to_string()),
            Some(info) => (format!("client {}", seat + 1), info.peer.to_string()),
            None => (format!("client {}", seat + 1), "?".to_string()),
        };
        println!("seat {}: {name} joined from {peer}", seat + 1);
        names.push(name);
        seats.push(SeatPlayer::Remote(Box::new(client)));
    }
    gateway.close_lobby();
    for ai in &bots {
        names.push(format!("builtin:{}", ai.name()));
        seats.push(SeatPlayer::Local(ai.player(args.seed, seats.len())));
    }
    let mut totals = vec![0i64; names.len()];
    for g in 0..args.games {
        let seed = args.seed.wrapping_add(u64::from(g));
        let mut game = Game::new(
            board.clone(),
            names.len(),
            seed,
            GameConfig {
                turn_limit: args.turns,
            },
        )
        .map_err(CliError::failure)?;
        for (i, ai) in bots.iter().enumerate() {
            let seat = args.players + i;
            seats[seat] = SeatPlayer::Local(ai.player(seed, seat));
        }
        let setups: Vec<GameSetup> = (0..names.len())
            .map(|seat| GameSetup {
                seat,
                players: names.clone(),
                board: board.clone(),
                turn_limit: args.turns,
                time_limit_ms: time_limit.as_millis() as u64,
            })
            .collect();
        println!("game {} of {} (seed {seed}) started", g + 1, args.games);
        drive_game(&mut game, &mut seats, &setups)
            .await
            .map_err(CliError::failure)?;
        let seat_order: Vec<usize> = (0..names.len()).collect();
        let summary = summarize_game(&game, &seat_order);
        print!("{}", game_table(&game, &names, g, args.games));
        for (total, s) in totals.iter_mut().zip(&summary.per_slot) {
            *total += s.score;
        }
    }
    if args.games > 1 {
        println!("total after {} games:", args.games);
        let width = names.iter().map(String::len).max().unwrap_or(6).max(6);
        for (seat, (name, total)) in names.iter().zip(&totals).enumerate() {
            println!("  {:>4}  {name:<width$}  {total:>6}", seat + 1);
        }
    }
    // Closes every client connection.
    drop(seats);
    Ok(())
}

/// One game's result: a row per seat with score, flags, deaths and faults by kind.
fn game_table(game: &Game, names: &[String], g: u32, games: u32) -> String {
    let width = names.iter().map(String::len).max().unwrap_or(6).max(6);
    let mut out = format!(
        "game {} of {} over after {} turn(s):\n  {:>4}  {:<width$}  {:>6} {:>6} {:>6} {:>8} {:>8} {:>6}\n",
        g + 1,
        games,
        game.turn(),
        "seat",
        "player",
        "score",
        "flags",
        "deaths",
        "timeouts",
        "invalid",
        "crash"
    );
    for (seat, (name, robot)) in names.iter().zip(game.robots()).enumerate() {
        let count = |kind: EventKind| {
            game.events()
                .iter()
                .filter(|e| e.robot == seat && e.kind == kind)
                .count()
        };
        out += &format!(
            "  {:>4}  {name:<width$}  {:>6} {:>6} {:>6} {:>8} {:>8} {:>6}\n",
            seat + 1,
            robot.score,
            count(EventKind::Flag),
            count(EventKind::Destroyed),
            count(EventKind::Timeout),
            count(EventKind::Invalid),
            count(EventKind::Crash)
        );
    }
    out
}
