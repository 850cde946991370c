//! Last Robot Standing's JSON-lines codec: the `start` and `turn` queries and how their
//! answers are read (docs/bots.md), for the one JSON-lines [`Session`] every game's bots
//! are driven by.

use super::messages;
pub use crate::games::jsonl::session::{
    BAD_LINE_BYTES, BadLine, Discard, Incoming, MAX_LINE_BYTES, SessionStats,
};
use crate::games::jsonl::session::{Codec, Question};
use crate::games::lrs::engine::{Fault, StartQuery, StartReply, TurnQuery, TurnReply};
use crate::games::lrs::remote::View;
use crate::games::shared::silence::Silence;
use serde_json::{Map, Value};

/// One bot's conversation during one Last Robot Standing game.
pub type Session = crate::games::jsonl::session::Session<LrsCodec>;

/// What the session decided about a line.
pub type Verdict = crate::games::jsonl::session::Verdict<Reply>;

/// A query in flight.
#[derive(Debug, Clone)]
pub enum Query {
    Start(StartQuery),
    Turn(TurnQuery),
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

    fn of_fault(start: bool, fault: Fault) -> Reply {
        if start {
            Reply::Start(StartReply::Fault(fault))
        } else {
            Reply::Turn(TurnReply::Fault(fault))
        }
    }
}

/// Last Robot Standing's queries and answers.
#[derive(Debug, Clone, Copy, Default)]
pub struct LrsCodec;

impl Codec for LrsCodec {
    type Query = Query;
    type Answer = Reply;

    fn read(
        &self,
        _line: &[u8],
        object: &Map<String, Value>,
        query: &Query,
    ) -> Result<(Reply, Option<String>), String> {
        match query {
            Query::Start(q) => messages::parse_start_answer(object, q).map(Reply::Start),
            Query::Turn(q) => messages::parse_turn_answer(object, q).map(Reply::Turn),
        }
        .map(|reply| (reply, None))
        .map_err(|e| e.to_string())
    }

    fn fault(&self, query: &Query, silence: Silence) -> Reply {
        let fault = match silence {
            Silence::Timeout => Fault::Timeout,
            Silence::Crash => Fault::Crash,
            Silence::Malformed => Fault::Invalid,
        };
        Reply::of_fault(matches!(query, Query::Start(_)), fault)
    }

    fn answer_keys(&self) -> &'static [&'static str] {
        &["x", "y", "facing", "card"]
    }

    /// A re-entry query and a turn query can share a turn.
    fn shaped_for_another_query(&self, object: &Map<String, Value>, query: &Query) -> bool {
        let shaped_for_start = object.contains_key("x") || object.contains_key("facing");
        let shaped_for_turn = object.contains_key("card");
        if matches!(query, Query::Start(_)) {
            shaped_for_turn && !shaped_for_start
        } else {
            shaped_for_start && !shaped_for_turn
        }
    }
}

/// The start (or re-entry) query `query`, as the bot is asked it.
pub fn start_question<'a>(
    view: &'a View,
    query: &'a StartQuery,
) -> Question<Query, impl FnOnce(u64) -> String + 'a> {
    Question {
        turn: u32::from(messages::start_turn(view)),
        query: Query::Start(query.clone()),
        line: move |seq| messages::start(seq, view, query),
    }
}

/// The turn query `query`, as the bot is asked it.
pub fn turn_question<'a>(
    view: &'a View,
    query: &'a TurnQuery,
) -> Question<Query, impl FnOnce(u64) -> String + 'a> {
    Question {
        turn: u32::from(view.turn),
        query: Query::Turn(*query),
        line: move |seq| messages::turn(seq, view, query),
    }
}

impl Session {
    /// Makes a start query pending; returns the line to write (newline included).
    pub fn ask_start(&mut self, view: &View, query: &StartQuery) -> String {
        self.ask(start_question(view, query))
    }

    /// Makes a turn query pending; returns the line to write (newline included).
    pub fn ask_turn(&mut self, view: &View, query: &TurnQuery) -> String {
        self.ask(turn_question(view, query))
    }
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
    fn an_answer_in_time_answers_the_pending_query() {
        let mut s = Session::new();
        let text = s.ask_turn(&view(3), &tq(4));
        assert!(text.ends_with('\n') && text.contains("\"seq\":1"));
        assert_eq!(s.on_line(line(r#"{"card":3}"#)), play(3));
        assert!(!s.is_pending());
        assert_eq!(s.stats().answered, 1);
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
            s.crashed_answer(&Query::Start(sq())),
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
    fn silences_are_the_faults_of_the_pending_query_kind() {
        // A bot's silence on a start query faults the start, with the rules' fault.
        let mut s = started();
        s.ask_start(&view(1), &sq());
        assert_eq!(
            s.on_line(line("garbage")),
            Verdict::Answered(Reply::Start(StartReply::Fault(Fault::Invalid)))
        );
        s.ask_turn(&view(1), &tq(3));
        assert_eq!(s.on_line(line(r#"{"card":3}"#)), INVALID);
        assert_eq!(
            s.last_error(),
            Some("card 3 is not an index into a hand of 3")
        );
        s.ask_start(&view(2), &sq());
        assert_eq!(
            s.on_timeout(),
            Reply::Start(StartReply::Fault(Fault::Timeout))
        );
    }
}
