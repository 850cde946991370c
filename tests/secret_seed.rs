//! Games nobody can predict, and anyone can check afterwards: a tournament file without a
//! seed gets a secret drawn at the first run and stored; a student who builds the seed
//! derivation from the product's own library and guesses the tournament seed finds none of
//! its games; no page, export or command output publishes a seed; `report --reveal-seed`
//! publishes the secret of a finished tournament, which matches the commitment shown all
//! along and gives back every game's seed.

mod common;

use common::{lrs, ok, ok_both};
use lrs_tourney::store::Store;
use lrs_tourney::tourney::bracket::{SeedScheme, TournamentSeed, game_seed};
use sha2::Digest;
use std::path::Path;

/// A school of three built-in teams: one set, its school final of 10 games.
fn tournament(seed_line: &str) -> String {
    format!(
        "name = \"Secret Cup\"\n{seed_line}\n[[school]]\nname = \"A\"\n\n\
         [[school.team]]\nname = \"one\"\nbot = \"builtin:runner\"\n\n\
         [[school.team]]\nname = \"two\"\nbot = \"builtin:hunter\"\n\n\
         [[school.team]]\nname = \"three\"\nbot = \"builtin:random\"\n"
    )
}

/// The stored secret and every stored game's (set, index, seed).
fn stored(db: &Path) -> (TournamentSeed, Vec<(String, u32, u64)>) {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let store = Store::open_read_only(&db.into()).await.unwrap();
        let t = store.tournament().await.unwrap().expect("a tournament");
        let games = store.games().await.unwrap();
        store.close().await;
        let games = games
            .into_iter()
            .map(|g| (g.set_id.to_string(), g.game_index, g.seed))
            .collect();
        (t.seed, games)
    })
}

/// What a student can do with the library: every game seed of the school final for a
/// guessed tournament seed, under either derivation the product has ever used. (A game's
/// deal is a function of its seed and board: knowing the seed is knowing every hand.)
fn predicted_seeds(guess: u64) -> Vec<u64> {
    let mut out = Vec::new();
    for scheme in [SeedScheme::Keyed, SeedScheme::Legacy] {
        let seed = TournamentSeed::new(guess, scheme);
        for game in 0..10 {
            // The school final is round 1 of a one-set school.
            out.push(game_seed(&seed, "a", 1, 1, game, 0));
        }
    }
    out
}

/// Tournament seeds a student would try: small numbers, years, dates.
fn guesses() -> impl Iterator<Item = u64> {
    (0..20_000).chain([20_261_126, 26_112_026, 11_262_026, 2_026_000])
}

#[test]
fn without_a_seed_the_first_run_draws_a_secret_nobody_guesses() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("t.toml"), tournament("")).unwrap();
    ok(dir.path(), &["run", "t.toml", "--quiet"]);
    let db = dir.path().join("t.sqlite");
    let (secret, games) = stored(&db);
    assert_eq!(secret.scheme(), SeedScheme::Keyed);
    assert_eq!(games.len(), 10);
    let actual: std::collections::HashSet<u64> = games.iter().map(|g| g.2).collect();
    for guess in guesses() {
        for seed in predicted_seeds(guess) {
            assert!(!actual.contains(&seed), "guessing {guess} predicted a game");
        }
    }
    // The games are the secret's: anyone holding it derives every one.
    for (set, index, seed) in &games {
        assert_eq!(set, "a/final");
        assert_eq!(*seed, game_seed(&secret, "a", 1, 1, *index, 0));
    }
    // Another tournament, another secret.
    let other = tempfile::tempdir().unwrap();
    std::fs::write(other.path().join("t.toml"), tournament("")).unwrap();
    ok(other.path(), &["run", "t.toml", "--quiet"]);
    assert_ne!(stored(&other.path().join("t.sqlite")).0, secret);
}

#[test]
fn a_seed_written_in_the_file_is_predictable_and_check_says_so() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("t.toml"), tournament("seed = 2026\n")).unwrap();
    let check = ok(dir.path(), &["check", "t.toml"]);
    assert!(
        check.contains("warning: t.toml: `seed` is written in the file: anyone who reads it"),
        "{check}"
    );
    ok(dir.path(), &["run", "t.toml", "--quiet"]);
    let (_, games) = stored(&dir.path().join("t.sqlite"));
    // Whoever reads the file predicts every game: the warning is not idle.
    let predicted = predicted_seeds(2026);
    assert!(games.iter().all(|g| predicted.contains(&g.2)));
    // Without a seed, check does not warn.
    std::fs::write(dir.path().join("u.toml"), tournament("")).unwrap();
    let (stdout, stderr) = ok_both(dir.path(), &["check", "u.toml"]);
    assert!(
        !stdout.contains("warning") && stderr.is_empty(),
        "{stdout}{stderr}"
    );
    assert!(
        stdout.contains("secret, drawn at the first run"),
        "{stdout}"
    );
}

