//! A team's Windward client for one series: the process started once, joined once, and
//! seated in every game of the series over the same connection (docs/bots.md,
//! "Series").
//!
//! [`WindwardHost`] is the gateway as the tournament runner and `play` use it: it hands
//! out one-time join tokens, starts `COMMAND <host> <team> <token>` in the bot's sandbox
//! (which must let it connect to the gateway's port), and waits for the join. A client
//! that does not join within the start-up limit is not waited for: its seat answers every
//! query with a `crash` fault until it joins (a late join still takes the seat), so the
//! games go on.
//!
//! [`SeriesSeat`] is the [`RemotePlayer`] of one game's seat: a handle on the series'
//! [`WindwardPlayer`], so every game of the series talks to the same connection.

use super::client::{WindwardClient, spawn_windward_client};
use super::gateway::{DEFAULT_PORT, Gateway, GatewayConfig, PrivateEndpoint, WindwardPlayer};
use crate::bots::JsonlOptions;
use crate::bots::process::BotCommand;
use crate::bots::sandbox::Sandbox;
use crate::bots::sandbox::netns::PrivateNet;
use crate::games::lrs::engine::{StartQuery, StartReply, TurnQuery, TurnReply};
use crate::games::lrs::remote::{BoxFuture, GameSetup, RemotePlayer, View};
use std::io::Read;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
use tokio::sync::Mutex;

/// The gateway of a run, with what its clients are told.
pub struct WindwardHost {
    gateway: Gateway,
    /// The address given to clients as their first argument (the gateway's IP).
    host: String,
}

/// One team's client for a series.
pub struct SeriesClient {
    player: Arc<Mutex<WindwardPlayer>>,
    /// The client's private listeners (inside its network namespace), when it has one.
    _endpoints: Vec<PrivateEndpoint>,
    client: Option<WindwardClient>,
    /// Why the client could not be started.
    pub spawn_error: Option<String>,
    /// Whether it joined within the start-up limit.
    pub joined: bool,
}

/// How a series client ended, for the bot log.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SeriesClientLog {
    /// `exit 0`, `killed`, ... or why it never started.
    pub status: String,
    /// The client's capped stderr.
    pub stderr: String,
    /// The last lines it printed on stdout.
    pub stdout_tail: Vec<String>,
    pub joined: bool,
}

/// A seat of one game, played by the series' client.
#[derive(Clone)]
pub struct SeriesSeat(Arc<Mutex<WindwardPlayer>>);

/// The sandbox of a Windward client whose gateway listens on `port`: `base` without the
/// empty network namespace (the client must reach the gateway), with Landlock network
/// rules, where the kernel has them, allowing TCP connections to its gateway's ports only.
///
/// With a private network namespace (as root), its gateway is there on `port` and also on
/// [`DEFAULT_PORT`]: the 2012 clients always connect to 1707, so they join whatever port
/// the gateway listens on outside. On the host's network only `port` is allowed.
pub fn client_sandbox(base: &Sandbox, port: u16) -> Sandbox {
    let mut ports = vec![port];
    if base.private_client_network() && port != DEFAULT_PORT {
        ports.push(DEFAULT_PORT);
    }
    base.clone().for_tcp_client(&ports)
}

static TOKEN_COUNTER: AtomicU64 = AtomicU64::new(0);

/// The password argument of a client with a private endpoint: not a secret (the gateway
/// seats whoever connects there), only there because the 2012 clients require three
/// arguments (`<host> <team> <password>`) and exit without them.
const PRIVATE_PASSWORD: &str = "private";

/// A fresh join token: unguessable for other processes on the machine (random bytes from
/// the OS), unique within this process (a counter), so it routes to exactly one seat.
fn new_token() -> String {
    let mut random = [0u8; 12];
    let read = std::fs::File::open("/dev/urandom").and_then(|mut f| f.read_exact(&mut random));
    if read.is_err() {
        // Still unique; only less secret. Tokens are routing keys, not credentials.
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        random[..8].copy_from_slice(&nanos.to_le_bytes());
    }
    let n = TOKEN_COUNTER.fetch_add(1, Ordering::Relaxed);
    let hex: String = random.iter().map(|b| format!("{b:02x}")).collect();
    format!("{hex}{n:x}")
}

impl WindwardHost {
    pub fn new(gateway: Gateway) -> WindwardHost {
        let host = gateway.local_addr().ip().to_string();
        WindwardHost { gateway, host }
    }

    /// Listens on `addr` for the clients of tournaments and `play` (seats by private
    /// endpoint or token, no open lobby); a connection has the bot start-up time, at least
    /// 1 s, to send its join. Joins and refusals go to `logger`.
    pub async fn bind(
        addr: SocketAddr,
        startup_ms: u64,
        logger: super::gateway::Logger,
    ) -> std::io::Result<WindwardHost> {
        let gateway = Gateway::bind(GatewayConfig {
            addr,
            join_timeout: Duration::from_millis(startup_ms.max(1000)),
            logger,
            ..GatewayConfig::default()
        })
        .await?;
        Ok(WindwardHost::new(gateway))
    }

    /// The address the gateway listens on.
    pub fn local_addr(&self) -> SocketAddr {
        self.gateway.local_addr()
    }

