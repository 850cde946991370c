//! A planner (`run --workers 0`) and workers (`lrs-tourney worker URL`) of the real binary
//! on the real PostgreSQL server: the games they store are those one process stores on
//! SQLite, whatever happens to the workers. Workers are killed with SIGKILL mid-series,
//! stopped while others take their sets over, and given a changed bot folder; a second
//! planner and a `rerun` are refused while a planner runs. Every wait is on the database's
//! state (a bound only keeps a broken build from hanging); each test has a database of its
//! own (`tests/common/pg.rs`).

mod common;

use common::pg::PgDb;
use common::{bin, ok, repo};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Two schools of JSON-lines bots that think 20 ms a turn (`slow.py`, in `bots/slow`) and
/// one more folder (`bots/own`, one team's) among built-in AIs: North deals two first-round
/// sets and a final, South a final, the nationals a final: 5 sets of 4 games.
fn tournament(dir: &Path) -> PathBuf {
    for folder in ["slow", "own"] {
        let bots = dir.join("bots").join(folder);
        std::fs::create_dir_all(&bots).unwrap();
        std::fs::copy(
            repo().join("tests/hostile/common.py"),
            bots.join("common.py"),
        )
        .unwrap();
        std::fs::write(
            bots.join("slow.py"),
            "import time\nfrom common import card0, messages, send\n\
             for msg in messages():\n\
             \x20   if msg['type'] in ('start', 'turn'):\n\
             \x20       time.sleep(0.02)\n\
             \x20       send(card0(msg))\n",
        )
        .unwrap();
    }
    std::fs::write(
        dir.join("bracket.toml"),
        "name = \"Workers\"\nset_size = 4\ngames_per_series = 4\nadvance_per_set = 2\nturns_per_game = 8\nfill_nationals_to_multiple_of = 4\nboards = [\"gear-works\"]\n",
    )
    .unwrap();
    let mut text = "name = \"Workers Cup\"\nseed = 26\nbracket = \"bracket.toml\"\ndatabase = \"cup.sqlite\"\n[limits]\ntime_limit_ms = 2000\n".to_string();
    for (school, teams) in [("North", 8), ("South", 4)] {
        text += &format!("[[school]]\nname = \"{school}\"\n");
        for i in 0..teams {
            let bot = match (school, i) {
                ("North", 0) => "bot = \"python3 slow.py\"\n  dir = \"bots/own\"".to_string(),
                (_, i) if i % 2 == 0 => {
                    "bot = \"python3 slow.py\"\n  dir = \"bots/slow\"".to_string()
                }
                (_, i) => format!("bot = \"builtin:{}\"", ["runner", "hunter"][i % 4 / 2]),
            };
            text += &format!("  [[school.team]]\n  name = \"{school} {i}\"\n  {bot}\n");
        }
    }
    let file = dir.join("cup.toml");
    std::fs::write(&file, text).unwrap();
    file
}

/// A test's tournament (`tournament`) in a folder of its own, a PostgreSQL database for it,
/// and, when `reference`, what one `run` on SQLite stores of it (`results`).
fn cup(reference: bool) -> (PgDb, tempfile::TempDir, (String, String)) {
    let pg = PgDb::new();
    let dir = tempfile::tempdir().unwrap();
    tournament(dir.path());
    let one_process = if reference {
        ok(dir.path(), &["run", "cup.toml", "--quiet"]);
        results(dir.path(), "cup.sqlite")
    } else {
        Default::default()
    };
    (pg, dir, one_process)
}

/// The database at `url` holds what one process stored on SQLite (`one_process`), each game
/// once.
#[track_caller]
fn assert_as_one_process(dir: &Path, url: &str, one_process: &(String, String)) {
    assert_eq!(&results(dir, url), one_process);
    assert_each_game_once(url);
}

/// What a database's tournament prints: standings and every game with its lines.
fn results(dir: &Path, target: &str) -> (String, String) {
    (
        ok(dir, &["standings", target]),
        ok(dir, &["export", "games", target, "--out", "-"]),
    )
}

