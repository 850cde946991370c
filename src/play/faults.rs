//! Defines [`FaultReport`]: for each external bot of a played [`Lineup`], what its author
//! needs to fix it (faults by cause, whether it started, how it ended, the first line that
//! was not an answer and why, the end of its stderr), the same for every game; and the
//! text `play` prints under its table.

use super::lineup::{Lineup, SeriesPlayed};
use super::series::SeriesClientLog;
use crate::games::{BadLine, SeatLog};
use serde::Serialize;

/// What to tell a bot's author whose bot let questions time out with no bad line: by how
/// many answers arrived `late` (after their question's limit) and whether it `answered` any
/// question in time.
pub fn timeout_hint(answered: u32, late: u32) -> String {
    if late > 0 {
        format!(
            "{late} answer(s) arrived after the time limit: either the bot thinks too long \
             (`play --time-limit-ms` with a larger limit tells), or its answers wait in its \
             output buffer until a later one is flushed (Python: print(..., flush=True))"
        )
    } else if answered > 0 {
        "it answered other questions in time: does it flush stdout after every answer, not \
         only some (Python: print(..., flush=True)), and answer every question at once, even \
         one where it has nothing to do?"
            .to_string()
    } else {
        "no answer arrived in time: does the bot flush stdout after each answer (Python: \
         print(..., flush=True))?"
            .to_string()
    }
}

/// Lines of stderr kept in a report.
pub const STDERR_TAIL_LINES: usize = 10;

/// The last [`STDERR_TAIL_LINES`] lines of `text`.
pub fn tail_lines(text: &str) -> Vec<String> {
    last_lines(text.lines(), STDERR_TAIL_LINES)
}

/// The last `n` of `lines`: where a traceback says what went wrong.
pub fn last_lines<'a>(lines: impl IntoIterator<Item = &'a str>, n: usize) -> Vec<String> {
    let lines: Vec<&str> = lines.into_iter().collect();
    lines[lines.len().saturating_sub(n)..]
        .iter()
        .map(|l| l.to_string())
        .collect()
}

/// A JSON-lines bot's faults by cause over the series (its logs count them; a series
/// client's are counted by the games alone).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct FaultCauses {
    pub timeouts: u32,
    /// Lines that were not an answer (unreadable, or an illegal answer).
    pub malformed: u32,
    /// Turns it was silent because it had exited (or never started).
    pub crashed_turns: u32,
    /// Late answers and answers to other turns, thrown away.
    pub discarded: u32,
    /// Of those, answers that arrived after their question's time limit.
    pub late: u32,
    /// Of those, replies to `hello` (at most one a game).
    pub hello_replies: u32,
    /// Of those, lines that were not JSON (likely debug output).
    #[serde(skip)]
    pub hello_not_json: u32,
    /// Usable answers.
    pub answered: u32,
}

/// One external bot's report: an entry of `play --json`'s `external`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FaultReport {
    pub bot: String,
    /// Its faults over the series, as the table counts them.
    pub faults: u64,
    #[serde(flatten)]
    pub causes: Option<FaultCauses>,
    /// The first game (from 0) in which it faulted.
    pub first_faulty_game: Option<u32>,
    /// The turn of its first fault in that game.
    pub first_faulty_turn: Option<u32>,
    /// The game `ended` and `stderr_tail` are from: the first faulty game, else the first
    /// in which it wrote to stderr, else its last game.
    pub stderr_game: Option<u32>,
    /// Why it could not be started.
    pub spawn_error: Option<String>,
    /// The first line it printed that was not an answer (at most 200 bytes), and why.
    pub first_bad_line: Option<String>,
    pub first_bad_why: Option<String>,
    /// What to tell the bot's author about that line, when its usual cause is known.
    #[serde(skip)]
    pub first_bad_hint: Option<&'static str>,
    /// How it ended: `exit 1`, `signal SIGKILL`, ...
    pub ended: Option<String>,
    /// The last lines of its stderr (of a series client that printed none there: of its
    /// stdout).
    pub stderr_tail: Option<String>,
    /// Whether a series client joined its host.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub joined: Option<bool>,
}

