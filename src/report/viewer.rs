//! Defines the replay viewer page: one self-contained HTML file (styles, script and the
//! game inlined) that draws the board and animates a replayed game.
//!
//! It must open from `file://` on a machine with no network, so nothing is loaded from
//! anywhere: a Content-Security-Policy of `default-src 'none'` makes that a guarantee,
//! not a habit. The game is inlined in a compact form (arrays, not the documented `--json`
//! trace) so a report with hundreds of replays stays small.

use super::replay::Replay;
use crate::engine::{Board, Event, Robot, Shot, Stage, Status, Tile};
use serde_json::{Value, json};

const TEMPLATE: &str = include_str!("viewer/viewer.html");
const CSS: &str = include_str!("viewer/viewer.css");
/// The controls every viewer shares, then each game's drawing and animation.
const CONTROLS_JS: &str = include_str!("viewer/controls.js");
const JS: &str = include_str!("viewer/viewer.js");
const ROBOTGAME_JS: &str = include_str!("viewer/robotgame.js");
const ROBOTS_JS: &str = include_str!("viewer/robots.js");

/// The score table's columns of each game's viewer.
const LRS_HEAD: &[&str] = &["Seat", "Team", "Score", "Flags", "Damage", "Lives", "State"];
const ROBOTGAME_HEAD: &[&str] = &["Seat", "Team", "Robots", "Damage dealt", "Kills", "Faults"];
const ROBOTS_HEAD: &[&str] = &[
    "Seat",
    "Team",
    "Score",
    "Levels",
    "Kills",
    "Teleports",
    "State",
];

/// What a replay page shows besides the game itself.
#[derive(Debug, Clone, Default)]
pub struct PageInfo {
    /// The page title, e.g. `westfield-high/final, game 3`.
    pub title: String,
    /// One line under the title: board, seed, engine version.
    pub meta: String,
    /// A link back (to the set's page in a report): address and text.
    pub back: Option<(String, String)>,
    /// Team name by seat.
    pub seats: Vec<String>,
    /// The scores stored for the game, when it came from a database, to show the check.
    pub stored_scores: Option<Vec<i32>>,
}

/// The replay page for `replay` on `board`.
pub fn page(board: &Board, replay: &Replay, info: &PageInfo) -> String {
    let data = data(board, replay, info);
    fill(info, &data, JS, LRS_HEAD, Some(&replay.scores))
}

/// The RobotGame replay page for a trace (`games::robotgame::trace`).
pub fn robotgame_page(trace: &Value, info: &PageInfo) -> String {
    let seats: Vec<Value> = info.seats.iter().map(|n| json!({ "name": n })).collect();
    let data = json!({ "seats": seats, "trace": trace });
    fill(info, &data, ROBOTGAME_JS, ROBOTGAME_HEAD, None)
}

/// The Robots replay page for a trace (`games::robots::trace`).
pub fn robots_page(trace: &Value, info: &PageInfo) -> String {
    let data = json!({ "seats": info.seats, "trace": trace });
    fill(info, &data, ROBOTS_JS, ROBOTS_HEAD, None)
}

/// The page template filled in; `replayed` is compared with `info.stored_scores`.
fn fill(
    info: &PageInfo,
    data: &Value,
    js: &str,
    head: &[&str],
    replayed: Option<&Vec<i32>>,
) -> String {
    let verdict = match (&info.stored_scores, replayed) {
        (Some(stored), Some(replayed)) if stored == replayed => {
            "<p class=\"verdict ok\" id=\"verdict\">Replayed scores match the stored result.</p>"
                .to_string()
        }
        (Some(stored), Some(replayed)) => format!(
            "<p class=\"verdict bad\" id=\"verdict\">REPLAY DIFFERS FROM THE STORED GAME: stored {}, replayed {}.</p>",
            escape(&format!("{stored:?}")),
            escape(&format!("{replayed:?}"))
        ),
        _ => String::new(),
    };
    let score_head: String = head
        .iter()
        .map(|h| format!("<th scope=\"col\">{}</th>", escape(h)))
        .collect();
    let back = info
        .back
        .as_ref()
        .map(|(href, text)| format!("<a href=\"{}\">{}</a>", escape(href), escape(text)))
        .unwrap_or_default();
    let js = format!("{CONTROLS_JS}\n{js}");
    let title = escape(&info.title);
    let meta = escape(&info.meta);
    let data = script_json(data);
    fill_template(
        TEMPLATE,
        &[
            ("CSS", CSS),
            ("TITLE", &title),
            ("META", &meta),
            ("BACK", &back),
            ("VERDICT", &verdict),
            ("SCORE_HEAD", &score_head),
            ("JS", &js),
            ("DATA", &data),
        ],
    )
}

