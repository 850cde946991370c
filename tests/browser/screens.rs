//! Every game's replay viewer as a school hall sees it: at 1920x1080 in Chromium, in normal
//! and in projector (big) mode, each checked through the DOM and computed styles (a legend,
//! seat numbers on every piece, "Turn N of M", events in words with the teams' names, large
//! print and a board that fills the screen in big mode). A screenshot of each is kept in
//! `target/screenshots/` (not committed).

use super::*;

const WIDTH: u32 = 1920;
const HEIGHT: u32 = 1080;

/// The teams, in seat order, that play every game here (an apostrophe and a final `s` on
/// purpose: the event lines make possessives of them).
const TEAMS: [&str; 4] = [
    "Segfault Squad",
    "Bit Flippers",
    "Ada's Heirs",
    "Null Pointers",
];

/// What a game's viewer must show at one turn of the game played: which turn (the slider's
/// value), the header it reads, and the teams one event line of that turn names.
struct Moment {
    turn: usize,
    header: String,
    names: Vec<String>,
}

/// Which way a game's board fills the screen in big mode: a square board the height, a
/// grid of wide boards the width.
enum Fill {
    Height,
    Width,
}

/// One game's viewer under test.
struct Hall {
    game: &'static str,
    /// `play`'s arena options (Last Robot Standing needs a board).
    arena: &'static [&'static str],
    bots: &'static [&'static str],
    /// The moment to look at, found in the game's `game-0.json` (`replay --json`).
    moment: fn(&Value) -> Moment,
    /// The pieces that belong to a seat: each has `data-seat` and a `.seat-label`.
    pieces: &'static str,
    /// The drawn board (one element, or one per seat).
    board: &'static str,
    fill: Fill,
}

/// The team of seat `seat` in `json`'s seats.
fn team(json: &Value, seat: u64) -> String {
    json["seats"][seat as usize]["team"]
        .as_str()
        .unwrap()
        .to_string()
}

fn lrs_moment(json: &Value) -> Moment {
    let steps = json["replay"]["steps"].as_array().unwrap();
    for (i, step) in steps.iter().enumerate() {
        for e in step["events"].as_array().unwrap() {
            let (robot, victim) = (e["robot"].as_u64().unwrap(), e["victim"].as_u64());
            if let Some(victim) = victim.filter(|v| *v != robot) {
                return Moment {
                    turn: i + 1,
                    header: format!("Turn {} of {}", step["turn"], steps.len()),
                    names: vec![team(json, robot), team(json, victim)],
                };
            }
        }
    }
    panic!("no robot hit or pushed another");
}

fn robotgame_moment(json: &Value) -> Moment {
    let steps = json["trace"]["steps"].as_array().unwrap();
    let mut seat_of = std::collections::HashMap::new();
    for (i, step) in steps.iter().enumerate() {
        for e in step["events"].as_array().unwrap() {
            if e["kind"] == "spawn" {
                seat_of.insert(e["robot"].as_u64().unwrap(), e["seat"].as_u64().unwrap());
            }
        }
        for e in step["events"].as_array().unwrap() {
            let Some(victim) = e["victim"].as_u64() else {
                continue;
            };
            let (a, b) = (seat_of[&e["robot"].as_u64().unwrap()], seat_of[&victim]);
            if e["kind"] == "attack" && a != b {
                return Moment {
                    turn: i + 1,
                    header: format!("Turn {} of {}", step["turn"], steps.len()),
                    names: vec![team(json, a), team(json, b), e["damage"].to_string()],
                };
            }
        }
    }
    panic!("no robot attacked another seat's robot");
}

fn robots_moment(json: &Value) -> Moment {
    let steps = json["trace"]["steps"].as_array().unwrap();
    let i = steps
        .iter()
        .position(|s| !s["moves"][0].is_null())
        .expect("seat 1 moves");
    Moment {
        turn: i + 1,
        header: format!("Turn {} of {}", steps[i]["turn"], steps.len()),
        names: vec![team(json, 0)],
    }
}