/// The report of every external bot of `lineup`, in slot order.
pub fn fault_reports(lineup: &Lineup, played: &SeriesPlayed) -> Vec<FaultReport> {
    let n = lineup.slots.len();
    (0..n)
        .filter(|&slot| lineup.slots[slot].is_external())
        .map(|slot| {
            let faults: Vec<u32> = played.faults.iter().map(|by_slot| by_slot[slot]).collect();
            let label = lineup.labels[slot].clone();
            match played.clients.get(slot).and_then(Option::as_ref) {
                Some(client) => of_client(label, &faults, client),
                None => {
                    let logs: Vec<Option<&SeatLog>> = played
                        .logs
                        .iter()
                        .map(|l| l.get(slot).and_then(Option::as_ref))
                        .collect();
                    of_program(label, &faults, &logs)
                }
            }
        })
        .collect()
}

/// A JSON-lines bot's report from its faults and its log, by game.
fn of_program(bot: String, faults: &[u32], logs: &[Option<&SeatLog>]) -> FaultReport {
    let mine: Vec<&SeatLog> = logs.iter().flatten().copied().collect();
    let sum = |f: fn(&SeatLog) -> u32| -> u32 { mine.iter().map(|l| f(l)).sum() };
    let first_faulty_game = faults.iter().position(|&f| f > 0);
    // A bot without faults may still have hit an error it caught: show the first game in
    // which it wrote to stderr.
    let wrote_to_stderr =
        |l: &&SeatLog| l.exit.as_ref().is_some_and(|e| !e.stderr.text().is_empty());
    let stderr_game = first_faulty_game
        .or_else(|| {
            logs.iter()
                .position(|l| l.as_ref().is_some_and(wrote_to_stderr))
        })
        .or_else(|| logs.iter().rposition(Option::is_some));
    let shown = stderr_game.and_then(|g| logs.get(g).copied().flatten());
    let bad = mine.iter().find_map(|l| l.first_bad_line.as_ref());
    FaultReport {
        bot,
        faults: faults.iter().map(|&f| u64::from(f)).sum(),
        causes: Some(FaultCauses {
            timeouts: sum(SeatLog::timeouts),
            malformed: sum(SeatLog::malformed),
            crashed_turns: sum(SeatLog::crashed_turns),
            discarded: sum(SeatLog::discarded),
            late: sum(|l| l.stats.late),
            hello_replies: sum(|l| l.stats.hello_replies),
            hello_not_json: sum(|l| l.stats.hello_not_json),
            answered: sum(|l| l.stats.answered),
        }),
        first_faulty_game: first_faulty_game.map(|g| g as u32),
        first_faulty_turn: first_faulty_game
            .and_then(|g| logs.get(g).copied().flatten())
            .and_then(|l| l.first_fault_turn),
        stderr_game: stderr_game.map(|g| g as u32),
        spawn_error: mine.iter().find_map(|l| l.spawn_error.clone()),
        first_bad_line: bad.map(|b| b.text.clone()),
        first_bad_why: bad.map(|b| b.why.clone()),
        first_bad_hint: bad.and_then(BadLine::hint),
        ended: shown.and_then(|l| l.exit.as_ref()).map(|e| {
            if e.oom_kills > 0 {
                format!("{} (over the memory limit)", e.status)
            } else {
                e.status.clone()
            }
        }),
        stderr_tail: shown
            .and_then(|l| l.exit.as_ref())
            .map(|e| tail_lines(&e.stderr.text()).join("\n")),
        joined: None,
    }
}

