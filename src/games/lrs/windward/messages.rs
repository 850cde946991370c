//! The XML messages of the Windward protocol (docs/bots.md): building what the
//! server sends (`<start-position>`, `<turn>`), reading what clients answer (`<join>`,
//! `<start-position .../>`, `<turn ...>`), and — for test clients and tools — the reverse
//! directions, so every message can be checked by parsing what was built.
//!
//! Parsing accepts an XML declaration, a byte-order mark, comments and pretty-printed input.
//!
//! Player identifiers (`guid`) are GUID-shaped strings derived from the seat
//! ([`player_guid`]): the 2012 clients only compare them with `your-guid`, and a real GUID
//! shape keeps clients that parse them as GUIDs working. Seat 0 is not the all-zero GUID.

use super::xml::{self, Document, Node};
use crate::games::lrs::boards::{WindwardMapError, from_windward_map};
use crate::games::lrs::engine::robot::LOCKED_DAMAGE;
use crate::games::lrs::engine::{
    Board, Card, Direction, Fault, Hand, Move, Pos, Power, Robot, Seat, StartQuery, StartReply,
    Status, TurnQuery, TurnReply,
};
use crate::games::lrs::remote::View;
use std::fmt::Write as _;
use thiserror::Error;

/// Why a message could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MessageError {
    #[error("bad XML: {0}")]
    Xml(String),
    #[error("expected a <{expected}> message, got <{found}>")]
    Root {
        expected: &'static str,
        found: String,
    },
    #[error("<{element}> lacks the attribute {attribute:?}")]
    MissingAttribute { element: String, attribute: String },
    #[error("<{element} {attribute}={value:?}>: expected {expected}")]
    BadAttribute {
        element: String,
        attribute: String,
        value: String,
        expected: &'static str,
    },
    #[error("<{parent}> lacks a <{child}> element")]
    MissingElement { parent: String, child: String },
    #[error("{0}")]
    Map(#[from] WindwardMapError),
}

/// The `guid` of the player in `seat`: `00000000-0000-0000-0000-000000000001` for seat 0.
pub fn player_guid(seat: Seat) -> String {
    format!("00000000-0000-0000-0000-{:012x}", seat + 1)
}

/// The seat of a guid made by [`player_guid`].
pub fn guid_seat(guid: &str) -> Option<Seat> {
    let hex = guid.strip_prefix("00000000-0000-0000-0000-")?;
    let n = usize::from_str_radix(hex, 16).ok()?;
    n.checked_sub(1)
}

/// A robot's power mode as the protocol names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PowerMode {
    Up,
    Announced,
    Down,
}

impl PowerMode {
    pub fn of(power: Power) -> PowerMode {
        match power {
            Power::Up => PowerMode::Up,
            Power::Announced => PowerMode::Announced,
            Power::Down(_) => PowerMode::Down,
        }
    }

    pub fn word(self) -> &'static str {
        match self {
            PowerMode::Up => "UP",
            PowerMode::Announced => "ANNOUNCED",
            PowerMode::Down => "DOWN",
        }
    }

    pub fn from_word(s: &str) -> Option<PowerMode> {
        [PowerMode::Up, PowerMode::Announced, PowerMode::Down]
            .into_iter()
            .find(|m| m.word().eq_ignore_ascii_case(s))
    }
}

// ---------------------------------------------------------------------------------------
// Server -> client
// ---------------------------------------------------------------------------------------

/// The `damage` shown for a robot: 10 when it is off the board (destroyed or dead), as the
/// clients expect; its real damage otherwise.
fn shown_damage(robot: &Robot) -> u8 {
    match robot.status {
        Status::Active => robot.damage,
        Status::Destroyed | Status::Dead => crate::games::lrs::engine::robot::DESTROYING_DAMAGE,
    }
}

