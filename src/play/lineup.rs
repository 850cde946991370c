//! Defines [`Lineup`]: many games of the same bots in one arena of any game, the way `play`
//! plays them through the seam, with each bot's totals.
//!
//! Game `g` uses seed `S+g` and the bot of slot `i` sits in seat `(i + g) mod n`
//! ([`seat_of`]), so every bot plays from every seat. How the games are spread over
//! threads depends on the bots ([`Lineup::play`]); each game is folded into the totals as
//! it ends (`tally.rs`: sums, so `--jobs` never changes a figure), and whole games are kept
//! only when the caller asks for them ([`Keep`]).

use super::bots::BotSpec;
use super::series::{SeriesClientLog, SeriesHost, SeriesLogger};
use crate::bots::{JsonlOptions, JsonlSeat, KeptBot};
use crate::games::{Arena, GameKind, GameOutcome, Match, SeatBot, SeatLog, Stats};
use serde::ser::{Serialize, SerializeMap, Serializer};
use std::net::SocketAddr;
use std::sync::Arc;

pub use crate::games::shared::series::seat_of;

/// The bots of a series of games, by slot, with their labels.
#[derive(Debug, Clone)]
pub struct Lineup {
    pub arena: Arena,
    pub slots: Vec<BotSpec>,
    pub labels: Vec<String>,
    pub games: u32,
    pub seed: u64,
    /// What is kept of each game besides the totals.
    pub keep: Keep,
}

/// What a series keeps of each game besides the totals and the fault report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keep {
    /// Nothing: memory does not grow with the number of games.
    Totals,
    /// Every game's outcome with its decision log, in [`SeriesPlayed::outcomes`] (to
    /// write replays).
    Games,
}

/// How external bots play.
#[derive(Clone)]
pub struct ExternalOptions {
    /// Time for each answer (docs/bots.md).
    pub time_limit_ms: u64,
    /// Limits, sandbox, start-up time.
    pub bots: JsonlOptions,
    /// Where the host of series clients listens (the 2012 Windward clients connect to port
    /// 1707 of the IP they are given).
    pub series_listen: SocketAddr,
    /// Where lines about series clients joining (or not) go.
    pub series_log: SeriesLogger,
    /// A host already listening for the series clients (several lineups played one after
    /// another share it); `None`: each lineup with series clients binds its own at
    /// `series_listen`.
    pub series_host: Option<Arc<SeriesHost>>,
}

impl Default for ExternalOptions {
    fn default() -> ExternalOptions {
        ExternalOptions {
            time_limit_ms: 1000,
            bots: JsonlOptions::default(),
            series_listen: SocketAddr::from((
                std::net::Ipv4Addr::LOCALHOST,
                super::series::DEFAULT_SERIES_PORT,
            )),
            series_log: Arc::new(|line| eprintln!("{line}")),
            series_host: None,
        }
    }
}

impl ExternalOptions {
    /// A host for series clients at `series_listen`, telling `series_log` who joins; the
    /// error says where it could not listen.
    pub async fn bind_series_host(&self) -> Result<SeriesHost, String> {
        let addr = self.series_listen;
        SeriesHost::bind(addr, self.bots.startup_ms, self.series_log.clone())
            .await
            .map_err(|e| format!("cannot listen on {addr} for the series clients: {e}"))
    }
}

/// One bot's totals over the series; serialises to the `play --json` entry, the game's
/// statistics by name.
#[derive(Debug, Clone, PartialEq)]
pub struct SlotTotals {
    pub kind: GameKind,
    pub bot: String,
    pub games: u32,
    pub total_score: i64,
    pub mean_score: f64,
    pub wins: u32,
    pub stats: Stats,
    pub faults: u64,
}

impl SlotTotals {
    /// The statistic called `name` (one of the game's [`GameKind::statistics`]).
    pub fn stat(&self, name: &str) -> Option<u32> {
        let i = self.kind.statistics().iter().position(|n| *n == name)?;
        Some(self.stats.get(i))
    }
}

