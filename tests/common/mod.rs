//! A small builder for running the real `lrs-tourney` binary, after `just`'s test helper:
//! it runs in a fresh temporary directory and checks status, stdout and stderr, expecting
//! success and no stderr unless told otherwise.

#![allow(dead_code)]

pub mod pg;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub struct Test {
    args: Vec<String>,
    dir: tempfile::TempDir,
    status: i32,
    stdout: Option<String>,
    stdout_has: Vec<String>,
    stderr_has: Vec<String>,
}

impl Test {
    pub fn new() -> Test {
        Test {
            args: Vec::new(),
            dir: tempfile::tempdir().expect("temp dir"),
            status: 0,
            stdout: None,
            stdout_has: Vec::new(),
            stderr_has: Vec::new(),
        }
    }

    pub fn args(mut self, args: &[&str]) -> Test {
        self.args.extend(args.iter().map(|s| s.to_string()));
        self
    }

    /// Writes `text` to `name` inside the test directory.
    pub fn file(self, name: &str, text: &str) -> Test {
        let path = self.dir.path().join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("mkdir");
        }
        std::fs::write(path, text).expect("write file");
        self
    }

    pub fn dir(&self) -> &Path {
        self.dir.path()
    }

    pub fn status(mut self, code: i32) -> Test {
        self.status = code;
        self
    }

    pub fn stdout(mut self, text: &str) -> Test {
        self.stdout = Some(text.to_string());
        self
    }

    pub fn stdout_has(mut self, text: &str) -> Test {
        self.stdout_has.push(text.to_string());
        self
    }

    pub fn stderr_has(mut self, text: &str) -> Test {
        self.stderr_has.push(text.to_string());
        self
    }

    /// Runs the binary and checks everything asked; returns stdout.
    #[track_caller]
    pub fn run(self) -> String {
        let out: Output = Command::new(bin())
            .args(&self.args)
            .current_dir(self.dir.path())
            .output()
            .expect("run lrs-tourney");
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        let context = format!(
            "args: {:?}\nstatus: {:?}\nstdout:\n{stdout}\nstderr:\n{stderr}",
            self.args,
            out.status.code()
        );
        assert_eq!(out.status.code(), Some(self.status), "{context}");
        if let Some(expected) = &self.stdout {
            assert_eq!(&stdout, expected, "{context}");
        }
        for want in &self.stdout_has {
            assert!(stdout.contains(want), "stdout lacks {want:?}\n{context}");
        }
        if self.stderr_has.is_empty() {
            assert!(stderr.is_empty(), "unexpected stderr\n{context}");
        }
        for want in &self.stderr_has {
            assert!(stderr.contains(want), "stderr lacks {want:?}\n{context}");
        }
        stdout
    }
}

/// The binary under test.
pub fn bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_lrs-tourney"))
}

/// The repository root (for shipped example files).
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs the binary with `args` in `dir`.
pub fn lrs(dir: &Path, args: &[&str]) -> Output {
    Command::new(bin())
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run lrs-tourney")
}

/// Runs the binary, which must succeed; returns stdout and stderr.
#[track_caller]
pub fn ok_both(dir: &Path, args: &[&str]) -> (String, String) {
    let out = lrs(dir, args);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        out.status.success(),
        "{args:?} failed ({:?}):\n{stdout}\n{stderr}",
        out.status.code()
    );
    (stdout, stderr)
}

/// Runs the binary, which must succeed; returns stdout.
#[track_caller]
pub fn ok(dir: &Path, args: &[&str]) -> String {
    ok_both(dir, args).0
}

/// Waits for `future` on a runtime of its own, as the binary's `cli::run` does: for tests
/// that call the library's async entry points (`runner::run_tournament`, `check_store`).
pub fn block_on<F: std::future::Future>(future: F) -> F::Output {
    lrs_tourney::runtime::runtime()
        .expect("a runtime")
        .block_on(future)
}

/// Runs one SQL statement on a database file (tests that damage a database on purpose).
pub fn sql(db: &Path, statement: &str) {
    use sqlx::Connection;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let mut conn = sqlx::SqliteConnection::connect(&format!("sqlite://{}", db.display()))
            .await
            .unwrap();
        sqlx::query(sqlx::AssertSqlSafe(statement.to_string()))
            .execute(&mut conn)
            .await
            .unwrap();
        conn.close().await.unwrap();
    });
}

/// A new pseudo-terminal: (the terminal's side, read by the test; the program's side).
pub fn openpty() -> (std::os::fd::OwnedFd, std::os::fd::OwnedFd) {
    use nix::libc;
    use std::os::fd::{FromRawFd, OwnedFd};
    let (mut m, mut s) = (0, 0);
    let r = unsafe {
        libc::openpty(
            &mut m,
            &mut s,
            std::ptr::null_mut(),
            std::ptr::null(),
            std::ptr::null(),
        )
    };
    assert_eq!(r, 0, "openpty: {}", std::io::Error::last_os_error());
    unsafe { (OwnedFd::from_raw_fd(m), OwnedFd::from_raw_fd(s)) }
}

/// Writes a quick tournament into `dir`: the bracket `quick.toml` (sets of 8, series of 3
/// games of 30 turns) and `cup.toml`, named `name` with seed `seed`, of two schools of
/// built-in AIs (North of 11 teams, South of 3). Returns the tournament file.
pub fn write_quick_cup(dir: &Path, name: &str, seed: u64) -> PathBuf {
    const BRACKET: &str = "name = \"Quick\"\nset_size = 8\ngames_per_series = 3\nadvance_per_set = 2\nturns_per_game = 30\nfill_nationals_to_multiple_of = 8\nboards = [\"gear-works\", \"sinkhole-steps\"]\n";
    let mut text = format!("name = \"{name}\"\nseed = {seed}\nbracket = \"quick.toml\"\n");
    for (school, teams) in [("North", 11), ("South", 3)] {
        text += &format!("[[school]]\nname = \"{school}\"\n");
        for i in 0..teams {
            let ai = ["runner", "hunter", "random"][i % 3];
            text += &format!(
                "  [[school.team]]\n  name = \"{school} {i}\"\n  bot = \"builtin:{ai}\"\n"
            );
        }
    }
    std::fs::write(dir.join("quick.toml"), BRACKET).expect("write the bracket");
    std::fs::write(dir.join("cup.toml"), text).expect("write the tournament");
    dir.join("cup.toml")
}

/// The names written in backticks in the paragraph of `doc` (a path from the repository
/// root) that starts with `opening`: what the document says a JSON output holds.
#[allow(dead_code)]
pub fn documented_names(doc: &str, opening: &str) -> std::collections::BTreeSet<String> {
    let text = std::fs::read_to_string(repo().join(doc)).unwrap();
    let start = text
        .find(opening)
        .unwrap_or_else(|| panic!("{doc} has no paragraph starting {opening:?}"));
    let paragraph = text[start..].split("\n\n").next().unwrap_or("");
    paragraph
        .split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

/// Fails naming every key of `object` that `documented` does not list.
#[allow(dead_code)]
#[track_caller]
pub fn assert_keys_documented(
    object: &serde_json::Value,
    documented: &std::collections::BTreeSet<String>,
) {
    let keys = object.as_object().expect("a JSON object");
    let missing: Vec<&String> = keys.keys().filter(|k| !documented.contains(*k)).collect();
    assert!(
        missing.is_empty(),
        "undocumented keys {missing:?} of {object}"
    );
}
