//! The sans-I/O side of one bot's game: which query is pending, which stdout line answers
//! it, and which lines are discarded (docs/bots.md, "Limits and faults").
//!
//! The rule that matters most: a late answer is never taken for a later query. A bot
//! answers one line per query, in order, so after a query timed out the bot owes a line; the
//! next line without a matching echo pays that debt and is discarded. An answer that echoes
//! `"seq"` (exact) or `"turn"` is matched by the echo instead, so a bot that skips a query
//! and echoes is not penalised twice.
//!
//! A bot may answer `hello` with anything, and that line typically arrives while the first
//! query is already pending. So during the first query of a game a line that is not a
//! usable answer is set aside (not taken as the answer); if no usable answer follows before
//! the deadline, the query is `invalid` (the bot did say something unusable), not a timeout.

use super::messages::{self, AnswerError};
pub use crate::bots::process::MAX_LINE_BYTES;
use crate::games::lrs::engine::{Fault, StartQuery, StartReply, TurnQuery, TurnReply};
use crate::games::lrs::remote::View;
use serde_json::{Map, Value};

/// A query in flight.
#[derive(Debug, Clone)]
enum Query {
    Start(StartQuery),
    Turn(TurnQuery),
}

#[derive(Debug, Clone)]
struct PendingQuery {
    seq: u64,
    turn: u16,
    query: Query,
}

/// What came out of the bot's stdout.
#[derive(Debug, Clone, Copy)]
pub enum Incoming<'a> {
    /// One complete line, newline (and a trailing `\r`) removed.
    Line(&'a [u8]),
    /// A line longer than [`MAX_LINE_BYTES`]; its content was not kept.
    TooLong,
}

/// The reply to the pending query.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reply {
    Start(StartReply),
    Turn(TurnReply),
}

impl Reply {
    /// Whether this reply is a fault.
    pub fn fault(self) -> Option<Fault> {
        match self {
            Reply::Start(StartReply::Fault(f)) | Reply::Turn(TurnReply::Fault(f)) => Some(f),
            _ => None,
        }
    }
}

/// Why a line was not used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Discard {
    /// No query was pending.
    Unsolicited,
    /// The late answer to a query that already timed out.
    Late,
    /// It echoes another query's `seq` or `turn`.
    OtherQuery,
    /// An unusable line while the game's first query was pending: perhaps the reply to
    /// `hello`.
    HelloReply,
}

/// What [`Session::on_line`] decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The pending query is answered (possibly with an `Invalid` fault).
    Answered(Reply),
    /// The line is dropped; the pending query (if any) still waits.
    Discarded(Discard),
}

/// Counters of one game, kept for the bot's log.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SessionStats {
    pub queries: u32,
    /// Usable answers.
    pub answered: u32,
    /// Malformed, overlong or illegal answers (`invalid` faults).
    pub invalid: u32,
    pub timeouts: u32,
    /// Queries answered `crash` because the bot was gone.
    pub crashes: u32,
    /// Overlong lines, answers or not.
    pub overlong: u32,
    /// Discarded lines, by reason.
    pub late: u32,
    pub other_query: u32,
    pub unsolicited: u32,
    pub hello_replies: u32,
}

impl SessionStats {
    /// Every discarded stdout line (counted in the bot's log).
    pub fn discarded(&self) -> u32 {
        self.late + self.other_query + self.unsolicited + self.hello_replies
    }
}

/// One bot's conversation during one game.
#[derive(Debug, Clone, Default)]
pub struct Session {
    next_seq: u64,
    pending: Option<PendingQuery>,
    /// Answers owed for queries that timed out.
    owed: u32,
    crashed: bool,
    last_error: Option<String>,
    /// Why the last unusable line seen during the first query was unusable.
    first_query_error: Option<String>,
    /// The first line that was not a usable answer, cut to [`BAD_LINE_BYTES`], with why.
    first_bad_line: Option<BadLine>,
    stats: SessionStats,
}

/// Bytes of a bad line kept to show the student.
pub const BAD_LINE_BYTES: usize = 200;