/// Writes `<players your-guid=...>` with one complete `<player>` per robot, dead and
/// destroyed ones included. `own_hand` is the hand of `you` when it is locked: its card
/// carries the priority of the locked last card (other players' last cards are shown with
/// priority 0, the server does not keep them).
fn write_players(
    out: &mut String,
    board: &Board,
    robots: &[Robot],
    you: Seat,
    own_locked: Option<Card>,
) {
    let _ = writeln!(out, "  <players your-guid=\"{}\">", player_guid(you));
    for (seat, r) in robots.iter().enumerate() {
        let lives = if r.status == Status::Dead { 0 } else { r.lives };
        let _ = writeln!(
            out,
            "    <player guid=\"{}\" lives=\"{}\" damage=\"{}\" score=\"{}\" power-mode=\"{}\" archive-x=\"{}\" archive-y=\"{}\">",
            player_guid(seat),
            lives,
            shown_damage(r),
            r.score,
            PowerMode::of(r.power).word(),
            r.archive.x,
            r.archive.y
        );
        let _ = writeln!(
            out,
            "      <robot x=\"{}\" y=\"{}\" direction=\"{}\"/>",
            r.pos.x,
            r.pos.y,
            r.facing.word()
        );
        out.push_str("      <flags>\n");
        for (i, f) in board.flags().iter().enumerate() {
            let touched = (i + 1) < r.next_flag as usize;
            let _ = writeln!(
                out,
                "        <flag-state x=\"{}\" y=\"{}\" touched=\"{touched}\"/>",
                f.x, f.y
            );
        }
        out.push_str("      </flags>\n");
        let locked = r.is_active() && r.damage == LOCKED_DAMAGE && r.last_card.is_some();
        match r.last_card {
            Some(mv) => {
                let priority = match own_locked {
                    Some(c) if seat == you && c.mv == mv => c.priority,
                    _ => 0,
                };
                let _ = writeln!(
                    out,
                    "      <cards num-locked=\"{}\"><card move=\"{}\" priority=\"{priority}\"/></cards>",
                    u8::from(locked),
                    mv.windward()
                );
            }
            None => out.push_str("      <cards num-locked=\"0\"/>\n"),
        }
        out.push_str("    </player>\n");
    }
    out.push_str("  </players>\n");
}

fn write_map(out: &mut String, map_xml: &str) {
    for line in map_xml.lines() {
        out.push_str("  ");
        out.push_str(line);
        out.push('\n');
    }
}

/// The start / re-entry query (`<start-position game-start=...>`): every player, the map
/// (`map_xml` is [`crate::games::lrs::boards::to_windward_map`] of `board`, built once per game) and the
/// squares offered.
pub fn start_position_message(
    board: &Board,
    map_xml: &str,
    view: &View,
    query: &StartQuery,
) -> String {
    let mut out = String::with_capacity(map_xml.len() + 512 * view.robots.len() + 256);
    let _ = writeln!(out, "<start-position game-start=\"{}\">", !query.reentry);
    write_players(&mut out, board, &view.robots, query.seat, None);
    write_map(&mut out, map_xml);
    out.push_str("  <points>\n");
    for p in &query.options {
        let _ = writeln!(out, "    <position x=\"{}\" y=\"{}\"/>", p.x, p.y);
    }
    out.push_str("  </points>\n</start-position>\n");
    out
}

/// The turn query (`<turn turn= repair-on=>`): every player, the map and the hand to choose
/// from (the locked card alone when locked).
pub fn turn_message(board: &Board, map_xml: &str, view: &View, query: &TurnQuery) -> String {
    let mut out = String::with_capacity(map_xml.len() + 512 * view.robots.len() + 512);
    let _ = writeln!(
        out,
        "<turn turn=\"{}\" repair-on=\"{}\">",
        view.turn, view.repair_on
    );
    let own_locked = if query.locked {
        query.hand.get(0)
    } else {
        None
    };
    write_players(&mut out, board, &view.robots, query.seat, own_locked);
    write_map(&mut out, map_xml);
    out.push_str("  <cards>\n");
    for c in query.hand.as_slice() {
        let _ = writeln!(
            out,
            "    <card move=\"{}\" priority=\"{}\"/>",
            c.mv.windward(),
            c.priority
        );
    }
    out.push_str("  </cards>\n</turn>\n");
    out
}

// ---------------------------------------------------------------------------------------
// Reading helpers
// ---------------------------------------------------------------------------------------

fn document(xml: &str) -> Result<Document, MessageError> {
    xml::parse(xml).map_err(MessageError::Xml)
}

fn expect_root(node: Node<'_>, expected: &'static str) -> Result<(), MessageError> {
    if node.name() == expected {
        Ok(())
    } else {
        Err(MessageError::Root {
            expected,
            found: node.name().to_owned(),
        })
    }
}

fn required<'a>(node: Node<'a>, attribute: &str) -> Result<&'a str, MessageError> {
    node.attr(attribute)
        .ok_or_else(|| MessageError::MissingAttribute {
            element: node.name().to_owned(),
            attribute: attribute.to_owned(),
        })
}

