//! Progress reporting for a run: indicatif bars on a terminal, plain lines in logs, or
//! nothing.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Where lines from outside the runner's loop go (the series host's joins and
/// refusals): above the bar, as log lines, or nowhere, as the run's mode says.
struct Sink {
    mode: ProgressMode,
    bar: Option<ProgressBar>,
}

static SINK: Mutex<Sink> = Mutex::new(Sink {
    mode: ProgressMode::Plain,
    bar: None,
});

fn sink() -> std::sync::MutexGuard<'static, Sink> {
    SINK.lock().unwrap_or_else(|e| e.into_inner())
}

/// Sets the mode lines from outside the loop are shown in (before the display exists).
pub fn set_line_mode(mode: ProgressMode) {
    sink().mode = mode;
}

/// Shows a line the way the run's progress is shown: above the bars, as a log line, or
/// not at all with `--quiet`, so that it never garbles the bars.
pub fn line(text: &str) {
    let sink = sink();
    match (&sink.bar, sink.mode) {
        (Some(bar), _) => bar.println(text),
        (None, ProgressMode::Quiet) => {}
        (None, _) => eprintln!("{text}"),
    }
}

/// How a run reports progress (on stderr).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProgressMode {
    /// Live bars (a terminal).
    Bars,
    /// A line every few seconds and one per finished round (logs, CI).
    Plain,
    /// Nothing but errors.
    Quiet,
}

impl ProgressMode {
    /// Bars on a terminal, plain lines otherwise.
    pub fn auto() -> ProgressMode {
        use std::io::IsTerminal;
        if std::io::stderr().is_terminal() {
            ProgressMode::Bars
        } else {
            ProgressMode::Plain
        }
    }
}

/// The run's progress display.
pub struct Progress {
    mode: ProgressMode,
    bar: Option<ProgressBar>,
    total: u64,
    done: u64,
    started: Instant,
    done_at_start: u64,
    last_line: Instant,
}

const PLAIN_EVERY: Duration = Duration::from_secs(5);

impl Progress {
    pub fn new(mode: ProgressMode, total: u64, done: u64) -> Progress {
        let bar = (mode == ProgressMode::Bars).then(|| {
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
            let style = ProgressStyle::with_template(
                "{elapsed_precise} [{bar:30.cyan/blue}] {pos}/{len} games  {per_sec}  ETA {eta}\n{msg}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> ");
            bar.set_style(style);
            bar.set_position(done);
            bar.enable_steady_tick(Duration::from_millis(200));
            bar
        });
        {
            let mut sink = sink();
            sink.mode = mode;
            sink.bar = bar.clone();
        }
        Progress {
            mode,
            bar,
            total,
            done,
            started: Instant::now(),
            done_at_start: done,
            last_line: Instant::now(),
        }
    }

    /// One more game stored.
    pub fn game_done(&mut self) {
        self.done += 1;
        if let Some(bar) = &self.bar {
            bar.set_position(self.done);
        } else if self.mode == ProgressMode::Plain && self.last_line.elapsed() >= PLAIN_EVERY {
            self.last_line = Instant::now();
            eprintln!("progress: {}", self.figures());
        }
    }

    /// What is being played now (shown under the bar).
    pub fn set_current(&self, text: String) {
        if let Some(bar) = &self.bar {
            bar.set_message(text);
        }
    }

    /// A notable event (a stage or round finished): a line above the bar, or a log line.
    pub fn note(&self, text: &str) {
        match (&self.bar, self.mode) {
            (Some(bar), _) => bar.println(text),
            (None, ProgressMode::Plain) => eprintln!("{text}"),
            _ => {}
        }
    }

    /// Starts counting again from `done` of `total` games (a rerun, once its new games are
    /// stored and the sets it invalidated no longer count as done).
    pub fn restart(&mut self, total: u64, done: u64) {
        self.total = total;
        self.done = done;
        self.done_at_start = done;
        self.started = Instant::now();
        self.last_line = Instant::now();
        if let Some(bar) = &self.bar {
            bar.set_length(total);
            bar.set_position(done);
            bar.reset_eta();
        }
    }

    /// Grows the total when the bracket turns out bigger than estimated (it never should).
    pub fn ensure_total(&mut self, at_least: u64) {
        if at_least > self.total {
            self.total = at_least;
            if let Some(bar) = &self.bar {
                bar.set_length(at_least);
            }
        }
    }

    fn figures(&self) -> String {
        let done = format!(
            "{}/{} games ({:.0}%)",
            self.done,
            self.total,
            100.0 * self.done as f64 / self.total.max(1) as f64
        );
        let played = self.done - self.done_at_start;
        if played == 0 {
            // Nothing played by this run yet (or at all: a resumed or re-run tournament
            // with nothing left): a rate of 0 games/s would only mislead.
            return done;
        }
        let secs = self.started.elapsed().as_secs_f64().max(1e-9);
        let rate = played as f64 / secs;
        let left = self.total.saturating_sub(self.done) as f64;
        format!("{done}, {rate:.0} games/s, ETA {:.0}s", left / rate)
    }

    /// Clears the bar; plain mode prints the final figures.
    pub fn finish(&self) {
        sink().bar = None;
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        } else if self.mode == ProgressMode::Plain {
            eprintln!("progress: {}", self.figures());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_give_a_rate_only_once_games_were_played() {
        let mut p = Progress::new(ProgressMode::Quiet, 10, 4);
        assert_eq!(p.figures(), "4/10 games (40%)");
        p.game_done();
        let line = p.figures();
        assert!(line.starts_with("5/10 games (50%), "), "{line}");
        assert!(line.contains(" games/s, ETA "), "{line}");
    }

    #[test]
    fn a_restart_counts_from_what_is_stored_now() {
        // A finished bracket of 70 games, 10 of which a rerun invalidated.
        let mut p = Progress::new(ProgressMode::Quiet, 70, 70);
        p.restart(70, 60);
        for _ in 0..10 {
            p.game_done();
        }
        assert!(
            p.figures().starts_with("70/70 games (100%)"),
            "{}",
            p.figures()
        );
    }
}

/// A team whose bot has this many faults (timeouts, unreadable answers, crashes) in the
/// games of a run gets a warning while the run goes on: a broken bot is noticed on the day,
/// not in the report. About a sixth of a 60-turn game.
pub const FAULT_WARNING: u32 = 10;

/// Each team's faults in the games stored by this run, to warn once per team when they
/// pass [`FAULT_WARNING`].
#[derive(Debug, Default)]
pub struct FaultWatch {
    faults: std::collections::HashMap<crate::tourney::model::TeamId, u32>,
}

impl FaultWatch {
    /// Adds `faults` of `team`; its total when this game takes it to
    /// [`FAULT_WARNING`] or past it for the first time.
    pub fn add(&mut self, team: crate::tourney::model::TeamId, faults: u32) -> Option<u32> {
        if faults == 0 {
            return None;
        }
        let total = self.faults.entry(team).or_default();
        let before = *total;
        *total += faults;
        (before < FAULT_WARNING && *total >= FAULT_WARNING).then_some(*total)
    }
}
