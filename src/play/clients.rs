//! A [`Lineup`] with series clients (Last Robot Standing's 2012 Windward clients): each
//! client is started once, joins the run's [`SeriesHost`] once and plays every game of the
//! series over that connection, as in a tournament; JSON-lines bots are started for the
//! first game and kept for the next when they say they play a whole set. Games are played
//! in order, since a client plays one game at a time.

use super::lineup::{ExternalOptions, Lineup, SeriesPlayed};
use super::series::SeriesClient;
use super::tally::Tally;
use crate::bots::KeptBot;
use crate::games::SeatBot;
use std::sync::Arc;

impl Lineup {
    /// Starts the series clients, plays every game in order with them, and finishes them
    /// (their logs go with the result). A game that fails ends the series after the
    /// clients are finished.
    pub(super) async fn play_with_clients(
        &self,
        external: &ExternalOptions,
    ) -> Result<SeriesPlayed, String> {
        let host = match &external.series_host {
            Some(host) => host.clone(),
            None => Arc::new(external.bind_series_host().await?),
        };
        let starts = self
            .slots
            .iter()
            .enumerate()
            .filter(|(_, bot)| bot.is_series_client())
            .filter_map(|(slot, bot)| Some((slot, bot.command()?, format!("bot{}", slot + 1))))
            .collect();
        let clients: Vec<(usize, SeriesClient)> = host
            .start_all(
                &self.arena,
                u64::from(self.games),
                external.time_limit_ms,
                &external.bots,
                starts,
            )
            .await
            .map_err(|e| format!("cannot start the series clients: {e}"))?;
        let mut seats: Vec<Option<SeatBot>> = vec![None; self.n()];
        for (slot, client) in &clients {
            seats[*slot] = Some(SeatBot::Series(client.series_seat()));
        }
        let kept = self.kept_bots(self.games);
        let mut tally = Tally::new(self);
        for g in 0..self.games {
            match self.play_game(g, &seats, &kept, external).await {
                Ok(played) => tally.add(g, played),
                Err(e) => {
                    tally.failed(g, e);
                    break;
                }
            }
        }
        drop(seats);
        futures_util::future::join_all(kept.iter().flatten().map(KeptBot::end)).await;
        let mut logs = vec![None; self.n()];
        for (slot, client) in clients {
            let log = client.finish().await;
            if !log.joined {
                (external.series_log)(format!(
                    "{}: the client never joined ({}){}",
                    self.labels[slot],
                    log.status,
                    first_lines(&log.stderr)
                ));
            }
            logs[slot] = Some(log);
        }
        tally.finish(logs)
    }
}

/// The first lines of a log, for a one-line diagnostic.
fn first_lines(text: &str) -> String {
    let lines: Vec<&str> = text.lines().take(3).collect();
    if lines.is_empty() {
        String::new()
    } else {
        format!("; stderr: {}", lines.join(" | "))
    }
}