fn bad(node: Node<'_>, attribute: &str, value: &str, expected: &'static str) -> MessageError {
    MessageError::BadAttribute {
        element: node.name().to_owned(),
        attribute: attribute.to_owned(),
        value: value.to_owned(),
        expected,
    }
}

fn number<T: std::str::FromStr>(node: Node<'_>, attribute: &str) -> Result<T, MessageError> {
    let value = required(node, attribute)?;
    value
        .trim()
        .parse()
        .map_err(|_| bad(node, attribute, value, "a number"))
}

fn boolean(node: Node<'_>, attribute: &str) -> Result<bool, MessageError> {
    let value = required(node, attribute)?;
    match value.trim() {
        v if v.eq_ignore_ascii_case("true") || v == "1" => Ok(true),
        v if v.eq_ignore_ascii_case("false") || v == "0" => Ok(false),
        _ => Err(bad(node, attribute, value, "true or false")),
    }
}

fn direction(node: Node<'_>, attribute: &str) -> Result<Direction, MessageError> {
    let value = required(node, attribute)?;
    Direction::from_word(value.trim())
        .ok_or_else(|| bad(node, attribute, value, "NORTH, EAST, SOUTH or WEST"))
}

fn position(node: Node<'_>) -> Result<Pos, MessageError> {
    Ok(Pos::new(number(node, "x")?, number(node, "y")?))
}

fn card(node: Node<'_>) -> Result<Card, MessageError> {
    let value = required(node, "move")?;
    let mv = Move::from_windward(value.trim()).ok_or_else(|| {
        bad(
            node,
            "move",
            value,
            "BACKWARD_ONE, FORWARD_ONE, FORWARD_TWO, FORWARD_THREE, ROTATE_LEFT, ROTATE_RIGHT or ROTATE_UTURN",
        )
    })?;
    Ok(Card {
        mv,
        priority: number(node, "priority")?,
    })
}

fn child<'a>(node: Node<'a>, name: &str) -> Result<Node<'a>, MessageError> {
    node.child(name)
        .ok_or_else(|| MessageError::MissingElement {
            parent: node.name().to_owned(),
            child: name.to_owned(),
        })
}

// ---------------------------------------------------------------------------------------
// Client -> server
// ---------------------------------------------------------------------------------------

/// A client's first message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Join {
    /// The team name (empty when absent).
    pub name: String,
    /// The join token (empty when absent: clients started by hand send none).
    pub password: String,
    /// The avatar's base64 text, if any.
    pub avatar: Option<String>,
}

/// Parses `<join name= password=><avatar>...</avatar></join>`. Both attributes may be
/// missing: the 2012 clients started without arguments send neither a password nor a usable
/// name.
pub fn parse_join(xml: &str) -> Result<Join, MessageError> {
    let doc = document(xml)?;
    let root = doc.root();
    expect_root(root, "join")?;
    let password = root.attr("password").unwrap_or_default().to_owned();
    let avatar = root
        .child("avatar")
        .map(|a| a.text().trim().to_owned())
        .filter(|a| !a.is_empty());
    Ok(Join {
        name: root.attr("name").unwrap_or_default().trim().to_owned(),
        password,
        avatar,
    })
}

/// Builds a join message (for clients).
pub fn join_message(join: &Join) -> String {
    let mut out = format!(
        "<join name=\"{}\" password=\"{}\">",
        xml::escape(&join.name),
        xml::escape(&join.password)
    );
    if let Some(a) = &join.avatar {
        let _ = write!(out, "<avatar>{}</avatar>", xml::escape(a));
    }
    out.push_str("</join>");
    out
}

/// A `<start-position direction= x= y=/>` reply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StartChoice {
    pub pos: Pos,
    pub facing: Direction,
}

/// Parses a start-position reply. Every attribute is required.
pub fn parse_start_reply(xml: &str) -> Result<StartChoice, MessageError> {
    start_choice(document(xml)?.root())
}

fn start_choice(root: Node<'_>) -> Result<StartChoice, MessageError> {
    expect_root(root, "start-position")?;
    Ok(StartChoice {
        pos: position(root)?,
        facing: direction(root, "direction")?,
    })
}

