//! The sans-I/O side of one JSON-lines bot's game, for every game: which query is pending,
//! which stdout line answers it, and which lines are discarded (docs/bots.md, "Limits and
//! faults"). What a query says and what an answer means is the game's [`Codec`].
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
//! the deadline, the query is a malformed answer (the bot did say something unusable), not
//! a timeout.

pub use crate::bots::process::MAX_LINE_BYTES;
use crate::games::shared::silence::Silence;
use serde_json::{Map, Value};

/// What a game's queries and answers are, for [`Session`].
pub trait Codec {
    /// A query in flight (enough to read its answer).
    type Query: Clone + std::fmt::Debug;
    /// What the game takes from a usable answer, or a seat's fault.
    type Answer: std::fmt::Debug;

    /// Reads the answer `object` (the JSON object of `line`) to `query`, or says why it is
    /// not a usable one. A usable answer may come with a note: what the game will not take
    /// of it (an entry it drops), shown to the bot's author like a bad line.
    fn read(
        &self,
        line: &[u8],
        object: &Map<String, Value>,
        query: &Self::Query,
    ) -> Result<(Self::Answer, Option<String>), String>;

    /// The answer a seat gives to `query` when it gives none (`silence` says why).
    fn fault(&self, query: &Self::Query, silence: Silence) -> Self::Answer;

    /// Keys that make an object look like an answer (besides `seq` and `turn`): such a
    /// line is judged at once, never set aside as a reply to `hello`.
    fn answer_keys(&self) -> &'static [&'static str];

    /// Whether `object`, which echoes the pending query's turn, is shaped for another kind
    /// of query of that turn (a game whose turn can hold two queries); while a debt is open
    /// it is then the late answer to that other query.
    fn shaped_for_another_query(&self, object: &Map<String, Value>, query: &Self::Query) -> bool {
        let _ = (object, query);
        false
    }
}

/// A query as a game asks it: the turn it belongs to (which an answer may echo), what the
/// session keeps to read its answer, and how its line is written once its sequence number
/// (which the line may carry as `seq`) is known.
pub struct Question<Q, L: FnOnce(u64) -> String> {
    pub turn: u32,
    pub query: Q,
    /// The line for a sequence number, without its newline.
    pub line: L,
}

#[derive(Debug, Clone)]
struct PendingQuery<Q> {
    seq: u64,
    turn: u32,
    query: Q,
}

/// What came out of the bot's stdout.
#[derive(Debug, Clone, Copy)]
pub enum Incoming<'a> {
    /// One complete line, newline (and a trailing `\r`) removed.
    Line(&'a [u8]),
    /// A line longer than [`MAX_LINE_BYTES`]; its content was not kept.
    TooLong,
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
pub enum Verdict<A> {
    /// The pending query is answered (possibly with a fault).
    Answered(A),
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
    /// Of the replies to `hello`, lines that were not JSON at all (more likely debug text
    /// printed before the first answer than a reply).
    pub hello_not_json: u32,
}

impl SessionStats {
    /// Every discarded stdout line (counted in the bot's log).
    pub fn discarded(&self) -> u32 {
        self.late + self.other_query + self.unsolicited + self.hello_replies
    }
}

/// Bytes of a bad line kept to show the student.
pub const BAD_LINE_BYTES: usize = 200;

/// A line that was not a usable answer, as shown to the bot's author.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadLine {
    /// The start of the line (at most [`BAD_LINE_BYTES`] bytes, made printable).
    pub text: String,
    pub why: String,
    pub cause: BadCause,
}

/// What kind of line a bad line was, as far as the session can tell: what decides the hint
/// its author gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BadCause {
    /// Not JSON at all: almost always debug text printed to stdout.
    NotJson,
    /// Printed while no question was pending (and not a late answer).
    Unasked,
    /// JSON the game could not use, or a line too long.
    Unusable,
}

impl BadLine {
    /// What to tell the bot's author, when the usual cause of such a line is known: debug
    /// output printed to stdout.
    pub fn hint(&self) -> Option<&'static str> {
        matches!(self.cause, BadCause::NotJson | BadCause::Unasked)
            .then_some("stdout is for answers only: print debug output to stderr")
    }

    fn new(line: Incoming<'_>, why: &str, cause: BadCause) -> BadLine {
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
            cause,
        }
    }
}