fn roborally_moment(json: &Value) -> Moment {
    let steps = json["trace"]["steps"].as_array().unwrap();
    let turns = steps.last().unwrap()["turn"].clone();
    for (i, step) in steps.iter().enumerate() {
        for e in step["events"].as_array().unwrap() {
            if let Some(victim) = e["victim"].as_u64() {
                return Moment {
                    turn: i,
                    header: format!(
                        "Turn {} of {turns}, register {}",
                        step["turn"], step["register"]
                    ),
                    names: vec![team(json, e["robot"].as_u64().unwrap()), team(json, victim)],
                };
            }
        }
    }
    panic!("no robot hit or pushed another");
}

fn roborunner_moment(json: &Value) -> Moment {
    let steps = json["trace"]["steps"].as_array().unwrap();
    let turns = steps.last().unwrap()["turn"].clone();
    for (i, step) in steps.iter().enumerate() {
        for e in step["events"].as_array().unwrap() {
            let robot = e["robot"].as_u64().unwrap();
            if let Some(victim) = e["victim"].as_u64().filter(|v| *v != robot) {
                return Moment {
                    turn: i,
                    header: format!("Turn {} of {turns}", step["turn"]),
                    names: vec![team(json, robot), team(json, victim)],
                };
            }
        }
    }
    panic!("no robot shot or pushed another");
}

/// Plays `hall`'s game once with named teams and `--replay`; the replay's directory (kept
/// alive by the returned guard) and its `game-0.json`.
fn played(hall: &Hall) -> (tempfile::TempDir, Value) {
    let work = tempfile::tempdir().unwrap();
    let dir = work.path();
    let mut args = vec![
        "play", "--game", hall.game, "--games", "1", "--seed", "4", "--replay", "replays",
    ];
    args.extend_from_slice(hall.arena);
    for (bot, name) in hall.bots.iter().zip(TEAMS) {
        args.extend_from_slice(&["--bot-name", name, "--bot", bot]);
    }
    ok(dir, &args);
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("replays/game-0.json")).unwrap())
            .unwrap();
    (work, json)
}

/// A browser whose page is exactly 1920x1080 CSS pixels.
async fn hall_browser(driver: &Driver) -> Client {
    let client = connect_sized(driver, WIDTH, HEIGHT).await;
    client.goto("about:blank").await.unwrap();
    let (w, h) = viewport(&client).await;
    if (w, h) != (WIDTH as f64, HEIGHT as f64) {
        // The window's frame, if the browser draws one, comes on top of the page.
        let frame_w = WIDTH - w as u32;
        let frame_h = HEIGHT - h as u32;
        client
            .set_window_size(WIDTH + frame_w, HEIGHT + frame_h)
            .await
            .unwrap();
    }
    assert_eq!(
        viewport(&client).await,
        (WIDTH as f64, HEIGHT as f64),
        "the page must be 1920x1080"
    );
    client
}

async fn viewport(client: &Client) -> (f64, f64) {
    let v = client
        .execute("return [innerWidth, innerHeight]", vec![])
        .await
        .unwrap();
    (v[0].as_f64().unwrap(), v[1].as_f64().unwrap())
}

async fn js(client: &Client, script: &str) -> Value {
    client.execute(script, vec![]).await.expect(script)
}

fn screenshot(name: &str, png: &[u8]) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/screenshots");
    std::fs::create_dir_all(&dir).expect("screenshot dir");
    std::fs::write(dir.join(name), png).expect("write screenshot");
}

