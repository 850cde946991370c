//! Everything a bot sends is read by bounded parsers: arbitrary bytes, documents nested a
//! million levels deep, huge attributes and entity tricks give an answer or a fault, never
//! a panic or a crash. Covers the Windward XML replies (and the server messages test
//! clients read) and the JSON-lines answers of every game.

use lrs_tourney::games::lrs::engine::{
    Card, Hand, Move, Pos, Robot, StartQuery, TurnQuery, TurnReply,
};
use lrs_tourney::games::lrs::engine::{Fault, StartReply};
use lrs_tourney::games::lrs::remote::View;
use lrs_tourney::games::lrs::remote::jsonl::{Incoming, Reply, Session, Verdict};
use lrs_tourney::games::lrs::windward::messages::{
    interpret_start_reply, interpret_turn_reply, parse_join, parse_server_message,
    parse_start_reply, parse_turn_reply,
};
use lrs_tourney::games::{robotgame, robots};
use proptest::prelude::*;

/// Levels of a document far deeper than any recursive parser survives.
const DEEP: usize = 1_000_000;

fn hand() -> Hand {
    let mut hand = Hand::default();
    for (i, mv) in [Move::Forward1, Move::Left, Move::Back]
        .into_iter()
        .enumerate()
    {
        hand.push(Card {
            mv,
            priority: 10 * (i as u16 + 1),
        });
    }
    hand
}

/// Every Windward reader on one text: none may panic, and a played card is in the hand.
fn read_windward(text: &str) -> Option<TurnReply> {
    let _ = parse_join(text);
    let _ = parse_start_reply(text);
    let _ = parse_turn_reply(text);
    let _ = parse_server_message(text);
    let _ = interpret_start_reply(text);
    let hand = hand();
    let late = interpret_turn_reply(text, 3, &hand, true);
    let reply = interpret_turn_reply(text, 3, &hand, false);
    for r in [late, reply].into_iter().flatten() {
        if let TurnReply::Play { card, .. } = r {
            assert!(card < hand.len(), "{r:?}");
        }
    }
    reply
}

/// A turn reply whose card sits `extra` levels below `<cards>`.
fn nested_turn_reply(extra: usize) -> String {
    format!(
        "<turn power-down=\"false\" turn=\"3\"><cards>{}<card move=\"ROTATE_LEFT\" priority=\"20\"/>{}</cards></turn>",
        "<a>".repeat(extra),
        "</a>".repeat(extra)
    )
}

/// Pieces of the protocol's XML and of broken or hostile XML, for documents that get past
/// the first byte.
const XML_PIECES: &[&str] = &[
    "<turn",
    "<cards",
    "<card",
    "<start-position",
    "<join",
    "<a",
    " move=\"ROTATE_LEFT\"",
    " priority=\"20\"",
    " power-down=\"true\"",
    " turn=\"3\"",
    " x=\"1\"",
    " y=\"2\"",
    " direction=\"NORTH\"",
    " name=\"n\"",
    ">",
    "/>",
    "</card>",
    "</cards>",
    "</turn>",
    "</a>",
    "</start-position>",
    "<!-- c -->",
    "&amp;",
    "&#0;",
    "&#x41;",
    "&bogus;",
    "<![CDATA[x]]>",
    "<!DOCTYPE a [<!ENTITY e \"ee\">]>",
    "&e;",
    "<?xml version=\"1.0\"?>",
    "\u{feff}",
    "\"",
    "=",
    " ",
    "\n",
    "text",
    "<",
    "&",
];

