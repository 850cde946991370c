//! Defines [`SeatLog`]: what one external JSON-lines bot did in one game, whatever the
//! game — the one log of the transport, which `play`'s fault report, the stored bot logs,
//! `check`'s smoke games and the tests read.

use super::session::{BadLine, SessionStats};
use crate::bots::process::{ExitReport, StderrLog};
use std::path::PathBuf;

/// What an external bot did in one game: its conversation's counters, where it ran, when
/// it was found gone and how its process ended.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SeatLog {
    /// Queries, answers, faults by cause and discarded lines.
    pub stats: SessionStats,
    /// Why it could not be started (it then crashed every query).
    pub spawn_error: Option<String>,
    /// Its process group (the leader's pid), once started.
    pub pgid: Option<i32>,
    /// The user it ran as, when it had one of its own.
    pub uid: Option<u32>,
    /// The copy of its folder it ran in (removed once it ended).
    pub scratch: Option<PathBuf>,
    /// The turn of the query at which it was found gone (exited, stdout closed, or never
    /// started: the first query's).
    pub crashed_at_turn: Option<u32>,
    /// The turn of its first query without a usable answer (a timeout, an unusable answer
    /// or silence after it was gone) or whose answer the game's rules refused, where a
    /// student starts looking.
    pub first_fault_turn: Option<u32>,
    /// How long its first usable answer took, in milliseconds from the query (start-up
    /// included), for `check`'s report.
    pub first_answer_ms: Option<u64>,
    /// Why its last unusable answer was not one, in the game's words.
    pub last_invalid: Option<String>,
    /// The first line that was not a usable answer, with why.
    pub first_bad_line: Option<BadLine>,
    pub exit: Option<ExitReport>,
}

impl SeatLog {
    /// Queries it did not answer in time.
    pub fn timeouts(&self) -> u32 {
        self.stats.timeouts
    }

    /// Lines that were not an answer (unreadable, or an illegal answer).
    pub fn malformed(&self) -> u32 {
        self.stats.invalid
    }

    /// Queries it was silent because it had exited (or never started).
    pub fn crashed_turns(&self) -> u32 {
        self.stats.crashes
    }

    /// Lines thrown away: late answers, answers to other queries, unsolicited lines.
    pub fn discarded(&self) -> u32 {
        self.stats.discarded()
    }

    /// Queries it gave no usable answer.
    pub fn faults(&self) -> u32 {
        self.timeouts() + self.malformed() + self.crashed_turns()
    }

    /// How its process ended (`exit 0`, `killed by SIGKILL`, `not started: ...`).
    pub fn exit_status(&self) -> String {
        match (&self.spawn_error, &self.exit) {
            (Some(e), _) => format!("not started: {e}"),
            (None, Some(exit)) => exit.status.clone(),
            (None, None) => "unknown".to_string(),
        }
    }

    /// Its capped stderr, once it ended.
    pub fn stderr(&self) -> Option<&StderrLog> {
        self.exit.as_ref().map(|e| &e.stderr)
    }

    /// Its capped stderr as text to show (with a note if some was dropped).
    pub fn stderr_text(&self) -> String {
        self.stderr().map(StderrLog::text).unwrap_or_default()
    }

    /// What the stored log of the game keeps: the harness's notes on what the bot wrote to
    /// stdout that was not an answer (the first such line, why, and the usual cause), each
    /// line starting `[lrs-tourney]`, then its stderr. A student reading `logs` finds there
    /// the line her bot printed by mistake, which its stderr cannot show.
    pub fn stored_text(&self) -> String {
        let mut text = String::new();
        if let Some(bad) = &self.first_bad_line {
            text += &format!(
                "[lrs-tourney] first bad line ({}): \"{}\"\n",
                bad.why, bad.text
            );
            if let Some(hint) = bad.hint() {
                text += &format!("[lrs-tourney] hint: {hint}\n");
            }
        }
        text + &self.stderr_text()
    }
}
