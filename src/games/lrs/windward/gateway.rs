//! One TCP listener serving the seats of many concurrent games, and the [`WindwardPlayer`]
//! that plays a seat over its connection.
//!
//! # Routing
//! A client's first message is `<join name= password=>`. The password is the seat's join
//! token: [`Gateway::expect`] registers a token before the client is started and returns the
//! seat's player; a join carrying that token is routed to it. A join with a token nobody
//! expects, a first message that is not a join, or no first message within
//! [`GatewayConfig::join_timeout`] is refused: the connection is closed and a
//! [`GatewayEvent::Refused`] is logged.
//!
//! In *open-lobby* mode ([`GatewayConfig::open_lobby`], the `serve` command) any token is
//! accepted while the lobby is open: each join becomes a new seat, handed out in arrival
//! order by [`Gateway::next_open_join`], until [`Gateway::close_lobby`].
//!
//! # Reconnects (the protocol text is silent; decided here)
//! The 2012 clients reconnect forever after a dropped connection. A token stays valid for
//! its seat until the seat's [`WindwardPlayer`] is dropped (the end of the series), so a
//! client that reconnects with the same token gets its seat back:
//! - While the seat has no live connection, every query is answered at once with a
//!   `crash` fault (nobody waits for a reconnect).
//! - A join for the seat takes effect from the next query; the query in flight when the
//!   connection dropped stays a crash. The reconnected client receives the next query as
//!   usual (no new `game-start` message: the turn message carries the whole state).
//! - If the seat still has a live connection, the newer connection replaces it (the older
//!   is closed): a half-open connection the server has not noticed cannot lock a client
//!   out. In open-lobby mode a join whose token matches no disconnected seat is a new seat.
//! - Once the player is dropped, the token is unknown: late reconnects are refused.
//!
//! # Queries, deadlines and faults
//! Each query is one framed message; the reply must arrive within the game's time limit
//! ([`GameSetup::time_limit_ms`]: 1 s normally, 1000 s in debug mode), measured from the
//! moment the query is queued for sending. Outcomes:
//! - no reply in time: `timeout`;
//! - bad XML, wrong element, no card of the hand (or a start reply missing an attribute):
//!   `invalid` (a square not offered is left to the engine, which also records `invalid`);
//! - no connection, or the connection closes while waiting: `crash`;
//! - a message that answers another query is skipped and waiting goes on: a
//!   `<start-position>` reply during a turn, a `<turn>` reply during a start query, a
//!   repeated `<join>`, and — while a reply to a timed-out query is still owed — a `<turn>`
//!   reply without this query's turn number. Messages left unread when a query is sent are
//!   late replies and are discarded. (A client that stops echoing the turn number is
//!   tolerated as long as it is not late.)
//!
//! A framing error (negative or oversized length) ends the connection: the stream cannot
//! be resynchronised. Each connection has a reader task that is never cancelled mid-frame
//! and a writer task with its own queue, so a timed-out query never leaves half a message
//! on the wire; a client that does not read for [`GatewayConfig::write_stall`] is
//! disconnected.
//!
//! # Series and their end
//! A [`WindwardPlayer`] lives for a series: each game starts with `begin_game` and a
//! `<start-position game-start="true">` on the same connection. Nothing is sent when a game
//! ends. At the end of the series the owner drops the player: queued messages are flushed,
//! the connection is closed and the token forgotten. Ending the client's process is the
//! caller's business.

use super::framing::{self, MAX_MESSAGE};
use super::messages;
use crate::games::lrs::boards::to_windward_map;
use crate::games::lrs::engine::{Board, Fault, StartQuery, StartReply, TurnQuery, TurnReply};
use crate::games::lrs::remote::{BoxFuture, GameSetup, RemotePlayer, View};
use std::collections::HashMap;
use std::fmt;
use std::io;
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use thiserror::Error;
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio::task::{AbortHandle, JoinHandle};
use tokio::time::{Instant, timeout, timeout_at};

/// The port the 2012 sample clients connect to (hard-coded in them).
pub const DEFAULT_PORT: u16 = 1707;
/// Time limit per answer (docs/bots.md).
pub const DEFAULT_TIME_LIMIT: Duration = Duration::from_secs(1);
/// Time limit per answer in debug mode, as the original debug server.
pub const DEBUG_TIME_LIMIT: Duration = Duration::from_secs(1000);

