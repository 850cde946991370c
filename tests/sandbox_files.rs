//! The tournament database and the bots' file system: the database is created readable by
//! its owner only, and a bot whose folder holds the database (an organiser may keep the
//! tournament there) never gets a copy of it.

mod common;

use common::{ok_both as ok, repo};
use std::os::unix::fs::PermissionsExt;

/// Copies the binary and the Python starter kit into `dir` (world-readable), so that an
/// unprivileged user can run them wherever the repository is checked out (a clone under a
/// private home directory would keep `nobody` out). Returns the binary and the kit.
fn public_copies(dir: &std::path::Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let bin = dir.join("lrs-tourney");
    std::fs::copy(env!("CARGO_BIN_EXE_lrs-tourney"), &bin).unwrap();
    std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755)).unwrap();
    let kit = dir.join("python-kit");
    std::fs::create_dir(&kit).unwrap();
    std::fs::set_permissions(&kit, std::fs::Permissions::from_mode(0o755)).unwrap();
    for entry in std::fs::read_dir(repo().join("examples/bots/python")).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_file() {
            let to = kit.join(entry.file_name());
            std::fs::copy(entry.path(), &to).unwrap();
            std::fs::set_permissions(&to, std::fs::Permissions::from_mode(0o644)).unwrap();
        }
    }
    (bin, kit)
}

/// `Command::output`, tried again while exec fails with "Text file busy": the binary was
/// just copied, and a test on another thread that forks at that moment holds the copy's
/// write descriptor until its own exec.
trait OutputRetrying {
    fn output_retrying(&mut self) -> std::process::Output;
}

impl OutputRetrying for std::process::Command {
    fn output_retrying(&mut self) -> std::process::Output {
        for _ in 0..50 {
            match self.output() {
                Err(e) if e.raw_os_error() == Some(nix::libc::ETXTBSY) => {
                    std::thread::sleep(std::time::Duration::from_millis(20));
                }
                other => return other.expect("run the copied binary"),
            }
        }
        self.output().expect("run the copied binary")
    }
}

const FAST_BRACKET: &str = "name = \"Fast\"\nset_size = 8\ngames_per_series = 2\nadvance_per_set = 2\nturns_per_game = 8\nfill_nationals_to_multiple_of = 8\nboards = [\"gear-works\"]\n";