/// A line that was not a usable answer, as shown to the bot's author.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadLine {
    /// The start of the line (at most [`BAD_LINE_BYTES`] bytes, lossy UTF-8).
    pub text: String,
    pub why: String,
}

impl BadLine {
    fn new(line: Incoming<'_>, why: &str) -> BadLine {
        let text = match line {
            Incoming::Line(bytes) => {
                let cut = &bytes[..bytes.len().min(BAD_LINE_BYTES)];
                crate::bots::shown::shown(cut)
            }
            Incoming::TooLong => format!("(a line longer than {MAX_LINE_BYTES} bytes)"),
        };
        BadLine {
            text,
            why: crate::bots::shown::escape_controls(why),
        }
    }
}

fn with_newline(mut s: String) -> String {
    s.push('\n');
    s
}

impl Session {
    pub fn new() -> Session {
        Session::default()
    }

    pub fn stats(&self) -> SessionStats {
        self.stats
    }

    /// Whether the bot is gone for the rest of the game.
    pub fn is_crashed(&self) -> bool {
        self.crashed
    }

    /// Why the last answer was invalid, for the log.
    pub fn last_error(&self) -> Option<&str> {
        self.last_error.as_deref()
    }

    /// The first line of the game that was not a usable answer.
    pub fn first_bad_line(&self) -> Option<&BadLine> {
        self.first_bad_line.as_ref()
    }

    fn note_bad(&mut self, line: Incoming<'_>, why: &str) {
        if self.first_bad_line.is_none() {
            self.first_bad_line = Some(BadLine::new(line, why));
        }
    }

    /// Whether a query waits for its answer.
    pub fn is_pending(&self) -> bool {
        self.pending.is_some()
    }

    /// Answers owed for timed-out queries.
    pub fn owed(&self) -> u32 {
        self.owed
    }

    fn begin(&mut self, turn: u16, query: Query) -> u64 {
        let seq = self.next_seq + 1;
        self.next_seq = seq;
        self.stats.queries += 1;
        self.pending = Some(PendingQuery { seq, turn, query });
        seq
    }

    /// Makes a start query pending; returns the line to write (newline included).
    pub fn ask_start(&mut self, view: &View, query: &StartQuery) -> String {
        let seq = self.begin(messages::start_turn(view), Query::Start(query.clone()));
        with_newline(messages::start(seq, view, query))
    }

    /// Makes a turn query pending; returns the line to write (newline included).
    pub fn ask_turn(&mut self, view: &View, query: &TurnQuery) -> String {
        let seq = self.begin(view.turn, Query::Turn(*query));
        with_newline(messages::turn(seq, view, query))
    }

    /// The bot gave no answer before the deadline: the pending query is a timeout and the
    /// bot owes a line.
    pub fn on_timeout(&mut self) -> Reply {
        if let Some(why) = self.first_query_error.take() {
            // The bot said something during the first query, just nothing usable.
            self.stats.invalid += 1;
            self.last_error = Some(why);
            return self.close(Fault::Invalid);
        }
        self.stats.timeouts += 1;
        self.owed += 1;
        self.close(Fault::Timeout)
    }

    /// The bot is gone (exited, closed stdout): the pending query, if any, and every later
    /// one is a crash.
    pub fn on_crash(&mut self) -> Option<Reply> {
        self.crashed = true;
        self.pending.is_some().then(|| self.close(Fault::Crash))
    }

    /// A query asked after the bot crashed: answered at once.
    pub fn crashed_reply(&mut self, start: bool) -> Reply {
        self.stats.queries += 1;
        self.stats.crashes += 1;
        if start {
            Reply::Start(StartReply::Fault(Fault::Crash))
        } else {
            Reply::Turn(TurnReply::Fault(Fault::Crash))
        }
    }

    fn close(&mut self, fault: Fault) -> Reply {
        let pending = self.pending.take().expect("a query is pending");
        self.first_query_error = None;
        if fault == Fault::Crash {
            self.stats.crashes += 1;
        }
        match pending.query {
            Query::Start(_) => Reply::Start(StartReply::Fault(fault)),
            Query::Turn(_) => Reply::Turn(TurnReply::Fault(fault)),
        }
    }

