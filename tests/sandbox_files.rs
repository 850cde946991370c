//! The tournament database and the bots' file system: the database is created readable by
//! its owner only, and a bot whose folder holds the database (an organiser may keep the
//! tournament there) never gets a copy of it.

mod common;

use common::{ok_both as ok, repo};
use std::os::unix::fs::PermissionsExt;

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