#[test]
fn the_database_is_private_and_never_copied_into_a_bot_folder() {
    let dir = tempfile::tempdir().unwrap();
    // World-readable folder: only the file's own mode keeps others out.
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    for file in ["common.py", "listdir.py"] {
        std::fs::copy(
            repo().join("tests/hostile").join(file),
            dir.path().join(file),
        )
        .unwrap();
    }
    std::fs::write(dir.path().join("fast.toml"), FAST_BRACKET).unwrap();
    let config = r#"name = "Files"
seed = 3
bracket = "fast.toml"
[limits]
start_limit_ms = 3000
[[school]]
name = "Lab"
  [[school.team]]
  name = "Lister"
  bot = "python3 listdir.py"
  dir = "."
  [[school.team]]
  name = "Runner"
  bot = "builtin:runner"
"#;
    std::fs::write(dir.path().join("t.toml"), config).unwrap();
    ok(dir.path(), &["run", "t.toml", "--quiet"]);
    let mode = std::fs::metadata(dir.path().join("t.sqlite"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600, "database mode {mode:o}");
    let (logs, _) = ok(
        dir.path(),
        &["logs", "t.toml", "lab/final", "--team", "Lister"],
    );
    let listing = logs
        .lines()
        .find(|l| l.contains("cwd holds:"))
        .unwrap_or_else(|| panic!("no listing in {logs}"));
    assert!(listing.contains("'t.toml'"), "{listing}");
    assert!(listing.contains("'listdir.py'"), "{listing}");
    assert!(
        !listing.contains("sqlite"),
        "the database was copied: {listing}"
    );
}

/// Run as an unprivileged user (CI runs as root, so this drops to `nobody`): the machine
/// grants no namespaces but user ones, no control groups, no tmpfs. `play` says plainly
/// what is missing and still plays with what exists; `--sandbox strict` refuses.
#[test]
fn without_privileges_the_missing_protections_are_named_and_strict_refuses() {
    use std::os::unix::process::CommandExt;
    if (unsafe { nix::libc::geteuid() }) != 0 {
        panic!("this test drops from root to nobody: run the suite as root (as CI does)");
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    let (bin, kit) = public_copies(dir.path());
    let play = |extra: &[&str]| {
        let out = std::process::Command::new(&bin)
            .current_dir(dir.path())
            .args([
                "play",
                "--board",
                "gear-works",
                "--games",
                "1",
                "--turns",
                "5",
            ])
            .args(extra)
            .arg("--bot-dir")
            .arg(&kit)
            .args(["--bot", "jsonl:python3 bot.py", "--bot", "builtin:runner"])
            .uid(65534)
            .gid(65534)
            .output_retrying();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, stdout, stderr) = play(&[]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stderr.contains("MISSING: separate uid, pid namespace"),
        "{stderr}"
    );
    let faults: Vec<&str> = stdout
        .lines()
        .find(|l| l.starts_with("jsonl:"))
        .unwrap_or_else(|| panic!("{stdout}"))
        .split_whitespace()
        .collect();
    assert_eq!(
        faults.last(),
        Some(&"0"),
        "the bot faulted without privileges: {stdout}"
    );
    let (code, _, stderr) = play(&["--sandbox", "strict"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("the strict sandbox refuses to start bots"),
        "{stderr}"
    );
    assert!(stderr.contains("memory limit: needs root"), "{stderr}");
}

/// `[limits] sandbox = "strict"`: as root (every protection active) the tournament runs; as
/// an unprivileged user `check` and `run` refuse before anything is written, naming what
/// is missing. A mode that does not exist is a located error.
#[test]
fn a_strict_tournament_runs_only_where_every_protection_is_active() {
    use std::os::unix::process::CommandExt;
    if (unsafe { nix::libc::geteuid() }) != 0 {
        panic!("this test drops from root to nobody: run the suite as root (as CI does)");
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    std::fs::write(dir.path().join("fast.toml"), FAST_BRACKET).unwrap();
    let (bin, kit) = public_copies(dir.path());
    let config = |mode: &str| {
        format!(
            r#"name = "Strict"
seed = 3
bracket = "fast.toml"
[limits]
sandbox = "{mode}"
[[school]]
name = "Lab"
  [[school.team]]
  name = "Starter"
  bot = "python3 bot.py"
  dir = "{dir}"
  [[school.team]]
  name = "Runner"
  bot = "builtin:runner"
"#,
            dir = kit.display()
        )
    };
    std::fs::write(dir.path().join("t.toml"), config("strict")).unwrap();
    std::fs::write(dir.path().join("bad.toml"), config("paranoid")).unwrap();
    let lrs = |args: &[&str], nobody: bool| {
        let mut cmd = std::process::Command::new(&bin);
        cmd.current_dir(dir.path()).args(args);
        if nobody {
            cmd.uid(65534).gid(65534);
        }
        let out = cmd.output_retrying();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, stderr) = lrs(&["check", "bad.toml", "--no-smoke"], false);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("bad.toml:5:"), "{stderr}");
    assert!(stderr.contains("is not a sandbox mode"), "{stderr}");
    for args in [&["check", "t.toml"][..], &["run", "t.toml", "--quiet"][..]] {
        let (code, stderr) = lrs(args, true);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("the strict sandbox refuses to start bots"),
            "{stderr}"
        );
        assert!(stderr.contains("pid namespace: needs root"), "{stderr}");
    }
    assert!(
        !dir.path().join("t.sqlite").exists(),
        "a refused strict run wrote nothing"
    );
    let (code, stderr) = lrs(&["run", "t.toml", "--quiet"], false);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(dir.path().join("t.sqlite").exists());
}
