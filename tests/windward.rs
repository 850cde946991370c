//! The Windward TCP/XML protocol (protocol-windward.md): framing, messages, reply parsing,
//! the gateway's routing by join token, whole games with test clients speaking the protocol
//! over real sockets, and `lrs-tourney serve` as a subprocess.

use lrs_tourney::games::lrs::ai::BuiltinAi;
use lrs_tourney::games::lrs::boards::{load_board, to_windward_map};
use lrs_tourney::games::lrs::engine::{
    Board, Card, Decision, Direction, EventKind, Fault, Game, GameConfig, Hand, Move, Pos, Power,
    Robot, StartQuery, StartReply, Status, TurnQuery, TurnReply,
};
use lrs_tourney::games::lrs::remote::{GameSetup, SeatPlayer, View, drive_game};
use lrs_tourney::games::lrs::windward::framing::{self, FrameError};
use lrs_tourney::games::lrs::windward::messages::{
    self, Join, PowerMode, ServerMessage, StartChoice, guid_seat, player_guid,
};
use lrs_tourney::games::lrs::windward::{Gateway, GatewayConfig, GatewayEvent, RefuseReason};
use std::collections::BTreeSet;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt, ReadBuf};
use tokio::net::TcpStream;

// ---------------------------------------------------------------------------------------
// Framing
// ---------------------------------------------------------------------------------------

/// A reader that hands out one byte per read.
struct Trickle {
    data: Vec<u8>,
    at: usize,
}

impl AsyncRead for Trickle {
    fn poll_read(
        mut self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        if self.at < self.data.len() && buf.remaining() > 0 {
            let b = self.data[self.at];
            buf.put_slice(&[b]);
            self.at += 1;
        }
        Poll::Ready(Ok(()))
    }
}

fn trickle(data: Vec<u8>) -> Trickle {
    Trickle { data, at: 0 }
}

#[tokio::test]
async fn frames_split_over_many_reads_are_reassembled() {
    let mut data = framing::encode_frame("<a/>".as_bytes());
    data.extend(framing::encode_frame("<b>é</b>".as_bytes()));
    data.extend(framing::encode_frame(b""));
    assert_eq!(&data[..4], &4i32.to_le_bytes());
    let mut r = trickle(data);
    assert_eq!(framing::read_frame(&mut r, 100).await.unwrap(), b"<a/>");
    assert_eq!(
        framing::read_frame(&mut r, 100).await.unwrap(),
        "<b>é</b>".as_bytes()
    );
    assert_eq!(framing::read_frame(&mut r, 100).await.unwrap(), b"");
    assert!(matches!(
        framing::read_frame(&mut r, 100).await,
        Err(FrameError::Closed)
    ));
}

#[tokio::test]
async fn frames_over_a_socket_pair_round_trip() {
    let (mut a, mut b) = tokio::io::duplex(7);
    let writer = tokio::spawn(async move {
        for i in 0..20 {
            framing::write_frame(&mut a, format!("<m i=\"{i}\"/>").as_bytes())
                .await
                .unwrap();
        }
    });
    for i in 0..20 {
        let body = framing::read_frame(&mut b, 64).await.unwrap();
        assert_eq!(
            framing::frame_text(body).unwrap(),
            format!("<m i=\"{i}\"/>")
        );
    }
    writer.await.unwrap();
}

#[tokio::test]
async fn oversized_negative_and_truncated_frames_are_errors() {
    let big = framing::encode_frame(&[b'x'; 101]);
    assert!(matches!(
        framing::read_frame(&mut trickle(big), 100).await,
        Err(FrameError::TooLarge { len: 101, max: 100 })
    ));
    let exact = framing::encode_frame(&[b'x'; 100]);
    assert_eq!(
        framing::read_frame(&mut trickle(exact), 100)
            .await
            .unwrap()
            .len(),
        100
    );
    let negative = (-5i32).to_le_bytes().to_vec();
    assert!(matches!(
        framing::read_frame(&mut trickle(negative), 100).await,
        Err(FrameError::Negative(-5))
    ));
    let huge_negative = i32::MIN.to_le_bytes().to_vec();
    assert!(matches!(
        framing::read_frame(&mut trickle(huge_negative), 100).await,
        Err(FrameError::Negative(i32::MIN))
    ));
    assert!(matches!(
        framing::read_frame(&mut trickle(vec![3, 0]), 100).await,
        Err(FrameError::Truncated)
    ));
    let mut cut = framing::encode_frame(b"abcdef");
    cut.truncate(7);
    assert!(matches!(
        framing::read_frame(&mut trickle(cut), 100).await,
        Err(FrameError::Truncated)
    ));
    assert!(matches!(
        framing::read_frame(&mut trickle(Vec::new()), 100).await,
        Err(FrameError::Closed)
    ));
}

#[test]
fn frame_text_strips_a_byte_order_mark_and_rejects_non_utf8() {
    assert_eq!(
        framing::frame_text("\u{feff}<a/>".as_bytes().to_vec()).unwrap(),
        "<a/>"
    );
    assert_eq!(framing::frame_text(vec![0xff, 0xfe, b'<']), None);
}

// ---------------------------------------------------------------------------------------
// Messages
// ---------------------------------------------------------------------------------------

fn card(mv: Move, priority: u16) -> Card {
    Card { mv, priority }
}