/// One bot's conversation during one game.
#[derive(Debug, Clone)]
pub struct Session<C: Codec> {
    codec: C,
    next_seq: u64,
    pending: Option<PendingQuery<C::Query>>,
    /// Answers owed for queries that timed out.
    owed: u32,
    crashed: bool,
    last_error: Option<String>,
    /// The unusable line set aside during the first query (perhaps a reply to `hello`),
    /// with why: judged at the deadline if no usable answer follows.
    first_query_error: Option<BadLine>,
    /// The first line that was not a usable answer, cut to [`BAD_LINE_BYTES`], with why.
    first_bad_line: Option<BadLine>,
    /// The start of the last usable answer (at most [`BAD_LINE_BYTES`], empty for none),
    /// kept only until a bad line is known: the line a refusal of the game's rules
    /// ([`Session::note_refused`]) is about. One buffer, reused, and made printable only
    /// when a refusal needs it.
    last_answer: Vec<u8>,
    stats: SessionStats,
    /// Whether a usable answer said `"series": true`: the bot may be kept for the next
    /// game of its set (docs/bots.md, "Playing a whole set in one process").
    plays_series: bool,
}

impl<C: Codec + Default> Default for Session<C> {
    fn default() -> Session<C> {
        Session::with(C::default())
    }
}

impl<C: Codec> Session<C> {
    pub fn new() -> Session<C>
    where
        C: Default,
    {
        Session::with(C::default())
    }

    pub fn with(codec: C) -> Session<C> {
        Session {
            codec,
            next_seq: 0,
            pending: None,
            owed: 0,
            crashed: false,
            last_error: None,
            first_query_error: None,
            first_bad_line: None,
            last_answer: Vec::new(),
            stats: SessionStats::default(),
            plays_series: false,
        }
    }

    pub fn stats(&self) -> SessionStats {
        self.stats
    }