/// What every mode shows: the legend, the header, the event line with the teams' names
/// and every piece's seat number.
async fn reads_as_a_hall_needs(client: &Client, hall: &Hall, moment: &Moment) {
    let legend = client.find(Locator::Id("legend")).await.expect("a legend");
    assert!(legend.is_displayed().await.unwrap(), "the legend is shown");
    let items = js(
        client,
        "return Array.from(document.querySelectorAll('#legend li')).map(li => \
         [li.querySelectorAll('svg *').length, li.textContent.trim(), \
          li.getBoundingClientRect().top])",
    )
    .await;
    let items = items.as_array().unwrap();
    assert!(items.len() >= 4, "{}: legend items {items:?}", hall.game);
    for item in items {
        assert!(
            item[0].as_u64().unwrap() > 0 && !item[1].as_str().unwrap().is_empty(),
            "{}: each legend item draws its sample and says what it is: {item:?}",
            hall.game
        );
    }
    assert!(
        items[0][2].as_f64().unwrap() < HEIGHT as f64,
        "{}: the legend starts on the screen",
        hall.game
    );

    let header = client
        .find(Locator::Id("turn-label"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(header, moment.header, "{}", hall.game);

    let lines: Vec<String> = js(
        client,
        "return Array.from(document.querySelectorAll('#events li')).map(li => li.textContent)",
    )
    .await
    .as_array()
    .unwrap()
    .iter()
    .map(|l| l.as_str().unwrap().to_string())
    .collect();
    assert!(
        lines
            .iter()
            .any(|l| moment.names.iter().all(|n| l.contains(n.as_str()))),
        "{}: no event line names {:?}: {lines:?}",
        hall.game,
        moment.names
    );

    let pieces = js(
        client,
        &format!(
            "return Array.from(document.querySelectorAll({:?})).filter(p => \
             getComputedStyle(p).display !== 'none' && p.getAttribute('display') !== 'none').map(p => \
             [Number(p.dataset.seat), (p.querySelector('.seat-label') || {{}}).textContent || ''])",
            hall.pieces
        ),
    )
    .await;
    let pieces = pieces.as_array().unwrap();
    assert!(!pieces.is_empty(), "{}: no piece drawn", hall.game);
    for p in pieces {
        let seat = p[0].as_u64().unwrap();
        assert_eq!(
            p[1].as_str().unwrap(),
            (seat + 1).to_string(),
            "{}: a piece of seat {} carries its number",
            hall.game,
            seat + 1
        );
    }
}

/// The union of the bounding boxes of `selector`'s elements: [left, top, width, height].
async fn drawn_box(client: &Client, selector: &str) -> [f64; 4] {
    let v = js(
        client,
        &format!(
            "const rs = Array.from(document.querySelectorAll({selector:?})).map(e => e.getBoundingClientRect()); \
             const l = Math.min(...rs.map(r => r.left)), t = Math.min(...rs.map(r => r.top)); \
             return [l, t, Math.max(...rs.map(r => r.right)) - l, Math.max(...rs.map(r => r.bottom)) - t]"
        ),
    )
    .await;
    let v: Vec<f64> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    [v[0], v[1], v[2], v[3]]
}

/// The smallest computed font size of the event lines, in pixels.
async fn event_font_px(client: &Client) -> f64 {
    js(
        client,
        "return Math.min(...Array.from(document.querySelectorAll('#events li')).map(li => \
         parseFloat(getComputedStyle(li).fontSize)))",
    )
    .await
    .as_f64()
    .unwrap()
}

async fn big_mode_is_large_print(client: &Client, hall: &Hall, how: &str) {
    let big = js(client, "return document.body.classList.contains('big')").await;
    assert_eq!(big, json!(true), "{}: big mode on by {how}", hall.game);
    let px = event_font_px(client).await;
    assert!(
        px >= 24.0,
        "{}: event text is {px} px in big mode",
        hall.game
    );
    let header_px = js(
        client,
        "return parseFloat(getComputedStyle(document.getElementById('turn-label')).fontSize)",
    )
    .await
    .as_f64()
    .unwrap();
    assert!(
        header_px >= 28.0,
        "{}: the header is {header_px} px",
        hall.game
    );
    let [_, top, w, h] = drawn_box(client, hall.board).await;
    assert!(
        top >= 0.0 && top + h <= HEIGHT as f64 + 0.5,
        "{}: the board ({top} to {} px) is all on the screen in big mode",
        hall.game,
        top + h
    );
    match hall.fill {
        Fill::Height => assert!(
            h >= 0.75 * HEIGHT as f64,
            "{}: the board is {h} px high in big mode",
            hall.game
        ),
        Fill::Width => assert!(
            w >= 0.6 * WIDTH as f64,
            "{}: the boards are {w} px wide in big mode",
            hall.game
        ),
    }
}

/// Opens `page` with `query` (`""` or `?big`) at `turn` and waits until it shows it.
/// The turn number a game's first view shows (`#turn=N` speaks turn numbers): Robo Runner's
/// first view is turn 1 played, RobotGame's the start before turn 0 (its turns count from
/// 0), the others' the start before turn 1.
fn first_turn(game: &str) -> i64 {
    match game {
        "roborunner" => 1,
        "robotgame" => -1,
        _ => 0,
    }
}

/// Opens `page` at view `turn` (0: the first view) through its `#turn=` link.
async fn goto_turn(client: &Client, page: &str, query: &str, game: &str, turn: usize) {
    let number = turn as i64 + first_turn(game);
    client
        .goto(&if number < 0 {
            format!("{page}{query}#start")
        } else {
            format!("{page}{query}#turn={number}")
        })
        .await
        .unwrap();
    wait_data(client, "turn", &turn.to_string(), Duration::from_secs(10)).await;
    if game == "roborunner" || (game == "robotgame" && number >= 0) {
        // `#turn=N` opens turn N, as the page's own header says.
        let label = js(
            client,
            "return document.getElementById('turn-label').textContent",
        )
        .await;
        let label = label.as_str().unwrap_or_default();
        assert!(
            label.starts_with(&format!("Turn {number} of ")),
            "#turn={number}: {label}"
        );
    }
}

/// The whole check of one game's viewer, normal then big (by the button, then by `?big`).
async fn a_viewer_reads_well_in_a_school_hall(hall: Hall) {
    let (work, json) = played(&hall);
    let moment = (hall.moment)(&json);
    let page = file_url(&work.path().join("replays/game-0.html"));

    let driver = start_driver();
    let client = hall_browser(&driver).await;
    log(&client, "performance").await;
    goto_turn(&client, &page, "", hall.game, moment.turn).await;
    reads_as_a_hall_needs(&client, &hall, &moment).await;
    let normal_px = event_font_px(&client).await;
    screenshot(
        &format!("{}-normal.png", hall.game),
        &client.screenshot().await.unwrap(),
    );

    let button = client.find(Locator::Id("big")).await.expect("a big button");
    button.click().await.unwrap();
    assert_eq!(
        button.attr("aria-pressed").await.unwrap().as_deref(),
        Some("true")
    );
    big_mode_is_large_print(&client, &hall, "its button").await;
    assert!(event_font_px(&client).await > normal_px);
    reads_as_a_hall_needs(&client, &hall, &moment).await;
    screenshot(
        &format!("{}-big.png", hall.game),
        &client.screenshot().await.unwrap(),
    );
    button.click().await.unwrap();
    assert_eq!(
        event_font_px(&client).await,
        normal_px,
        "the button turns it off"
    );
    let body = client.find(Locator::Css("body")).await.unwrap();
    body.send_keys("b").await.unwrap();
    big_mode_is_large_print(&client, &hall, "the B key").await;
    body.send_keys("b").await.unwrap();
    assert_eq!(event_font_px(&client).await, normal_px, "B turns it off");

    client.goto("about:blank").await.unwrap();
    goto_turn(&client, &page, "?big", hall.game, moment.turn).await;
    big_mode_is_large_print(&client, &hall, "?big").await;
    no_error_and_no_network(&client).await;
    client.close().await.unwrap();
}

/// A game drawn on one square board whose robots are `g.robot`.
const fn one_board(
    game: &'static str,
    arena: &'static [&'static str],
    bots: &'static [&'static str],
    moment: fn(&Value) -> Moment,
) -> Hall {
    Hall {
        game,
        arena,
        bots,
        moment,
        pieces: "#board g.robot",
        board: "#tiles rect",
        fill: Fill::Height,
    }
}

