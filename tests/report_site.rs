//! `lrs-tourney report`: the static site written from a real tournament's database. Every
//! set, team and stored game gets its page; the index names the champion the standings
//! name; a team that calls itself `<script>` is shown, not run; a game whose stored score
//! was changed afterwards is reported on the index and its set page; and the report can
//! be written while `run` is still playing.

mod common;

use common::{bin, lrs, ok, sql};
use serde_json::Value;
use std::path::Path;

const BRACKET: &str = "name = \"Quick\"\nset_size = 8\ngames_per_series = 2\nadvance_per_set = 2\nturns_per_game = 25\nfill_nationals_to_multiple_of = 8\nboards = [\"gear-works\", \"sinkhole-steps\"]\n";

/// Two schools of 9 teams each; one team's name is an attempt at script injection.
fn tournament() -> String {
    let mut text = "name = \"Report Cup\"\nseed = 11\nbracket = \"quick.toml\"\n".to_string();
    for school in ["North", "South"] {
        text += &format!("[[school]]\nname = \"{school}\"\n");
        for i in 0..9 {
            let ai = ["runner", "hunter", "random"][i % 3];
            let name = if school == "North" && i == 4 {
                "<script>alert('x')</script> & \\\"Co\\\"".to_string()
            } else {
                format!("{school} {i}")
            };
            text += &format!("  [[school.team]]\n  name = \"{name}\"\n  bot = \"builtin:{ai}\"\n");
        }
    }
    text
}

fn setup() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("quick.toml"), BRACKET).unwrap();
    std::fs::write(dir.path().join("cup.toml"), tournament()).unwrap();
    ok(dir.path(), &["run", "cup.toml", "--quiet"]);
    dir
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn every_set_team_and_game_has_its_page_and_the_index_names_the_champion() {
    let dir = setup();
    let out = ok(dir.path(), &["report", "cup.sqlite", "--out", "site"]);
    let site = dir.path().join("site");
    let status: Value =
        serde_json::from_str(&ok(dir.path(), &["status", "cup.sqlite", "--json"])).unwrap();
    let sets: Vec<&Value> = status["stages"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|stage| stage["sets"].as_array().unwrap())
        .collect();
    assert!(sets.len() >= 5, "{status}");
    for set in &sets {
        let id = set["id"].as_str().unwrap();
        let page = read(&site.join(format!("sets/{}.html", id.replace('/', "_"))));
        assert!(page.contains("id=\"games\""), "{id}");
    }
    let games = ok(
        dir.path(),
        &["export", "games", "cup.sqlite", "--out", "-", "--no-bom"],
    );
    let mut replays = std::collections::BTreeSet::new();
    for line in games.lines().skip(1) {
        let cells: Vec<&str> = line.split(',').collect();
        replays.insert(format!(
            "replays/{}_game-{}.html",
            cells[0].replace('/', "_"),
            cells[2]
        ));
    }
    for r in &replays {
        let page = read(&site.join(r));
        assert!(page.contains("id=\"replay-data\""), "{r}");
        assert!(
            page.contains("Replayed scores match the stored result."),
            "{r}"
        );
    }
    assert!(
        out.contains(&format!("{} game replays", replays.len())),
        "{out}"
    );
    for team in 0..18 {
        assert!(site.join(format!("teams/team-{team}.html")).exists());
    }
    let standings: Value =
        serde_json::from_str(&ok(dir.path(), &["standings", "cup.sqlite", "--json"])).unwrap();
    let champion = standings[0]["team"].as_str().unwrap();
    let index = read(&site.join("index.html"));
    // The champion paragraph names exactly the team the standings rank first, linked to
    // its page.
    let paragraph = index
        .split("<p class=\"champion\" id=\"champion\">")
        .nth(1)
        .and_then(|rest| rest.split("</p>").next())
        .expect("a champion paragraph");
    let link = paragraph
        .strip_prefix("Champion: <strong><a href=\"teams/team-")
        .unwrap_or_else(|| panic!("{paragraph}"));
    let (_, named) = link.split_once("\">").expect("a link");
    let (named, _) = named
        .split_once("</a></strong>")
        .expect("the end of the link");
    let champion_html = champion
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    assert_eq!(named, champion_html);
    // No page reaches for the network.
    for page in [
        "index.html",
        "bracket.html",
        "wildcards.html",
        "schools.html",
    ] {
        let text = read(&site.join(page));
        assert!(
            !text.contains("http://") && !text.contains("https://"),
            "{page}"
        );
        assert!(text.contains("default-src 'none'"), "{page}");
    }
    // The wild-card page lists the wild cards the standings report.
    let wild: Vec<&str> = standings
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["qualified_by"] == "wildcard")
        .map(|t| t["team"].as_str().unwrap())
        .collect();
    let page = read(&site.join("wildcards.html"));
    assert_eq!(page.matches("tag wild").count(), wild.len(), "{wild:?}");
}