/// Builds a start-position reply (for clients).
pub fn start_reply_message(choice: StartChoice) -> String {
    format!(
        "<start-position direction=\"{}\" x=\"{}\" y=\"{}\"/>",
        choice.facing.word(),
        choice.pos.x,
        choice.pos.y
    )
}

/// A `<turn power-down= turn=><cards>...</cards></turn>` reply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnAnswer {
    /// The `turn` attribute, when present and a number.
    pub turn: Option<u16>,
    /// `power-down="true"` (absent or anything else: false).
    pub power_down: bool,
    /// The well-formed `<card>`s, in order; cards with a missing or unknown move or priority
    /// are left out.
    pub cards: Vec<Card>,
    /// The reply names no card: no `<card>` element anywhere (`<cards/>`, or no list at
    /// all). With a power-down that is the legal "stay and power down" of rules R5.3;
    /// without, a fault.
    pub no_card: bool,
}

impl TurnAnswer {
    /// Index in `hand` of the first returned card that is in the hand (same move and
    /// priority). Further cards are ignored.
    pub fn choose(&self, hand: &[Card]) -> Option<usize> {
        self.cards
            .iter()
            .find_map(|c| hand.iter().position(|h| h == c))
    }
}

/// Parses a turn reply. Lenient about everything but well-formedness and the root: the
/// cards may be inside `<cards>` or directly inside `<turn>`.
pub fn parse_turn_reply(xml: &str) -> Result<TurnAnswer, MessageError> {
    turn_answer(document(xml)?.root())
}

fn turn_answer(root: Node<'_>) -> Result<TurnAnswer, MessageError> {
    expect_root(root, "turn")?;
    let nodes: Vec<Node<'_>> = root.descendants_named("card").collect();
    Ok(TurnAnswer {
        turn: root.attr("turn").and_then(|t| t.trim().parse().ok()),
        power_down: root
            .attr("power-down")
            .is_some_and(|v| v.trim().eq_ignore_ascii_case("true") || v.trim() == "1"),
        no_card: nodes.is_empty(),
        cards: nodes.into_iter().filter_map(|n| card(n).ok()).collect(),
    })
}

/// Builds a turn reply (for clients).
pub fn turn_reply_message(turn: u16, power_down: bool, cards: &[Card]) -> String {
    let mut out = format!("<turn power-down=\"{power_down}\" turn=\"{turn}\"><cards>");
    for c in cards {
        let _ = write!(
            out,
            "<card priority=\"{}\" move=\"{}\"/>",
            c.priority,
            c.mv.windward()
        );
    }
    out.push_str("</cards></turn>");
    out
}

/// What the server makes of a message received while waiting for a start reply: `None`
/// when it is an answer to another query (a late `<turn>` reply, a repeated `<join>`) and is
/// skipped; otherwise the reply, `Fault(Invalid)` for anything unreadable.
pub fn interpret_start_reply(xml: &str) -> Option<StartReply> {
    let Ok(doc) = document(xml) else {
        return Some(StartReply::Fault(Fault::Invalid));
    };
    let root = doc.root();
    if root.name() == "turn" || root.name() == "join" {
        return None;
    }
    Some(match start_choice(root) {
        Ok(c) => StartReply::Choose {
            pos: c.pos,
            facing: c.facing,
        },
        Err(_) => StartReply::Fault(Fault::Invalid),
    })
}

/// What the server makes of a message received while waiting for the reply to the turn
/// query of `turn` with `hand`. `None` when it answers another query and is skipped: a
/// `<start-position>` or `<join>`, or — while a reply to an earlier, timed-out query is
/// still owed (`late_owed`) — a `<turn>` whose `turn` attribute is absent or another turn
/// (the extra cards of a late reply could otherwise match this hand by chance). Otherwise
/// the first card in the hand is played; a reply with `power-down="true"` that names no card
/// (`<cards/>`, as the 2012 clients send when every card kills their robot) stays and powers
/// down (`StayAndPowerDown`, rules R5.3); bad XML, no card without a power-down, or cards none
/// of which is in the hand is `Fault(Invalid)`. When nothing is owed, a wrong or missing
/// `turn` attribute is tolerated.
pub fn interpret_turn_reply(
    xml: &str,
    turn: u16,
    hand: &Hand,
    late_owed: bool,
) -> Option<TurnReply> {
    let Ok(doc) = document(xml) else {
        return Some(TurnReply::Fault(Fault::Invalid));
    };
    let root = doc.root();
    if root.name() == "start-position" || root.name() == "join" {
        return None;
    }
    let Ok(answer) = turn_answer(root) else {
        return Some(TurnReply::Fault(Fault::Invalid));
    };
    if late_owed && answer.turn != Some(turn) {
        return None;
    }
    // The 2012 clients' "no move": the robot stays, and powers down if asked.
    if answer.no_card {
        return Some(if answer.power_down {
            TurnReply::StayAndPowerDown
        } else {
            TurnReply::Stay
        });
    }
    Some(match answer.choose(hand.as_slice()) {
        Some(card) => TurnReply::Play {
            card,
            power_down: answer.power_down,
        },
        None => TurnReply::Fault(Fault::Invalid),
    })
}