const LRS: Hall = one_board(
    "lrs",
    &["--board", "gear-works"],
    &["builtin:hunter", "builtin:random", "builtin:runner"],
    lrs_moment,
);

const ROBOTGAME: Hall = one_board(
    "robotgame",
    &[],
    &["builtin:hunter", "builtin:random", "builtin:random"],
    robotgame_moment,
);

const ROBOTS: Hall = Hall {
    game: "robots",
    arena: &[],
    bots: &[
        "builtin:dodger",
        "builtin:random",
        "builtin:random",
        "builtin:dodger",
    ],
    moment: robots_moment,
    pieces: "#board g.player",
    board: ".seat-board",
    fill: Fill::Width,
};

const ROBORALLY: Hall = one_board(
    "roborally",
    &[],
    &["builtin:racer", "builtin:random"],
    roborally_moment,
);

/// Four seats on Twin Bays: robots shoot and push each other, a transporter is used, and
/// the ship has launch bays closed in different phases.
const ROBORUNNER: Hall = one_board(
    "roborunner",
    &["--board", "twin-bays"],
    &[
        "builtin:runner",
        "builtin:random",
        "builtin:runner",
        "builtin:random",
    ],
    roborunner_moment,
);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lrs_viewer_reads_well_in_a_school_hall() {
    a_viewer_reads_well_in_a_school_hall(LRS).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_robotgame_viewer_reads_well_in_a_school_hall() {
    a_viewer_reads_well_in_a_school_hall(ROBOTGAME).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_robots_viewer_reads_well_in_a_school_hall() {
    a_viewer_reads_well_in_a_school_hall(ROBOTS).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_roborally_viewer_reads_well_in_a_school_hall() {
    a_viewer_reads_well_in_a_school_hall(ROBORALLY).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_roborunner_viewer_reads_well_in_a_school_hall() {
    a_viewer_reads_well_in_a_school_hall(ROBORUNNER).await;
}

/// Plays `hall`'s game and opens its replay in a 1920x1080 browser at the turn `pick`
/// chooses from its `game-0.json`; that turn and the JSON.
async fn open_at(
    hall: &Hall,
    pick: impl Fn(&Value) -> usize,
) -> (tempfile::TempDir, Value, usize, Driver, Client) {
    let (work, json) = played(hall);
    let turn = pick(&json);
    let driver = start_driver();
    let client = hall_browser(&driver).await;
    let page = file_url(&work.path().join("replays/game-0.html"));
    goto_turn(&client, &page, "", hall.game, turn).await;
    (work, json, turn, driver, client)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn robots_boards_lie_side_by_side_with_the_player_unmistakable() {
    let (_work, _json, _, _driver, client) = open_at(&ROBOTS, |_| 1).await;
    let boards = js(
        &client,
        "return Array.from(document.querySelectorAll('.seat-board')).map(b => { \
         const r = b.getBoundingClientRect(); return [r.left, r.top, r.width]; })",
    )
    .await;
    let boards = boards.as_array().unwrap();
    assert_eq!(boards.len(), 4);
    let side_by_side = boards.iter().enumerate().any(|(i, a)| {
        boards[i + 1..].iter().any(|b| {
            (a[1].as_f64().unwrap() - b[1].as_f64().unwrap()).abs() < 1.0
                && (a[0].as_f64().unwrap() - b[0].as_f64().unwrap()).abs() > 100.0
        })
    });
    assert!(side_by_side, "two boards on one row: {boards:?}");
    let [_, _, w, _] = drawn_box(&client, ".seat-board").await;
    assert!(w >= 0.5 * WIDTH as f64, "the boards are {w} px wide");
    let caption_px = js(
        &client,
        "return Math.min(...Array.from(document.querySelectorAll('.seat-caption')).map(c => \
         c.getBoundingClientRect().height))",
    )
    .await
    .as_f64()
    .unwrap();
    assert!(caption_px >= 18.0, "captions are {caption_px} px high");
    let sizes = js(
        &client,
        "const w = (s) => Math.min(...Array.from(document.querySelectorAll(s)).map(e => \
         e.getBoundingClientRect().width)); return [w('#board g.player'), w('#board .enemy')]",
    )
    .await;
    let (player, enemy) = (sizes[0].as_f64().unwrap(), sizes[1].as_f64().unwrap());
    assert!(
        player >= 1.8 * enemy,
        "the player ({player} px) stands out from a robot ({enemy} px)"
    );
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn robotgame_discs_show_hit_points_as_a_bar() {
    let (_work, json, _, _driver, client) = open_at(&ROBOTGAME, |_| 30).await;
    let bars = js(
        &client,
        "return Array.from(document.querySelectorAll('#board g.robot')).filter(g => \
         g.getAttribute('display') !== 'none').map(g => [Number(g.dataset.id), \
         Number(g.querySelector('.hp-bar').getAttribute('width')) / \
         Number(g.querySelector('.hp-back').getAttribute('width'))])",
    )
    .await;
    let robots = json["trace"]["steps"][29]["robots"].as_array().unwrap();
    let bars = bars.as_array().unwrap();
    assert_eq!(bars.len(), robots.len());
    for bar in bars {
        let id = bar[0].as_u64().unwrap();
        let robot = robots.iter().find(|r| r["id"] == id).unwrap();
        let hp = robot["hp"].as_f64().unwrap();
        let shown = bar[1].as_f64().unwrap();
        assert!(
            (shown - hp / 50.0).abs() < 0.01,
            "robot {id}: {hp} hp drawn as {shown} of the bar"
        );
    }
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn roborally_draws_the_laser_beams_that_hit() {
    let hits = |s: &Value| {
        s["events"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["kind"] == "hit" || e["kind"] == "board_hit")
            .count()
    };
    let steps = |json: &Value| json["trace"]["steps"].as_array().unwrap().clone();
    let (_work, json, turn, _driver, client) = open_at(&ROBORALLY, |json| {
        steps(json)
            .iter()
            .position(|s| hits(s) > 0)
            .expect("a laser hits")
    })
    .await;
    let beams = client.find_all(Locator::Css(".beam.hit")).await.unwrap();
    assert_eq!(beams.len(), hits(&steps(&json)[turn]), "one beam per hit");
    client.close().await.unwrap();
}

/// `[from, to]` of links or transports as the trace writes them (`{"from": [x, y], ...}`),
/// or as the page marks their drawings (`data-from="x,y"`), sorted.
fn link_pairs(values: &[Value]) -> Vec<(String, String)> {
    let text = |v: &Value| match v {
        Value::Array(xy) => format!("{},{}", xy[0], xy[1]),
        other => other.as_str().unwrap().to_string(),
    };
    let mut pairs: Vec<(String, String)> = values
        .iter()
        .map(|l| (text(&l["from"]), text(&l["to"])))
        .collect();
    pairs.sort();
    pairs
}

async fn drawn_links(client: &Client, selector: &str) -> Vec<Value> {
    js(
        client,
        &format!(
            "return Array.from(document.querySelectorAll({selector:?})).map(l => \
             ({{from: l.dataset.from, to: l.dataset.to}}))"
        ),
    )
    .await
    .as_array()
    .unwrap()
    .clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn roborunner_draws_each_transport_of_a_turn_and_the_links_learned() {
    let transports = |step: &Value| -> Vec<Value> {
        step["events"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["kind"] == "transport")
            .cloned()
            .collect()
    };
    let steps = |json: &Value| json["trace"]["steps"].as_array().unwrap().clone();
    let (_work, json, turn, _driver, client) = open_at(&ROBORUNNER, |json| {
        steps(json)
            .iter()
            .position(|s| !transports(s).is_empty())
            .expect("a robot is transported")
    })
    .await;
    let step = &steps(&json)[turn];
    let drawn = drawn_links(&client, "#links .transport").await;
    assert_eq!(link_pairs(&drawn), link_pairs(&transports(step)));
    let drawn = drawn_links(&client, "#links .link").await;
    assert_eq!(
        link_pairs(&drawn),
        link_pairs(step["links"].as_array().unwrap())
    );
    // The turn's events say it in words, the link learned included.
    let lines = js(
        &client,
        "return Array.from(document.querySelectorAll('#events li[data-kind=transport]')).map(li => li.textContent)",
    )
    .await;
    let lines = lines.as_array().unwrap();
    assert_eq!(lines.len(), transports(step).len());
    for (line, e) in lines.iter().zip(transports(step)) {
        let line = line.as_str().unwrap();
        let (from, to) = (&e["from"], &e["to"]);
        let team = team(&json, e["robot"].as_u64().unwrap());
        assert!(line.contains(&team), "{line}");
        assert!(
            line.contains(&format!(
                "from ({}, {}) to ({}, {})",
                from[0], from[1], to[0], to[1]
            )),
            "{line}"
        );
    }
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn roborunner_launch_bays_close_their_doors_in_their_phases() {
    let (_work, json, turn, _driver, client) = open_at(&ROBORUNNER, |_| 2).await;
    let squares = json["trace"]["ship"]["squares"].as_array().unwrap().clone();
    let closed_in = |x: u64, y: u64| -> Vec<u64> {
        let q = squares.iter().find(|q| q["x"] == x && q["y"] == y).unwrap();
        assert_eq!(q["type"], "bay");
        q["closed"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_u64().unwrap())
            .collect()
    };
    let bays = squares.iter().filter(|q| q["type"] == "bay").count();
    assert!(bays > 0);
    // Slowly (a phase stays a second or more on the screen) to the next turn, reading the
    // phase shown and the doors drawn in one script, so both belong to the same moment.
    let speed = client.find(Locator::Id("speed")).await.unwrap();
    speed.select_by_value("0.5").await.unwrap();
    client
        .find(Locator::Id("forward"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let mut seen = std::collections::BTreeSet::new();
    let deadline = Instant::now() + Duration::from_secs(60);
    while body_data(&client, "turn").await == turn.to_string() {
        assert!(Instant::now() < deadline, "the turn never ends");
        let now = js(
            &client,
            "return [Number(document.getElementById('phased').dataset.phase), \
             Array.from(document.querySelectorAll('#phased .bay')).map(b => \
             [Number(b.dataset.x), Number(b.dataset.y), b.getAttribute('class')])]",
        )
        .await;
        let phase = now[0].as_u64().unwrap();
        let drawn = now[1].as_array().unwrap();
        assert_eq!(drawn.len(), bays, "every bay is drawn");
        if phase == 0 {
            continue;
        }
        seen.insert(phase);
        for b in drawn {
            let (x, y) = (b[0].as_u64().unwrap(), b[1].as_u64().unwrap());
            let expected = if closed_in(x, y).contains(&phase) {
                "bay closed"
            } else {
                "bay open"
            };
            assert_eq!(b[2], expected, "the bay at ({x}, {y}) in phase {phase}");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(!seen.is_empty(), "no phase was seen");
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn roborunner_robots_move_phase_by_phase_along_their_ways() {
    // A turn in which a robot moves in a phase whose chip moves nothing: a beam, an arm or
    // a transporter moves it.
    let pulled = |json: &Value| -> usize {
        let steps = json["trace"]["steps"].as_array().unwrap();
        (1..steps.len())
            .find(|&i| {
                let step = &steps[i];
                step["ways"].as_array().is_some_and(|ways| {
                    ways.iter().enumerate().any(|(seat, way)| {
                        let Some(way) = way.as_array() else {
                            return false;
                        };
                        let start = &steps[i - 1]["robots"][seat];
                        let mut at = (start["x"].clone(), start["y"].clone());
                        way.iter().enumerate().any(|(p, pose)| {
                            let chip = step["robots"][seat]["last"][p].as_str().unwrap_or("-");
                            let here = (pose[0].clone(), pose[1].clone());
                            let moved = !pose.is_null()
                                && start["status"] == "active"
                                && here != at
                                && matches!(chip, "L" | "R" | "U" | "-");
                            at = here;
                            moved
                        })
                    })
                })
            })
            .expect("a robot moved by the ship")
    };
    let (_work, json, shown, _driver, client) = open_at(&ROBORUNNER, |json| pulled(json) - 1).await;
    let ways = json["trace"]["steps"][shown + 1]["ways"]
        .as_array()
        .unwrap()
        .clone();
    let speed = client.find(Locator::Id("speed")).await.unwrap();
    speed.select_by_value("0.5").await.unwrap();
    client
        .find(Locator::Id("forward"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let mut seen = std::collections::BTreeSet::new();
    let deadline = Instant::now() + Duration::from_secs(60);
    while body_data(&client, "turn").await == shown.to_string() {
        assert!(Instant::now() < deadline, "the turn never ends");
        // The phase the robots have settled in, and where each is drawn, at one moment.
        let now = js(
            &client,
            "return [document.body.dataset.phase, \
             Array.from(document.querySelectorAll('#robots g.robot')).map(g => \
             [Number(g.dataset.seat), Number(g.dataset.x), Number(g.dataset.y)])]",
        )
        .await;
        let phase = now[0].as_str().unwrap_or_default().parse::<usize>();
        if let Ok(phase @ 1..) = phase {
            seen.insert(phase);
            let drawn = now[1].as_array().unwrap();
            for (seat, way) in ways.iter().enumerate() {
                let Some(way) = way.as_array() else { continue };
                let piece = drawn.iter().find(|d| d[0] == json!(seat));
                let pose = &way[phase - 1];
                if pose.is_null() {
                    assert!(
                        piece.is_none(),
                        "seat {seat} is off the ship in phase {phase}"
                    );
                    continue;
                }
                let piece = piece.unwrap_or_else(|| panic!("seat {seat} drawn in phase {phase}"));
                assert_eq!(
                    (piece[1].as_f64().unwrap(), piece[2].as_f64().unwrap()),
                    (pose[0].as_f64().unwrap(), pose[1].as_f64().unwrap()),
                    "seat {seat} in phase {phase}"
                );
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(seen.len() >= 3, "phases seen settled: {seen:?}");
    client.close().await.unwrap();
}

/// The laser beams of phase `phase` of `step` the viewer can place: a hit between two robots
/// with their ways through the turn, a weld from one.
fn placed_beams(step: &Value, phase: u64) -> usize {
    let way = |seat: &Value| !step["ways"][seat.as_u64().unwrap() as usize].is_null();
    step["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["phase"] == phase && way(&e["robot"]))
        .filter(|e| e["kind"] == "weld" || (e["kind"] == "shot" && way(&e["victim"])))
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn roborunner_draws_the_hits_and_welds_of_a_phase_from_the_robots() {
    let steps = |json: &Value| json["trace"]["steps"].as_array().unwrap().clone();
    let beams_in = |step: &Value| (1..=5).map(|p| placed_beams(step, p)).sum::<usize>();
    let (_work, json, shown, _driver, client) = open_at(&ROBORUNNER, |json| {
        let steps = steps(json);
        (1..steps.len())
            .max_by_key(|&i| (beams_in(&steps[i]), std::cmp::Reverse(i)))
            .unwrap()
            - 1
    })
    .await;
    let step = steps(&json)[shown + 1].clone();
    assert!(beams_in(&step) > 0, "no hit or weld to draw");
    let speed = client.find(Locator::Id("speed")).await.unwrap();
    speed.select_by_value("0.5").await.unwrap();
    client
        .find(Locator::Id("forward"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let mut seen = std::collections::BTreeSet::new();
    let deadline = Instant::now() + Duration::from_secs(60);
    while body_data(&client, "turn").await == shown.to_string() {
        assert!(Instant::now() < deadline, "the turn never ends");
        let now = js(
            &client,
            "return [document.body.dataset.phase, \
             document.querySelectorAll('#effects .beam').length]",
        )
        .await;
        if let Ok(phase @ 1..) = now[0].as_str().unwrap_or_default().parse::<u64>() {
            let drawn = now[1].as_u64().unwrap() as usize;
            assert_eq!(drawn, placed_beams(&step, phase), "beams in phase {phase}");
            if drawn > 0 && seen.is_empty() {
                artefact(
                    "roborunner-phase-beams.png",
                    &client.screenshot().await.unwrap(),
                );
            }
            if drawn > 0 {
                seen.insert(phase);
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(!seen.is_empty(), "no beam was seen");
    client.close().await.unwrap();
}
