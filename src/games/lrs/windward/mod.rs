//! The Windward 2012 TCP/XML protocol (docs/bots.md): the 2012 sample clients
//! (C#, Java, C++) and teams' old Code War AIs play unmodified.
//!
//! - [`framing`]: 4-byte little-endian signed length + UTF-8 XML, with a size cap.
//! - [`messages`]: the XML messages, both directions.
//! - [`client`]: starting a team's client process (`COMMAND <host> <team> <token>`) and
//!   ending it (`exit` on stdin, then its process group) at the end of a series.
//! - [`series`]: a team's client for a whole series, seated in each of its games.
//! - [`gateway`]: one TCP listener serving the seats of many concurrent games, routed by
//!   join token, and [`WindwardPlayer`], the [`crate::games::lrs::remote::RemotePlayer`] of one seat. The
//!   decisions the protocol text leaves open (reconnects, token lifetime, series end,
//!   deadlines) are documented there.
//!
//! Typical use by a tournament runner, for one series:
//! ```no_run
//! # async fn demo() -> std::io::Result<()> {
//! use lrs_tourney::games::lrs::windward::{Gateway, GatewayConfig};
//! use std::time::Duration;
//! let gateway = Gateway::bind(GatewayConfig::default()).await?;
//! let mut seat = gateway.expect("one-time-token").expect("fresh token");
//! // ... start `CLIENT 127.0.0.1 <team> one-time-token` ...
//! if !seat.wait_connected(Duration::from_secs(30)).await {
//!     // the client never joined: every query of this seat will be a crash fault
//! }
//! // seats.push(SeatPlayer::Remote(Box::new(seat))); drive_game(...) once per game.
//! // Dropping the player at the end of the series closes the connection.
//! # Ok(()) }
//! ```

pub mod client;
pub mod framing;
pub mod gateway;
pub mod messages;
pub mod series;
pub mod serve;
mod xml;

pub use client::{WindwardClient, spawn_windward_client};
pub use gateway::{
    DEBUG_TIME_LIMIT, DEFAULT_PORT, DEFAULT_TIME_LIMIT, Gateway, GatewayConfig, GatewayError,
    GatewayEvent, JoinInfo, Logger, RefuseReason, WindwardPlayer, stderr_logger,
};
pub use messages::{Join, MessageError, ServerMessage};
pub use series::{
    SeriesClient, SeriesClientLog, SeriesSeat, SeriesShape, WindwardHost, client_sandbox,
};
