//! The Architecture Invariant of ARCHITECTURE.md, checked on the parsed source: the
//! orchestrator (configuration, bracket, store, runner, reports, and the transport: bot
//! processes, their sandbox, and the game-neutral JSON-lines life cycle) names no game's
//! rules. It reaches games only through the seam: `crate::games` (`Game`, `GameKind`,
//! `GameSettings`, `Arena`, `BuiltinBot`, `GameOutcome`, `Stats`, `view`) and
//! `crate::play::series` (the host of protocols that play a whole set over one
//! connection). The seam's own game-neutral files are held to the same rule, and a game is
//! any folder of `src/games` with a `kind.rs` (its `Game`), so a new game is covered
//! without editing this test.
//!
//! Every file is parsed with `syn`; every path it writes (each leaf of a `use` tree, grouped
//! or not, and every path in an expression, type or pattern) is made absolute from the file's
//! own module (`super::`, `self::` and inline modules resolved) and checked segment by
//! segment, so neither a grouped import nor a long path in an expression slips through.
//! (Paths inside a macro's arguments are tokens, not parsed, and are not seen.)

use std::path::{Path, PathBuf};
use syn::visit::Visit;

/// The sources that may name games: the registry (one line per game) and the host of the
/// series protocols (it starts a game's series clients). Everything else in `src` outside
/// the games' own folders is the orchestrator.
const MAY_NAME_GAMES: &[&str] = &["src/games/kind.rs", "src/play/series.rs"];

/// The orchestrator's sources: every file of `src` but the games' folders and
/// [`MAY_NAME_GAMES`], so a new file is covered without editing this test.
fn orchestrator_sources(root: &Path) -> Vec<PathBuf> {
    let mut all = Vec::new();
    sources(&root.join("src"), &mut all);
    let game_folders: Vec<PathBuf> = game_modules()
        .iter()
        .map(|m| root.join("src/games").join(&m[2]))
        .collect();
    all.into_iter()
        .filter(|f| !game_folders.iter().any(|g| f.starts_with(g)))
        .filter(|f| !MAY_NAME_GAMES.iter().any(|m| f == &root.join(m)))
        .collect()
}

/// Absolute module paths of the games' own code (engines, AIs, boards, scenarios, bot
/// layers): each folder of `src/games` that implements the seam (has a `kind.rs`).
fn game_modules() -> Vec<Vec<String>> {
    let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/games");
    let mut out: Vec<Vec<String>> = std::fs::read_dir(&games)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("kind.rs").is_file())
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            vec!["crate".to_string(), "games".to_string(), name]
        })
        .collect();
    out.sort();
    out
}

/// A segment that names a game's protocol wherever it appears.
const GAME_SEGMENTS: &[&str] = &["windward"];

fn sources(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        for entry in std::fs::read_dir(path).unwrap() {
            sources(&entry.unwrap().path(), out);
        }
    } else if path.extension().is_some_and(|e| e == "rs") {
        out.push(path.to_path_buf());
    }
}

/// The module path of the file `rel` (relative to the crate root): `src/a/b.rs` is
/// `crate::a::b`, `src/a/mod.rs` is `crate::a`.
fn module_of(rel: &Path) -> Vec<String> {
    let mut out = vec!["crate".to_string()];
    let parts: Vec<String> = rel
        .with_extension("")
        .components()
        .skip(1)
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    for (i, part) in parts.iter().enumerate() {
        let last = i + 1 == parts.len();
        if !(last && (part == "mod" || part == "lib" || part == "main")) {
            out.push(part.clone());
        }
    }
    out
}

/// Collects every path of a file, made absolute.
struct Paths {
    /// The module the visitor is in (the file's, plus inline modules).
    module: Vec<String>,
    /// (line, absolute path)
    found: Vec<(usize, Vec<String>)>,
}

impl Paths {
    /// `segments` as written, made absolute where it starts with `crate`, `self` or `super`
    /// (other paths are names in scope or external crates, kept as written).
    fn absolute(&self, segments: &[String]) -> Vec<String> {
        let mut module = self.module.clone();
        let mut rest = segments;
        match rest.first().map(String::as_str) {
            Some("crate") => return segments.to_vec(),
            Some("self") => rest = &rest[1..],
            Some("super") => {
                while rest.first().map(String::as_str) == Some("super") {
                    module.pop();
                    rest = &rest[1..];
                }
            }
            _ => return segments.to_vec(),
        }
        module.extend(rest.iter().cloned());
        module
    }

    fn note(&mut self, line: usize, segments: Vec<String>) {
        let path = self.absolute(&segments);
        self.found.push((line, path));
    }