/// A process of the binary, its output in files of `dir` named after `name`.
struct Proc {
    name: String,
    child: Child,
    dir: PathBuf,
}

impl Proc {
    fn start(dir: &Path, name: &str, args: &[&str]) -> Proc {
        let file = |ext: &str| std::fs::File::create(dir.join(format!("{name}.{ext}"))).unwrap();
        let child = Command::new(bin())
            .args(args)
            .current_dir(dir)
            .stdout(Stdio::from(file("out")))
            .stderr(Stdio::from(file("err")))
            .spawn()
            .unwrap();
        Proc {
            name: name.to_string(),
            child,
            dir: dir.to_path_buf(),
        }
    }

    fn planner(dir: &Path, url: &str) -> Proc {
        Proc::start(
            dir,
            "planner",
            &["run", "cup.toml", "--db", url, "--workers", "0", "--plain"],
        )
    }

    /// A worker named `name`, leases of `lease` seconds, one set at a time.
    fn worker(dir: &Path, url: &str, name: &str, lease: &str) -> Proc {
        Proc::start(
            dir,
            name,
            &[
                "worker",
                url,
                "--name",
                name,
                "--jobs",
                "1",
                "--lease-seconds",
                lease,
            ],
        )
    }

    fn stderr(&self) -> String {
        std::fs::read_to_string(self.dir.join(format!("{}.err", self.name))).unwrap()
    }

    fn stdout(&self) -> String {
        std::fs::read_to_string(self.dir.join(format!("{}.out", self.name))).unwrap()
    }

    fn signal(&self, signal: nix::sys::signal::Signal) {
        let pid = nix::unistd::Pid::from_raw(self.child.id() as i32);
        nix::sys::signal::kill(pid, signal).unwrap();
    }

    /// Waits for the process to end; it must end with `code`.
    #[track_caller]
    fn ends_with(mut self, code: i32) -> Proc {
        let deadline = Instant::now() + Duration::from_secs(300);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert_eq!(
                    status.code(),
                    Some(code),
                    "{} ended with {status}:\n{}\n{}",
                    self.name,
                    self.stdout(),
                    self.stderr()
                );
                return self;
            }
            assert!(
                Instant::now() < deadline,
                "{} did not end:\n{}",
                self.name,
                self.stderr()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs `sql` on the database at `url` and returns its rows' first column as text.
fn try_query(url: &str, sql: &str) -> Result<Vec<Option<String>>, sqlx::Error> {
    use sqlx::{Connection, Row};
    common::block_on(async {
        let mut conn = sqlx::PgConnection::connect(url).await?;
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql.to_string()))
            .fetch_all(&mut conn)
            .await;
        let _ = conn.close().await;
        rows?
            .iter()
            .map(|r| r.try_get::<Option<String>, _>(0))
            .collect()
    })
}

#[track_caller]
fn query(url: &str, sql: &str) -> Vec<Option<String>> {
    try_query(url, sql).unwrap()
}

/// Whether `e` says a table or column does not exist (yet: the planner is creating the
/// schema).
fn no_table_yet(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(db) if matches!(db.code().as_deref(), Some("42P01" | "42703")))
}