fn hand(cards: &[Card]) -> Hand {
    let mut h = Hand::default();
    for &c in cards {
        h.push(c);
    }
    h
}

/// Four robots in every state the messages must show: locked at damage 9 with a flag
/// touched, destroyed (off the board, waiting), dead, and powered down.
fn robots_in_every_state(board: &Board) -> Vec<Robot> {
    let starts = board.starts();
    let mut locked = Robot::new(starts[0]);
    locked.damage = 9;
    locked.last_card = Some(Move::Forward2);
    locked.next_flag = 2;
    locked.score = 11;
    locked.facing = Direction::East;
    let mut destroyed = Robot::new(starts[1]);
    destroyed.status = Status::Destroyed;
    destroyed.damage = 4;
    destroyed.lives = 2;
    destroyed.last_card = Some(Move::Left);
    destroyed.archive = Pos::new(5, 5);
    let mut dead = Robot::new(starts[2]);
    dead.status = Status::Dead;
    dead.lives = 0;
    dead.damage = 10;
    dead.next_flag = 4;
    let mut down = Robot::new(starts[3]);
    down.power = Power::Down(3);
    down.damage = 2;
    down.facing = Direction::West;
    vec![locked, destroyed, dead, down]
}

#[test]
fn a_turn_message_parses_back_with_every_player_field_including_dead_and_destroyed_robots() {
    let board = load_board("gear-works").unwrap();
    let map = to_windward_map(&board);
    let robots = robots_in_every_state(&board);
    let view = View {
        turn: 7,
        repair_on: false,
        robots: robots.clone(),
    };
    let query = TurnQuery {
        seat: 0,
        hand: hand(&[card(Move::Forward2, 530)]),
        locked: true,
    };
    let text = messages::turn_message(&board, &map, &view, &query);
    let ServerMessage::Turn(m) = messages::parse_server_message(&text).unwrap() else {
        panic!("not a turn message:\n{text}");
    };
    assert_eq!(m.turn, 7);
    assert!(!m.repair_on);
    assert_eq!(m.state.your_guid, player_guid(0));
    assert_eq!(m.hand, vec![card(Move::Forward2, 530)]);
    assert_eq!(m.state.map.width(), board.width());
    assert_eq!(m.state.map.height(), board.height());
    assert_eq!(m.state.map.flags(), board.flags());
    assert_eq!(m.state.players.len(), 4);
    for (seat, (p, r)) in m.state.players.iter().zip(&robots).enumerate() {
        assert_eq!(guid_seat(&p.guid), Some(seat));
        assert_eq!(p.score, r.score);
        assert_eq!(p.archive, r.archive);
        assert_eq!(p.robot, r.pos, "the last position, also off the board");
        assert_eq!(p.direction, r.facing);
        assert_eq!(p.flags.len(), board.flags().len());
        for (i, f) in p.flags.iter().enumerate() {
            assert_eq!(f.pos, board.flags()[i]);
            assert_eq!(f.touched, i + 1 < r.next_flag as usize);
        }
    }
    let [locked, destroyed, dead, down] = &m.state.players[..] else {
        unreachable!()
    };
    assert_eq!((locked.lives, locked.damage, locked.num_locked), (3, 9, 1));
    assert_eq!(locked.power_mode, PowerMode::Up);
    assert_eq!(
        locked.cards,
        vec![card(Move::Forward2, 530)],
        "own locked card with its priority"
    );
    assert_eq!(
        (destroyed.lives, destroyed.damage, destroyed.num_locked),
        (2, 10, 0)
    );
    assert_eq!(destroyed.cards, vec![card(Move::Left, 0)]);
    assert_eq!((dead.lives, dead.damage), (0, 10));
    assert!(dead.cards.is_empty());
    assert!(dead.flags.iter().all(|f| f.touched));
    assert_eq!((down.lives, down.damage), (3, 2));
    assert_eq!(down.power_mode, PowerMode::Down);
    assert!(text.contains("<players your-guid="));
}

#[test]
fn a_start_position_message_parses_back_with_its_points() {
    let board = load_board("gear-works").unwrap();
    let map = to_windward_map(&board);
    let mut robots = robots_in_every_state(&board);
    robots[1].power = Power::Announced;
    let view = View {
        turn: 3,
        repair_on: false,
        robots,
    };
    for (reentry, options) in [
        (false, vec![board.starts()[1]]),
        (true, vec![Pos::new(4, 4), Pos::new(5, 4), Pos::new(5, 5)]),
    ] {
        let query = StartQuery {
            seat: 1,
            reentry,
            options: options.clone(),
        };
        let text = messages::start_position_message(&board, &map, &view, &query);
        let ServerMessage::StartPosition(m) = messages::parse_server_message(&text).unwrap() else {
            panic!("not a start-position message:\n{text}");
        };
        assert_eq!(m.game_start, !reentry);
        assert_eq!(m.state.your_guid, player_guid(1));
        assert_eq!(m.points, options);
        assert_eq!(m.state.players.len(), 4);
        assert_eq!(m.state.players[1].power_mode, PowerMode::Announced);
        assert_eq!(m.state.players[2].lives, 0);
        assert_eq!(m.state.map.width(), board.width());
    }
}