/// Messages a connection may have read ahead of the server.
const INCOMING_QUEUE: usize = 16;
/// Largest `<join>` message (the first message of a connection), bytes.
pub const MAX_JOIN_MESSAGE: usize = 64 * 1024;
/// Connections that have not joined yet on the shared listener; more are closed at once,
/// so that one client cannot use up the runner's descriptors or memory.
pub const MAX_PENDING_JOINS: usize = 64;
/// Connections that have not joined yet on one private endpoint (a client needs one): each
/// endpoint has its own count, so that a client flooding its own endpoint cannot keep the
/// other clients from joining.
pub const MAX_PRIVATE_PENDING_JOINS: usize = 4;

/// Where gateway events go.
pub type Logger = Arc<dyn Fn(&GatewayEvent) + Send + Sync>;

/// The default logger: one line per event on stderr.
pub fn stderr_logger() -> Logger {
    Arc::new(|event: &GatewayEvent| eprintln!("windward: {event}"))
}

/// Settings of a [`Gateway`].
#[derive(Clone)]
pub struct GatewayConfig {
    /// Address to listen on (default `127.0.0.1:1707`; port 0 picks a free port).
    pub addr: SocketAddr,
    /// Largest message accepted from a client, in bytes.
    pub max_message: usize,
    /// How long a new connection has to send its `<join>`.
    pub join_timeout: Duration,
    /// A client that accepts no data for this long while a message waits to be sent is
    /// disconnected.
    pub write_stall: Duration,
    /// Accept any join token, each join a new seat (see [`Gateway::next_open_join`]).
    pub open_lobby: bool,
    /// Receives joins, refusals and disconnects.
    pub logger: Logger,
}

impl Default for GatewayConfig {
    fn default() -> GatewayConfig {
        GatewayConfig {
            addr: SocketAddr::from((Ipv4Addr::LOCALHOST, DEFAULT_PORT)),
            max_message: MAX_MESSAGE,
            join_timeout: Duration::from_secs(10),
            write_stall: Duration::from_secs(60),
            open_lobby: false,
            logger: stderr_logger(),
        }
    }
}

impl fmt::Debug for GatewayConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GatewayConfig")
            .field("addr", &self.addr)
            .field("max_message", &self.max_message)
            .field("join_timeout", &self.join_timeout)
            .field("write_stall", &self.write_stall)
            .field("open_lobby", &self.open_lobby)
            .finish_non_exhaustive()
    }
}

/// Why a connection was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RefuseReason {
    /// The join token is not expected by any seat.
    UnknownToken,
    /// The first message is not a readable `<join>`.
    BadJoin(String),
    /// No first message within the join timeout.
    NoJoin,
    /// The connection broke before a join was read.
    Connection(String),
    /// Too many connections were waiting to join (this many, on that listener).
    TooManyPending(usize),
}

impl fmt::Display for RefuseReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RefuseReason::UnknownToken => f.write_str("unknown join token"),
            RefuseReason::TooManyPending(n) => {
                write!(f, "{n} connections are already waiting to join")
            }
            RefuseReason::BadJoin(e) => write!(f, "first message is not a join: {e}"),
            RefuseReason::NoJoin => f.write_str("no join message in time"),
            RefuseReason::Connection(e) => write!(f, "connection failed before joining: {e}"),
        }
    }
}

/// Something the gateway wants logged. Tokens are secrets and never appear.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GatewayEvent {
    /// A client joined a seat (`reconnect`: the seat had been joined before).
    Joined {
        peer: SocketAddr,
        name: String,
        reconnect: bool,
    },
    Refused {
        peer: SocketAddr,
        /// The team name, when a join was read.
        name: Option<String>,
        reason: RefuseReason,
    },
    /// A joined client's connection ended (not logged when the server closes it).
    Disconnected {
        peer: SocketAddr,
        name: String,
        reason: String,
    },
    /// `accept` failed (e.g. out of file descriptors); the gateway retries.
    AcceptFailed { error: String },
}