impl Serialize for SlotTotals {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let names = self.kind.statistics();
        let mut map = serializer.serialize_map(Some(6 + names.len()))?;
        map.serialize_entry("bot", &self.bot)?;
        map.serialize_entry("games", &self.games)?;
        map.serialize_entry("total_score", &self.total_score)?;
        map.serialize_entry("mean_score", &self.mean_score)?;
        map.serialize_entry("wins", &self.wins)?;
        for (i, name) in names.iter().enumerate() {
            map.serialize_entry(name, &u64::from(self.stats.get(i)))?;
        }
        map.serialize_entry("faults", &self.faults)?;
        map.end()
    }
}

/// A series played: each bot's totals, every game's outcome (with [`Keep::Games`]; else
/// none), by game and slot each seat's faults and the log of each JSON-lines bot (when
/// some bot is external; else none), and by slot the log of each series client.
pub struct SeriesPlayed {
    pub totals: Vec<SlotTotals>,
    pub outcomes: Vec<GameOutcome>,
    pub faults: Vec<Vec<u32>>,
    pub logs: Vec<Vec<Option<SeatLog>>>,
    pub clients: Vec<Option<SeriesClientLog>>,
}

/// One game played: its outcome and, by slot, each JSON-lines bot's log.
pub(super) type GamePlayed = (GameOutcome, Vec<Option<SeatLog>>);

impl Lineup {
    pub(super) fn n(&self) -> usize {
        self.slots.len()
    }

    /// The seed of game `g`.
    pub fn seed_of(&self, g: u32) -> u64 {
        self.seed.wrapping_add(u64::from(g))
    }

    /// Slot-ordered values of game `g` put in seat order.
    pub fn by_seat<T: Clone + Default>(&self, g: u32, by_slot: &[T]) -> Vec<T> {
        let mut out = vec![T::default(); self.n()];
        for (slot, v) in by_slot.iter().enumerate() {
            out[seat_of(slot, g, self.n())] = v.clone();
        }
        out
    }

    /// Whether every seat is a built-in AI.
    pub fn all_builtin(&self) -> bool {
        !self.slots.iter().any(BotSpec::is_external)
    }

    /// Where each JSON-lines bot's process waits between `games` games played in order,
    /// by slot (`None` for the other bots).
    pub(super) fn kept_bots(&self, games: u32) -> Vec<Option<KeptBot>> {
        self.slots
            .iter()
            .map(|bot| matches!(bot, BotSpec::Jsonl(_)).then(|| KeptBot::for_games(games)))
            .collect()
    }

    /// Whether some slot is a series client.
    pub fn has_series_clients(&self) -> bool {
        self.slots.iter().any(BotSpec::is_series_client)
    }

    /// Plays the series. With series clients, the games are played in order on the
    /// caller's runtime, since a client plays one game at a time
    /// ([`Lineup::play_with_clients`]); every other series is played off it, from a
    /// blocking thread ([`Lineup::play_on_threads`]), so the caller's runtime is never
    /// blocked and never asked to start another one inside it.
    pub async fn play(
        &self,
        jobs: usize,
        external: &ExternalOptions,
    ) -> Result<SeriesPlayed, String> {
        if external.time_limit_ms == 0 {
            return Err("--time-limit-ms must be at least 1".to_string());
        }
        if self.has_series_clients() {
            return self.play_with_clients(external).await;
        }
        let (lineup, external) = (self.clone(), external.clone());
        let played =
            tokio::task::spawn_blocking(move || lineup.play_on_threads(jobs, &external)).await;
        match played {
            Ok(played) => played,
            Err(e) => match e.try_into_panic() {
                Ok(panic) => std::panic::resume_unwind(panic),
                Err(e) => Err(e.to_string()),
            },
        }
    }