#[test]
fn turn_replies_pretty_printed_with_declaration_and_extra_cards_play_the_first_hand_card() {
    let h = hand(&[
        card(Move::Left, 30),
        card(Move::Forward1, 470),
        card(Move::Back, 90),
    ]);
    let pretty = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\r\n<!-- reply -->\r\n<turn power-down=\"true\" turn=\"7\">\r\n  <cards>\r\n    <card priority=\"999\" move=\"FORWARD_ONE\" />\r\n    <card priority=\"470\" move=\"FORWARD_ONE\" />\r\n    <card priority=\"30\" move=\"ROTATE_LEFT\" />\r\n    <card priority=\"90\" move=\"BACKWARD_ONE\" />\r\n  </cards>\r\n</turn>\r\n";
    assert_eq!(
        messages::interpret_turn_reply(pretty, 7, &h, false),
        Some(TurnReply::Play {
            card: 1,
            power_down: true
        })
    );
    let answer = messages::parse_turn_reply(pretty).unwrap();
    assert_eq!(answer.turn, Some(7));
    assert_eq!(answer.cards.len(), 4);
    // A builder round trip, power-down false.
    let built =
        messages::turn_reply_message(7, false, &[card(Move::Back, 90), card(Move::Left, 30)]);
    assert_eq!(
        messages::interpret_turn_reply(&built, 7, &h, true),
        Some(TurnReply::Play {
            card: 2,
            power_down: false
        })
    );
}

#[test]
fn turn_replies_without_a_hand_card_or_unreadable_are_invalid_and_no_card_stays() {
    let h = hand(&[card(Move::Left, 30)]);
    let invalid = Some(TurnReply::Fault(Fault::Invalid));
    for reply in [
        // Right move, wrong priority; right priority, wrong move; unknown move name.
        "<turn power-down=\"false\" turn=\"7\"><cards><card priority=\"40\" move=\"ROTATE_LEFT\"/></cards></turn>",
        "<turn power-down=\"false\" turn=\"7\"><cards><card priority=\"30\" move=\"ROTATE_RIGHT\"/></cards></turn>",
        "<turn power-down=\"false\" turn=\"7\"><cards><card priority=\"30\" move=\"JUMP\"/></cards></turn>",
        // A power-down with a card that is not in the hand: it names a card.
        "<turn power-down=\"true\" turn=\"7\"><cards><card priority=\"40\" move=\"ROTATE_LEFT\"/></cards></turn>",
        "not xml at all",
        "<turn><cards>",
        "",
        "<other/>",
    ] {
        assert_eq!(
            messages::interpret_turn_reply(reply, 7, &h, false),
            invalid,
            "{reply:?}"
        );
    }
    // No card and a power-down: stay and power down (R5.3).
    assert_eq!(
        messages::interpret_turn_reply(
            "<turn power-down=\"true\" turn=\"7\"><cards/></turn>",
            7,
            &h,
            false
        ),
        Some(TurnReply::StayAndPowerDown)
    );
    // No card without a power-down: the 2012 clients' "no move" all the same, powered up.
    for reply in [
        "<turn/>",
        "<turn power-down=\"false\" turn=\"7\"></turn>",
        "<turn power-down=\"false\" turn=\"7\"><cards/></turn>",
    ] {
        assert_eq!(
            messages::interpret_turn_reply(reply, 7, &h, false),
            Some(TurnReply::Stay),
            "{reply:?}"
        );
    }
    // While a late reply is owed, a reply to another turn is skipped, not judged.
    let late = "<turn power-down=\"false\" turn=\"6\"><cards><card priority=\"30\" move=\"ROTATE_LEFT\"/></cards></turn>";
    assert_eq!(messages::interpret_turn_reply(late, 7, &h, true), None);
    let start = "<start-position direction=\"NORTH\" x=\"1\" y=\"1\"/>";
    assert_eq!(messages::interpret_turn_reply(start, 7, &h, false), None);
}

#[test]
fn start_replies_and_joins_parse() {
    let pretty = "<?xml version=\"1.0\"?>\n<start-position\n    direction=\"west\"\n    x=\" 3 \"\n    y=\"4\" />\n";
    assert_eq!(
        messages::parse_start_reply(pretty).unwrap(),
        StartChoice {
            pos: Pos::new(3, 4),
            facing: Direction::West
        }
    );
    assert_eq!(
        messages::interpret_start_reply(pretty),
        Some(StartReply::Choose {
            pos: Pos::new(3, 4),
            facing: Direction::West
        })
    );
    let invalid = Some(StartReply::Fault(Fault::Invalid));
    for bad in [
        "<start-position direction=\"UP\" x=\"3\" y=\"4\"/>",
        "<start-position x=\"3\" y=\"4\"/>",
        "<start-position direction=\"NORTH\" x=\"three\" y=\"4\"/>",
        "<position x=\"3\" y=\"4\"/>",
        "garbage",
    ] {
        assert_eq!(messages::interpret_start_reply(bad), invalid, "{bad:?}");
    }
    assert_eq!(messages::interpret_start_reply("<turn turn=\"3\"/>"), None);
    let choice = StartChoice {
        pos: Pos::new(0, 11),
        facing: Direction::South,
    };
    assert_eq!(
        messages::parse_start_reply(&messages::start_reply_message(choice)).unwrap(),
        choice
    );

    let join = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<join name=\"Team &amp; Co\" password=\"s3cret\">\n  <avatar>\n    iVBORw0KGgo=\n  </avatar>\n</join>";
    assert_eq!(
        messages::parse_join(join).unwrap(),
        Join {
            name: "Team & Co".into(),
            password: "s3cret".into(),
            avatar: Some("iVBORw0KGgo=".into())
        }
    );
    let built = Join {
        name: "<A>".into(),
        password: "p\"w".into(),
        avatar: None,
    };
    assert_eq!(
        messages::parse_join(&messages::join_message(&built)).unwrap(),
        built
    );
    // Clients started by hand (from an IDE) send no password, nor sometimes a name.
    let bare = messages::parse_join("<join name=\"x\"/>").unwrap();
    assert_eq!((bare.name.as_str(), bare.password.as_str()), ("x", ""));
    assert_eq!(messages::parse_join("<join/>").unwrap().password, "");
    assert!(messages::parse_join("<turn/>").is_err());
}

