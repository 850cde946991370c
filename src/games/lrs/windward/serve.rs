//! A stand-alone Windward game server for students testing their client from an IDE
//! (`lrs-tourney serve`, docs/bots.md): it waits for a number of clients to join (any
//! password; first come, first seated), fills the other seats with built-in AIs, plays the
//! games, prints the scores and returns.

use super::{DEBUG_TIME_LIMIT, DEFAULT_TIME_LIMIT, Gateway, GatewayConfig, GatewayEvent};
use crate::games::BuiltinBot;
use crate::games::lrs::ai::BuiltinAi;
use crate::games::lrs::boards::load_board;
use crate::games::lrs::engine::{Board, EventKind, Game, GameConfig, MAX_PLAYERS, MIN_PLAYERS};
use crate::games::lrs::remote::{GameSetup, SeatPlayer, drive_game};
use crate::games::lrs::stats::summarize_game;
use std::net::SocketAddr;
use std::sync::Arc;

/// What to serve.
#[derive(Debug, Clone)]
pub struct ServeRequest {
    /// A shipped board name or the path of a board file.
    pub board: String,
    /// Clients to wait for; they take seats 1.. in the order they join.
    pub players: usize,
    pub addr: SocketAddr,
    /// Games played over the same connections; game g uses seed `seed + g`.
    pub games: u32,
    pub seed: u64,
    pub turns: u16,
    /// 1000 s per answer instead of 1 s (a client stepped through in a debugger).
    pub debug: bool,
    /// Built-in AIs for the seats after the clients.
    pub bots: Vec<BuiltinBot>,
}

/// Why serving failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ServeError {
    /// The request is not one that can be served (its field named).
    Input(String),
    /// Serving started and went wrong.
    Failure(String),
}

impl std::fmt::Display for ServeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ServeError::Input(e) | ServeError::Failure(e) => f.write_str(e),
        }
    }
}

impl std::error::Error for ServeError {}

/// Checks `args`, then serves its games; returns once they are played.
pub async fn serve(args: ServeRequest) -> Result<(), ServeError> {
    let input = |e: String| ServeError::Input(e);
    let board = load_board(&args.board).map_err(|e| input(e.to_string()))?;
    let bots = args
        .bots
        .iter()
        .map(|bot| {
            BuiltinAi::from_name(bot.name())
                .ok_or_else(|| input(format!("--bot builtin:{}: not an AI of lrs", bot.name())))
        })
        .collect::<Result<Vec<BuiltinAi>, _>>()?;
    if args.players == 0 {
        return Err(input("--players must be at least 1".into()));
    }
    let seats = args.players + bots.len();
    if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&seats) {
        return Err(input(format!(
            "a game needs {MIN_PLAYERS} to {MAX_PLAYERS} seats; --players {} and {} --bot make {seats}",
            args.players,
            bots.len()
        )));
    }
    if board.starts().len() < seats {
        return Err(input(format!(
            "board {:?} has {} start squares, too few for {seats} seats",
            board.name(),
            board.starts().len()
        )));
    }
    if args.games == 0 {
        return Err(input("--games must be at least 1".into()));
    }
    if args.turns == 0 {
        return Err(input("--turns must be at least 1".into()));
    }
    play(args, board, bots).await
}

async fn play(
    args: ServeRequest,
    board: Arc<Board>,
    bots: Vec<BuiltinAi>,
) -> Result<(), ServeError> {
    let addr = args.addr;
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
        .map_err(|e| ServeError::Failure(format!("cannot listen on {addr}: {e}")))?;
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
            return Err(ServeError::Failure(
                "the lobby closed before every client joined".into(),
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
        .map_err(|e| ServeError::Failure(e.to_string()))?;
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
            .map_err(|e| ServeError::Failure(e.to_string()))?;
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