    /// Whether one of the bot's usable answers said `"series": true`: it reads the next
    /// game's `hello` after `game_over` instead of exiting.
    pub fn plays_series(&self) -> bool {
        self.plays_series
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

    /// Notes that the game's rules refused (part of) the last usable answer, `why` in the
    /// game's words: the first bad line of a game whose answers all read well.
    pub fn note_refused(&mut self, why: &str) {
        if self.first_bad_line.is_none() && !self.last_answer.is_empty() {
            let line = std::mem::take(&mut self.last_answer);
            self.first_bad_line =
                Some(BadLine::new(Incoming::Line(&line), why, BadCause::Unusable));
        }
    }

    fn note_bad(&mut self, line: Incoming<'_>, why: &str, cause: BadCause) {
        if self.first_bad_line.is_none() {
            self.first_bad_line = Some(BadLine::new(line, why, cause));
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

    /// Makes `query` of turn `turn` pending; returns its sequence number, which the game's
    /// message carries.
    pub fn begin(&mut self, turn: u32, query: C::Query) -> u64 {
        let seq = self.next_seq + 1;
        self.next_seq = seq;
        self.stats.queries += 1;
        self.pending = Some(PendingQuery { seq, turn, query });
        seq
    }

    /// Makes `question` pending; returns its line to write (newline included).
    pub fn ask<L: FnOnce(u64) -> String>(&mut self, question: Question<C::Query, L>) -> String {
        let seq = self.begin(question.turn, question.query);
        let mut line = (question.line)(seq);
        line.push('\n');
        line
    }

    /// The bot gave no answer before the deadline: the pending query is a timeout and the
    /// bot owes a line.
    pub fn on_timeout(&mut self) -> C::Answer {
        if let Some(bad) = self.first_query_error.take() {
            // The bot said something during the first query, just nothing usable.
            self.stats.invalid += 1;
            self.last_error = Some(bad.why.clone());
            self.first_bad_line.get_or_insert(bad);
            return self.close(Silence::Malformed);
        }
        self.stats.timeouts += 1;
        self.owed += 1;
        self.close(Silence::Timeout)
    }

    /// The bot is gone (exited, closed stdout): the pending query, if any, and every later
    /// one is a crash.
    pub fn on_crash(&mut self) -> Option<C::Answer> {
        self.crashed = true;
        self.pending.is_some().then(|| self.close(Silence::Crash))
    }

    /// `query`, asked after the bot crashed: answered at once.
    pub fn crashed_answer(&mut self, query: &C::Query) -> C::Answer {
        self.count_crashed_query();
        self.codec.fault(query, Silence::Crash)
    }

    /// Counts a query asked after the bot crashed, which its caller answers at once.
    pub fn count_crashed_query(&mut self) {
        self.stats.queries += 1;
        self.stats.crashes += 1;
    }

    fn close(&mut self, silence: Silence) -> C::Answer {
        let pending = self.pending.take().expect("a query is pending");
        self.first_query_error = None;
        if silence == Silence::Crash {
            self.stats.crashes += 1;
        }
        self.codec.fault(&pending.query, silence)
    }

    /// An unusable answer. During the game's first query one line that does not look like
    /// an answer (`shaped`: a JSON object with a key of an answer or an echo) may be the
    /// bot's reply to `hello` and is set aside once; anything else is judged at once.
    fn invalid(
        &mut self,
        why: String,
        cause: BadCause,
        line: Incoming<'_>,
        shaped: bool,
    ) -> Verdict<C::Answer> {
        if !shaped
            && self.first_query_error.is_none()
            && self.stats.hello_replies == 0
            && self.pending.as_ref().is_some_and(|p| p.seq == 1)
        {
            // Shown to the bot's author only if nothing usable follows.
            self.first_query_error = Some(BadLine::new(line, &why, cause));
            return self.discard(Discard::HelloReply);
        }
        self.note_bad(line, &why, cause);
        self.stats.invalid += 1;
        self.last_error = Some(why);
        Verdict::Answered(self.close(Silence::Malformed))
    }

    fn discard(&mut self, why: Discard) -> Verdict<C::Answer> {
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
    pub fn on_line(&mut self, line: Incoming<'_>) -> Verdict<C::Answer> {
        if matches!(line, Incoming::TooLong) {
            self.stats.overlong += 1;
        }
        let Some(pending) = self.pending.as_ref() else {
            // Nothing pending: a late answer pays its debt, anything else is unsolicited.
            return if self.pay_debt() {
                self.discard(Discard::Late)
            } else if self.stats.queries == 0 && self.stats.hello_replies == 0 {
                // Before the first question only `hello` was sent: this line is the bot's
                // reply to it, however fast it came (before or after the question went out).
                self.discard(Discard::HelloReply)
            } else {
                self.note_bad(
                    line,
                    "printed while no question was pending",
                    BadCause::Unasked,
                );
                self.discard(Discard::Unsolicited)
            };
        };
        let (seq, turn) = (pending.seq, pending.turn);
        let object = match line {
            Incoming::TooLong => Err((
                format!("answer longer than {MAX_LINE_BYTES} bytes"),
                BadCause::Unusable,
            )),
            Incoming::Line(bytes) => match serde_json::from_slice::<Value>(bytes) {
                Ok(Value::Object(m)) => Ok(m),
                Ok(_) => Err((
                    "answer is not a JSON object".to_string(),
                    BadCause::Unusable,
                )),
                Err(e) => Err((format!("answer is not JSON: {e}"), BadCause::NotJson)),
            },
        };
        let object = match object {
            Ok(m) => m,
            Err((why, cause)) => {
                return if self.pay_debt() {
                    self.discard(Discard::Late)
                } else {
                    self.invalid(why, cause, line, false)
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
            // Same turn: while a debt is open an answer shaped for another query of the
            // turn is that late answer.
            let query = &self.pending.as_ref().expect("a query is pending").query;
            if self.codec.shaped_for_another_query(&object, query) && self.pay_debt() {
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

    fn answer(&mut self, object: &Map<String, Value>, line: Incoming<'_>) -> Verdict<C::Answer> {
        let pending = self.pending.as_ref().expect("a query is pending");
        let bytes = match line {
            Incoming::Line(bytes) => bytes,
            Incoming::TooLong => &[],
        };
        match self.codec.read(bytes, object, &pending.query) {
            Ok((answer, note)) => {
                if let Some(why) = note {
                    self.note_bad(line, &why, BadCause::Unusable);
                } else if self.first_bad_line.is_none() {
                    self.last_answer.clear();
                    self.last_answer
                        .extend_from_slice(&bytes[..bytes.len().min(BAD_LINE_BYTES)]);
                }
                self.pending = None;
                // The line set aside is now a reply to `hello` for good.
                if self
                    .first_query_error
                    .take()
                    .is_some_and(|bad| bad.cause == BadCause::NotJson)
                {
                    self.stats.hello_not_json += 1;
                }
                self.stats.answered += 1;
                self.plays_series |= object.get("series") == Some(&Value::Bool(true));
                Verdict::Answered(answer)
            }
            Err(why) => {
                let shaped = ["seq", "turn"]
                    .iter()
                    .chain(self.codec.answer_keys())
                    .any(|k| object.contains_key(*k));
                self.invalid(why, BadCause::Unusable, line, shaped)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    //! The transport's rules, with the simplest codec: a query is its turn, an answer
    //! `{"pick":k}` takes choice `k < 5`. What a game's own answers are is tested with its
    //! codec.
    use super::*;
    use crate::games::jsonl::turns::{Reading, TurnCodec};

    type S = Session<TurnCodec<u64>>;
    type V = Verdict<Result<u64, Silence>>;

    fn pick(line: &[u8], _turn: u32) -> Reading<u64> {
        let object: Value = serde_json::from_slice(line).unwrap_or_default();
        match object.get("pick").and_then(Value::as_u64) {
            Some(k) if k < 5 => Reading::Answer(k),
            _ => Reading::Malformed(format!("{} is not a choice of 5", object["pick"])),
        }
    }

    fn new() -> S {
        Session::with(TurnCodec { read: pick })
    }

    /// Asks the query of `turn`; returns its line.
    fn ask(s: &mut S, turn: u32) -> String {
        s.ask(Question {
            turn,
            query: turn,
            line: move |seq| format!(r#"{{"turn":{turn},"seq":{seq}}}"#),
        })
    }

    /// A session with the query of `turn` pending, its first query behind it if `started`.
    fn asking(turn: u32, started: bool) -> S {
        let mut s = new();
        if started {
            ask(&mut s, 0);
            assert_eq!(s.on_line(line(r#"{"pick":0}"#)), picked(0));
        }
        ask(&mut s, turn);
        s
    }

    /// A session whose query of `turn` timed out, and with the query of `next` pending.
    fn owing(turn: u32, next: u32) -> S {
        let mut s = asking(turn, true);
        assert_eq!(s.on_timeout(), Err(Silence::Timeout));
        assert_eq!(s.owed(), 1);
        ask(&mut s, next);
        s
    }

    fn line(s: &str) -> Incoming<'_> {
        Incoming::Line(s.as_bytes())
    }

    fn picked(k: u64) -> V {
        Verdict::Answered(Ok(k))
    }

    const INVALID: V = Verdict::Answered(Err(Silence::Malformed));
    const LATE: V = Verdict::Discarded(Discard::Late);
    const OTHER: V = Verdict::Discarded(Discard::OtherQuery);
    const HELLO: V = Verdict::Discarded(Discard::HelloReply);

    #[test]
    fn a_reply_to_hello_does_not_answer_the_first_query() {
        let mut s = asking(1, false);
        assert_eq!(s.on_line(line(r#"{"ready":true}"#)), HELLO);
        assert_eq!(s.on_line(line(r#"{"pick":2}"#)), picked(2));
        assert_eq!(s.stats().hello_replies, 1);
        assert_eq!(s.stats().hello_not_json, 0);
        // Text before the first answer is counted as such (it is likely debug output).
        let mut s = asking(1, false);
        assert_eq!(s.on_line(line("DEBUG turn 1")), HELLO);
        assert_eq!(s.on_line(line(r#"{"pick":2}"#)), picked(2));
        assert_eq!((s.stats().hello_replies, s.stats().hello_not_json), (1, 1));
        // Unusable lines only, then the deadline: invalid, and no answer is owed.
        let mut s = asking(1, false);
        assert_eq!(s.on_line(line("garbage")), HELLO);
        assert_eq!(s.on_timeout(), Err(Silence::Malformed));
        assert_eq!(s.owed(), 0);
        assert!(s.last_error().unwrap().contains("not JSON"));
        assert_eq!(s.stats().invalid, 1);
        // Nothing at all: a timeout, and the bot owes a line.
        let mut s = asking(1, false);
        assert_eq!(s.on_timeout(), Err(Silence::Timeout));
        assert_eq!((s.owed(), s.stats().timeouts), (1, 1));
    }

    #[test]
    fn an_answer_in_time_answers_the_pending_query() {
        let mut s = new();
        assert_eq!(ask(&mut s, 3), "{\"turn\":3,\"seq\":1}\n");
        assert_eq!(s.on_line(line(r#"{"pick":3}"#)), picked(3));
        assert!(!s.is_pending());
        assert_eq!(s.stats().answered, 1);
        assert_eq!(ask(&mut s, 4), "{\"turn\":4,\"seq\":2}\n");
    }

    #[test]
    fn lines_while_nothing_is_pending_are_discarded_and_counted() {
        let mut s = new();
        let unsolicited = Verdict::Discarded(Discard::Unsolicited);
        // Before any question, a line is a reply to `hello`, whether it came before the
        // first question went out or after (a_reply_to_hello_does_not_answer_...).
        assert_eq!(s.on_line(line(r#"{"ready":true}"#)), HELLO);
        ask(&mut s, 1);
        assert_eq!(s.on_line(line(r#"{"pick":0}"#)), picked(0));
        assert_eq!(s.on_line(line(r#"{"pick":0}"#)), unsolicited);
        assert_eq!(s.on_line(line(r#"{"pick":1}"#)), unsolicited);
        assert_eq!(s.stats().unsolicited, 2);
        assert_eq!(s.stats().hello_replies, 1);
        assert_eq!(s.stats().discarded(), 3);
        // The first of them is kept to show the bot's author.
        let bad = s.first_bad_line().expect("kept");
        assert_eq!(bad.text, r#"{"pick":0}"#);
        assert_eq!(bad.why, "printed while no question was pending");
        assert_eq!(bad.cause, BadCause::Unasked);
        assert!(
            bad.hint()
                .is_some_and(|h| h.contains("debug output to stderr"))
        );
    }

    /// Debug text is told to go to stderr; JSON the game cannot use is not.
    #[test]
    fn only_a_line_that_is_not_json_or_unasked_gets_the_debug_hint() {
        let cases = [
            ("thinking about turn 2", BadCause::NotJson, true),
            ("[1, 2]", BadCause::Unusable, false),
        ];
        for (text, cause, hinted) in cases {
            let mut s = new();
            ask(&mut s, 1);
            assert_eq!(s.on_line(line(r#"{"pick":0}"#)), picked(0));
            ask(&mut s, 2);
            assert_eq!(s.on_line(line(text)), INVALID, "{text}");
            let bad = s.first_bad_line().expect("kept");
            assert_eq!((bad.text.as_str(), bad.cause), (text, cause));
            assert_eq!(bad.hint().is_some(), hinted, "{text}");
        }
    }

    #[test]
    fn a_late_answer_is_never_taken_for_the_next_query() {
        // The answer to turn 1 arrives while turn 2 is pending, with no echo.
        let mut s = owing(1, 2);
        assert_eq!(s.on_line(line(r#"{"pick":4}"#)), LATE);
        assert!(s.is_pending());
        assert_eq!(s.on_line(line(r#"{"pick":2}"#)), picked(2));
        assert_eq!((s.stats().late, s.stats().timeouts), (1, 1));
        // Late garbage pays the debt too; the next garbage is this query's fault.
        let mut s = owing(1, 2);
        assert_eq!(s.on_line(line("oops")), LATE);
        assert_eq!(s.on_line(line("oops")), INVALID);
    }

    #[test]
    fn a_late_answer_between_queries_pays_the_debt() {
        let mut s = asking(1, true);
        assert_eq!(s.on_timeout(), Err(Silence::Timeout));
        assert_eq!(s.on_line(line(r#"{"pick":4}"#)), LATE);
        assert_eq!(s.owed(), 0);
        ask(&mut s, 2);
        assert_eq!(s.on_line(line(r#"{"pick":1}"#)), picked(1));
    }

    #[test]
    fn echoes_match_answers_to_their_query() {
        // Another turn's echo is discarded, whichever the turn.
        let mut s = asking(5, true);
        assert_eq!(s.on_line(line(r#"{"turn":4,"pick":0}"#)), OTHER);
        assert_eq!(s.on_line(line(r#"{"turn":6,"pick":0}"#)), OTHER);
        assert_eq!(s.on_line(line(r#"{"turn":5,"pick":1}"#)), picked(1));
        assert_eq!(s.stats().other_query, 2);
        // A bot that skipped a query and echoes the next is taken, its debt forgiven.
        let mut s = owing(1, 2);
        assert_eq!(s.on_line(line(r#"{"turn":2,"pick":2}"#)), picked(2));
        assert_eq!(s.owed(), 0);
        ask(&mut s, 3);
        assert_eq!(s.on_line(line(r#"{"pick":0}"#)), picked(0));
        // An older `seq` pays the debt; the exact one answers.
        let mut s = owing(4, 4);
        assert_eq!(s.on_line(line(r#"{"seq":2,"pick":1}"#)), OTHER);
        assert_eq!(s.owed(), 0);
        assert_eq!(s.on_line(line(r#"{"seq":3,"pick":1}"#)), picked(1));
    }

    /// Only a usable answer says the bot plays a whole set; `"series"` of any other value,
    /// or on a line that answers nothing, does not.
    #[test]
    fn a_usable_answer_with_series_true_says_the_bot_plays_a_set() {
        let mut s = asking(1, true);
        assert_eq!(s.on_line(line(r#"{"pick":9,"series":true}"#)), INVALID);
        ask(&mut s, 2);
        assert_eq!(s.on_line(line(r#"{"pick":1,"series":"yes"}"#)), picked(1));
        assert!(!s.plays_series());
        assert_eq!(
            s.on_line(line(r#"{"pick":1,"series":true}"#)),
            Verdict::Discarded(Discard::Unsolicited)
        );
        assert!(!s.plays_series());
        ask(&mut s, 3);
        assert_eq!(s.on_line(line(r#"{"pick":2,"series":true}"#)), picked(2));
        assert!(s.plays_series());
        ask(&mut s, 4);
        assert_eq!(s.on_line(line(r#"{"pick":3}"#)), picked(3));
        assert!(s.plays_series(), "said once is enough");
    }

    #[test]
    fn malformed_overlong_and_out_of_range_answers_are_invalid() {
        let mut s = asking(1, true);
        assert_eq!(s.on_line(line(r#"{"pick":0}"#)), picked(0));
        for bad in [
            Incoming::Line(b"not json"),
            Incoming::Line(b"[1,2]"),
            Incoming::Line(b"\xff\xfe"),
            Incoming::Line(br#"{"pick":7}"#),
            Incoming::TooLong,
        ] {
            ask(&mut s, 2);
            assert_eq!(s.on_line(bad), INVALID);
        }
        let too_long = format!("answer longer than {MAX_LINE_BYTES} bytes");
        assert_eq!(s.last_error(), Some(too_long.as_str()));
        assert_eq!((s.stats().invalid, s.stats().overlong), (5, 1));
        assert_eq!(s.first_bad_line().unwrap().text, "not json");
    }

    #[test]
    fn after_a_crash_every_query_is_a_crash() {
        let mut s = asking(1, false);
        assert_eq!(s.on_crash(), Some(Err(Silence::Crash)));
        assert!(s.is_crashed());
        assert_eq!(s.crashed_answer(&2), Err(Silence::Crash));
        assert_eq!((s.stats().crashes, s.stats().queries), (2, 2));
        // Nothing pending: nothing to answer.
        assert_eq!(s.on_crash(), None);
    }

    #[test]
    fn an_answer_shaped_line_is_judged_at_once_even_during_the_first_query() {
        let mut s = asking(1, false);
        assert_eq!(s.on_line(line(r#"{"turn":1,"pick":99}"#)), INVALID);
        let bad = s.first_bad_line().expect("kept");
        assert_eq!(bad.text, r#"{"turn":1,"pick":99}"#);
        assert_eq!(bad.why, "99 is not a choice of 5");
    }

    #[test]
    fn one_unusable_line_may_answer_hello_but_a_second_is_judged_at_once() {
        let mut s = asking(1, false);
        assert_eq!(s.on_line(line("hi there")), HELLO);
        let long = vec![b'z'; 500];
        assert_eq!(s.on_line(Incoming::Line(&long)), INVALID);
        // The line that made the fault is the one shown, cut to its first bytes: the
        // greeting set aside was no fault.
        assert_eq!(s.first_bad_line().unwrap().text, "z".repeat(BAD_LINE_BYTES));
        let mut s = asking(1, false);
        assert_eq!(s.on_line(Incoming::Line(&long)), HELLO);
        // Set aside, it is shown once nothing usable followed before the deadline.
        assert!(s.first_bad_line().is_none());
        assert_eq!(s.on_timeout(), Err(Silence::Malformed));
        assert_eq!(s.first_bad_line().unwrap().text.len(), BAD_LINE_BYTES);
    }
}