// ---------------------------------------------------------------------------------------
// A test client speaking the protocol over TCP, with its own framing code
// ---------------------------------------------------------------------------------------

async fn send(stream: &mut TcpStream, text: &str) -> std::io::Result<()> {
    let mut bytes = (text.len() as i32).to_le_bytes().to_vec();
    bytes.extend_from_slice(text.as_bytes());
    stream.write_all(&bytes).await
}

async fn recv(stream: &mut TcpStream) -> Option<String> {
    let mut header = [0u8; 4];
    stream.read_exact(&mut header).await.ok()?;
    let len = i32::from_le_bytes(header);
    assert!(len >= 0, "negative length from the server");
    let mut body = vec![0u8; len as usize];
    stream.read_exact(&mut body).await.ok()?;
    Some(String::from_utf8(body).expect("the server sends UTF-8"))
}

/// How a test client answers.
#[derive(Debug, Clone, Default)]
struct Policy {
    /// Plays `hand[index % len]`, followed by the rest of the hand (extras).
    index: usize,
    /// Answers everything with text that is not XML.
    garbage: bool,
    /// Pretty-printed replies with an XML declaration.
    pretty: bool,
    /// Waits this long before each answer.
    delay_ms: u64,
    /// Drops the connection on receiving this turn, without answering.
    disconnect_at: Option<u16>,
    /// After dropping, joins again with the same token.
    reconnect: bool,
    /// Answers the turns divisible by this with no card and a power-down
    /// (`power-down="true"`, `<cards />`), as the 2012 sample client does when every card it
    /// tried destroys its robot.
    no_card_every: Option<u16>,
}

/// What a test client saw.
#[derive(Debug, Default)]
struct ClientLog {
    guids: BTreeSet<String>,
    game_starts: usize,
    reentries: usize,
    /// Hand index played, per turn message answered with a card.
    played: Vec<usize>,
    turns_seen: Vec<u16>,
    /// Turns answered with no card.
    no_card: Vec<u16>,
    disconnected_at: Option<u16>,
}

async fn join(addr: SocketAddr, name: &str, token: &str) -> TcpStream {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let j = Join {
        name: name.into(),
        password: token.into(),
        avatar: Some("iVBORw0KGgo=".into()),
    };
    send(&mut s, &messages::join_message(&j)).await.unwrap();
    s
}

fn pretty(xml: String, on: bool) -> String {
    if on {
        format!(
            "<?xml version=\"1.0\" encoding=\"utf-8\"?>\r\n{}\r\n",
            xml.replace("><", ">\r\n  <")
        )
    } else {
        xml
    }
}

async fn run_client(addr: SocketAddr, name: &str, token: &str, policy: Policy) -> ClientLog {
    let mut s = join(addr, name, token).await;
    let mut log = ClientLog::default();
    while let Some(text) = recv(&mut s).await {
        let message = messages::parse_server_message(&text)
            .unwrap_or_else(|e| panic!("{name}: bad server message: {e}\n{text}"));
        if let ServerMessage::Turn(m) = &message
            && Some(m.turn) == policy.disconnect_at
            && log.disconnected_at.is_none()
        {
            log.disconnected_at = Some(m.turn);
            drop(s);
            if !policy.reconnect {
                return log;
            }
            s = join(addr, name, token).await;
            continue;
        }
        if policy.delay_ms > 0 {
            tokio::time::sleep(Duration::from_millis(policy.delay_ms)).await;
        }
        let reply = match message {
            ServerMessage::StartPosition(m) => {
                log.guids.insert(m.state.your_guid.clone());
                if m.game_start {
                    log.game_starts += 1;
                } else {
                    log.reentries += 1;
                }
                assert!(!m.points.is_empty());
                messages::start_reply_message(StartChoice {
                    pos: m.points[0],
                    facing: Direction::North,
                })
            }
            ServerMessage::Turn(m) => {
                log.guids.insert(m.state.your_guid.clone());
                log.turns_seen.push(m.turn);
                assert!(!m.hand.is_empty());
                if policy.no_card_every.is_some_and(|n| m.turn % n == 0) {
                    log.no_card.push(m.turn);
                    let reply = format!(
                        "<turn turn=\"{}\" power-down=\"true\"><cards /></turn>",
                        m.turn
                    );
                    if send(&mut s, &reply).await.is_err() {
                        break;
                    }
                    continue;
                }
                let i = policy.index % m.hand.len();
                log.played.push(i);
                let mut cards = vec![m.hand[i]];
                cards.extend(m.hand.iter().copied().filter(|c| *c != m.hand[i]));
                messages::turn_reply_message(m.turn, false, &cards)
            }
        };
        let reply = if policy.garbage {
            "<<< this is not XML".to_string()
        } else {
            pretty(reply, policy.pretty)
        };
        if send(&mut s, &reply).await.is_err() {
            break;
        }
    }
    log
}