#[test]
fn resumes_and_reruns_play_with_the_stored_secret() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("t.toml"), tournament("")).unwrap();
    ok(dir.path(), &["run", "t.toml", "--quiet"]);
    let db = dir.path().join("t.sqlite");
    let (secret, before) = stored(&db);
    let standings = ok(dir.path(), &["export", "standings", "t.toml", "--out", "-"]);
    // A rerun without --reseed plays the same games: same seeds, same standings.
    ok(
        dir.path(),
        &["rerun", "t.toml", "a/final", "--reason", "power cut"],
    );
    let (again, after) = stored(&db);
    assert_eq!(again, secret);
    let seeds = |games: &[(String, u32, u64)]| {
        let mut s: Vec<u64> = games.iter().map(|g| g.2).collect();
        s.sort_unstable();
        s.dedup();
        s
    };
    assert_eq!(after.len(), 10);
    assert_eq!(seeds(&after), seeds(&before));
    assert_eq!(
        ok(dir.path(), &["export", "standings", "t.toml", "--out", "-"]),
        standings
    );
    // A file that now names another seed is refused, without printing either.
    let text = tournament("seed = 5\n");
    std::fs::write(dir.path().join("t.toml"), text).unwrap();
    let out = lrs(dir.path(), &["run", "t.toml", "--quiet"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("seed: the file's differs from the one stored"),
        "{stderr}"
    );
    assert!(!stderr.contains(&secret.secret().to_string()), "{stderr}");
}

/// Every file under `dir`, as text.
fn site_texts(dir: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                todo.push(path);
            } else {
                let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
                out.push((path.display().to_string(), text));
            }
        }
    }
    out
}

#[test]
fn no_page_or_output_publishes_a_seed_until_it_is_revealed() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("t.toml"), tournament("")).unwrap();
    ok(dir.path(), &["run", "t.toml", "--quiet"]);
    let db = dir.path().join("t.sqlite");
    let (secret, games) = stored(&db);
    let mut secrets: Vec<String> = vec![secret.secret().to_string()];
    // Stored as a signed 64-bit integer: its signed spelling must not leak either.
    secrets.push((secret.secret() as i64).to_string());
    for g in &games {
        secrets.push(g.2.to_string());
        secrets.push((g.2 as i64).to_string());
    }
    let leaks = |what: &str, text: &str| {
        for s in &secrets {
            assert!(!text.contains(s.as_str()), "{what} publishes the seed {s}");
        }
    };
    ok(dir.path(), &["report", "t.toml", "--out", "site"]);
    let pages = site_texts(&dir.path().join("site"));
    assert!(pages.len() > 10, "{} files", pages.len());
    for (path, text) in &pages {
        leaks(path, text);
    }
    let index = std::fs::read_to_string(dir.path().join("site/index.html")).unwrap();
    assert!(index.contains(&secret.commitment()), "no commitment shown");
    for args in [
        vec!["status", "t.toml"],
        vec!["status", "t.toml", "--json"],
        vec!["standings", "t.toml"],
        vec!["export", "games", "t.toml", "--out", "-"],
        vec!["export", "sets", "t.toml", "--out", "-"],
        vec!["export", "standings", "t.toml", "--out", "-"],
        vec!["replay", "t.toml", "a/final", "0", "--json"],
        vec!["replay", "t.toml", "a/final", "0", "--text"],
        vec!["replay", "t.toml", "a/final", "0", "--html", "game.html"],
    ] {
        let (stdout, stderr) = ok_both(dir.path(), &args);
        leaks(&args.join(" "), &stdout);
        leaks(&args.join(" "), &stderr);
    }
    leaks(
        "replay --html",
        &std::fs::read_to_string(dir.path().join("game.html")).unwrap(),
    );
    // Revealed once the tournament is finished: the secret, which hashes to the
    // commitment, and each game's seed on its replay page.
    ok(
        dir.path(),
        &["report", "t.toml", "--out", "revealed", "--reveal-seed"],
    );
    let index = std::fs::read_to_string(dir.path().join("revealed/index.html")).unwrap();
    let shown = index
        .split("Tournament seed: ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .expect("the revealed seed");
    assert_eq!(shown, secret.secret().to_string());
    let digest: String = sha2::Sha256::digest(shown.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(digest, secret.commitment());
    let replays: String = site_texts(&dir.path().join("revealed"))
        .into_iter()
        .map(|(_, text)| text)
        .collect();
    for g in &games {
        assert!(
            replays.contains(&format!("seed {}", g.2)),
            "game {} {}",
            g.0,
            g.1
        );
    }
}