/// Waits until `sql` returns a row, and returns its first column. Looks every 20 ms; the
/// bound only keeps a broken build from hanging the suite.
#[track_caller]
fn wait_for_row(url: &str, what: &str, sql: &str) -> Option<String> {
    let deadline = Instant::now() + Duration::from_secs(300);
    loop {
        match try_query(url, sql) {
            Ok(rows) => {
                if let Some(first) = rows.into_iter().next() {
                    return first;
                }
            }
            Err(e) if no_table_yet(&e) => {}
            Err(e) => panic!("{sql}: {e}"),
        }
        assert!(Instant::now() < deadline, "waited in vain for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// No game is stored twice and every game dealt is played: one row per game of each set's
/// run, each with a line per member.
#[track_caller]
fn assert_each_game_once(url: &str) {
    let doubled = query(
        url,
        "SELECT set_id FROM games GROUP BY set_id, run_no, game_index HAVING COUNT(*) > 1",
    );
    assert!(doubled.is_empty(), "games stored twice in {doubled:?}");
    let unplayed = query(url, "SELECT set_id FROM games WHERE status <> 'done'");
    assert!(unplayed.is_empty(), "games not played: {unplayed:?}");
    let short = query(
        url,
        "SELECT g.set_id FROM games g
         WHERE (SELECT COUNT(*) FROM game_results r WHERE r.game_no = g.no)
            <> (SELECT COUNT(*) FROM set_members m WHERE m.set_id = g.set_id)",
    );
    assert!(
        short.is_empty(),
        "games without a line per member: {short:?}"
    );
}

#[test]
fn three_workers_one_killed_mid_series_store_what_one_process_stores() {
    let (pg, dir, one_process) = cup(true);
    let d = dir.path();

    let planner = Proc::planner(d, &pg.url);
    let mut workers: Vec<Proc> = ["w1", "w2", "w3"]
        .iter()
        .map(|name| Proc::worker(d, &pg.url, name, "2"))
        .collect();
    // A worker holding a set it has stored a game of, with two games still to play.
    let mid_series = "SELECT s.lease_worker || ' ' || s.id FROM sets s
         WHERE s.lease_worker IS NOT NULL
           AND (SELECT COUNT(*) FROM games g WHERE g.set_id = s.id AND g.status = 'done'
                  AND g.worker = s.lease_worker AND g.lease_token = s.lease_token) >= 1
           AND (SELECT COUNT(*) FROM games g WHERE g.set_id = s.id AND g.run_no = s.run_no
                  AND g.status = 'planned') >= 2
         LIMIT 1";
    let found = wait_for_row(&pg.url, "a worker mid-series", mid_series).unwrap();
    let (victim, set) = found.split_once(' ').unwrap();
    let at = workers.iter().position(|w| w.name == victim).unwrap();
    // SIGKILL (dropping a process kills it and reaps it).
    drop(workers.remove(at));
    workers.push(Proc::worker(d, &pg.url, "w4", "2"));

    let planner = planner.ends_with(0);
    assert!(
        planner.stdout().contains("Workers Cup: done"),
        "{}",
        planner.stdout()
    );
    for worker in workers {
        let worker = worker.ends_with(0);
        assert!(
            worker.stdout().contains("tournament complete"),
            "{}",
            worker.stdout()
        );
    }
    assert_as_one_process(d, &pg.url, &one_process);
    // The killed worker's set went to another worker once its lease expired (an
    // interruption, not a failure), and the games it stored stand as its own.
    let set_sql =
        format!("SELECT interruptions::text || ' ' || failures::text FROM sets WHERE id = '{set}'");
    let counts = query(&pg.url, &set_sql)[0].clone().unwrap();
    let (interruptions, failures) = counts.split_once(' ').unwrap();
    assert!(interruptions.parse::<u32>().unwrap() >= 1, "{counts}");
    assert_eq!(failures, "0");
    let by_victim = query(
        &pg.url,
        &format!("SELECT worker FROM games WHERE set_id = '{set}' AND worker = '{victim}'"),
    );
    assert!(!by_victim.is_empty());
    let others = query(
        &pg.url,
        &format!("SELECT worker FROM games WHERE set_id = '{set}' AND worker <> '{victim}'"),
    );
    assert!(!others.is_empty());
}

#[test]
fn a_worker_that_lost_its_lease_stores_nothing_late() {
    let (pg, dir, one_process) = cup(true);
    let d = dir.path();

    let planner = Proc::planner(d, &pg.url);
    let stalled = Proc::worker(d, &pg.url, "stalled", "1");
    let set = wait_for_row(
        &pg.url,
        "the first worker mid-series",
        // Its games under way: one stored, two or more to play.
        "SELECT s.id FROM sets s WHERE s.lease_worker = 'stalled'
           AND (SELECT COUNT(*) FROM games g WHERE g.set_id = s.id AND g.status = 'done'
                  AND g.worker = 'stalled' AND g.lease_token = s.lease_token) >= 1
           AND (SELECT COUNT(*) FROM games g WHERE g.set_id = s.id AND g.run_no = s.run_no
                  AND g.status = 'planned') >= 2
         LIMIT 1",
    )
    .unwrap();
    // Stopped, as a machine that stalls: its lease expires and another worker takes the set.
    stalled.signal(nix::sys::signal::Signal::SIGSTOP);
    let other = Proc::worker(d, &pg.url, "other", "1");
    wait_for_row(
        &pg.url,
        "the other worker to finish the stalled worker's set",
        &format!(
            "SELECT s.id FROM sets s WHERE s.id = '{set}' AND s.lease_worker IS DISTINCT FROM 'stalled'
               AND NOT EXISTS (SELECT 1 FROM games g WHERE g.set_id = s.id AND g.run_no = s.run_no
                                 AND g.status = 'planned')"
        ),
    );
    // Back: it finishes the game it was playing, and its write is refused.
    stalled.signal(nix::sys::signal::Signal::SIGCONT);

    planner.ends_with(0);
    let stalled = stalled.ends_with(0);
    other.ends_with(0);
    assert!(
        stalled.stderr().contains(&format!("set {set} game")),
        "{}",
        stalled.stderr()
    );
    assert!(
        stalled.stderr().contains("already stored"),
        "{}",
        stalled.stderr()
    );
    assert!(
        !stalled.stdout().contains(" 0 already stored"),
        "{}",
        stalled.stdout()
    );
    assert_as_one_process(d, &pg.url, &one_process);
}

#[test]
fn a_second_planner_and_a_rerun_are_refused_while_a_planner_runs() {
    let (pg, dir, _) = cup(false);
    let d = dir.path();
    let planner = Proc::planner(d, &pg.url);
    wait_for_row(
        &pg.url,
        "the first round's sets",
        "SELECT id FROM sets LIMIT 1",
    );

    let out = common::lrs(d, &["run", "cup.toml", "--db", &pg.url, "--workers", "0"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("is in use by another `lrs-tourney run`"),
        "{err}"
    );
    let out = common::lrs(d, &["rerun", &pg.url, "south/final", "--reason", "dispute"]);
    assert_ne!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("is in use by another `lrs-tourney run`"),
        "{err}"
    );

    // The first planner still plans: a worker completes the tournament with it.
    let worker = Proc::worker(d, &pg.url, "w1", "5");
    planner.ends_with(0);
    worker.ends_with(0);
    assert_each_game_once(&pg.url);
}

#[test]
fn a_worker_with_a_changed_bot_folder_refuses_that_teams_sets() {
    let (pg, dir, one_process) = cup(true);
    let d = dir.path();

    let planner = Proc::planner(d, &pg.url);
    wait_for_row(
        &pg.url,
        "North's first round",
        "SELECT id FROM sets WHERE id = 'north/r1/s1'",
    );
    // The folder of team "North 0" changes on the worker's machine after its set was dealt.
    let own = d.join("bots/own/slow.py");
    let original = std::fs::read_to_string(&own).unwrap();
    std::fs::write(&own, format!("{original}# changed\n")).unwrap();
    let changed = Proc::worker(d, &pg.url, "changed", "5");
    let set = wait_for_row(
        &pg.url,
        "the changed worker's refusal",
        "SELECT r.set_id FROM set_refusals r JOIN teams t ON t.id = r.team_id
         WHERE r.worker = 'changed' AND t.name = 'North 0'",
    )
    .unwrap();
    let status = ok(d, &["status", &pg.url]);
    assert!(status.contains("refused"), "{status}");
    assert!(
        status.contains(&set) && status.contains("North 0"),
        "{status}"
    );
    assert!(status.contains("changed"), "{status}");
    let json: serde_json::Value =
        serde_json::from_str(&ok(d, &["status", &pg.url, "--json"])).unwrap();
    let refusal = &json["work"]["refusals"][0];
    assert_eq!(refusal["set"], set.as_str());
    assert_eq!(refusal["worker"], "changed");
    assert_eq!(refusal["team"], 0, "{json}");
    // Its other sets it plays; the refused one waits for a worker with the right code.
    std::fs::write(&own, original).unwrap();
    let right = Proc::worker(d, &pg.url, "right", "5");
    planner.ends_with(0);
    changed.ends_with(0);
    right.ends_with(0);
    let by_changed = query(
        &pg.url,
        &format!("SELECT worker FROM games WHERE set_id = '{set}' AND worker = 'changed'"),
    );
    assert!(by_changed.is_empty(), "{by_changed:?}");
    assert_as_one_process(d, &pg.url, &one_process);
}

#[test]
fn a_set_failing_on_three_workers_is_failed_until_a_rerun_queues_it_again() {
    use lrs_tourney::store::{RunLock, Store, WorkerName};
    let (pg, dir, one_process) = cup(true);
    let d = dir.path();

    let planner = Proc::planner(d, &pg.url);
    wait_for_row(
        &pg.url,
        "North's first round",
        "SELECT id FROM sets WHERE id = 'north/r1/s1' AND lease_token = 0",
    );
    // Three workers in turn claim the first set and fail it (a game that cannot be played
    // there: written through the store as a worker does).
    let set = common::block_on(async {
        let store = Store::open_existing(&pg.location()).await.unwrap();
        let mut failed = Vec::new();
        for name in ["a", "b", "c"] {
            let worker = WorkerName::new(name);
            let lease = store
                .claim_set(&worker, 60_000, false)
                .await
                .unwrap()
                .unwrap();
            failed.push(
                store
                    .fail_set(&worker, &lease, &format!("no python3 on {name}"))
                    .await
                    .unwrap(),
            );
            assert_eq!(lease.set_id.as_str(), "north/r1/s1");
        }
        assert_eq!(failed, [false, false, true]);
        // A failed set is claimed by no worker, not even one it never failed on.
        let d = WorkerName::new("d");
        let next = store.claim_set(&d, 60_000, false).await.unwrap().unwrap();
        assert_ne!(next.set_id.as_str(), "north/r1/s1");
        store.release_set(&d, &next).await.unwrap();
        store.close().await;
        "north/r1/s1"
    });
    let status = ok(d, &["status", &pg.url]);
    assert!(
        status.contains(&format!("{set} failed on c: no python3 on c")),
        "{status}"
    );
    assert!(
        status.contains(&format!("{set} failed on a: no python3 on a")),
        "{status}"
    );

    // Queued again by a rerun, with the planner stopped (a rerun takes its lock).
    drop(planner);
    let deadline = Instant::now() + Duration::from_secs(60);
    while common::block_on(RunLock::is_held(&pg.location())) {
        assert!(
            Instant::now() < deadline,
            "the stopped planner's lock stays"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = ok(d, &["rerun", &pg.url, set, "--reason", "python3 installed"]);
    assert!(out.contains("queued again"), "{out}");
    let left = query(&pg.url, "SELECT set_id FROM set_failures");
    assert!(left.is_empty(), "{left:?}");

    let planner = Proc::planner(d, &pg.url);
    let worker = Proc::worker(d, &pg.url, "w1", "5");
    planner.ends_with(0);
    worker.ends_with(0);
    assert_as_one_process(d, &pg.url, &one_process);
}

/// The query of a set `worker` is playing: one game stored under its lease, at least
/// `left` to play. Returns `set lease_token`.
fn under_way(worker: &str, left: u32) -> String {
    format!(
        "SELECT s.id || ' ' || s.lease_token::text FROM sets s WHERE s.lease_worker = '{worker}'
           AND (SELECT COUNT(*) FROM games g WHERE g.set_id = s.id AND g.status = 'done'
                  AND g.worker = '{worker}' AND g.lease_token = s.lease_token) >= 1
           AND (SELECT COUNT(*) FROM games g WHERE g.set_id = s.id AND g.run_no = s.run_no
                  AND g.status = 'planned') >= {left}
         LIMIT 1"
    )
}

#[test]
fn sigterm_drains_a_worker_after_its_game_and_gives_the_set_back() {
    let (pg, dir, one_process) = cup(true);
    let d = dir.path();

    let planner = Proc::planner(d, &pg.url);
    // A long lease: only giving the set back frees it for the next worker soon.
    let drained = Proc::worker(d, &pg.url, "drained", "120");
    let found = wait_for_row(&pg.url, "the worker mid-series", &under_way("drained", 3)).unwrap();
    let set = found.split_once(' ').unwrap().0.to_string();
    drained.signal(nix::sys::signal::Signal::SIGTERM);
    let drained = drained.ends_with(0);
    assert!(
        drained.stdout().contains("stopped on request"),
        "{}",
        drained.stdout()
    );
    // It finished the game in progress, left the rest, and gave the set back unfailed.
    let row = query(
        &pg.url,
        &format!(
            "SELECT COALESCE(lease_worker, '-') || ' ' || failures::text || ' ' || interruptions::text
                    || ' ' || (SELECT COUNT(*) FROM games g WHERE g.set_id = s.id AND g.status = 'planned')::text
             FROM sets s WHERE id = '{set}'"
        ),
    )[0]
    .clone()
    .unwrap();
    let words: Vec<&str> = row.split(' ').collect();
    assert_eq!(&words[..3], ["-", "0", "0"], "{row}");
    assert!(words[3].parse::<u32>().unwrap() >= 1, "{row}");
    let state = query(&pg.url, "SELECT state FROM workers WHERE id = 'drained'");
    assert_eq!(state, [Some("stopped".to_string())]);

    let next = Proc::worker(d, &pg.url, "next", "120");
    planner.ends_with(0);
    next.ends_with(0);
    assert_as_one_process(d, &pg.url, &one_process);
}

#[test]
fn a_worker_restarted_under_its_name_takes_its_own_set_back_first() {
    let (pg, dir, one_process) = cup(true);
    let d = dir.path();

    let planner = Proc::planner(d, &pg.url);
    // The longest lease (180 s), far longer than a restart: no other claim could take the
    // set back so soon.
    let first = Proc::worker(d, &pg.url, "lab-07", "180");
    let found = wait_for_row(&pg.url, "the worker mid-series", &under_way("lab-07", 2)).unwrap();
    let (set, token) = found.split_once(' ').unwrap();
    drop(first); // SIGKILL
    let again = Proc::worker(d, &pg.url, "lab-07", "180");
    wait_for_row(
        &pg.url,
        "the restarted worker to claim its set again",
        &format!(
            "SELECT id FROM sets WHERE id = '{set}' AND (lease_token > {token} OR status = 'done')"
        ),
    );
    planner.ends_with(0);
    again.ends_with(0);
    // Its own lease came back to it: not an interruption.
    let interruptions = query(
        &pg.url,
        &format!("SELECT interruptions::text FROM sets WHERE id = '{set}'"),
    );
    assert_eq!(interruptions, [Some("0".to_string())]);
    assert_as_one_process(d, &pg.url, &one_process);
}

#[test]
fn planners_and_workers_need_postgresql() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    tournament(d);
    for args in [
        &["run", "cup.toml", "--workers", "0"][..],
        &["worker", "cup.sqlite"][..],
    ] {
        let out = common::lrs(d, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("workers play from a PostgreSQL database"),
            "{err}"
        );
    }
    assert!(!d.join("cup.sqlite").exists());
    let out = common::lrs(d, &["run", "cup.toml", "--workers", "2"]);
    assert_eq!(out.status.code(), Some(2));
}