// ---------------------------------------------------------------------------------------
// Reading server messages (test clients, tools)
// ---------------------------------------------------------------------------------------

/// A flag as a player element shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FlagState {
    pub pos: Pos,
    pub touched: bool,
}

/// One `<player>` element, every field required.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerInfo {
    pub guid: String,
    pub lives: u8,
    pub damage: u8,
    pub score: i32,
    pub power_mode: PowerMode,
    pub archive: Pos,
    pub robot: Pos,
    pub direction: Direction,
    pub flags: Vec<FlagState>,
    pub num_locked: u8,
    /// The last played card(s).
    pub cards: Vec<Card>,
}

fn player_info(node: Node<'_>) -> Result<PlayerInfo, MessageError> {
    let robot = child(node, "robot")?;
    let flags = child(node, "flags")?
        .children_named("flag-state")
        .map(|f| {
            Ok(FlagState {
                pos: position(f)?,
                touched: boolean(f, "touched")?,
            })
        })
        .collect::<Result<Vec<_>, MessageError>>()?;
    let cards = child(node, "cards")?;
    let mode = required(node, "power-mode")?;
    Ok(PlayerInfo {
        guid: required(node, "guid")?.to_owned(),
        lives: number(node, "lives")?,
        damage: number(node, "damage")?,
        score: number(node, "score")?,
        power_mode: PowerMode::from_word(mode.trim())
            .ok_or_else(|| bad(node, "power-mode", mode, "UP, ANNOUNCED or DOWN"))?,
        archive: Pos::new(number(node, "archive-x")?, number(node, "archive-y")?),
        robot: position(robot)?,
        direction: direction(robot, "direction")?,
        flags,
        num_locked: number(cards, "num-locked")?,
        cards: cards
            .children_named("card")
            .map(card)
            .collect::<Result<_, _>>()?,
    })
}

/// What both queries show: whom the message is for, every player and the map.
#[derive(Debug, Clone)]
pub struct GameState {
    pub your_guid: String,
    pub players: Vec<PlayerInfo>,
    pub map: Board,
}

/// The `<players your-guid=...>` and `<map>` of a query's `root` (the whole message is
/// `text`).
fn game_state(root: Node<'_>, text: &str) -> Result<GameState, MessageError> {
    let players = child(root, "players")?;
    let your_guid = required(players, "your-guid")?.to_owned();
    let players = players
        .children_named("player")
        .map(player_info)
        .collect::<Result<_, _>>()?;
    child(root, "map")?;
    Ok(GameState {
        your_guid,
        players,
        map: from_windward_map(text)?,
    })
}

/// A `<start-position game-start=...>` query as a client reads it.
#[derive(Debug, Clone)]
pub struct StartPositionMessage {
    pub game_start: bool,
    pub state: GameState,
    pub points: Vec<Pos>,
}

/// A `<turn>` query as a client reads it.
#[derive(Debug, Clone)]
pub struct TurnMessage {
    pub turn: u16,
    pub repair_on: bool,
    pub state: GameState,
    /// The cards to choose from.
    pub hand: Vec<Card>,
}

/// A message from the server.
#[derive(Debug, Clone)]
pub enum ServerMessage {
    StartPosition(StartPositionMessage),
    Turn(TurnMessage),
}

