//! Workers against one process, on the machine's PostgreSQL server (127.0.0.1:5432, or the
//! one `LRS_BENCH_POSTGRES` names), through the real binary.
//!
//! The tournament: 2,048 teams in 256 schools of 8, every team a JSON-lines bot that thinks
//! a fixed 20 ms per answer (a small C program), 2 games of 10 turns per series: 341 sets (256
//! school sets, then nationals rounds of 64, 16, 4 and 1 sets), 682 games. The bots sleep
//! rather than compute, so the workers are not CPU-bound: what is measured is how much of N
//! workers' parallelism reaches the results. The bracket itself caps it: a round starts
//! when the one before is complete, and its last rounds have fewer sets than workers, so 4
//! workers playing one set at a time can reach at most 341 / (64 + 16 + 4 + 1 + 1) = 3.97
//! times one process (with 512 teams, 85 / 22 = 3.86).
//!
//! Measured: games per second of `run --jobs 1` (one process, one game at a time), of
//! `run --jobs N`, and of a planner (`run --workers 0`) with N workers (`worker --jobs 1`,
//! separate processes) for N = 1, 2, 4, each on a new database; the target is N workers at
//! least 0.9 N times one process. The database's cost per stored game, on both backends,
//! is measured with built-in AIs (no bots): a run's time less the same games played in
//! memory, over the games. Run it with `cargo bench --bench workers`; `LRS_BENCH_WORKERS`
//! (a comma-separated list, default `1,2,4`) chooses the worker counts.

mod common;

use common::{games_only, remove_database};
use lrs_tourney::tourney::config::load_tournament;
use sqlx::Connection;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Instant;

/// A bot that thinks 20 ms before every answer: the first start square facing north, or
/// card 0. It is C, compiled by the benchmark with the machine's `cc`: it starts in about a
/// millisecond and answers in microseconds, so what the workers measure is the
/// orchestrator and the containers, not the bot. (A Perl script cost 88 ms of CPU a game,
/// 8 bots x 10 turns, and a shell script's `sleep` 222 ms: on 2 cores, 4 workers then
/// measured the bots' CPU.) It plays the 2 games of its set in one process, as the
/// starter kits do (docs/bots.md, "Playing a whole set in one process").
const SLEEPER: &str = r#"#include <stdio.h>
#include <string.h>
#include <time.h>

static void think(void) {
    struct timespec t = {0, 20000000};
    nanosleep(&t, NULL);
}

int main(void) {
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, stdin) > 0) {
        if (strstr(line, "\"type\":\"start\"")) {
            int x = 0, y = 0;
            char *o = strstr(line, "\"options\":[[");
            if (o) sscanf(o + 12, "%d,%d", &x, &y);
            think();
            printf("{\"x\":%d,\"y\":%d,\"facing\":\"N\",\"series\":true}\n", x, y);
            fflush(stdout);
        } else if (strstr(line, "\"type\":\"turn\"")) {
            think();
            fputs("{\"card\":0,\"series\":true}\n", stdout);
            fflush(stdout);
        }
    }
    return 0;
}
"#;

const SCHOOLS: usize = 256;
const TEAMS_PER_SCHOOL: usize = 8;

fn server_url() -> String {
    std::env::var("LRS_BENCH_POSTGRES")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".to_string())
}

/// Runs `sql` on the server's administration database.
fn admin(sql: &str) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        let url = server_url();
        let mut conn = sqlx::PgConnection::connect(&url)
            .await
            .unwrap_or_else(|e| panic!("PostgreSQL at {url} cannot be reached: {e}"));
        sqlx::raw_sql(sqlx::AssertSqlSafe(sql.to_string()))
            .execute(&mut conn)
            .await
            .unwrap_or_else(|e| panic!("{sql}: {e}"));
        let _ = conn.close().await;
    });
}