#[test]
fn a_team_named_like_a_script_is_shown_as_text_and_never_run() {
    let dir = setup();
    ok(dir.path(), &["report", "cup.sqlite", "--out", "site"]);
    let site = dir.path().join("site");
    let mut pages = vec![site.join("index.html"), site.join("bracket.html")];
    for entry in std::fs::read_dir(site.join("replays")).unwrap() {
        pages.push(entry.unwrap().path());
    }
    for entry in std::fs::read_dir(site.join("teams")).unwrap() {
        pages.push(entry.unwrap().path());
    }
    let mut shown = 0;
    for page in pages {
        let text = read(&page);
        assert!(
            !text.contains("<script>alert"),
            "{} runs the team's name",
            page.display()
        );
        if text.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;Co&quot;")
            || text.contains("\\u003cscript\\u003ealert('x')\\u003c/script\\u003e")
        {
            shown += 1;
        }
    }
    assert!(shown >= 3, "the name is shown escaped on {shown} pages");
}

#[test]
fn a_changed_stored_score_is_reported_on_the_index_and_the_set_page() {
    let dir = setup();
    let db = dir.path().join("cup.sqlite");
    sql(
        &db,
        "UPDATE game_results SET score = score + 3 WHERE seat = 1 AND game_no = \
         (SELECT no FROM games WHERE set_id = 'north/r1/s1' AND game_index = 1 AND superseded = 0)",
    );
    ok(dir.path(), &["report", "cup.sqlite", "--out", "site"]);
    let site = dir.path().join("site");
    let index = read(&site.join("index.html"));
    assert!(
        index.contains("1 stored game(s) do not replay to their stored scores"),
        "{index}"
    );
    let set = read(&site.join("sets/north_r1_s1.html"));
    assert!(set.contains("does not replay"));
    let replay = read(&site.join("replays/north_r1_s1_game-1.html"));
    assert!(replay.contains("REPLAY DIFFERS FROM THE STORED GAME"));
}

#[test]
fn the_report_can_be_written_while_the_tournament_is_being_played() {
    // One team's bot takes ten minutes over its first answer (the time limit allows it), so
    // the run is certainly unfinished while the report is written, however fast or slow
    // this machine is; the other school's sets are played and stored meanwhile.
    let dir = tempfile::tempdir().unwrap();
    let hostile = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hostile");
    let mut text = "name = \"Slow Cup\"\nseed = 3\n\n[limits]\ntime_limit_ms = 700000\n\n\
                    [[school]]\nname = \"Busy\"\n"
        .to_string();
    for i in 0..8 {
        text += &format!("  [[school.team]]\n  name = \"Busy {i}\"\n  bot = \"builtin:runner\"\n");
    }
    text += &format!(
        "[[school]]\nname = \"Waiting\"\n  [[school.team]]\n  name = \"Sleeper\"\n  \
         bot = \"python3 sleeper.py\"\n  dir = {:?}\n  protocol = \"jsonl\"\n  \
         [[school.team]]\n  name = \"Awake\"\n  bot = \"builtin:random\"\n",
        hostile.display().to_string()
    );
    std::fs::write(dir.path().join("slow.toml"), text).unwrap();
    let mut run = std::process::Command::new(bin())
        .args(["run", "slow.toml", "--quiet", "--jobs", "2"])
        .current_dir(dir.path())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let stored = |status: &str| -> u64 {
        status
            .lines()
            .find_map(|l| l.strip_prefix("games: "))
            .and_then(|l| l.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
    };
    // Until its first commit the run may be creating the database: wait for games.
    loop {
        assert!(run.try_wait().unwrap().is_none(), "the run ended early");
        let status = lrs(dir.path(), &["status", "slow.sqlite"]);
        if stored(&String::from_utf8_lossy(&status.stdout)) > 0 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let out = lrs(dir.path(), &["report", "slow.sqlite", "--out", "site"]);
    let still_running = run.try_wait().unwrap().is_none();
    run.kill().unwrap();
    run.wait().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(still_running, "the run ended while its sleeper slept");
    let index = read(&dir.path().join("site/index.html"));
    assert!(index.contains("id=\"progress\""), "{index}");
    assert!(index.contains("http-equiv=\"refresh\""), "{index}");
    assert!(!index.contains("id=\"champion\""), "{index}");
}

/// A one-school tournament has no nationals and so no wild cards: its report neither
/// writes nor links a wild-card page.
#[test]
fn a_one_school_report_has_no_wild_card_page() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("quick.toml"), BRACKET).unwrap();
    let mut text =
        "name = \"Solo Cup\"\nseed = 5\nbracket = \"quick.toml\"\n[[school]]\nname = \"North\"\n"
            .to_string();
    for i in 0..5 {
        text += &format!("  [[school.team]]\n  name = \"North {i}\"\n  bot = \"builtin:runner\"\n");
    }
    std::fs::write(dir.path().join("solo.toml"), text).unwrap();
    ok(dir.path(), &["run", "solo.toml", "--quiet"]);
    ok(dir.path(), &["report", "solo.toml", "--out", "site"]);
    let site = dir.path().join("site");
    assert!(!site.join("wildcards.html").exists());
    for page in ["index.html", "bracket.html", "schools.html"] {
        let text = read(&site.join(page));
        assert!(
            !text.contains("wildcards.html"),
            "{page} links the wild cards"
        );
    }
}