type Events = Arc<Mutex<Vec<GatewayEvent>>>;

async fn gateway() -> (Gateway, Events) {
    let events: Events = Arc::default();
    let sink = events.clone();
    let config = GatewayConfig {
        addr: "127.0.0.1:0".parse().unwrap(),
        logger: Arc::new(move |e: &GatewayEvent| sink.lock().unwrap().push(e.clone())),
        ..GatewayConfig::default()
    };
    (Gateway::bind(config).await.unwrap(), events)
}

fn setups(board: &Arc<Board>, names: &[&str], turns: u16, time_limit_ms: u64) -> Vec<GameSetup> {
    (0..names.len())
        .map(|seat| GameSetup {
            seat,
            players: names.iter().map(|s| s.to_string()).collect(),
            board: board.clone(),
            turn_limit: turns,
            time_limit_ms,
        })
        .collect()
}

async fn play(
    board: &Arc<Board>,
    seats: &mut [SeatPlayer],
    names: &[&str],
    seed: u64,
    turns: u16,
    time_limit_ms: u64,
) -> Game {
    let mut game = Game::new(
        board.clone(),
        seats.len(),
        seed,
        GameConfig { turn_limit: turns },
    )
    .unwrap();
    drive_game(
        &mut game,
        seats,
        &setups(board, names, turns, time_limit_ms),
    )
    .await
    .unwrap();
    assert!(game.is_over());
    game
}

fn turn_decisions(game: &Game, seat: usize) -> Vec<TurnReply> {
    game.decisions()
        .iter()
        .filter_map(|d| match d {
            Decision::Turn { seat: s, reply } if *s == seat => Some(*reply),
            _ => None,
        })
        .collect()
}

fn all_decisions(game: &Game, seat: usize) -> usize {
    game.decisions()
        .iter()
        .filter(|d| matches!(d, Decision::Turn { seat: s, .. } | Decision::Start { seat: s, .. } if *s == seat))
        .count()
}

fn faults(game: &Game, seat: usize) -> Vec<(u16, EventKind)> {
    game.events()
        .iter()
        .filter(|e| e.robot == seat && e.kind.is_fault())
        .map(|e| (e.turn, e.kind))
        .collect()
}

async fn with_timeout<T>(what: &str, f: impl std::future::Future<Output = T>) -> T {
    tokio::time::timeout(Duration::from_secs(20), f)
        .await
        .unwrap_or_else(|_| panic!("{what} took more than 20 s"))
}

// ---------------------------------------------------------------------------------------
// Gateway
// ---------------------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_concurrent_games_on_one_listener_route_each_client_to_its_own_seat() {
    let (gateway, events) = gateway().await;
    let addr = gateway.local_addr();
    let board = load_board("gear-works").unwrap();
    // tokens[game][seat]; each client plays its own hand index, so a misrouted answer shows.
    let tokens = [["tok-a0", "tok-a1"], ["tok-b0", "tok-b1"]];
    let mut players: Vec<Vec<_>> = tokens
        .iter()
        .map(|g| g.iter().map(|t| gateway.expect(t).unwrap()).collect())
        .collect();
    assert!(gateway.expect("tok-a0").is_err(), "a token serves one seat");
    // Joins arrive in scrambled order.
    let order = [(1, 1), (0, 0), (1, 0), (0, 1)];
    let mut clients = Vec::new();
    for (g, s) in order {
        let policy = Policy {
            index: g * 2 + s,
            ..Policy::default()
        };
        let name = format!("client-{g}{s}");
        let token = tokens[g][s];
        clients.push((
            (g, s),
            tokio::spawn(async move { run_client(addr, &name, token, policy).await }),
        ));
    }
    for seats in &mut players {
        for p in seats.iter_mut() {
            assert!(p.wait_connected(Duration::from_secs(10)).await);
        }
    }
    assert_eq!(players[0][1].name(), "client-01");
    let mut games = Vec::new();
    for (g, seats) in players.into_iter().enumerate() {
        let board = board.clone();
        games.push(tokio::spawn(async move {
            let mut seats: Vec<SeatPlayer> = seats
                .into_iter()
                .map(|p| SeatPlayer::Remote(Box::new(p)))
                .collect();
            let game = play(&board, &mut seats, &["x", "y"], 40 + g as u64, 8, 5_000).await;
            drop(seats); // end of the series: connections close, clients finish
            game
        }));
    }
    let mut finished = Vec::new();
    for g in games {
        finished.push(with_timeout("a game", g).await.unwrap());
    }
    for ((g, s), client) in clients {
        let log = with_timeout("a client", client).await.unwrap();
        let game = &finished[g];
        assert_eq!(
            log.guids,
            BTreeSet::from([player_guid(s)]),
            "client {g}{s} saw another seat"
        );
        assert_eq!(log.game_starts, 1);
        let decided: Vec<usize> = turn_decisions(game, s)
            .into_iter()
            .map(|r| match r {
                TurnReply::Play { card, .. } => card,
                other => panic!("client {g}{s}: {other:?}"),
            })
            .collect();
        assert_eq!(
            decided, log.played,
            "client {g}{s}'s answers reached another game"
        );
        assert!(!decided.is_empty());
        assert!(faults(game, s).is_empty());
    }
    let joined = events
        .lock()
        .unwrap()
        .iter()
        .filter(|e| {
            matches!(
                e,
                GatewayEvent::Joined {
                    reconnect: false,
                    ..
                }
            )
        })
        .count();
    assert_eq!(joined, 4);
}

