//! What a bot writes reaches the organiser's terminal only as text: `play`, `check` and
//! `logs`, run on a pseudo-terminal as an organiser runs them, show a hostile bot's clipboard
//! write (OSC 52), window title, clear screen, C1 control and carriage return escaped, never
//! as the control characters themselves (tests/hostile/term_escape.py).

mod common;

use common::{ok, repo};
use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};

/// Runs the binary with `args` in `dir`, its stdin, stdout and stderr on a new pseudo-terminal,
/// and returns its exit code and everything it wrote there (the terminal's `\r\n` as `\n`).
fn on_terminal(dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    let (master, slave) = common::openpty();
    let mut cmd = Command::new(common::bin());
    cmd.args(args)
        .current_dir(dir)
        .stdin(Stdio::from(slave.try_clone().unwrap()))
        .stdout(Stdio::from(slave.try_clone().unwrap()))
        .stderr(Stdio::from(slave));
    let mut child = cmd.spawn().expect("run lrs-tourney");
    // The terminal reads end (EIO) once the child and every copy of its side are closed.
    drop(cmd);
    let reader = std::thread::spawn(move || {
        let mut terminal = std::fs::File::from(master);
        let mut output = Vec::new();
        let mut buf = [0u8; 4096];
        while let Ok(n) = terminal.read(&mut buf) {
            if n == 0 {
                break;
            }
            output.extend_from_slice(&buf[..n]);
        }
        output
    });
    let status = child.wait().unwrap();
    let output = reader.join().unwrap();
    let text = String::from_utf8_lossy(&output).replace("\r\n", "\n");
    (status.code(), text)
}

/// Asserts that `text` holds no control character but newline and tab, that the bot's
/// escapes are shown as text (once: `\x1b`, not `\\x1b`), and that its fake verdict starts
/// no line.
#[track_caller]
fn assert_shown_escaped(text: &str) {
    let controls: Vec<char> = text
        .chars()
        .filter(|&c| c.is_control() && c != '\n' && c != '\t')
        .collect();
    assert!(
        controls.is_empty(),
        "controls {controls:?} reached the terminal:\n{text}"
    );
    assert!(
        text.contains(r"\x1b]52;c;"),
        "the bot's output is not shown:\n{text}"
    );
    assert!(
        !text.lines().any(|l| l.starts_with("ok: FAKE")),
        "a fake verdict starts a line:\n{text}"
    );
    assert!(
        !text.contains(r"\\x1b"),
        "the bot's output is escaped twice:\n{text}"
    );
}

fn hostile() -> String {
    repo().join("tests/hostile").display().to_string()
}

fn tournament() -> String {
    format!(
        "name = \"Escapes\"\nseed = 7\n\n[limits]\ntime_limit_ms = 500\nstart_limit_ms = 2000\n\n\
         [[school]]\nname = \"A\"\n\n\
         [[school.team]]\nname = \"esc\"\nbot = \"python3 term_escape.py\"\ndir = {:?}\n\
         protocol = \"jsonl\"\n\n\
         [[school.team]]\nname = \"ai\"\nbot = \"builtin:hunter\"\n",
        hostile()
    )
}

#[test]
fn play_shows_a_bots_terminal_escapes_as_text() {
    let dir = tempfile::tempdir().unwrap();
    let bot_dir = hostile();
    let (code, text) = on_terminal(
        dir.path(),
        &[
            "play",
            "--bot-dir",
            &bot_dir,
            "--bot",
            "jsonl:python3 term_escape.py",
            "--bot",
            "builtin:hunter",
            "--board",
            "gear-works",
            "--games",
            "1",
        ],
    );
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("faults"), "{text}");
    assert_shown_escaped(&text);
}

#[test]
fn check_shows_a_bots_terminal_escapes_as_text() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("t.toml"), tournament()).unwrap();
    let (code, text) = on_terminal(dir.path(), &["check", "t.toml"]);
    assert_eq!(code, Some(1), "the bot fails its smoke game:\n{text}");
    assert!(text.contains("  esc (A): FAILED"), "{text}");
    assert_shown_escaped(&text);
}

#[test]
fn logs_show_a_bots_terminal_escapes_as_text() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("t.toml"), tournament()).unwrap();
    ok(dir.path(), &["run", "t.toml", "--quiet"]);
    let (code, text) = on_terminal(dir.path(), &["logs", "t.toml", "a/final", "--game", "0"]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("esc (A): exit 3"), "{text}");
    assert_shown_escaped(&text);
}