/// A series client's report from its faults by game and its log of the whole series.
fn of_client(bot: String, faults: &[u32], log: &SeriesClientLog) -> FaultReport {
    let mut tail = tail_lines(&log.stderr);
    if tail.is_empty() {
        tail = log.stdout_tail[log.stdout_tail.len().saturating_sub(STDERR_TAIL_LINES)..].to_vec();
    }
    FaultReport {
        bot,
        faults: faults.iter().map(|&f| u64::from(f)).sum(),
        causes: None,
        first_faulty_game: faults.iter().position(|&f| f > 0).map(|g| g as u32),
        first_faulty_turn: None,
        stderr_game: None,
        spawn_error: log.status.strip_prefix("not started: ").map(str::to_string),
        first_bad_line: None,
        first_bad_why: None,
        first_bad_hint: None,
        ended: Some(log.status.clone()),
        stderr_tail: Some(tail.join("\n")),
        joined: Some(log.joined),
    }
}

/// For each bot that faulted (or never started or joined): its faults by cause, how it
/// ended, the first line it printed that was not an answer, the end of its stderr, and a
/// hint for the usual mistakes.
pub fn render(reports: &[FaultReport]) -> String {
    let mut out = String::new();
    for r in reports {
        if r.faults == 0 && r.spawn_error.is_none() && r.joined != Some(false) {
            let thrown = thrown_away(r);
            if !thrown.is_empty() {
                out += &format!("\n{}: 0 faults\n{thrown}", r.bot);
            }
            out += &faultless_stderr(r);
            continue;
        }
        out += &format!("\n{}: {} fault(s)", r.bot, r.faults);
        if let Some(c) = &r.causes {
            out += &format!(
                ": {} timeout(s), {} unreadable answer(s), {} turn(s) after it exited",
                c.timeouts, c.malformed, c.crashed_turns
            );
            // The rest the game itself refused (a move it does not allow, an entry it drops).
            let transport = u64::from(c.timeouts + c.malformed + c.crashed_turns);
            if r.faults > transport {
                out += &format!(", {} refused by the game's rules", r.faults - transport);
            }
        }
        out += "\n";
        if let Some(g) = r.first_faulty_game {
            match r.first_faulty_turn {
                Some(t) => out += &format!("  first faulty game: {g}, at turn {t}\n"),
                None => out += &format!("  first faulty game: {g}\n"),
            }
        }
        out += &thrown_away(r);
        if let Some(e) = &r.spawn_error {
            out += &format!("  could not start: {e}\n");
        } else if let Some(ended) = &r.ended {
            out += &format!("  the bot ended with: {ended}\n");
        }
        if r.joined == Some(false) {
            out += "  it never joined: does it connect to the host and port it is given?\n";
        }
        if let (Some(line), Some(why)) = (&r.first_bad_line, &r.first_bad_why) {
            out += &format!("  first bad line ({why}): \"{line}\"\n");
            if let Some(hint) = r.first_bad_hint {
                out += &format!("  hint: {hint}\n");
            }
        }
        if let Some(c) = &r.causes
            && c.timeouts > 0
            && c.malformed == 0
            && c.crashed_turns == 0
            && r.first_bad_line.is_none()
        {
            out += &format!("  hint: {}\n", timeout_hint(c.answered, c.late));
        }
        match r.stderr_tail.as_deref() {
            Some(tail) if !tail.is_empty() => {
                out += "  last lines of stderr:\n";
                for line in tail.lines() {
                    out += &format!("    {line}\n");
                }
            }
            _ => out += "  stderr: (empty)\n",
        }
    }
    out
}

/// The lines the bot printed that nobody asked for, thrown away (not faults, but a sign of
/// a bot out of step): replies to `hello`, late answers, lines between questions.
fn thrown_away(r: &FaultReport) -> String {
    let Some(c) = &r.causes else {
        return String::new();
    };
    let mut out = String::new();
    if c.hello_replies > 0 && c.hello_not_json == c.hello_replies {
        out += &format!(
            "  a line that is not JSON came before its first answer ({} game(s)): it cost no \
             fault, as a bot may reply to hello, but if it was debug output, write it to stderr\n",
            c.hello_replies
        );
    } else if c.hello_replies > 0 {
        out += &format!(
            "  it answered hello ({} game(s)): a line came before its first answer and was \
             thrown away as a reply to hello; hello is not a question, print nothing after it \
             (and if that line was debug output, write it to stderr)\n",
            c.hello_replies
        );
    }
    let other = c.discarded - c.hello_replies;
    if other > 0 {
        out += &format!(
            "  {other} line(s) thrown away: late answers, answers naming another question, or \
             lines printed while no question was pending\n"
        );
    }
    out
}

