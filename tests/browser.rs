//! The report and the replay viewer in a real browser: headless Chromium driven through
//! WebDriver (chromedriver). An organiser's path: index, bracket, a set, a game's replay
//! played to the end, its final score table compared with the database. A student's path:
//! `play --replay DIR` and the replay of her game. Every page must log no console error and
//! make no network request. Screenshots of the bracket, a set page and a replay mid-game
//! are kept in `target/browser-artifacts/`.
//!
//! Needs Debian's `chromium` and `chromium-driver` (`.ci/run` installs them); without them
//! the tests fail, saying so, rather than pass without a browser.

mod common;
#[path = "browser/screens.rs"]
mod screens;

use common::ok;
use fantoccini::wd::WebDriverCompatibleCommand;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// chromedriver on a free port, killed on drop.
struct Driver {
    child: Child,
    port: u16,
    _profile: tempfile::TempDir,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start_driver() -> Driver {
    for tool in [CHROMIUM, CHROMEDRIVER] {
        assert!(
            Path::new(tool).exists(),
            "{tool} is missing: install Debian's chromium and chromium-driver (.ci/run does)"
        );
    }
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("free port");
    let child = Command::new(CHROMEDRIVER)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start chromedriver");
    let deadline = Instant::now() + Duration::from_secs(20);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "chromedriver did not listen");
        std::thread::sleep(Duration::from_millis(50));
    }
    Driver {
        child,
        port,
        _profile: tempfile::tempdir().expect("profile dir"),
    }
}

async fn connect(driver: &Driver) -> Client {
    connect_sized(driver, 1400, 1000).await
}

/// A browser session whose window is `width` by `height` pixels.
async fn connect_sized(driver: &Driver, width: u32, height: u32) -> Client {
    let mut caps = serde_json::Map::new();
    caps.insert("browserName".into(), json!("chrome"));
    caps.insert(
        "goog:chromeOptions".into(),
        json!({
            "binary": CHROMIUM,
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", format!("--window-size={width},{height}"),
                format!("--user-data-dir={}", driver._profile.path().display()),
            ],
        }),
    );
    caps.insert(
        "goog:loggingPrefs".into(),
        json!({"browser": "ALL", "performance": "ALL"}),
    );
    ClientBuilder::native()
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{}", driver.port))
        .await
        .expect("WebDriver session")
}

/// chromedriver's log endpoint: entries since the last call, of the `browser` (console) or
/// `performance` (DevTools events) log.
#[derive(Debug)]
struct GetLog(&'static str);

impl WebDriverCompatibleCommand for GetLog {
    fn endpoint(
        &self,
        base_url: &url::Url,
        session_id: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base_url.join(&format!(
            "session/{}/se/log",
            session_id.unwrap_or_default()
        ))
    }

    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        (
            http::Method::POST,
            Some(json!({ "type": self.0 }).to_string()),
        )
    }
}

async fn log(client: &Client, kind: &'static str) -> Vec<Value> {
    match client.issue_cmd(GetLog(kind)).await.expect("read log") {
        Value::Array(v) => v,
        other => panic!("log is not a list: {other}"),
    }
}

/// Console messages at level SEVERE (errors, uncaught exceptions, refused loads).
async fn console_errors(client: &Client) -> Vec<String> {
    log(client, "browser")
        .await
        .into_iter()
        .filter(|e| e["level"] == "SEVERE")
        .map(|e| e["message"].as_str().unwrap_or_default().to_string())
        .collect()
}

/// Every address the browser sent a request to that goes over a network (http, https,
/// ws, ftp): none may appear for a page that must work offline.
async fn network_requests(client: &Client) -> Vec<String> {
    log(client, "performance")
        .await
        .into_iter()
        .filter_map(|e| serde_json::from_str::<Value>(e["message"].as_str()?).ok())
        .filter(|m| {
            let method = m["message"]["method"].as_str().unwrap_or_default();
            method == "Network.requestWillBeSent" || method == "Network.webSocketCreated"
        })
        .filter_map(|m| {
            let p = &m["message"]["params"];
            p["request"]["url"]
                .as_str()
                .or(p["url"].as_str())
                .map(str::to_string)
        })
        .filter(|url| {
            ["http:", "https:", "ws:", "wss:", "ftp:"]
                .iter()
                .any(|s| url.starts_with(s))
        })
        .collect()
}

/// The open page logged no console error and sent no request over a network.
async fn no_error_and_no_network(client: &Client) {
    let errors = console_errors(client).await;
    assert!(errors.is_empty(), "console errors: {errors:?}");
    let requests = network_requests(client).await;
    assert!(requests.is_empty(), "network requests: {requests:?}");
}

fn file_url(path: &Path) -> String {
    format!("file://{}", path.canonicalize().expect("path").display())
}