/// The replay pages of a set, by file name.
fn replay_pages(site: &Path) -> std::collections::BTreeSet<String> {
    std::fs::read_dir(site.join("replays"))
        .map(|dir| {
            dir.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn replays_share_one_viewer_script_and_can_be_limited_to_the_finals() {
    let dir = setup();
    let games = ok(
        dir.path(),
        &["export", "games", "cup.sqlite", "--out", "-", "--no-bom"],
    );
    // Set ids of final sets end in `final` (`north/final`, `nationals/r1/final`...).
    let (mut all, mut finals) = (
        std::collections::BTreeSet::new(),
        std::collections::BTreeSet::new(),
    );
    for line in games.lines().skip(1) {
        let cells: Vec<&str> = line.split(',').collect();
        let page = format!("{}_game-{}.html", cells[0].replace('/', "_"), cells[2]);
        if cells[0].ends_with("final") {
            finals.insert(page.clone());
        }
        all.insert(page);
    }
    assert!(!finals.is_empty() && finals.len() < all.len(), "{games}");

    ok(dir.path(), &["report", "cup.sqlite", "--out", "all"]);
    let site = dir.path().join("all");
    assert_eq!(replay_pages(&site), all);
    // Every replay page loads the one shared script and stylesheet, and inlines neither.
    let script = read(&site.join("viewer/lrs.js"));
    assert!(script.len() > 10_000, "{}", script.len());
    for page in &all {
        let text = read(&site.join("replays").join(page));
        assert!(
            text.contains("<script src=\"../viewer/lrs.js\"></script>"),
            "{page}"
        );
        assert!(text.contains("href=\"../viewer/viewer.css\""), "{page}");
        assert!(!text.contains(&script[..200]), "{page} inlines the script");
    }

    let out = ok(
        dir.path(),
        &[
            "report",
            "cup.sqlite",
            "--out",
            "finals",
            "--replays",
            "finals",
        ],
    );
    let site = dir.path().join("finals");
    assert_eq!(replay_pages(&site), finals);
    assert!(
        out.contains(&format!("{} game replays of final sets", finals.len())),
        "{out}"
    );
    // A set page of a round that is not a final says why its games have no replay.
    let north = read(&site.join("sets/north_r1_s1.html"));
    assert!(north.contains("no replay page"), "{north}");
    assert!(
        !north.contains("replays/north_r1_s1_game-1.html"),
        "{north}"
    );

    ok(
        dir.path(),
        &["report", "cup.sqlite", "--out", "none", "--replays", "none"],
    );
    let site = dir.path().join("none");
    assert!(replay_pages(&site).is_empty());
    assert!(!site.join("viewer").exists());
    assert!(site.join("index.html").exists());
}