/// What a bot without faults wrote to stderr, if anything: its own messages, or an error
/// it caught and survived (a traceback here is a bug even though every answer arrived).
fn faultless_stderr(r: &FaultReport) -> String {
    // A series client's tail may be its stdout, which such clients fill with chatter.
    let Some(tail) = r
        .stderr_tail
        .as_deref()
        .filter(|t| !t.is_empty() && r.causes.is_some())
    else {
        return String::new();
    };
    let game = r
        .stderr_game
        .map(|g| format!(" in game {g}"))
        .unwrap_or_default();
    let mut out = format!(
        "\n{}: 0 faults; the last lines it wrote to stderr{game}:\n",
        r.bot
    );
    for line in tail.lines() {
        out += &format!("    {line}\n");
    }
    out += if holds_error(tail) {
        "  hint: stderr is the bot's own log; a traceback here is an error the bot caught \
         and survived (it still answered): fix it, it may cost points\n"
    } else {
        "  hint: stderr is the bot's own log; nothing it wrote there cost a fault\n"
    };
    out
}

/// Whether `text` holds what a language prints for an error: a Python traceback, an
/// exception or error name (Java, JavaScript, C#), a Rust panic, an `error:` line.
fn holds_error(text: &str) -> bool {
    ["Traceback", "Error", "Exception", "panicked", "error:"]
        .iter()
        .any(|w| text.contains(w))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report() -> FaultReport {
        FaultReport {
            bot: "jsonl:python3 bot.py".to_string(),
            faults: 3,
            causes: Some(FaultCauses {
                malformed: 3,
                ..FaultCauses::default()
            }),
            first_faulty_game: Some(0),
            first_faulty_turn: Some(4),
            stderr_game: Some(0),
            spawn_error: None,
            first_bad_line: Some("DEBUG got turn".to_string()),
            first_bad_why: Some("answer is not JSON: expected value".to_string()),
            first_bad_hint: Some("stdout is for answers only: print debug output to stderr"),
            ended: Some("exit 0".to_string()),
            stderr_tail: Some(String::new()),
            joined: None,
        }
    }

    #[test]
    fn a_bad_line_is_shown_with_why_and_the_hint() {
        let text = render(&[report()]);
        assert!(text.contains("jsonl:python3 bot.py: 3 fault(s): 0 timeout(s), 3 unreadable"));
        assert!(text.contains("first bad line (answer is not JSON: expected value): \"DEBUG"));
        assert!(text.contains("print debug output to stderr"), "{text}");
        assert!(text.contains("the bot ended with: exit 0"), "{text}");
        assert!(text.contains("stderr: (empty)"), "{text}");
        assert!(text.contains("first faulty game: 0, at turn 4\n"), "{text}");
    }

    /// What `render` says of a bot with `faults` counted by `causes` and no bad line.
    fn with_causes(faults: u64, causes: FaultCauses) -> String {
        let mut r = report();
        r.faults = faults;
        r.causes = Some(causes);
        r.first_bad_line = None;
        render(&[r])
    }

    /// A bot that timed out on some questions but answered others is asked whether it
    /// flushes after every answer (not only some) and answers every question.
    #[test]
    fn a_bot_that_skips_some_questions_is_told_to_answer_each() {
        let text = with_causes(
            4,
            FaultCauses {
                timeouts: 4,
                answered: 96,
                ..FaultCauses::default()
            },
        );
        assert!(text.contains("answer every question"), "{text}");
        // It may flush after some answers only (the first question's, say).
        assert!(text.contains("flush stdout after every answer"), "{text}");
        assert!(!text.contains("time limit"), "{text}");
    }

    /// Answers that came after their question's limit: a bot that thinks too long, or one
    /// whose answers wait in its output buffer, is told both, and how to tell them apart.
    #[test]
    fn a_bot_whose_answers_come_late_is_told_of_the_limit() {
        let text = with_causes(
            16,
            FaultCauses {
                timeouts: 16,
                late: 15,
                discarded: 15,
                answered: 4,
                ..FaultCauses::default()
            },
        );
        assert!(
            text.contains("hint: 15 answer(s) arrived after the time limit"),
            "{text}"
        );
        assert!(text.contains("--time-limit-ms"), "{text}");
        assert!(text.contains("flush=True"), "{text}");
    }

    /// Debug text before the first answer is not called a reply to `hello`.
    #[test]
    fn text_before_the_first_answer_is_not_called_a_reply_to_hello() {
        let text = with_causes(
            0,
            FaultCauses {
                discarded: 2,
                hello_replies: 2,
                hello_not_json: 2,
                answered: 100,
                ..FaultCauses::default()
            },
        );
        assert!(
            text.contains("a line that is not JSON came before its first answer (2 game(s))"),
            "{text}"
        );
        assert!(!text.contains("it answered hello"), "{text}");
    }

    /// Lines nobody asked for are not faults, but the bot's author is told of them.
    #[test]
    fn a_bot_that_answers_hello_is_told_even_without_faults() {
        let text = with_causes(
            0,
            FaultCauses {
                discarded: 3,
                hello_replies: 2,
                answered: 100,
                ..FaultCauses::default()
            },
        );
        assert!(
            text.contains("jsonl:python3 bot.py: 0 faults\n  it answered hello (2 game(s)): a line came before its first answer"),
            "{text}"
        );
        assert!(
            text.contains("  1 line(s) thrown away: late answers"),
            "{text}"
        );
    }

    #[test]
    fn a_silent_bot_is_told_to_flush_and_a_clean_one_is_not_shown() {
        let mut silent = report();
        silent.causes = Some(FaultCauses {
            timeouts: 3,
            ..FaultCauses::default()
        });
        silent.first_bad_line = None;
        assert!(render(&[silent]).contains("flush=True"));
        let mut clean = report();
        clean.faults = 0;
        assert_eq!(render(&[clean]), "");
    }

    /// What `render` says of a bot without faults whose stderr in game 2 ends with `tail`.
    fn faultless(tail: &str) -> String {
        let mut r = report();
        r.faults = 0;
        r.stderr_game = Some(2);
        r.stderr_tail = Some(tail.into());
        render(&[r])
    }

    #[test]
    fn a_bot_without_faults_shows_what_it_wrote_to_stderr() {
        let text = faultless("Traceback (most recent call last):\nKeyError: 'x'");
        assert!(
            text.contains("jsonl:python3 bot.py: 0 faults; the last lines it wrote to stderr in game 2:\n    Traceback"),
            "{text}"
        );
        assert!(text.contains("    KeyError: 'x'\n  hint: stderr"), "{text}");
        assert!(text.contains("a traceback here"), "{text}");

        // A bot that only logs its thoughts is not told of a traceback it never wrote.
        let text = faultless("thinking about turn 3\ngoing east");
        assert!(
            text.contains(
                "    going east\n  hint: stderr is the bot's own log; nothing it wrote there cost a fault\n"
            ),
            "{text}"
        );
        assert!(!text.contains("traceback"), "{text}");
    }

    /// The JSON entry: causes beside the rest, `joined` only for series clients.
    #[test]
    fn the_json_entry_has_the_causes_flat() {
        let v = serde_json::to_value(report()).unwrap();
        assert_eq!(v["malformed"], 3);
        assert_eq!(v["first_bad_why"], "answer is not JSON: expected value");
        assert!(v.get("joined").is_none());
        assert!(v["spawn_error"].is_null());
    }
}