fn artefact(name: &str, png: &[u8]) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/browser-artifacts");
    std::fs::create_dir_all(&dir).expect("artefact dir");
    std::fs::write(dir.join(name), png).expect("write screenshot");
}

async fn body_data(client: &Client, key: &str) -> String {
    client
        .execute(&format!("return document.body.dataset.{key} || ''"), vec![])
        .await
        .expect("read body data")
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// Waits until `key` of the body's data is `value`.
async fn wait_data(client: &Client, key: &str, value: &str, within: Duration) {
    let deadline = Instant::now() + within;
    loop {
        if body_data(client, key).await == value {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "body data-{key} never became {value:?} (it is {:?})",
            body_data(client, key).await
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The replay's score table as (team, score) rows, read from the page.
async fn score_table(client: &Client) -> Vec<(String, i64)> {
    let rows = client
        .execute(
            "return Array.from(document.querySelectorAll('#scores tbody tr')).map(r => \
             [r.cells[1].textContent, Number(r.querySelector('td.score').textContent)])",
            vec![],
        )
        .await
        .expect("read scores");
    rows.as_array()
        .expect("rows")
        .iter()
        .map(|r| (r[0].as_str().unwrap().to_string(), r[1].as_i64().unwrap()))
        .collect()
}

/// Plays the open replay to its end at the fastest speed, with a screenshot mid-game.
async fn play_to_end(client: &Client, screenshot: Option<&str>) {
    let speed = client.find(Locator::Id("speed")).await.expect("speed");
    speed.select_by_value("64").await.expect("pick 64x");
    client
        .find(Locator::Id("first"))
        .await
        .expect("first")
        .click()
        .await
        .expect("to start");
    assert_eq!(body_data(client, "turn").await, "0");
    client
        .find(Locator::Id("play"))
        .await
        .expect("play")
        .click()
        .await
        .expect("play");
    if let Some(name) = screenshot {
        let deadline = Instant::now() + Duration::from_secs(60);
        while body_data(client, "turn").await.parse::<u32>().unwrap_or(0) < 20 {
            assert!(Instant::now() < deadline, "the replay does not advance");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        artefact(name, &client.screenshot().await.expect("screenshot"));
    }
    wait_data(client, "state", "ended", Duration::from_secs(120)).await;
}

fn school_tournament(dir: &Path) {
    copy_from_the_project(dir, &["configs", "brackets"]);
    ok(dir, &["run", "configs/school.toml", "--quiet"]);
}

/// Copies the project's folders `subs` into `dir`, as a user's checkout has them.
fn copy_from_the_project(dir: &Path, subs: &[&str]) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for sub in subs {
        let out = Command::new("cp")
            .args(["-r"])
            .arg(root.join(sub))
            .arg(dir)
            .output()
            .expect("cp");
        assert!(out.status.success());
    }
}

/// Stored scores of one game by team name, from `export games`.
fn stored_scores(dir: &Path, set: &str, game: u32) -> Vec<(String, i64)> {
    let csv = ok(
        dir,
        &[
            "export",
            "games",
            "configs/school.sqlite",
            "--out",
            "-",
            "--no-bom",
        ],
    );
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |n: &str| header.iter().position(|h| *h == n).unwrap();
    let mut rows: Vec<(usize, String, i64)> = lines
        .map(|l| l.split(',').collect::<Vec<_>>())
        .filter(|c| c[col("set")] == set && c[col("game")] == game.to_string())
        .map(|c| {
            (
                c[col("seat")].parse().unwrap(),
                c[col("team")].to_string(),
                c[col("score")].parse().unwrap(),
            )
        })
        .collect();
    rows.sort();
    rows.into_iter().map(|(_, t, s)| (t, s)).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn organiser_follows_the_report_from_the_index_to_a_replay_played_to_the_end() {
    let work = tempfile::tempdir().unwrap();
    let dir = work.path();
    school_tournament(dir);
    ok(dir, &["report", "configs/school.sqlite", "--out", "site"]);
    let champion: Value =
        serde_json::from_str(&ok(dir, &["standings", "configs/school.sqlite", "--json"])).unwrap();
    let school = champion[0]["school"].as_str().unwrap().to_string();
    let champion = champion[0]["team"].as_str().unwrap().to_string();

    let driver = start_driver();
    let client = connect(&driver).await;
    // The detector itself: a page that loads from the network is caught.
    client.goto("about:blank").await.unwrap();
    client
        .execute("new Image().src = 'http://127.0.0.1:9/probe.png'", vec![])
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let probe = network_requests(&client).await;
    assert!(
        probe.iter().any(|u| u.contains("127.0.0.1:9/probe.png")),
        "the network check must see a real request: {probe:?}"
    );
    log(&client, "browser").await;

    client
        .goto(&file_url(&dir.join("site/index.html")))
        .await
        .unwrap();
    let text = client
        .find(Locator::Id("champion"))
        .await
        .expect("the index names the champion")
        .text()
        .await
        .unwrap();
    assert_eq!(text, format!("Champion: {champion} ({school})"));
    // The ranking sorts by a column when its header is clicked.
    let th = client
        .find(Locator::Css("#ranking thead th:nth-child(5) button"))
        .await
        .unwrap();
    th.click().await.unwrap();
    let sorted: Vec<i64> = client
        .execute(
            "return Array.from(document.querySelectorAll('#ranking tbody tr')).map(r => Number(r.cells[4].textContent))",
            vec![],
        )
        .await
        .unwrap()
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect();
    let mut expected = sorted.clone();
    expected.sort();
    assert_eq!(sorted, expected, "ascending by score after one click");

    client
        .find(Locator::LinkText("Bracket"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let boxes = client.find_all(Locator::Css(".setbox")).await.unwrap();
    assert_eq!(boxes.len(), 4, "three round-1 sets and the final");
    artefact("bracket.png", &client.screenshot().await.unwrap());

    client
        .find(Locator::Css(
            ".setbox[data-set='westfield-high/final'] .title a",
        ))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    client
        .find(Locator::Id("score-chart"))
        .await
        .expect("a chart of score per game");
    artefact("set.png", &client.screenshot().await.unwrap());
    let watch = client
        .find(Locator::Css("#games tr[data-game='0'] a"))
        .await
        .unwrap();
    assert_eq!(watch.text().await.unwrap(), "watch");
    watch.click().await.unwrap();
    wait_data(&client, "state", "paused", Duration::from_secs(10)).await;
    let verdict = client.find(Locator::Id("verdict")).await.unwrap();
    assert_eq!(
        verdict.text().await.unwrap(),
        "Replayed scores match the stored result."
    );

    play_to_end(&client, Some("replay-mid-game.png")).await;
    let shown = score_table(&client).await;
    assert_eq!(shown, stored_scores(dir, "westfield-high/final", 0));

    // Keys and links to a turn.
    let last: u32 = body_data(&client, "turn").await.parse().unwrap();
    client
        .find(Locator::Css("body"))
        .await
        .unwrap()
        .send_keys("\u{E012}") // Left arrow
        .await
        .unwrap();
    assert_eq!(body_data(&client, "turn").await, (last - 1).to_string());
    let url = client.current_url().await.unwrap();
    assert_eq!(url.fragment(), Some(format!("turn={}", last - 1).as_str()));
    let mut at17 = url.clone();
    at17.set_fragment(Some("turn=17"));
    client.goto("about:blank").await.unwrap();
    client.goto(at17.as_str()).await.unwrap();
    wait_data(&client, "turn", "17", Duration::from_secs(10)).await;

    no_error_and_no_network(&client).await;
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn student_opens_the_replay_that_play_wrote() {
    let work = tempfile::tempdir().unwrap();
    let dir = work.path();
    ok(
        dir,
        &[
            "play",
            "--board",
            "gear-works",
            "--bot",
            "builtin:hunter",
            "--bot",
            "builtin:random",
            "--bot",
            "builtin:runner",
            "--games",
            "2",
            "--replay",
            "replays",
        ],
    );
    let trace: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("replays/game-1.json")).unwrap())
            .unwrap();
    let mut expected: Vec<(usize, String, i64)> = trace["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["seat"].as_u64().unwrap() as usize,
                s["team"].as_str().unwrap().to_string(),
                s["score"].as_i64().unwrap(),
            )
        })
        .collect();
    expected.sort();

    let driver = start_driver();
    let client = connect(&driver).await;
    log(&client, "performance").await;
    client
        .goto(&file_url(&dir.join("replays/game-1.html")))
        .await
        .unwrap();
    wait_data(&client, "state", "paused", Duration::from_secs(10)).await;
    // The board is drawn: a square per cell, a robot per seat.
    let squares = client.find_all(Locator::Css("#tiles rect")).await.unwrap();
    assert!(squares.len() >= 144, "{} squares drawn", squares.len());
    let robots = client.find_all(Locator::Css("g.robot")).await.unwrap();
    assert_eq!(robots.len(), 3);
    play_to_end(&client, None).await;
    let shown = score_table(&client).await;
    let expected: Vec<(String, i64)> = expected.into_iter().map(|(_, t, s)| (t, s)).collect();
    assert_eq!(shown, expected);
    no_error_and_no_network(&client).await;
    client.close().await.unwrap();
}

/// Plays `game` with `bots` and `--replay`, opens the replay of game 0, checks that the page
/// shows `count` elements matching `drawn`, plays it to the end and compares the page's
/// score table with the trace's scores.
async fn a_trace_replay_plays_to_its_scores(game: &str, bots: &[&str], drawn: &str, count: usize) {
    let work = tempfile::tempdir().unwrap();
    let dir = work.path();
    let mut args = vec![
        "play", "--game", game, "--games", "1", "--seed", "4", "--replay", "replays",
    ];
    for b in bots {
        args.extend_from_slice(&["--bot", b]);
    }
    ok(dir, &args);
    let trace: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("replays/game-0.json")).unwrap())
            .unwrap();
    // What `replay --json` prints: the seats in seat order with their scores, and the trace,
    // whose own scores are the same.
    let expected: Vec<(String, i64)> = trace["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["team"].as_str().unwrap().to_string(),
                s["score"].as_i64().unwrap(),
            )
        })
        .collect();
    let traced: Vec<i64> = trace["trace"]["scores"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_i64().unwrap())
        .collect();
    assert_eq!(traced, expected.iter().map(|e| e.1).collect::<Vec<_>>());

    let driver = start_driver();
    let client = connect(&driver).await;
    log(&client, "performance").await;
    client
        .goto(&file_url(&dir.join("replays/game-0.html")))
        .await
        .unwrap();
    wait_data(&client, "state", "paused", Duration::from_secs(10)).await;
    let shown = client.find_all(Locator::Css(drawn)).await.unwrap();
    assert_eq!(shown.len(), count, "{drawn}");
    play_to_end(&client, Some(&format!("{game}-replay-mid-game.png"))).await;
    assert_eq!(score_table(&client).await, expected);
    no_error_and_no_network(&client).await;
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_robotgame_replay_plays_to_the_scores_of_its_trace() {
    let bots = ["builtin:hunter", "builtin:random", "builtin:random"];
    a_trace_replay_plays_to_its_scores("robotgame", &bots, "#tiles rect", 19 * 19).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_robots_replay_plays_to_the_scores_of_its_trace() {
    let bots = ["builtin:dodger", "builtin:random"];
    a_trace_replay_plays_to_its_scores("robots", &bots, "g.seat-board", 2).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_roborally_replay_plays_to_the_scores_of_its_trace() {
    let bots = ["builtin:racer", "builtin:random"];
    a_trace_replay_plays_to_its_scores("roborally", &bots, "g.robot", 2).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_roborunner_replay_plays_to_the_scores_of_its_trace() {
    let bots = ["builtin:runner", "builtin:runner"];
    // hull-walk, the default ship: 12 by 12 squares.
    a_trace_replay_plays_to_its_scores("roborunner", &bots, "#tiles rect.square", 12 * 12).await;
}

/// A Robo Runner tournament with two scanners (RN13): its replay page draws each scanner
/// the trace has on the ship, where the turn left it, and plays to its scores without a
/// script error.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_roborunner_replay_draws_its_scanners() {
    let work = tempfile::tempdir().unwrap();
    let dir = work.path();
    copy_from_the_project(dir, &["configs", "brackets", "examples"]);
    let bracket = dir.join("brackets/roborunner.toml");
    let text = std::fs::read_to_string(&bracket).unwrap();
    assert!(text.contains("\nscanners = 0 "), "{text}");
    std::fs::write(&bracket, text.replace("\nscanners = 0 ", "\nscanners = 2 ")).unwrap();
    let config = "configs/roborunner-school.toml";
    ok(dir, &["run", config, "--quiet"]);
    let set = "westfield-high/final";
    let json: Value =
        serde_json::from_str(&ok(dir, &["replay", config, set, "0", "--json"])).unwrap();
    ok(dir, &["replay", config, set, "0", "--html", "game.html"]);
    let steps = json["trace"]["steps"].as_array().unwrap();
    let on_ship = |step: &Value| {
        step["scanners"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| !s["x"].is_null())
            .count()
    };
    // The first turn whose end has a scanner on the ship (its view is that index).
    let shown = steps
        .iter()
        .position(|s| on_ship(s) > 0)
        .expect("a scanner on the ship");

    let driver = start_driver();
    let client = connect(&driver).await;
    log(&client, "performance").await;
    let page = file_url(&dir.join("game.html"));
    client
        .goto(&format!("{page}#turn={}", shown + 1))
        .await
        .unwrap();
    wait_data(&client, "turn", &shown.to_string(), Duration::from_secs(10)).await;
    let drawn = client.find_all(Locator::Css("g.scanner")).await.unwrap();
    assert_eq!(drawn.len(), on_ship(&steps[shown]));
    play_to_end(&client, None).await;
    no_error_and_no_network(&client).await;
    client.close().await.unwrap();
}