/// A new, empty database on the server; its URL.
fn new_database(name: &str) -> String {
    // One statement a call: PostgreSQL runs neither inside a transaction block.
    admin(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"));
    admin(&format!("CREATE DATABASE {name}"));
    let base = server_url();
    let cut = base.rfind('/').expect("a database in the URL");
    format!("{}/{name}", &base[..cut])
}

/// Writes the sleeper tournament in `dir`; its file.
fn sleeper_tournament(dir: &Path) -> PathBuf {
    let bots = dir.join("bots");
    std::fs::create_dir_all(&bots).expect("bots dir");
    std::fs::write(bots.join("think.c"), SLEEPER).expect("bot source");
    let cc = Command::new("cc")
        .args(["-O2", "-o", "think", "think.c"])
        .current_dir(&bots)
        .output()
        .expect("the workers benchmark compiles its bot with `cc` (gcc or clang)");
    assert!(cc.status.success(), "cc think.c: {cc:?}");
    std::fs::write(
        dir.join("bracket.toml"),
        "name = \"Workers bench\"\nset_size = 8\ngames_per_series = 2\nadvance_per_set = 2\n\
         turns_per_game = 10\nfill_nationals_to_multiple_of = 8\nboards = [\"gear-works\"]\n",
    )
    .expect("bracket");
    let mut text = "name = \"Workers bench\"\nseed = 26\nbracket = \"bracket.toml\"\n\
                    database = \"bench.sqlite\"\n[limits]\ntime_limit_ms = 1000\n"
        .to_string();
    for school in 0..SCHOOLS {
        text += &format!("[[school]]\nname = \"School {school}\"\n");
        for team in 0..TEAMS_PER_SCHOOL {
            text += &format!(
                "  [[school.team]]\n  name = \"Team {school}-{team}\"\n  bot = \"./think\"\n  dir = \"bots\"\n"
            );
        }
    }
    let file = dir.join("bench.toml");
    std::fs::write(&file, text).expect("tournament");
    file
}

/// Games stored in the database at `url`.
fn stored_games(bin: &str, url: &str) -> usize {
    let out = Command::new(bin)
        .args(["status", url])
        .output()
        .expect("status");
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines()
        .find_map(|l| {
            let l = l.trim();
            let rest = l.strip_prefix("games:")?;
            rest.split_whitespace().next()?.parse().ok()
        })
        .unwrap_or_else(|| panic!("no `games:` line in status:\n{text}"))
}

fn spawn(bin: &str, args: &[&str], dir: &Path) -> Child {
    Command::new(bin)
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start lrs-tourney")
}

fn wait_ok(child: Child, what: &str) {
    let out = child.wait_with_output().expect("wait");
    assert!(
        out.status.success(),
        "{what}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// One process plays the tournament with `jobs` games at once; seconds.
fn one_process(bin: &str, dir: &Path, file: &Path, jobs: usize, db: &str) -> (f64, usize) {
    let url = new_database(db);
    let started = Instant::now();
    let jobs = jobs.to_string();
    let run = spawn(
        bin,
        &["run", path(file), "--db", &url, "--jobs", &jobs, "--quiet"],
        dir,
    );
    wait_ok(run, "run");
    let secs = started.elapsed().as_secs_f64();
    let games = stored_games(bin, &url);
    admin(&format!("DROP DATABASE {db} WITH (FORCE)"));
    (secs, games)
}

/// A planner and `n` workers (one set, one game at a time each) play it; seconds.
fn workers(bin: &str, dir: &Path, file: &Path, n: usize, db: &str) -> (f64, usize) {
    let url = new_database(db);
    let started = Instant::now();
    let planner = spawn(
        bin,
        &["run", path(file), "--db", &url, "--workers", "0", "--quiet"],
        dir,
    );
    let crew: Vec<Child> = (0..n)
        .map(|i| {
            let name = format!("bench-{i}");
            spawn(
                bin,
                &["worker", &url, "--jobs", "1", "--name", &name, "--quiet"],
                dir,
            )
        })
        .collect();
    for worker in crew {
        wait_ok(worker, "worker");
    }
    wait_ok(planner, "planner");
    let secs = started.elapsed().as_secs_f64();
    let games = stored_games(bin, &url);
    admin(&format!("DROP DATABASE {db} WITH (FORCE)"));
    (secs, games)
}

fn path(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

/// The 2,000-team nationals of built-in AIs, generated in `dir`: its tournament file.
fn generated_nationals(bin: &str, dir: &Path) -> PathBuf {
    let out = dir.join("nationals");
    let status = Command::new(bin)
        .args(["generate", "--teams", "2000", "--schools", "250", "--out"])
        .arg(&out)
        .output()
        .expect("generate");
    assert!(status.status.success(), "{status:?}");
    std::fs::read_dir(&out)
        .expect("generated dir")
        .map(|e| e.expect("entry").path())
        .find(|p| p.extension().is_some_and(|e| e == "toml"))
        .expect("a generated tournament file")
}

/// Milliseconds the store adds per game: the tournament `config` through the binary, on
/// `postgres` (an empty database) or else on the SQLite file it names (removed first),
/// against the same games played in memory.
fn store_cost_per_game(bin: &str, config: &Path, postgres: Option<&str>) -> f64 {
    let t = load_tournament(config).expect("generated config loads");
    let started = Instant::now();
    let games = games_only(&t);
    let in_memory = started.elapsed().as_secs_f64();
    remove_database(&t.database);
    let mut args = vec!["run", path(config), "--quiet"];
    args.extend(postgres.iter().flat_map(|url| ["--db", url]));
    let started = Instant::now();
    let folder = config.parent().expect("the config's folder");
    wait_ok(spawn(bin, &args, folder), "run");
    let stored = started.elapsed().as_secs_f64();
    let ms = (stored - in_memory) * 1000.0 / games as f64;
    let backend = if postgres.is_some() {
        "PostgreSQL"
    } else {
        "SQLite"
    };
    println!(
        "store on {backend}: {games} games, in memory {in_memory:.2} s, stored {stored:.2} s: {ms:.3} ms per stored game"
    );
    ms
}

fn main() {
    // `cargo bench` passes `--bench`; a filter that does not name this benchmark skips it.
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args
        .iter()
        .any(|a| !a.starts_with("--") && !"workers".contains(a.as_str()))
    {
        return;
    }
    let bin = env!("CARGO_BIN_EXE_lrs-tourney");
    let counts: Vec<usize> = std::env::var("LRS_BENCH_WORKERS")
        .unwrap_or_else(|_| "1,2,4".to_string())
        .split(',')
        .map(|n| n.trim().parse().expect("LRS_BENCH_WORKERS: numbers"))
        .collect();
    let dir = tempfile::tempdir().expect("temp dir");
    let file = sleeper_tournament(dir.path());
    let db = format!("lrs_bench_workers_{}", std::process::id());

    let (base, games) = one_process(bin, dir.path(), &file, 1, &db);
    let base_rate = games as f64 / base;
    println!(
        "one process, --jobs 1: {games} games in {base:.1} s: {base_rate:.2} games/s (bots think 20 ms an answer)"
    );
    for &n in &counts {
        let (secs, stored) = workers(bin, dir.path(), &file, n, &db);
        assert_eq!(stored, games, "{n} workers stored another number of games");
        let rate = stored as f64 / secs;
        let (same_secs, _) = one_process(bin, dir.path(), &file, n, &db);
        println!(
            "{n} worker(s), --jobs 1 each: {secs:.1} s, {rate:.2} games/s = {:.2} x one process (target {:.1}); \
             one process with --jobs {n}: {same_secs:.1} s, workers / it = {:.2}",
            rate / base_rate,
            0.9 * n as f64,
            same_secs / secs
        );
    }

    let nationals = generated_nationals(bin, dir.path());
    store_cost_per_game(bin, &nationals, None);
    let url = new_database(&db);
    store_cost_per_game(bin, &nationals, Some(&url));
    admin(&format!("DROP DATABASE {db} WITH (FORCE)"));
}