/// Replaces each `{{KEY}}` of `template` in one pass, so a value that happens to contain
/// `{{JS}}` (a team may call itself that) is left as it is.
fn fill_template(template: &str, values: &[(&str, &str)]) -> String {
    let mut out =
        String::with_capacity(template.len() + values.iter().map(|v| v.1.len()).sum::<usize>());
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        match after.find("}}").and_then(|end| {
            let key = &after[..end];
            values
                .iter()
                .find(|(k, _)| *k == key)
                .map(|(_, v)| (v, end))
        }) {
            Some((value, end)) => {
                out.push_str(value);
                rest = &after[end + 2..];
            }
            None => {
                out.push_str("{{");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Escapes text for HTML element content and quoted attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// JSON that is safe inside a `<script>` element: no `<`, so no `</script>` can end it
/// early, whatever a team calls itself.
pub fn script_json(value: &Value) -> String {
    value
        .to_string()
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
}

fn data(board: &Board, replay: &Replay, info: &PageInfo) -> Value {
    let seats: Vec<Value> = (0..replay.start.len())
        .map(|s| {
            let name = info
                .seats
                .get(s)
                .cloned()
                .unwrap_or_else(|| format!("seat {}", s + 1));
            json!({ "name": name })
        })
        .collect();
    let steps: Vec<Value> = replay
        .steps
        .iter()
        .map(|step| {
            json!({
                "t": step.turn,
                "r": poses(&step.robots),
                "e": step.events.iter().map(event).collect::<Vec<_>>(),
                "f": step.frames.iter().map(|f| json!([
                    stage(f.stage),
                    f.moves.iter().map(|m| json!([m.seat, m.pos.x, m.pos.y, m.facing.index(), status(m.status), m.damage])).collect::<Vec<_>>(),
                    f.shots.iter().map(shot).collect::<Vec<_>>(),
                ])).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({
        "board": board_data(board),
        "seats": seats,
        "start": poses(&replay.start),
        "start_events": replay.start_events.iter().map(event).collect::<Vec<_>>(),
        "steps": steps,
        "scores": replay.scores,
    })
}

fn board_data(board: &Board) -> Value {
    let squares: Vec<Value> = board
        .squares()
        .iter()
        .map(|sq| {
            let (kind, a, b) = match sq.tile {
                Tile::Floor => (0, 0, 0),
                Tile::Pit => (1, 0, 0),
                Tile::Repair => (2, 0, 0),
                Tile::Flag(n) => (3, i32::from(n), 0),
                Tile::Conveyor { dir, express } => (4, i32::from(dir.index()), i32::from(express)),
                Tile::Gear(r) => (
                    5,
                    if r == crate::engine::Rotation::Clockwise {
                        1
                    } else {
                        -1
                    },
                    0,
                ),
            };
            let (ldir, lstr) = sq.laser.map_or((-1, 0), |l| {
                (i32::from(l.dir.index()), i32::from(l.strength))
            });
            json!([kind, a, b, sq.walls.0, sq.start.unwrap_or(0), ldir, lstr])
        })
        .collect();
    let lasers: Vec<Value> = board
        .lasers()
        .iter()
        .map(|&(mount, laser)| {
            let n = board.beam_length(mount, laser.dir) as i32 - 1;
            let (dx, dy) = laser.dir.delta();
            json!({ "x": mount.x, "y": mount.y, "tx": mount.x + dx * n, "ty": mount.y + dy * n })
        })
        .collect();
    json!({
        "name": board.name(),
        "w": board.width(),
        "h": board.height(),
        "sq": squares,
        "lasers": lasers,
    })
}

fn status(s: Status) -> u8 {
    match s {
        Status::Active => 0,
        Status::Destroyed => 1,
        Status::Dead => 2,
    }
}

/// `[x, y, facing, status, damage, lives, score, next_flag, power]`; power 0 up, -1
/// announced, n powered down with n turns left.
fn poses(robots: &[Robot]) -> Vec<Value> {
    robots
        .iter()
        .map(|r| {
            let power = match r.power {
                crate::engine::Power::Up => 0,
                crate::engine::Power::Announced => -1,
                crate::engine::Power::Down(n) => i32::from(n),
            };
            json!([
                r.pos.x,
                r.pos.y,
                r.facing.index(),
                status(r.status),
                r.damage,
                r.lives,
                r.score,
                r.next_flag,
                power
            ])
        })
        .collect()
}

fn event(e: &Event) -> Value {
    json!([
        e.kind.name(),
        e.robot,
        e.victim.map_or(-1, |v| v as i64),
        e.points,
        e.cause.map(|c| c.name()),
        e.flag
    ])
}

fn stage(s: Stage) -> Value {
    match s {
        Stage::Reentry => json!(["reentry"]),
        Stage::Card { seat, mv, priority } => json!(["card", seat, mv, priority]),
        Stage::Belts { express_only } => json!(["belts", express_only]),
        Stage::Gears => json!(["gears"]),
        Stage::Lasers => json!(["lasers"]),
    }
}

fn shot(s: &Shot) -> Value {
    json!([
        s.shooter.map_or(-1, |v| v as i64),
        s.from.x,
        s.from.y,
        s.to.x,
        s.to.y,
        s.dir.index(),
        s.target.map_or(-1, |v| v as i64),
        s.strength
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_that_looks_like_a_placeholder_is_not_filled_in() {
        let out = fill_template(
            "<h1>{{TITLE}}</h1>{{JS}}",
            &[("TITLE", "{{JS}}"), ("JS", "x")],
        );
        assert_eq!(out, "<h1>{{JS}}</h1>x");
    }

    #[test]
    fn script_json_cannot_close_the_script_element() {
        let v = json!({ "name": "</script><script>alert(1)</script>" });
        let out = script_json(&v);
        assert!(!out.contains("</"), "{out}");
        let back: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(back, v);
    }
}