    /// An unusable answer. During the game's first query one line that does not look like
    /// an answer (`shaped`: a JSON object naming a square, a facing, a card or an echo) may be
    /// the bot's reply to `hello` and is set aside once; anything else is judged at once.
    fn invalid(&mut self, why: String, line: Incoming<'_>, shaped: bool) -> Verdict {
        self.note_bad(line, &why);
        if !shaped
            && self.first_query_error.is_none()
            && self.stats.hello_replies == 0
            && self.pending.as_ref().is_some_and(|p| p.seq == 1)
        {
            self.first_query_error = Some(why);
            return self.discard(Discard::HelloReply);
        }
        self.stats.invalid += 1;
        self.last_error = Some(why);
        Verdict::Answered(self.close(Fault::Invalid))
    }

    fn discard(&mut self, why: Discard) -> Verdict {
        match why {
            Discard::Late => self.stats.late += 1,
            Discard::OtherQuery => self.stats.other_query += 1,
            Discard::Unsolicited => self.stats.unsolicited += 1,
            Discard::HelloReply => self.stats.hello_replies += 1,
        }
        Verdict::Discarded(why)
    }

    /// Pays one owed answer if there is one.
    fn pay_debt(&mut self) -> bool {
        if self.owed > 0 {
            self.owed -= 1;
            true
        } else {
            false
        }
    }

    /// Decides what a stdout line is.
    pub fn on_line(&mut self, line: Incoming<'_>) -> Verdict {
        if line_is_too_long(line) {
            self.stats.overlong += 1;
        }
        let Some(pending) = self.pending.as_ref() else {
            // Nothing pending: a late answer pays its debt, anything else is unsolicited.
            return if self.pay_debt() {
                self.discard(Discard::Late)
            } else {
                self.note_bad(line, "printed while no question was pending");
                self.discard(Discard::Unsolicited)
            };
        };
        let (seq, turn) = (pending.seq, pending.turn);
        let is_start = matches!(pending.query, Query::Start(_));
        let object = match line {
            Incoming::TooLong => Err(format!("answer longer than {MAX_LINE_BYTES} bytes")),
            Incoming::Line(bytes) => match serde_json::from_slice::<Value>(bytes) {
                Ok(Value::Object(m)) => Ok(m),
                Ok(_) => Err("answer is not a JSON object".to_string()),
                Err(e) => Err(format!("answer is not JSON: {e}")),
            },
        };
        let object = match object {
            Ok(m) => m,
            Err(why) => {
                return if self.pay_debt() {
                    self.discard(Discard::Late)
                } else {
                    self.invalid(why, line, false)
                };
            }
        };
        if let Some(echo) = object.get("seq") {
            if echo.as_u64() == Some(seq) {
                // An exact echo: the bot is in step again.
                self.owed = 0;
                return self.answer(&object, line);
            }
            if echo.as_u64().is_some_and(|s| s < seq) {
                self.pay_debt();
            }
            return self.discard(Discard::OtherQuery);
        }
        if let Some(echo) = object.get("turn") {
            let echoed = echo.as_u64();
            if echoed != Some(u64::from(turn)) {
                if echoed.is_some_and(|t| t < u64::from(turn)) {
                    self.pay_debt();
                }
                return self.discard(Discard::OtherQuery);
            }
            // Same turn: a re-entry query and a turn query can share it, so while a debt
            // is open an answer shaped for the other kind of query is that late answer.
            let shaped_for_start = object.contains_key("x") || object.contains_key("facing");
            let shaped_for_turn = object.contains_key("card");
            let other_shape = if is_start {
                shaped_for_turn && !shaped_for_start
            } else {
                shaped_for_start && !shaped_for_turn
            };
            if other_shape && self.pay_debt() {
                return self.discard(Discard::Late);
            }
            self.owed = 0;
            return self.answer(&object, line);
        }
        if self.pay_debt() {
            return self.discard(Discard::Late);
        }
        self.answer(&object, line)
    }