    fn use_tree(&mut self, prefix: &mut Vec<String>, tree: &syn::UseTree, line: usize) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.use_tree(prefix, &p.tree, line);
                prefix.pop();
            }
            syn::UseTree::Name(n) => {
                let mut path = prefix.clone();
                if n.ident != "self" {
                    path.push(n.ident.to_string());
                }
                self.note(line, path);
            }
            syn::UseTree::Rename(r) => {
                let mut path = prefix.clone();
                path.push(r.ident.to_string());
                self.note(line, path);
            }
            syn::UseTree::Glob(_) => self.note(line, prefix.clone()),
            syn::UseTree::Group(g) => {
                for item in &g.items {
                    self.use_tree(prefix, item, line);
                }
            }
        }
    }
}

impl<'ast> Visit<'ast> for Paths {
    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        let line = item.use_token.span.start().line;
        self.use_tree(&mut Vec::new(), &item.tree, line);
    }

    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        self.module.push(item.ident.to_string());
        syn::visit::visit_item_mod(self, item);
        self.module.pop();
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let line = path
            .segments
            .first()
            .map_or(0, |s| s.ident.span().start().line);
        let segments = path.segments.iter().map(|s| s.ident.to_string()).collect();
        self.note(line, segments);
        syn::visit::visit_path(self, path);
    }
}

/// Whether `path` reaches into a game's own code.
fn names_a_game(path: &[String]) -> bool {
    game_modules()
        .iter()
        .any(|module| path.len() >= module.len() && module.iter().zip(path).all(|(m, p)| m == p))
        || path.iter().any(|s| GAME_SEGMENTS.contains(&s.as_str()))
}

/// The paths of the source `text` of file `rel` that name a game, as `line: path`.
fn violations(rel: &Path, text: &str) -> Vec<String> {
    let file = syn::parse_file(text).unwrap_or_else(|e| panic!("{}: {e}", rel.display()));
    let mut paths = Paths {
        module: module_of(rel),
        found: Vec::new(),
    };
    paths.visit_file(&file);
    paths
        .found
        .into_iter()
        .filter(|(_, path)| names_a_game(path))
        .map(|(line, path)| format!("{}:{line}: {}", rel.display(), path.join("::")))
        .collect()
}

#[test]
fn the_orchestrator_names_no_game_module() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files = orchestrator_sources(root);
    assert!(files.len() > 100, "found only {} sources", files.len());
    let mut found = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        found.extend(violations(file.strip_prefix(root).unwrap(), &text));
    }
    assert!(
        found.is_empty(),
        "the orchestrator reaches into a game (go through crate::games or play::series):\n{}",
        found.join("\n")
    );
}

/// The check itself works: every way of naming a game's module is found, the seam is not.
#[test]
fn the_check_finds_every_way_of_naming_a_game() {
    let file = Path::new("src/runner/example.rs");
    let caught = [
        "use crate::games::lrs::engine::Board;",
        "use crate::{games::lrs::engine::Board, games::GameKind};",
        "use crate::games::{lrs::engine::Board, GameKind};",
        "use crate::games::{lrs::kind::Lrs, GameKind};",
        "use super::super::games::robots;",
        "use crate::games::lrs::windward::*;",
        "fn f() { let _ = crate::games::robots::kind::Robots; }",
        "fn f() -> crate::games::lrs::ai::BuiltinAi { todo!() }",
        "mod inner { use super::super::super::games::lrs::boards::Board; }",
        "fn f() { crate::games::lrs::scenario::run_scenario_file(p); }",
    ];
    for text in caught {
        assert!(!violations(file, text).is_empty(), "missed: {text}");
    }
    let allowed = [
        "use crate::games::{Arena, GameKind, GameSettings};",
        "use crate::play::series::SeriesHost;",
        "use super::state::Mirror;",
        "fn f() { let _ = crate::games::GameKind::default(); }",
    ];
    for text in allowed {
        assert_eq!(violations(file, text), Vec::<String>::new(), "{text}");
    }
}

#[test]
fn every_registered_game_has_its_folder() {
    let folders: Vec<String> = game_modules().into_iter().map(|m| m[2].clone()).collect();
    let registered: Vec<String> = lrs_tourney::games::GameKind::all()
        .map(|k| k.id().to_string())
        .collect();
    for id in &registered {
        assert!(
            folders.contains(id),
            "game {id} has no folder src/games/{id}"
        );
    }
}

#[test]
fn module_paths_follow_the_files() {
    assert_eq!(
        module_of(Path::new("src/runner/mod.rs")),
        ["crate", "runner"]
    );
    assert_eq!(
        module_of(Path::new("src/store/read.rs")),
        ["crate", "store", "read"]
    );
}