#[tokio::test]
async fn unknown_tokens_and_non_joins_are_refused_and_logged() {
    let (gateway, events) = gateway().await;
    let addr = gateway.local_addr();
    let _seat = gateway.expect("the-token").unwrap();
    let mut stranger = join(addr, "stranger", "wrong-token").await;
    assert_eq!(
        with_timeout("refusal", recv(&mut stranger)).await,
        None,
        "connection closed"
    );
    let mut rude = TcpStream::connect(addr).await.unwrap();
    send(&mut rude, "<turn/>").await.unwrap();
    assert_eq!(with_timeout("refusal", recv(&mut rude)).await, None);
    let mut liar = TcpStream::connect(addr).await.unwrap();
    liar.write_all(&(-1i32).to_le_bytes()).await.unwrap();
    assert_eq!(with_timeout("refusal", recv(&mut liar)).await, None);
    let events = events.lock().unwrap().clone();
    assert!(events.iter().any(|e| matches!(
        e,
        GatewayEvent::Refused { name: Some(n), reason: RefuseReason::UnknownToken, .. } if n == "stranger"
    )), "{events:?}");
    assert!(events.iter().any(|e| matches!(
        e,
        GatewayEvent::Refused {
            reason: RefuseReason::BadJoin(_),
            ..
        }
    )));
    assert!(events.iter().any(|e| matches!(
        e,
        GatewayEvent::Refused {
            reason: RefuseReason::Connection(_),
            ..
        }
    )));
    assert!(
        events
            .iter()
            .all(|e| !e.to_string().contains("wrong-token")),
        "tokens are not logged"
    );
    // After the seat is released, its token is unknown too.
    drop(_seat);
    let mut late = join(addr, "late", "the-token").await;
    assert_eq!(with_timeout("refusal", recv(&mut late)).await, None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_game_with_a_good_a_garbage_and_a_vanishing_client_records_the_right_faults() {
    let (gateway, _events) = gateway().await;
    let addr = gateway.local_addr();
    let board = load_board("gear-works").unwrap();
    let mut good = gateway.expect("good").unwrap();
    let mut bad = gateway.expect("bad").unwrap();
    let mut gone = gateway.expect("gone").unwrap();
    let policies = [
        (
            "good",
            Policy {
                pretty: true,
                ..Policy::default()
            },
        ),
        (
            "bad",
            Policy {
                garbage: true,
                ..Policy::default()
            },
        ),
        (
            "gone",
            Policy {
                disconnect_at: Some(4),
                ..Policy::default()
            },
        ),
    ];
    let clients: Vec<_> = policies
        .into_iter()
        .map(|(token, policy)| {
            tokio::spawn(async move { run_client(addr, token, token, policy).await })
        })
        .collect();
    for p in [&mut good, &mut bad, &mut gone] {
        assert!(p.wait_connected(Duration::from_secs(10)).await);
    }
    let mut seats = vec![
        SeatPlayer::Remote(Box::new(good)),
        SeatPlayer::Remote(Box::new(bad)),
        SeatPlayer::Remote(Box::new(gone)),
        SeatPlayer::Local(BuiltinAi::Runner.player(5, 3)),
    ];
    let game = with_timeout(
        "the game",
        play(
            &board,
            &mut seats,
            &["good", "bad", "gone", "runner"],
            5,
            10,
            1_000,
        ),
    )
    .await;
    drop(seats);
    assert_eq!(game.turn(), 10);
    // The good client and the built-in AI: no faults.
    assert!(faults(&game, 0).is_empty(), "{:?}", faults(&game, 0));
    assert!(faults(&game, 3).is_empty());
    // Garbage: every query of that seat is an invalid fault.
    let bad_faults = faults(&game, 1);
    assert_eq!(bad_faults.len(), all_decisions(&game, 1));
    assert!(bad_faults.iter().all(|(_, k)| *k == EventKind::Invalid));
    assert!(
        turn_decisions(&game, 1)
            .iter()
            .all(|r| *r == TurnReply::Fault(Fault::Invalid))
    );
    // Vanished at turn 4: crash faults from then on, none before.
    let gone_faults = faults(&game, 2);
    assert!(!gone_faults.is_empty());
    assert!(
        gone_faults
            .iter()
            .all(|(t, k)| *k == EventKind::Crash && *t >= 4),
        "{gone_faults:?}"
    );
    let gone_turns = turn_decisions(&game, 2);
    assert!(
        gone_turns[..3]
            .iter()
            .all(|r| matches!(r, TurnReply::Play { .. }))
    );
    assert!(
        gone_turns[3..]
            .iter()
            .all(|r| *r == TurnReply::Fault(Fault::Crash))
    );
    let gone_all: Vec<bool> = game
        .decisions()
        .iter()
        .filter_map(|d| match d {
            Decision::Start { seat: 2, reply } => Some(matches!(reply, StartReply::Fault(_))),
            Decision::Turn { seat: 2, reply } => Some(matches!(reply, TurnReply::Fault(_))),
            _ => None,
        })
        .collect();
    let first_fault = gone_all.iter().position(|f| *f).unwrap();
    assert!(
        gone_all[first_fault..].iter().all(|f| *f),
        "no answer after the disconnect"
    );
    assert_eq!(gone_faults.len(), gone_all.len() - first_fault);
    let logs: Vec<ClientLog> = futures_join(clients).await;
    assert_eq!(logs[2].disconnected_at, Some(4));
    assert_eq!(logs[0].turns_seen.len(), turn_decisions(&game, 0).len());
}

/// The 2012 sample client answers `power-down="true"` with `<cards />` when every card it
/// tried destroys its robot: the robot stays and powers down (rules R5.3), the game goes
/// on, and it is no fault.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reply_with_no_card_and_a_power_down_stays_and_is_no_fault() {
    let (gateway, _events) = gateway().await;
    let addr = gateway.local_addr();
    let board = load_board("gear-works").unwrap();
    let mut cornered = gateway.expect("cornered").unwrap();
    let policy = Policy {
        no_card_every: Some(2),
        ..Policy::default()
    };
    let client =
        tokio::spawn(async move { run_client(addr, "cornered", "cornered", policy).await });
    assert!(cornered.wait_connected(Duration::from_secs(10)).await);
    let mut seats = vec![
        SeatPlayer::Remote(Box::new(cornered)),
        SeatPlayer::Local(BuiltinAi::Runner.player(5, 1)),
    ];
    let game = with_timeout(
        "the game",
        play(&board, &mut seats, &["cornered", "runner"], 5, 10, 1_000),
    )
    .await;
    drop(seats);
    let log = with_timeout("the client", client).await.unwrap();
    assert_eq!(game.turn(), 10);
    assert!(faults(&game, 0).is_empty(), "{:?}", faults(&game, 0));
    let decided = turn_decisions(&game, 0);
    let stayed = decided
        .iter()
        .filter(|r| matches!(r, TurnReply::StayAndPowerDown))
        .count();
    assert!(!log.no_card.is_empty());
    assert_eq!(stayed, log.no_card.len());
    assert_eq!(decided.len() - stayed, log.played.len());
}

async fn futures_join(handles: Vec<tokio::task::JoinHandle<ClientLog>>) -> Vec<ClientLog> {
    let mut out = Vec::new();
    for h in handles {
        out.push(with_timeout("a client", h).await.unwrap());
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn late_replies_are_timeouts_and_never_answer_the_next_query() {
    let (gateway, _events) = gateway().await;
    let addr = gateway.local_addr();
    let board = load_board("gear-works").unwrap();
    let mut slow = gateway.expect("slow").unwrap();
    let client = tokio::spawn(async move {
        run_client(
            addr,
            "slow",
            "slow",
            Policy {
                delay_ms: 150,
                ..Policy::default()
            },
        )
        .await
    });
    assert!(slow.wait_connected(Duration::from_secs(10)).await);
    let mut seats = vec![
        SeatPlayer::Remote(Box::new(slow)),
        SeatPlayer::Local(BuiltinAi::Random.player(9, 1)),
    ];
    let game = with_timeout(
        "the game",
        play(&board, &mut seats, &["slow", "random"], 9, 4, 100),
    )
    .await;
    drop(seats);
    let f = faults(&game, 0);
    assert_eq!(f.len(), all_decisions(&game, 0));
    assert!(f.iter().all(|(_, k)| *k == EventKind::Timeout), "{f:?}");
    with_timeout("the client", client).await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_reconnects_with_its_token_gets_its_seat_back() {
    let (gateway, events) = gateway().await;
    let addr = gateway.local_addr();
    let board = load_board("gear-works").unwrap();
    let mut steady = gateway.expect("steady").unwrap();
    let mut flaky = gateway.expect("flaky").unwrap();
    let c1 = tokio::spawn(async move {
        run_client(
            addr,
            "steady",
            "steady",
            Policy {
                delay_ms: 20,
                ..Policy::default()
            },
        )
        .await
    });
    let c2 = tokio::spawn(async move {
        let policy = Policy {
            disconnect_at: Some(2),
            reconnect: true,
            ..Policy::default()
        };
        run_client(addr, "flaky", "flaky", policy).await
    });
    assert!(steady.wait_connected(Duration::from_secs(10)).await);
    assert!(flaky.wait_connected(Duration::from_secs(10)).await);
    let mut seats = vec![
        SeatPlayer::Remote(Box::new(steady)),
        SeatPlayer::Remote(Box::new(flaky)),
    ];
    let game = with_timeout(
        "the game",
        play(&board, &mut seats, &["steady", "flaky"], 11, 10, 2_000),
    )
    .await;
    drop(seats);
    let flaky_turns = turn_decisions(&game, 1);
    assert_eq!(
        flaky_turns[1],
        TurnReply::Fault(Fault::Crash),
        "the turn it dropped"
    );
    assert!(
        matches!(flaky_turns.last(), Some(TurnReply::Play { .. })),
        "playing again after reconnecting: {flaky_turns:?}"
    );
    assert!(faults(&game, 1).iter().all(|(_, k)| *k == EventKind::Crash));
    with_timeout("client", c1).await.unwrap();
    let log = with_timeout("client", c2).await.unwrap();
    assert_eq!(log.disconnected_at, Some(2));
    assert!(events.lock().unwrap().iter().any(|e| matches!(
        e,
        GatewayEvent::Joined { name, reconnect: true, .. } if name == "flaky"
    )));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_series_plays_several_games_over_one_connection() {
    let (gateway, _events) = gateway().await;
    let addr = gateway.local_addr();
    let board = load_board("corridor-dash").unwrap();
    let mut a = gateway.expect("a").unwrap();
    let client = tokio::spawn(async move { run_client(addr, "a", "a", Policy::default()).await });
    assert!(a.wait_connected(Duration::from_secs(10)).await);
    let mut seats = vec![
        SeatPlayer::Remote(Box::new(a)),
        SeatPlayer::Local(BuiltinAi::Runner.player(1, 1)),
    ];
    let mut played = 0;
    for seed in 1..=3 {
        seats[1] = SeatPlayer::Local(BuiltinAi::Runner.player(seed, 1));
        let game = with_timeout(
            "a game",
            play(&board, &mut seats, &["a", "runner"], seed, 5, 2_000),
        )
        .await;
        assert!(faults(&game, 0).is_empty());
        played += turn_decisions(&game, 0).len();
    }
    drop(seats); // the series ends: the client sees the connection close
    let log = with_timeout("the client", client).await.unwrap();
    assert_eq!(log.game_starts, 3);
    assert_eq!(log.played.len(), played);
}

// ---------------------------------------------------------------------------------------
// `lrs-tourney serve`
// ---------------------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_plays_hand_started_clients_and_a_builtin_ai_then_exits() {
    use std::io::BufRead;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_lrs-tourney"))
        .args([
            "serve",
            "--board",
            "gear-works",
            "--players",
            "2",
            "--games",
            "1",
            "--bot",
            "builtin:runner",
            "--port",
            "0",
            "--seed",
            "4",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start lrs-tourney serve");
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    let reader = std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let first = rx
        .recv_timeout(Duration::from_secs(20))
        .expect("serve prints its address");
    let addr: SocketAddr = first
        .strip_prefix("listening on ")
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("unexpected first line {first:?}"))
        .parse()
        .unwrap();
    let alpha =
        tokio::spawn(async move { run_client(addr, "alpha", "any", Policy::default()).await });
    let beta = tokio::spawn(async move {
        run_client(
            addr,
            "beta",
            "any",
            Policy {
                index: 3,
                ..Policy::default()
            },
        )
        .await
    });
    let alpha = with_timeout("alpha", alpha).await.unwrap();
    let beta = with_timeout("beta", beta).await.unwrap();
    assert_eq!(alpha.game_starts, 1);
    assert_eq!(beta.game_starts, 1);
    assert_ne!(alpha.guids, beta.guids, "two seats");
    let status = with_timeout("serve to exit", async {
        loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await;
    reader.join().unwrap();
    let out: Vec<String> = std::iter::once(first).chain(rx.try_iter()).collect();
    let out = out.join("\n");
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    assert!(
        status.success(),
        "status {status:?}\nstdout:\n{out}\nstderr:\n{err}"
    );
    for needle in ["alpha", "beta", "builtin:runner", "game 1 of 1 over"] {
        assert!(out.contains(needle), "{needle:?} missing from:\n{out}");
    }
    assert!(out.contains("joined from"), "{out}");
}

#[test]
fn serve_rejects_too_many_seats() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_lrs-tourney"))
        .args([
            "serve",
            "--board",
            "gear-works",
            "--players",
            "8",
            "--bot",
            "builtin:random",
            "--port",
            "0",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("seats"));
}

// ---------------------------------------------------------------------------------------
// Client processes
// ---------------------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_process_gets_host_team_and_token_and_exits_on_the_exit_line() {
    use lrs_tourney::bots::{BotCommand, Limits, Sandbox, SandboxConfig};
    use lrs_tourney::games::lrs::windward::spawn_windward_client;
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("client.sh");
    // Like a 2012 client: chatty on stdout (more than a pipe buffer holds), runs until it
    // reads `exit`. It marks when it is done printing, which it only gets to if its stdout
    // is drained.
    let marker = dir.path().join("printed");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\necho \"args: $1|$2|$3\" >&2\ni=0\nwhile [ $i -lt 5000 ]; do echo \"log line $i of a chatty client\"; i=$((i+1)); done\ntouch '{}'\nwhile read line; do [ \"$line\" = exit ] && exit 0; done\nexit 3\n",
            marker.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let sandbox = Sandbox::new(SandboxConfig::minimal());
    let command = BotCommand {
        argv: vec!["./client.sh".into()],
        dir: dir.path().to_path_buf(),
    };
    let client = spawn_windward_client(
        &command,
        "127.0.0.1",
        "Team Name",
        Some("tok-123"),
        &Limits::default(),
        30,
        &sandbox,
        None,
    )
    .unwrap();
    assert!(client.pgid() > 0);
    with_timeout("the client to print", async {
        while !marker.exists() {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
    let (report, tail) = with_timeout("the client to end", client.finish()).await;
    assert_eq!(report.status, "exit 0", "{report:?}");
    assert!(!report.killed);
    assert!(
        report
            .stderr
            .text()
            .contains("args: 127.0.0.1|Team Name|tok-123"),
        "{report:?}"
    );
    assert_eq!(tail.len(), 50, "the last lines of stdout are kept");
    assert!(tail.iter().all(|l| l.starts_with("log line ")));
}