    /// Plays game `g`; `series[slot]` seats the series clients, and `kept[slot]` is where
    /// a JSON-lines bot's process waits between the games one thread plays in order. Gives
    /// the outcome and each JSON-lines bot's log, by slot.
    pub(super) async fn play_game(
        &self,
        g: u32,
        series: &[Option<SeatBot>],
        kept: &[Option<KeptBot>],
        external: &ExternalOptions,
    ) -> Result<GamePlayed, String> {
        let by_slot: Vec<Option<SeatBot>> = self
            .slots
            .iter()
            .enumerate()
            .map(
                |(slot, bot)| match (bot.seat(), kept.get(slot).cloned().flatten()) {
                    (Some(SeatBot::External(seat)), Some(place)) => {
                        Some(SeatBot::External(JsonlSeat {
                            kept: Some(place),
                            ..seat
                        }))
                    }
                    (seat, _) => seat.or_else(|| series.get(slot).cloned().flatten()),
                },
            )
            .collect();
        let seats = self
            .by_seat(g, &by_slot)
            .into_iter()
            .collect::<Option<Vec<SeatBot>>>()
            .ok_or("a series client has no seat")?;
        let names = self.by_seat(g, &self.labels);
        let (outcome, by_seat) = self
            .arena
            .play(Match {
                seed: self.seed_of(g),
                seats,
                names: &names,
                time_limit_ms: external.time_limit_ms,
                options: &external.bots,
            })
            .await?;
        let logs = (0..self.n())
            .map(|slot| by_seat[seat_of(slot, g, self.n())].clone())
            .collect();
        Ok((outcome, logs))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{BuiltinBot, GameSettings};

    fn lineup(kind: GameKind, games: u32) -> Lineup {
        let settings = GameSettings::default_for(kind);
        let pool = Arena::pool(&settings, &["gear-works".to_string()]);
        let ais: Vec<BotSpec> = kind
            .builtin_ais()
            .iter()
            .map(|(name, _)| BotSpec::Builtin(BuiltinBot::parse(kind, name).unwrap()))
            .collect();
        let slots: Vec<BotSpec> = (0..3).map(|s| ais[s % ais.len()].clone()).collect();
        Lineup {
            arena: Arena::load(&settings, &pool[0], 20).unwrap(),
            labels: (0..slots.len()).map(|s| format!("bot{s}")).collect(),
            slots,
            games,
            seed: 9,
            keep: Keep::Games,
        }
    }

    fn play(l: &Lineup, jobs: usize) -> SeriesPlayed {
        l.play_on_threads(jobs, &ExternalOptions::default())
            .unwrap()
    }

    /// The figures depend on the seed and the bots only, not on how many threads play.
    #[test]
    fn totals_do_not_depend_on_the_thread_count() {
        for kind in GameKind::all() {
            let l = lineup(kind, 6);
            let (one, four) = (play(&l, 1), play(&l, 4));
            assert_eq!(one.totals, four.totals, "{kind:?}");
            assert_eq!(one.outcomes, four.outcomes, "{kind:?}");
        }
    }

    /// Without replays a series keeps no game, and its figures are those of the series
    /// that kept every game.
    #[test]
    fn totals_alone_keep_no_game_and_are_the_same() {
        for kind in GameKind::all() {
            let kept = lineup(kind, 5);
            let streamed = Lineup {
                keep: Keep::Totals,
                ..kept.clone()
            };
            let (kept, streamed) = (play(&kept, 2), play(&streamed, 2));
            assert_eq!(kept.outcomes.len(), 5, "{kind:?}");
            assert!(streamed.outcomes.is_empty(), "{kind:?}");
            assert!(streamed.faults.is_empty() && streamed.logs.is_empty());
            assert_eq!(kept.totals, streamed.totals, "{kind:?}");
        }
    }

    /// Slot `i` sits in seat `(i + g) mod n`: each game's outcome is credited to the bot
    /// that played the seat.
    #[test]
    fn seats_rotate_and_totals_follow_the_bots() {
        let l = lineup(GameKind::default(), 3);
        let played = play(&l, 2);
        for (slot, t) in played.totals.iter().enumerate() {
            let expected: i64 = (0..3)
                .map(|g| played.outcomes[g as usize].seats[seat_of(slot, g, 3)].score)
                .sum();
            assert_eq!(t.total_score, expected);
            assert_eq!(t.games, 3);
        }
        assert_eq!(seat_of(2, 1, 3), 0);
    }
}
