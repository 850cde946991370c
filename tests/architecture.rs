//! The Architecture Invariant of ARCHITECTURE.md, checked on the source: the orchestrator
//! (configuration, bracket, store, runner, reports, and the transport: bot processes, their
//! sandbox, and the game-neutral JSON-lines life cycle) names no game's rules. It reaches
//! games only through the seam: `crate::games` (`GameKind`, `GameSettings`, `Arena`,
//! `BuiltinBot`, `Stats`, `view`) and `crate::play::contest` (which also hands out the
//! series host of protocols that play a whole set over one connection).

use std::path::{Path, PathBuf};

/// The orchestrator's sources.
const ORCHESTRATOR: &[&str] = &[
    "src/tourney",
    "src/store",
    "src/runner",
    "src/report",
    "src/bots",
    "src/play/remote.rs",
    "src/play/turns.rs",
];

/// Paths into a game's own modules: its engine, AIs, boards, scenarios.
const GAME_MODULES: &[&str] = &[
    "crate::engine",
    "crate::ai::",
    "crate::ai;",
    "crate::boards",
    "crate::scenario",
    "crate::games::lrs",
    "crate::games::robotgame",
    "crate::games::robots",
    "super::engine",
    "windward::",
];

fn sources(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        for entry in std::fs::read_dir(path).unwrap() {
            sources(&entry.unwrap().path(), out);
        }
    } else if path.extension().is_some_and(|e| e == "rs") {
        out.push(path.to_path_buf());
    }
}

#[test]
fn the_orchestrator_names_no_game_module() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ORCHESTRATOR {
        sources(&root.join(dir), &mut files);
    }
    assert!(files.len() > 40, "found only {} sources", files.len());
    let mut found = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for (n, line) in text.lines().enumerate() {
            for module in GAME_MODULES {
                if line.contains(module) {
                    found.push(format!(
                        "{}:{}: {}",
                        file.strip_prefix(root).unwrap().display(),
                        n + 1,
                        line.trim()
                    ));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "the orchestrator reaches into a game (go through crate::games or play::contest):\n{}",
        found.join("\n")
    );
}

/// The check itself works: a line naming a game's module in an orchestrator file is found.
#[test]
fn the_check_finds_a_game_module() {
    let line = "use crate::engine::Board;";
    assert!(GAME_MODULES.iter().any(|m| line.contains(m)));
    let seam = "use crate::games::{Arena, GameKind};";
    assert!(!GAME_MODULES.iter().any(|m| seam.contains(m)));
}