    fn answer(&mut self, object: &Map<String, Value>, line: Incoming<'_>) -> Verdict {
        let pending = self.pending.as_ref().expect("a query is pending");
        let parsed: Result<Reply, AnswerError> = match &pending.query {
            Query::Start(q) => messages::parse_start_answer(object, q).map(Reply::Start),
            Query::Turn(q) => messages::parse_turn_answer(object, q).map(Reply::Turn),
        };
        match parsed {
            Ok(reply) => {
                self.pending = None;
                self.first_query_error = None;
                self.stats.answered += 1;
                Verdict::Answered(reply)
            }
            Err(e) => {
                let shaped = ["x", "y", "facing", "card", "seq", "turn"]
                    .iter()
                    .any(|k| object.contains_key(*k));
                self.invalid(e.to_string(), line, shaped)
            }
        }
    }
}

fn line_is_too_long(line: Incoming<'_>) -> bool {
    matches!(line, Incoming::TooLong)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::lrs::engine::{Card, Hand, Move, Pos, Robot};

    fn view(turn: u16) -> View {
        View {
            turn,
            repair_on: false,
            robots: vec![Robot::new(Pos::new(0, 0))],
        }
    }

    fn tq(n: usize) -> TurnQuery {
        let mut hand = Hand::default();
        for i in 0..n {
            hand.push(Card {
                mv: Move::Left,
                priority: 10 + i as u16,
            });
        }
        TurnQuery {
            seat: 0,
            hand,
            locked: false,
        }
    }

    fn sq() -> StartQuery {
        StartQuery {
            seat: 0,
            reentry: true,
            options: vec![Pos::new(1, 2)],
        }
    }

    fn line(s: &str) -> Incoming<'_> {
        Incoming::Line(s.as_bytes())
    }

    fn play(card: usize) -> Verdict {
        Verdict::Answered(Reply::Turn(TurnReply::Play {
            card,
            power_down: false,
        }))
    }

    const INVALID: Verdict = Verdict::Answered(Reply::Turn(TurnReply::Fault(Fault::Invalid)));

    /// A session whose first query is behind it.
    fn started() -> Session {
        let mut s = Session::new();
        s.ask_start(&view(0), &sq());
        s.on_line(line(r#"{"x":1,"y":2,"facing":"N"}"#));
        s
    }

    #[test]
    fn a_reply_to_hello_does_not_answer_the_first_query() {
        let mut s = Session::new();
        s.ask_start(&view(0), &sq());
        assert_eq!(
            s.on_line(line(r#"{"ready":true}"#)),
            Verdict::Discarded(Discard::HelloReply)
        );
        assert_eq!(
            s.on_line(line(r#"{"x":1,"y":2,"facing":"S"}"#)),
            Verdict::Answered(Reply::Start(StartReply::Choose {
                pos: Pos::new(1, 2),
                facing: crate::games::lrs::engine::Direction::South
            }))
        );
        assert_eq!(s.stats().hello_replies, 1);
        // Unusable lines only, then the deadline: invalid, and no answer is owed.
        let mut s = Session::new();
        s.ask_start(&view(0), &sq());
        s.on_line(line("garbage"));
        assert_eq!(
            s.on_timeout(),
            Reply::Start(StartReply::Fault(Fault::Invalid))
        );
        assert_eq!(s.owed(), 0);
        assert!(s.last_error().unwrap().contains("not JSON"));
        // Nothing at all: a timeout.
        let mut s = Session::new();
        s.ask_start(&view(0), &sq());
        assert_eq!(
            s.on_timeout(),
            Reply::Start(StartReply::Fault(Fault::Timeout))
        );
    }

    #[test]
    fn an_answer_in_time_answers_the_pending_query() {
        let mut s = Session::new();
        let text = s.ask_turn(&view(3), &tq(4));
        assert!(text.ends_with('\n') && text.contains("\"seq\":1"));
        assert_eq!(s.on_line(line(r#"{"card":3}"#)), play(3));
        assert!(!s.is_pending());
        assert_eq!(s.stats().answered, 1);
    }

    #[test]
    fn lines_while_nothing_is_pending_are_discarded_and_counted() {
        let mut s = Session::new();
        assert_eq!(
            s.on_line(line(r#"{"card":0}"#)),
            Verdict::Discarded(Discard::Unsolicited)
        );
        s.ask_turn(&view(1), &tq(2));
        s.on_line(line(r#"{"card":0}"#));
        assert_eq!(
            s.on_line(line(r#"{"card":1}"#)),
            Verdict::Discarded(Discard::Unsolicited)
        );
        assert_eq!(s.stats().unsolicited, 2);
    }

    #[test]
    fn a_late_answer_is_never_taken_for_the_next_query() {
        let mut s = Session::new();
        s.ask_turn(&view(1), &tq(5));
        assert_eq!(
            s.on_timeout(),
            Reply::Turn(TurnReply::Fault(Fault::Timeout))
        );
        s.ask_turn(&view(2), &tq(5));
        // The answer to turn 1 arrives while turn 2 is pending, with no echo.
        assert_eq!(
            s.on_line(line(r#"{"card":4}"#)),
            Verdict::Discarded(Discard::Late)
        );
        assert!(s.is_pending());
        assert_eq!(s.on_line(line(r#"{"card":2}"#)), play(2));
        assert_eq!(s.stats().late, 1);
        assert_eq!(s.stats().timeouts, 1);
    }

    #[test]
    fn a_late_answer_between_queries_pays_the_debt() {
        let mut s = Session::new();
        s.ask_turn(&view(1), &tq(5));
        s.on_timeout();
        assert_eq!(
            s.on_line(line(r#"{"card":4}"#)),
            Verdict::Discarded(Discard::Late)
        );
        s.ask_turn(&view(2), &tq(5));
        assert_eq!(s.on_line(line(r#"{"card":1}"#)), play(1));
    }

    #[test]
    fn late_garbage_also_pays_the_debt() {
        let mut s = started();
        s.ask_turn(&view(1), &tq(5));
        s.on_timeout();
        s.ask_turn(&view(2), &tq(5));
        assert_eq!(s.on_line(line("oops")), Verdict::Discarded(Discard::Late));
        assert_eq!(s.on_line(line("oops")), INVALID);
    }

    #[test]
    fn an_echo_of_another_turn_is_discarded() {
        let mut s = Session::new();
        s.ask_turn(&view(5), &tq(3));
        assert_eq!(
            s.on_line(line(r#"{"turn":4,"card":0}"#)),
            Verdict::Discarded(Discard::OtherQuery)
        );
        assert_eq!(
            s.on_line(line(r#"{"turn":6,"card":0}"#)),
            Verdict::Discarded(Discard::OtherQuery)
        );
        assert_eq!(s.on_line(line(r#"{"turn":5,"card":1}"#)), play(1));
        assert_eq!(s.stats().other_query, 2);
    }

    #[test]
    fn an_echoing_bot_that_skipped_a_query_is_matched_by_its_echo() {
        let mut s = Session::new();
        s.ask_turn(&view(1), &tq(3));
        s.on_timeout();
        s.ask_turn(&view(2), &tq(3));
        // It never answers turn 1 but echoes turn 2: taken, debt forgiven.
        assert_eq!(s.on_line(line(r#"{"turn":2,"card":2}"#)), play(2));
        assert_eq!(s.owed(), 0);
        s.ask_turn(&view(3), &tq(3));
        assert_eq!(s.on_line(line(r#"{"card":0}"#)), play(0));
    }

    #[test]
    fn seq_echo_tells_a_reentry_answer_from_a_turn_answer_of_the_same_turn() {
        let mut s = Session::new();
        let start_line = s.ask_start(&view(4), &sq());
        assert!(start_line.contains("\"seq\":1") && start_line.contains("\"turn\":4"));
        s.on_timeout();
        s.ask_turn(&view(4), &tq(3));
        // Late start answer echoing seq 1 while seq 2 is pending.
        assert_eq!(
            s.on_line(line(r#"{"seq":1,"x":1,"y":2,"facing":"N"}"#)),
            Verdict::Discarded(Discard::OtherQuery)
        );
        assert_eq!(s.owed(), 0);
        assert_eq!(s.on_line(line(r#"{"seq":2,"card":1}"#)), play(1));
    }

    #[test]
    fn a_late_start_answer_echoing_the_same_turn_is_recognised_by_its_shape() {
        let mut s = Session::new();
        s.ask_start(&view(4), &sq());
        s.on_timeout();
        s.ask_turn(&view(4), &tq(3));
        assert_eq!(
            s.on_line(line(r#"{"turn":4,"x":1,"y":2,"facing":"N"}"#)),
            Verdict::Discarded(Discard::Late)
        );
        assert_eq!(s.on_line(line(r#"{"turn":4,"card":0}"#)), play(0));
    }

    #[test]
    fn malformed_overlong_and_out_of_range_answers_are_invalid() {
        let mut s = started();
        for bad in [
            Incoming::Line(b"not json"),
            Incoming::Line(b"[1,2]"),
            Incoming::Line(b"\xff\xfe"),
            Incoming::Line(br#"{"card":7}"#),
            Incoming::TooLong,
        ] {
            s.ask_turn(&view(1), &tq(3));
            assert_eq!(s.on_line(bad), INVALID);
            assert!(s.last_error().is_some());
        }
        assert_eq!(s.stats().invalid, 5);
        assert_eq!(s.stats().overlong, 1);
    }

    #[test]
    fn start_answers_are_parsed_for_start_queries() {
        let mut s = Session::new();
        s.ask_start(&view(0), &sq());
        assert_eq!(
            s.on_line(line(r#"{"x":1,"y":2,"facing":"E"}"#)),
            Verdict::Answered(Reply::Start(StartReply::Choose {
                pos: Pos::new(1, 2),
                facing: crate::games::lrs::engine::Direction::East
            }))
        );
    }

    #[test]
    fn after_a_crash_every_query_is_a_crash() {
        let mut s = Session::new();
        s.ask_turn(&view(1), &tq(3));
        assert_eq!(
            s.on_crash(),
            Some(Reply::Turn(TurnReply::Fault(Fault::Crash)))
        );
        assert!(s.is_crashed());
        assert_eq!(
            s.crashed_reply(true),
            Reply::Start(StartReply::Fault(Fault::Crash))
        );
        assert_eq!(s.stats().crashes, 2);
        assert_eq!(s.stats().queries, 2);
    }

    #[test]
    fn an_invalid_start_answer_is_judged_at_once() {
        let (view, query) = (view(0), sq());
        let mut s = Session::new();
        s.ask_start(&view, &query);
        // A square not offered: shaped like an answer, so not a reply to `hello`.
        let v = s.on_line(Incoming::Line(br#"{"x":99,"y":99,"facing":"N"}"#));
        assert_eq!(
            v,
            Verdict::Answered(Reply::Start(StartReply::Fault(Fault::Invalid)))
        );
        let bad = s.first_bad_line().expect("kept");
        assert!(bad.text.contains("\"x\":99"), "{bad:?}");
    }

    #[test]
    fn one_unusable_line_may_answer_hello_but_a_second_is_judged_at_once() {
        let (view, query) = (view(0), sq());
        let mut s = Session::new();
        s.ask_start(&view, &query);
        assert_eq!(
            s.on_line(Incoming::Line(b"hi there")),
            Verdict::Discarded(Discard::HelloReply)
        );
        let long = vec![b'z'; 500];
        let v = s.on_line(Incoming::Line(&long));
        assert_eq!(
            v,
            Verdict::Answered(Reply::Start(StartReply::Fault(Fault::Invalid)))
        );
        // The first bad line is the one kept, cut to 200 bytes.
        assert_eq!(s.first_bad_line().unwrap().text, "hi there");
        let mut s = Session::new();
        s.ask_start(&view, &query);
        s.on_line(Incoming::Line(&long));
        assert_eq!(s.first_bad_line().unwrap().text.len(), BAD_LINE_BYTES);
    }
}