impl fmt::Display for GatewayEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GatewayEvent::Joined {
                peer,
                name,
                reconnect,
            } => {
                let verb = if *reconnect { "reconnected" } else { "joined" };
                write!(f, "{name:?} {verb} from {peer}")
            }
            GatewayEvent::Refused { peer, name, reason } => match name {
                Some(name) => write!(f, "refused {name:?} from {peer}: {reason}"),
                None => write!(f, "refused a connection from {peer}: {reason}"),
            },
            GatewayEvent::Disconnected { peer, name, reason } => {
                write!(f, "{name:?} ({peer}) disconnected: {reason}")
            }
            GatewayEvent::AcceptFailed { error } => write!(f, "accept failed: {error}"),
        }
    }
}

/// Misuse of the gateway.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GatewayError {
    #[error("this join token is already expected by another seat")]
    TokenInUse,
}

/// What the client said when it joined, and from where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JoinInfo {
    pub name: String,
    /// Base64 PNG, if the client sent one.
    pub avatar: Option<String>,
    pub peer: SocketAddr,
}

/// A message read from a connection.
enum Incoming {
    Text(String),
    /// A complete frame whose body is not UTF-8.
    NotText,
}

/// One live connection, owned by its seat's player. Dropping it closes the connection once
/// the queued messages are written.
struct Conn {
    info: JoinInfo,
    incoming: mpsc::Receiver<Incoming>,
    outgoing: mpsc::UnboundedSender<Vec<u8>>,
    alive: Arc<AtomicBool>,
    reader: AbortHandle,
}

impl Drop for Conn {
    fn drop(&mut self) {
        self.alive.store(false, Ordering::SeqCst);
        self.reader.abort();
    }
}

/// A seat's registration: how the router reaches its player.
struct SeatLink {
    id: u64,
    conns: mpsc::UnboundedSender<Conn>,
    /// Liveness of the connection routed last.
    alive: Mutex<Option<Arc<AtomicBool>>>,
    /// Whether a connection was ever routed here.
    joined_before: AtomicBool,
}

impl SeatLink {
    fn connected(&self) -> bool {
        lock(&self.alive)
            .as_ref()
            .is_some_and(|a| a.load(Ordering::SeqCst))
    }
}

struct Registry {
    /// Seats by token (open-lobby seats may share a token).
    seats: HashMap<String, Vec<Arc<SeatLink>>>,
    lobby: Option<mpsc::UnboundedSender<WindwardPlayer>>,
}

struct Inner {
    max_message: usize,
    join_timeout: Duration,
    write_stall: Duration,
    logger: Logger,
    registry: Mutex<Registry>,
    next_id: AtomicU64,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Inner {
    fn log(&self, event: GatewayEvent) {
        (self.logger)(&event);
    }

    /// A new seat for `token`, registered. The caller must not hold the registry lock.
    fn new_seat(self: &Arc<Self>, registry: &mut Registry, token: &str) -> WindwardPlayer {
        let (tx, rx) = mpsc::unbounded_channel();
        let link = Arc::new(SeatLink {
            id: self.next_id.fetch_add(1, Ordering::Relaxed),
            conns: tx,
            alive: Mutex::new(None),
            joined_before: AtomicBool::new(false),
        });
        registry
            .seats
            .entry(token.to_owned())
            .or_default()
            .push(link.clone());
        WindwardPlayer {
            inner: self.clone(),
            token: token.to_owned(),
            link,
            conns: rx,
            conn: None,
            join: None,
            game: None,
            time_limit: None,
            late_owed: 0,
        }
    }

    fn unregister(&self, token: &str, id: u64) {
        let mut registry = lock(&self.registry);
        if let Some(links) = registry.seats.get_mut(token) {
            links.retain(|l| l.id != id);
            if links.is_empty() {
                registry.seats.remove(token);
            }
        }
    }
}

/// Where a join goes.
enum Route {
    Seat(Arc<SeatLink>),
    Lobby(Box<WindwardPlayer>, mpsc::UnboundedSender<WindwardPlayer>),
    Refuse,
}

/// A seat's private listener; dropping it stops accepting there.
#[derive(Debug)]
pub struct PrivateEndpoint(JoinHandle<()>);

impl Drop for PrivateEndpoint {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// The TCP listener. Dropping it stops accepting; seats already joined keep their
/// connections.
pub struct Gateway {
    inner: Arc<Inner>,
    local_addr: SocketAddr,
    accept: JoinHandle<()>,
    lobby: tokio::sync::Mutex<Option<mpsc::UnboundedReceiver<WindwardPlayer>>>,
}

impl fmt::Debug for Gateway {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Gateway")
            .field("local_addr", &self.local_addr)
            .finish_non_exhaustive()
    }
}

impl Drop for Gateway {
    fn drop(&mut self) {
        self.accept.abort();
    }
}

impl Gateway {
    /// Listens on `config.addr` and starts accepting on the current tokio runtime.
    pub async fn bind(config: GatewayConfig) -> io::Result<Gateway> {
        let listener = TcpListener::bind(config.addr).await?;
        let local_addr = listener.local_addr()?;
        let (lobby_tx, lobby_rx) = if config.open_lobby {
            let (tx, rx) = mpsc::unbounded_channel();
            (Some(tx), Some(rx))
        } else {
            (None, None)
        };
        let inner = Arc::new(Inner {
            max_message: config.max_message,
            join_timeout: config.join_timeout,
            write_stall: config.write_stall,
            logger: config.logger,
            registry: Mutex::new(Registry {
                seats: HashMap::new(),
                lobby: lobby_tx,
            }),
            next_id: AtomicU64::new(0),
        });
        let accept = tokio::spawn(accept_loop(
            listener,
            inner.clone(),
            None,
            MAX_PENDING_JOINS,
        ));
        Ok(Gateway {
            inner,
            local_addr,
            accept,
            lobby: tokio::sync::Mutex::new(lobby_rx),
        })
    }