/// Parses a server message strictly: every attribute and element the protocol lists must be
/// present.
pub fn parse_server_message(text: &str) -> Result<ServerMessage, MessageError> {
    let doc = document(text)?;
    let root = doc.root();
    match root.name() {
        "start-position" => {
            let state = game_state(root, text)?;
            let points = child(root, "points")?
                .children_named("position")
                .map(position)
                .collect::<Result<_, _>>()?;
            Ok(ServerMessage::StartPosition(StartPositionMessage {
                game_start: boolean(root, "game-start")?,
                state,
                points,
            }))
        }
        "turn" => {
            let state = game_state(root, text)?;
            let hand = child(root, "cards")?
                .children_named("card")
                .map(card)
                .collect::<Result<_, _>>()?;
            Ok(ServerMessage::Turn(TurnMessage {
                turn: number(root, "turn")?,
                repair_on: boolean(root, "repair-on")?,
                state,
                hand,
            }))
        }
        other => Err(MessageError::Root {
            expected: "start-position or turn",
            found: other.to_owned(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guids_round_trip_and_are_not_empty() {
        for seat in 0..8 {
            assert_eq!(guid_seat(&player_guid(seat)), Some(seat));
        }
        assert_ne!(player_guid(0), "00000000-0000-0000-0000-000000000000");
        assert_eq!(guid_seat("00000000-0000-0000-0000-000000000000"), None);
    }

    #[test]
    fn a_reply_with_no_card_and_a_power_down_stays_and_powers_down() {
        let mut hand = Hand::default();
        hand.push(Card {
            mv: Move::Left,
            priority: 30,
        });
        // What the 2012 sample client sends when every card it tried kills its robot.
        for stay in [
            "<turn turn=\"4\" power-down=\"true\"><cards /></turn>",
            "<turn turn=\"4\" power-down=\"true\"><cards></cards></turn>",
            "<turn turn=\"4\" power-down=\"true\"/>",
        ] {
            assert_eq!(
                interpret_turn_reply(stay, 4, &hand, false),
                Some(TurnReply::StayAndPowerDown),
                "{stay}"
            );
        }
        // No card without a power-down is the same "no move", powered up: what the 2012
        // sample client sends when every card kills its robot and it had not chosen to
        // power down (it keeps the flag it drew before trying any card).
        for none in [
            "<turn turn=\"4\" power-down=\"false\"><cards /></turn>",
            "<turn turn=\"4\"><cards /></turn>",
            "<turn turn=\"4\"/>",
        ] {
            assert_eq!(
                interpret_turn_reply(none, 4, &hand, false),
                Some(TurnReply::Stay),
                "{none}"
            );
        }
        // Cards that are no card of the hand, or no card at all, stay invalid.
        let bogus = "<turn turn=\"4\"><cards><card move=\"JUMP\" priority=\"1\"/></cards></turn>";
        assert_eq!(
            interpret_turn_reply(bogus, 4, &hand, false),
            Some(TurnReply::Fault(Fault::Invalid))
        );
        let other = turn_reply_message(
            4,
            false,
            &[Card {
                mv: Move::Right,
                priority: 40,
            }],
        );
        assert_eq!(
            interpret_turn_reply(&other, 4, &hand, false),
            Some(TurnReply::Fault(Fault::Invalid))
        );
    }

    #[test]
    fn a_late_turn_reply_is_skipped_only_while_one_is_owed() {
        let mut hand = Hand::default();
        hand.push(Card {
            mv: Move::Left,
            priority: 30,
        });
        // A late reply to turn 3 whose extra card happens to be in the turn-4 hand.
        let late = turn_reply_message(
            3,
            false,
            &[
                Card {
                    mv: Move::Right,
                    priority: 40,
                },
                Card {
                    mv: Move::Left,
                    priority: 30,
                },
            ],
        );
        assert_eq!(interpret_turn_reply(&late, 4, &hand, true), None);
        // Nothing owed: a wrong turn number is tolerated.
        assert_eq!(
            interpret_turn_reply(&late, 4, &hand, false),
            Some(TurnReply::Play {
                card: 0,
                power_down: false
            })
        );
        let good = turn_reply_message(
            4,
            true,
            &[Card {
                mv: Move::Left,
                priority: 30,
            }],
        );
        assert_eq!(
            interpret_turn_reply(&good, 4, &hand, true),
            Some(TurnReply::Play {
                card: 0,
                power_down: true
            })
        );
        let unnumbered = "<turn><cards><card move=\"ROTATE_LEFT\" priority=\"30\"/></cards></turn>";
        assert_eq!(interpret_turn_reply(unnumbered, 4, &hand, true), None);
        assert!(interpret_turn_reply(unnumbered, 4, &hand, false).is_some());
    }
}