    /// The sandbox of a Windward client of this gateway: [`client_sandbox`] for its port.
    pub fn client_sandbox(&self, base: &Sandbox) -> Sandbox {
        client_sandbox(base, self.gateway.local_addr().port())
    }

    /// Starts `team`'s client for a series of `games` games of `turn_limit` turns, under
    /// `options` (limits, sandbox, start-up time), and waits up to the start-up time for it
    /// to join. Its CPU budget is that of a JSON-lines bot for each game of the series.
    pub async fn start(
        &self,
        command: &BotCommand,
        team: &str,
        options: &JsonlOptions,
        series: SeriesShape,
    ) -> SeriesClient {
        let token = new_token();
        let player = match self.gateway.expect(&token) {
            Ok(p) => p,
            Err(e) => unreachable!("fresh tokens are unique: {e}"),
        };
        let mut client = SeriesClient {
            player: Arc::new(Mutex::new(player)),
            _endpoints: Vec::new(),
            client: None,
            spawn_error: None,
            joined: false,
        };
        let cpu_seconds = options
            .limits
            .cpu_seconds_for(series.turn_limit, series.time_limit_ms, options.startup_ms)
            .saturating_mul(series.games.max(1));
        let sandbox = self.client_sandbox(&options.sandbox);
        // With a private network namespace the client finds its gateway at 127.0.0.1 inside
        // it, and the seat is bound to that endpoint: no token on its command line. The
        // 2012 clients still expect a password argument: they get a placeholder.
        let private = if sandbox.private_client_network() {
            match PrivateNet::create(sandbox.client_ports()).and_then(|net| {
                let endpoints = net
                    .listeners
                    .into_iter()
                    .map(|listener| self.gateway.attach_private(listener, &token))
                    .collect::<std::io::Result<Vec<_>>>()?;
                Ok((net.namespace, endpoints))
            }) {
                Ok(p) => Some(p),
                Err(e) => {
                    client.spawn_error = Some(format!("cannot make its network namespace: {e}"));
                    return client;
                }
            }
        } else {
            None
        };
        let (host, token_arg, netns) = match private {
            Some((namespace, endpoints)) => {
                client._endpoints = endpoints;
                ("127.0.0.1", Some(PRIVATE_PASSWORD), Some(namespace))
            }
            None => (self.host.as_str(), Some(token.as_str()), None),
        };
        match spawn_windward_client(
            command,
            host,
            team,
            token_arg,
            &options.limits,
            cpu_seconds,
            &sandbox,
            netns,
        ) {
            Ok(process) => {
                client.client = Some(process);
                let startup = Duration::from_millis(options.startup_ms);
                client.joined = client.player.lock().await.wait_connected(startup).await;
            }
            Err(e) => client.spawn_error = Some(e.to_string()),
        }
        client
    }
}

/// The games a series client is started for (its CPU budget covers all of them).
#[derive(Debug, Clone, Copy)]
pub struct SeriesShape {
    pub games: u64,
    pub turn_limit: u16,
    pub time_limit_ms: u64,
}

impl SeriesClient {
    /// The player for one game's seat.
    /// A seat of one game for the seam, which carries it to this game's arena.
    pub fn series_seat(&self) -> crate::games::SeriesSeat {
        crate::games::SeriesSeat::new(self.seat())
    }

    pub fn seat(&self) -> SeriesSeat {
        SeriesSeat(self.player.clone())
    }

    /// Ends the series: closes the connection (the token is forgotten), sends `exit`, and
    /// ends the client's process group. Call it after the last game.
    pub async fn finish(self) -> SeriesClientLog {
        let SeriesClient {
            player,
            _endpoints,
            client,
            spawn_error,
            joined,
        } = self;
        drop(player);
        drop(_endpoints);
        match (client, spawn_error) {
            (Some(client), _) => {
                let (report, stdout_tail) = client.finish().await;
                SeriesClientLog {
                    status: report.status,
                    stderr: report.stderr.text(),
                    stdout_tail,
                    joined,
                }
            }
            (None, error) => SeriesClientLog {
                status: format!(
                    "not started: {}",
                    error.unwrap_or_else(|| "unknown error".to_string())
                ),
                joined,
                ..SeriesClientLog::default()
            },
        }
    }
}

impl RemotePlayer for SeriesSeat {
    fn begin_game<'a>(&'a mut self, setup: &'a GameSetup) -> BoxFuture<'a, ()> {
        Box::pin(async move { self.0.lock().await.begin_game(setup).await })
    }

    fn start<'a>(&'a mut self, view: &'a View, query: &'a StartQuery) -> BoxFuture<'a, StartReply> {
        Box::pin(async move { self.0.lock().await.start(view, query).await })
    }

    fn turn<'a>(&'a mut self, view: &'a View, query: &'a TurnQuery) -> BoxFuture<'a, TurnReply> {
        Box::pin(async move { self.0.lock().await.turn(view, query).await })
    }

    fn game_over<'a>(&'a mut self, view: &'a View) -> BoxFuture<'a, ()> {
        Box::pin(async move { self.0.lock().await.game_over(view).await })
    }
}