    /// The address actually listened on.
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// Registers a seat that a client will join with `token`, and returns its player. The
    /// token is valid until the player is dropped.
    pub fn expect(&self, token: &str) -> Result<WindwardPlayer, GatewayError> {
        let mut registry = lock(&self.inner.registry);
        if registry.seats.contains_key(token) {
            return Err(GatewayError::TokenInUse);
        }
        Ok(self.inner.new_seat(&mut registry, token))
    }

    /// Serves the seat of `token` on a listener of its own (a Windward client's private
    /// network namespace holds it, see `sandbox::netns`): every connection to it joins that
    /// seat, whatever its `<join>` says. Accepting stops when the returned handle drops.
    pub fn attach_private(
        &self,
        listener: std::net::TcpListener,
        token: &str,
    ) -> io::Result<PrivateEndpoint> {
        let listener = TcpListener::from_std(listener)?;
        let task = tokio::spawn(accept_loop(
            listener,
            self.inner.clone(),
            Some(token.to_owned()),
            MAX_PRIVATE_PENDING_JOINS,
        ));
        Ok(PrivateEndpoint(task))
    }

    /// Open-lobby mode: the next client that joined, connected, as a new seat. `None` once
    /// the lobby is closed (or was never open).
    pub async fn next_open_join(&self) -> Option<WindwardPlayer> {
        let mut lobby = self.lobby.lock().await;
        lobby.as_mut()?.recv().await
    }