fn xml_soup() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(XML_PIECES), 0..60).prop_map(|p| p.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn windward_readers_take_arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..2048)) {
        read_windward(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn windward_readers_take_arbitrary_xml_pieces(text in xml_soup()) {
        read_windward(&text);
    }

    /// The card is found at any depth up to the limit (64, `<turn>` being 1 and `<card>`
    /// 3 + extra); one level more is an invalid reply.
    #[test]
    fn windward_nesting_is_read_to_the_limit_and_invalid_beyond(extra in 0usize..200) {
        let reply = read_windward(&nested_turn_reply(extra));
        if 3 + extra <= 64 {
            prop_assert_eq!(reply, Some(TurnReply::Play { card: 1, power_down: false }));
        } else {
            prop_assert_eq!(reply, Some(TurnReply::Fault(Fault::Invalid)));
        }
    }

    /// Attribute values up to 4 KiB are read; longer ones make the reply invalid.
    #[test]
    fn windward_attribute_values_are_bounded(len in 4000usize..4200, many in 0usize..40) {
        let text = format!(
            "<turn power-down=\"false\" turn=\"3\" note=\"{}\"{}><cards><card move=\"ROTATE_LEFT\" priority=\"20\"/></cards></turn>",
            "x".repeat(len),
            (0..many).map(|i| format!(" k{i}=\"v\"")).collect::<String>()
        );
        let reply = read_windward(&text);
        if len <= 4096 && 3 + many <= 32 {
            prop_assert_eq!(reply, Some(TurnReply::Play { card: 1, power_down: false }));
        } else {
            prop_assert_eq!(reply, Some(TurnReply::Fault(Fault::Invalid)));
        }
    }

    #[test]
    fn json_lines_answers_take_arbitrary_bytes(lines in prop::collection::vec(prop::collection::vec(any::<u8>(), 0..512), 1..6)) {
        let mut session = Session::new();
        for line in &lines {
            json_lines_turn(&mut session, line);
        }
        let _ = robotgame::protocol::read_answer(&lines[0], 3);
        let _ = robots::protocol::read_answer(&String::from_utf8_lossy(&lines[0]), 3, &mut Vec::new());
    }

    #[test]
    fn json_lines_answers_take_json_of_any_depth(depth in 0usize..300, object in any::<bool>()) {
        let line = deep_json(depth, object);
        let mut session = Session::new();
        json_lines_turn(&mut session, line.as_bytes());
        json_lines_turn(&mut session, line.as_bytes());
        let _ = robotgame::protocol::read_answer(line.as_bytes(), 3);
        let _ = robots::protocol::read_answer(&line, 3, &mut Vec::new());
    }
}

/// `[[[...]]]` or `{"card":{"card":...}}`, `depth` levels.
fn deep_json(depth: usize, object: bool) -> String {
    if object {
        format!("{}0{}", "{\"card\":".repeat(depth), "}".repeat(depth))
    } else {
        format!("{}{}", "[".repeat(depth), "]".repeat(depth))
    }
}

/// Asks a turn query of `session` and hands it `line`; returns the verdict, checking that
/// a played card is in the hand.
fn json_lines_turn(session: &mut Session, line: &[u8]) -> Verdict {
    let view = View {
        turn: 3,
        repair_on: false,
        robots: vec![Robot::new(Pos::new(0, 0))],
    };
    let query = TurnQuery {
        seat: 0,
        hand: hand(),
        locked: false,
    };
    if !session.is_pending() {
        session.ask_turn(&view, &query);
    }
    let verdict = session.on_line(Incoming::Line(line));
    if let Verdict::Answered(Reply::Turn(TurnReply::Play { card, .. })) = verdict {
        assert!(card < query.hand.len(), "{verdict:?}");
    }
    verdict
}

#[test]
fn a_windward_reply_nested_a_million_levels_deep_is_invalid() {
    let hand = hand();
    let closed = nested_turn_reply(DEEP);
    assert_eq!(
        interpret_turn_reply(&closed, 3, &hand, false),
        Some(TurnReply::Fault(Fault::Invalid))
    );
    let unclosed = format!("<turn turn=\"3\"><cards>{}", "<a>".repeat(DEEP));
    assert_eq!(
        interpret_turn_reply(&unclosed, 3, &hand, false),
        Some(TurnReply::Fault(Fault::Invalid))
    );
    let start = format!(
        "<start-position direction=\"NORTH\" x=\"0\" y=\"0\">{}{}</start-position>",
        "<a>".repeat(DEEP),
        "</a>".repeat(DEEP)
    );
    assert_eq!(
        interpret_start_reply(&start),
        Some(StartReply::Fault(Fault::Invalid))
    );
    let join = format!(
        "<join name=\"n\" password=\"p\">{}{}</join>",
        "<a>".repeat(DEEP),
        "</a>".repeat(DEEP)
    );
    assert!(parse_join(&join).is_err());
    assert!(parse_server_message(&closed).is_err());
}

#[test]
fn a_windward_reply_with_a_four_megabyte_attribute_or_entity_definitions_is_invalid() {
    let hand = hand();
    let huge = format!(
        "<turn turn=\"3\" x=\"{}\"><cards><card move=\"ROTATE_LEFT\" priority=\"20\"/></cards></turn>",
        "x".repeat(4 << 20)
    );
    assert_eq!(
        interpret_turn_reply(&huge, 3, &hand, false),
        Some(TurnReply::Fault(Fault::Invalid))
    );
    let many = format!(
        "<turn turn=\"3\"{}><cards><card move=\"ROTATE_LEFT\" priority=\"20\"/></cards></turn>",
        (0..200_000)
            .map(|i| format!(" k{i}=\"\""))
            .collect::<String>()
    );
    assert_eq!(
        interpret_turn_reply(&many, 3, &hand, false),
        Some(TurnReply::Fault(Fault::Invalid))
    );
    let laughs = "<!DOCTYPE turn [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\">]><turn turn=\"3\" x=\"&b;\"><cards><card move=\"ROTATE_LEFT\" priority=\"20\"/></cards></turn>";
    assert_eq!(
        interpret_turn_reply(laughs, 3, &hand, false),
        Some(TurnReply::Fault(Fault::Invalid))
    );
}

/// serde_json stops at 128 levels (its recursion limit, on unless the `unbounded_depth`
/// feature is enabled): a million levels is an error, found at the 129th.
#[test]
fn json_nested_a_million_levels_deep_is_malformed_everywhere() {
    for object in [false, true] {
        let line = deep_json(DEEP, object);
        let err = serde_json::from_str::<serde_json::Value>(&line).unwrap_err();
        assert!(
            err.to_string().contains("recursion limit exceeded"),
            "{err}"
        );
        let mut session = Session::new();
        // The first unreadable line of a game may be the bot's reply to `hello`.
        json_lines_turn(&mut session, line.as_bytes());
        assert_eq!(
            json_lines_turn(&mut session, line.as_bytes()),
            Verdict::Answered(Reply::Turn(TurnReply::Fault(Fault::Invalid)))
        );
        assert!(matches!(
            robotgame::protocol::read_answer(line.as_bytes(), 3),
            robotgame::protocol::Reading::Malformed(_)
        ));
        assert!(robots::protocol::read_answer(&line, 3, &mut Vec::new()).is_err());
    }
    let mut session = Session::new();
    let view = View {
        turn: 1,
        repair_on: false,
        robots: vec![Robot::new(Pos::new(0, 0))],
    };
    let query = StartQuery {
        seat: 0,
        reentry: false,
        options: vec![Pos::new(0, 0)],
    };
    session.ask_start(&view, &query);
    let line = deep_json(DEEP, true);
    session.on_line(Incoming::Line(line.as_bytes()));
    assert_eq!(
        session.on_line(Incoming::Line(line.as_bytes())),
        Verdict::Answered(Reply::Start(StartReply::Fault(Fault::Invalid)))
    );
}