    /// Stops seating new clients: from now on joins need the token of an existing seat.
    /// Clients that joined but were not yet taken by [`Gateway::next_open_join`] are
    /// disconnected.
    pub fn close_lobby(&self) {
        let sender = lock(&self.inner.registry).lobby.take();
        drop(sender);
        if let Ok(mut lobby) = self.lobby.try_lock()
            && let Some(mut rx) = lobby.take()
        {
            rx.close();
            while let Ok(player) = rx.try_recv() {
                drop(player);
            }
        }
    }
}

/// Accepts connections; `seat` is the token of the one seat a private listener serves
/// (whoever connects to it is that seat's client: see [`Gateway::attach_private`]).
/// At most `max_pending` of its connections wait for their join at a time.
async fn accept_loop(
    listener: TcpListener,
    inner: Arc<Inner>,
    seat: Option<String>,
    max_pending: usize,
) {
    let pending = Arc::new(tokio::sync::Semaphore::new(max_pending));
    loop {
        match listener.accept().await {
            Ok((stream, peer)) => {
                let Ok(permit) = pending.clone().try_acquire_owned() else {
                    inner.log(GatewayEvent::Refused {
                        peer,
                        name: None,
                        reason: RefuseReason::TooManyPending(max_pending),
                    });
                    drop(stream);
                    continue;
                };
                let _ = stream.set_nodelay(true);
                let (inner, seat) = (inner.clone(), seat.clone());
                tokio::spawn(async move {
                    handshake(stream, peer, inner, seat, permit).await;
                });
            }
            Err(e) => {
                inner.log(GatewayEvent::AcceptFailed {
                    error: e.to_string(),
                });
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
}

/// Reads the join of a new connection and hands the connection to its seat.
async fn handshake(
    stream: TcpStream,
    peer: SocketAddr,
    inner: Arc<Inner>,
    seat: Option<String>,
    permit: tokio::sync::OwnedSemaphorePermit,
) {
    let (mut rd, wr) = stream.into_split();
    let refuse = |name: Option<String>, reason| {
        inner.log(GatewayEvent::Refused { peer, name, reason });
    };
    let body = match timeout(
        inner.join_timeout,
        framing::read_frame(&mut rd, inner.max_message.min(MAX_JOIN_MESSAGE)),
    )
    .await
    {
        Err(_) => return refuse(None, RefuseReason::NoJoin),
        Ok(Err(e)) => return refuse(None, RefuseReason::Connection(e.to_string())),
        Ok(Ok(body)) => body,
    };
    drop(permit);
    let mut join = match framing::frame_text(body)
        .ok_or_else(|| "the message is not UTF-8".to_owned())
        .and_then(|text| messages::parse_join(&text).map_err(|e| e.to_string()))
    {
        Ok(join) => join,
        Err(e) => return refuse(None, RefuseReason::BadJoin(e)),
    };
    if let Some(token) = seat {
        // A private endpoint: the seat is where the connection came in, not what it says.
        join.password = token;
    }
    let route = {
        let mut registry = lock(&inner.registry);
        let links = registry.seats.get(&join.password);
        let disconnected = links.and_then(|ls| ls.iter().find(|l| !l.connected()).cloned());
        let first = links.and_then(|ls| ls.first().cloned());
        match (disconnected, registry.lobby.clone(), first) {
            (Some(link), _, _) => Route::Seat(link),
            (None, Some(lobby), _) => Route::Lobby(
                Box::new(inner.new_seat(&mut registry, &join.password)),
                lobby,
            ),
            (None, None, Some(link)) => Route::Seat(link),
            (None, None, None) => Route::Refuse,
        }
    };
    let info = JoinInfo {
        name: join.name.clone(),
        avatar: join.avatar.clone(),
        peer,
    };
    match route {
        Route::Refuse => refuse(Some(join.name), RefuseReason::UnknownToken),
        Route::Seat(link) => {
            let conn = open_conn(&inner, rd, wr, info);
            *lock(&link.alive) = Some(conn.alive.clone());
            let reconnect = link.joined_before.swap(true, Ordering::SeqCst);
            match link.conns.send(conn) {
                Ok(()) => inner.log(GatewayEvent::Joined {
                    peer,
                    name: join.name,
                    reconnect,
                }),
                // The seat was released meanwhile: its token is no longer valid.
                Err(_) => refuse(Some(join.name), RefuseReason::UnknownToken),
            }
        }
        Route::Lobby(mut player, lobby) => {
            let conn = open_conn(&inner, rd, wr, info.clone());
            *lock(&player.link.alive) = Some(conn.alive.clone());
            player.link.joined_before.store(true, Ordering::SeqCst);
            player.conn = Some(conn);
            player.join = Some(info);
            match lobby.send(*player) {
                Ok(()) => inner.log(GatewayEvent::Joined {
                    peer,
                    name: join.name,
                    reconnect: false,
                }),
                Err(unsent) => {
                    drop(unsent);
                    refuse(Some(join.name), RefuseReason::UnknownToken);
                }
            }
        }
    }
}

/// Starts the reader and writer tasks of a joined connection.
fn open_conn(inner: &Arc<Inner>, rd: OwnedReadHalf, wr: OwnedWriteHalf, info: JoinInfo) -> Conn {
    let alive = Arc::new(AtomicBool::new(true));
    let (in_tx, in_rx) = mpsc::channel(INCOMING_QUEUE);
    let (out_tx, out_rx) = mpsc::unbounded_channel();
    let reader = tokio::spawn(read_loop(
        rd,
        in_tx,
        alive.clone(),
        inner.clone(),
        info.clone(),
    ));
    tokio::spawn(write_loop(wr, out_rx, alive.clone(), inner.write_stall));
    Conn {
        info,
        incoming: in_rx,
        outgoing: out_tx,
        alive,
        reader: reader.abort_handle(),
    }
}

async fn read_loop(
    mut rd: OwnedReadHalf,
    tx: mpsc::Sender<Incoming>,
    alive: Arc<AtomicBool>,
    inner: Arc<Inner>,
    info: JoinInfo,
) {
    let error = loop {
        match framing::read_frame(&mut rd, inner.max_message).await {
            Ok(body) => {
                let item = match framing::frame_text(body) {
                    Some(text) => Incoming::Text(text),
                    None => Incoming::NotText,
                };
                if tx.send(item).await.is_err() {
                    return;
                }
            }
            Err(e) => break e,
        }
    };
    alive.store(false, Ordering::SeqCst);
    inner.log(GatewayEvent::Disconnected {
        peer: info.peer,
        name: info.name,
        reason: error.to_string(),
    });
}

async fn write_loop(
    mut wr: OwnedWriteHalf,
    mut rx: mpsc::UnboundedReceiver<Vec<u8>>,
    alive: Arc<AtomicBool>,
    stall: Duration,
) {
    use tokio::io::AsyncWriteExt;
    while let Some(frame) = rx.recv().await {
        let written = timeout(stall, async {
            wr.write_all(&frame).await?;
            wr.flush().await
        })
        .await;
        if !matches!(written, Ok(Ok(()))) {
            alive.store(false, Ordering::SeqCst);
            return;
        }
    }
    let _ = timeout(stall, wr.shutdown()).await;
}

/// What a seat needs to build messages during one game.
struct GameContext {
    board: Arc<Board>,
    map_xml: String,
    time_limit: Duration,
}

/// A seat played over a Windward connection: implements [`RemotePlayer`]. Lives for a
/// series; dropping it closes the connection and forgets the join token.
pub struct WindwardPlayer {
    inner: Arc<Inner>,
    token: String,
    link: Arc<SeatLink>,
    conns: mpsc::UnboundedReceiver<Conn>,
    conn: Option<Conn>,
    join: Option<JoinInfo>,
    game: Option<GameContext>,
    time_limit: Option<Duration>,
    /// Replies owed for queries that timed out on this connection: the next messages
    /// may be those late replies.
    late_owed: usize,
}

impl fmt::Debug for WindwardPlayer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WindwardPlayer")
            .field("join", &self.join)
            .field("connected", &self.conn.is_some())
            .finish_non_exhaustive()
    }
}

impl Drop for WindwardPlayer {
    fn drop(&mut self) {
        self.inner.unregister(&self.token, self.link.id);
    }
}

impl WindwardPlayer {
    /// What the client said when it (last) joined; `None` before any join.
    pub fn join_info(&mut self) -> Option<&JoinInfo> {
        self.refresh();
        self.join.as_ref()
    }

    /// The team name the client joined with (empty before any join).
    pub fn name(&mut self) -> &str {
        self.refresh();
        self.join.as_ref().map_or("", |j| j.name.as_str())
    }

    /// Whether a client is connected right now.
    pub fn is_connected(&mut self) -> bool {
        self.refresh();
        self.conn
            .as_ref()
            .is_some_and(|c| c.alive.load(Ordering::SeqCst))
    }

    /// Waits until a client is connected, at most `limit`. Returns whether one is.
    pub async fn wait_connected(&mut self, limit: Duration) -> bool {
        if self.is_connected() {
            return true;
        }
        let deadline = Instant::now() + limit;
        loop {
            match timeout_at(deadline, self.conns.recv()).await {
                Ok(Some(conn)) => {
                    self.attach(conn);
                    if self.is_connected() {
                        return true;
                    }
                }
                Ok(None) | Err(_) => return false,
            }
        }
    }

    /// Overrides the per-answer time limit of [`GameSetup::time_limit_ms`].
    pub fn set_time_limit(&mut self, limit: Option<Duration>) {
        self.time_limit = limit;
    }

    fn attach(&mut self, conn: Conn) {
        self.late_owed = 0;
        self.join = Some(conn.info.clone());
        self.conn = Some(conn);
    }

    /// Takes the newest connection routed to this seat, if any.
    fn refresh(&mut self) {
        while let Ok(conn) = self.conns.try_recv() {
            self.attach(conn);
        }
    }

    fn limit(&self) -> Duration {
        self.time_limit
            .or(self.game.as_ref().map(|g| g.time_limit))
            .unwrap_or(DEFAULT_TIME_LIMIT)
    }

    /// Sends `message` and waits for the reply that `interpret` accepts (`None` = a message
    /// that answers something else: skip it).
    async fn exchange<R>(
        &mut self,
        message: String,
        mut interpret: impl FnMut(&str, bool) -> Option<R>,
        invalid: R,
    ) -> Result<R, Fault> {
        let deadline = Instant::now() + self.limit();
        self.refresh();
        let conn = match self.conn.as_mut() {
            Some(c) if c.alive.load(Ordering::SeqCst) => c,
            _ => {
                self.conn = None;
                return Err(Fault::Crash);
            }
        };
        // Late replies to earlier queries.
        loop {
            match conn.incoming.try_recv() {
                Ok(_) => self.late_owed = self.late_owed.saturating_sub(1),
                Err(mpsc::error::TryRecvError::Empty) => break,
                Err(mpsc::error::TryRecvError::Disconnected) => {
                    self.conn = None;
                    return Err(Fault::Crash);
                }
            }
        }
        if conn
            .outgoing
            .send(framing::encode_frame(message.as_bytes()))
            .is_err()
        {
            self.conn = None;
            return Err(Fault::Crash);
        }
        loop {
            match timeout_at(deadline, conn.incoming.recv()).await {
                Err(_) => {
                    self.late_owed += 1;
                    return Err(Fault::Timeout);
                }
                Ok(None) => {
                    self.conn = None;
                    return Err(Fault::Crash);
                }
                Ok(Some(Incoming::NotText)) => return Ok(invalid),
                Ok(Some(Incoming::Text(text))) => match interpret(&text, self.late_owed > 0) {
                    Some(reply) => {
                        self.late_owed = 0;
                        return Ok(reply);
                    }
                    None => self.late_owed = self.late_owed.saturating_sub(1),
                },
            }
        }
    }
}

impl RemotePlayer for WindwardPlayer {
    fn begin_game<'a>(&'a mut self, setup: &'a GameSetup) -> BoxFuture<'a, ()> {
        self.refresh();
        self.game = Some(GameContext {
            board: setup.board.clone(),
            map_xml: to_windward_map(&setup.board),
            time_limit: Duration::from_millis(setup.time_limit_ms),
        });
        Box::pin(async {})
    }

    fn start<'a>(&'a mut self, view: &'a View, query: &'a StartQuery) -> BoxFuture<'a, StartReply> {
        Box::pin(async move {
            let Some(game) = &self.game else {
                return StartReply::Fault(Fault::Crash);
            };
            let message = messages::start_position_message(&game.board, &game.map_xml, view, query);
            self.exchange(
                message,
                |text, _| messages::interpret_start_reply(text),
                StartReply::Fault(Fault::Invalid),
            )
            .await
            .unwrap_or_else(StartReply::Fault)
        })
    }

    fn turn<'a>(&'a mut self, view: &'a View, query: &'a TurnQuery) -> BoxFuture<'a, TurnReply> {
        Box::pin(async move {
            let Some(game) = &self.game else {
                return TurnReply::Fault(Fault::Crash);
            };
            let message = messages::turn_message(&game.board, &game.map_xml, view, query);
            self.exchange(
                message,
                |text, late_owed| {
                    messages::interpret_turn_reply(text, view.turn, &query.hand, late_owed)
                },
                TurnReply::Fault(Fault::Invalid),
            )
            .await
            .unwrap_or_else(TurnReply::Fault)
        })
    }

    fn game_over<'a>(&'a mut self, _view: &'a View) -> BoxFuture<'a, ()> {
        // The protocol has no game-over message: the next game starts with
        // `<start-position game-start="true">`, the series ends with the connection.
        Box::pin(async {})
    }
}
