//! Every `lrs-tourney` command shown in the README, in docs/ and in the starter kits' READMEs
//! still works, so the documents cannot drift from the program:
//! - every command names a subcommand that exists, and every `--flag` it writes is one that
//!   subcommand takes (its `--help` lists it);
//! - every command that can run as written (its files are in the repository, no
//!   placeholders such as `FILE` or `NAME|PATH`; optional `[...]` parts left out) is run, in
//!   a copy of the repository's configs, brackets and examples, and must succeed. Commands
//!   that start a tournament run before the others of their document, since those read its
//!   database.
//!
//! What a command needs that no repository has (a PostgreSQL server on another machine, a
//! Windward client in `path/to/client`, a built Rust kit, a server waiting for clients) is
//! checked by its flags only.

mod common;

use common::{bin, repo};
use std::path::{Path, PathBuf};
use std::process::Command;

/// One command of a document.
#[derive(Debug, Clone)]
struct DocCommand {
    /// `README.md:15`.
    place: String,
    /// The words after `lrs-tourney`, comments and `[...]` parts removed.
    words: Vec<String>,
    /// Whether the text had a placeholder or optional part (it is then only checked).
    templated: bool,
    /// The error a transcript shows it ending with (`$ lrs-tourney ...` followed by
    /// `error: ...`): the command must fail with that message.
    error: Option<String>,
}

/// The markdown files that show commands.
fn documents() -> Vec<PathBuf> {
    let root = repo();
    let mut out = vec![root.join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    out.extend(docs);
    let mut kits: Vec<PathBuf> = std::fs::read_dir(root.join("examples/bots"))
        .unwrap()
        .map(|e| e.unwrap().path().join("README.md"))
        .filter(|p| p.is_file())
        .collect();
    kits.sort();
    out.extend(kits);
    out
}

/// Splits `line` into words like a shell: quotes group, a `#` outside quotes starts a
/// comment.
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quote: Option<char> = None;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.get_or_insert_with(String::new).push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                word.get_or_insert_with(String::new);
            }
            (None, '#') if word.is_none() => break,
            (None, c) if c.is_whitespace() => words.extend(word.take()),
            (None, c) => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    words
}

/// The commands of `doc`, in order.
fn commands_of(doc: &Path) -> Vec<DocCommand> {
    let text = std::fs::read_to_string(doc).unwrap();
    let name = doc.strip_prefix(repo()).unwrap().display().to_string();
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut in_block = false;
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i].trim();
        i += 1;
        if line.starts_with("```") {
            in_block = !in_block;
            continue;
        }
        let transcript = line.starts_with("$ ");
        let line = line.strip_prefix("$ ").unwrap_or(line);
        if !in_block || !line.starts_with("lrs-tourney ") {
            continue;
        }
        // A transcript's output runs to the next command or the end of the block.
        let error = transcript
            .then(|| {
                lines[i..]
                    .iter()
                    .map(|l| l.trim())
                    .take_while(|l| !l.starts_with("$ ") && !l.starts_with("```"))
                    .find(|l| l.starts_with("error: "))
                    .map(str::to_string)
            })
            .flatten();
        let place = format!("{name}:{i}");
        let mut full = line.to_string();
        while full.ends_with('\\') && i < lines.len() {
            full.pop();
            full.push(' ');
            full.push_str(lines[i].trim());
            i += 1;
        }
        // Optional parts are left out of the command that is run.
        let mut plain = String::new();
        let mut depth = 0;
        for c in full.chars() {
            match c {
                '[' => depth += 1,
                ']' if depth > 0 => depth -= 1,
                c if depth == 0 => plain.push(c),
                _ => {}
            }
        }
        let words: Vec<String> = shell_words(&plain).into_iter().skip(1).collect();
        let placeholder = |w: &String| {
            w.contains('|')
                || w.contains("...")
                || (w.len() > 1
                    && w.chars()
                        .all(|c| c.is_ascii_uppercase() || c == '.' || c == '_' || c == '-'))
                || w.starts_with("FILE")
                || w.starts_with("path/to/")
        };
        let templated = plain != full || words.iter().any(placeholder);
        out.push(DocCommand {
            place,
            words,
            templated,
            error,
        });
    }
    out
}

/// The `--flags` the help of `subcommand` lists (`export standings` is `export`: its
/// `what` is an argument).
fn flags_of(subcommand: &str) -> Result<Vec<String>, String> {
    let out = Command::new(bin())
        .args([subcommand, "--help"])
        .output()
        .unwrap();
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    let help = String::from_utf8_lossy(&out.stdout).into_owned();
    Ok(help
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .filter(|w| w.starts_with("--"))
        .map(str::to_string)
        .collect())
}

/// Whether `c` can run here as written: no placeholder, every input file it names exists
/// in `dir`, and nothing it needs lies outside the repository.
fn runnable(c: &DocCommand, dir: &Path) -> bool {
    if c.templated {
        return false;
    }
    let text = c.words.join(" ");
    if text.contains("postgres://") || c.words[0] == "serve" || text.contains("examples/bots/rust")
    {
        return false;
    }
    // An input a document only shows (a `cup.toml` written in the text) is not run.
    let mut outputs = false;
    for w in &c.words[1..] {
        if w == "--out" || w == "--html" || w == "--replay" {
            outputs = true;
            continue;
        }
        if !outputs
            && [".toml", ".csv", ".sqlite"].iter().any(|e| w.ends_with(e))
            && !dir.join(w).exists()
        {
            return false;
        }
        outputs = false;
    }
    true
}

/// A scratch copy of what the commands read.
fn scratch() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for sub in ["configs", "brackets", "examples"] {
        let out = Command::new("cp")
            .arg("-r")
            .arg(repo().join(sub))
            .arg(dir.path())
            .output()
            .unwrap();
        assert!(out.status.success(), "copying {sub}");
    }
    dir
}

/// Checks every command of the documents whose paths (from the repository's root) start
/// with one of `filters`; returns how many were run.
fn check_documents(filters: &[&str]) -> usize {
    let docs: Vec<PathBuf> = documents()
        .into_iter()
        .filter(|d| {
            let relative = d
                .strip_prefix(repo())
                .unwrap()
                .to_string_lossy()
                .into_owned();
            filters.iter().any(|f| relative.starts_with(f))
        })
        .collect();
    assert!(!docs.is_empty(), "no document matches {filters:?}");
    let mut problems = Vec::new();
    let mut ran = 0;
    for doc in docs {
        let commands = commands_of(&doc);
        let dir = scratch();
        // Runs first, so that the commands reading a database find it.
        let mut order: Vec<&DocCommand> = commands.iter().collect();
        order.sort_by_key(|c| !matches!(c.words.first().map(String::as_str), Some("run")));
        for c in order {
            let Some(first) = c.words.first() else {
                problems.push(format!("{}: no subcommand", c.place));
                continue;
            };
            match flags_of(first) {
                Err(e) => problems.push(format!("{}: `{first}` is no command: {e}", c.place)),
                Ok(flags) => {
                    for w in c.words.iter().filter(|w| w.starts_with("--")) {
                        let flag = w.split('=').next().unwrap_or(w);
                        if !flags.iter().any(|f| f == flag) {
                            problems.push(format!("{}: `{first}` takes no {flag}", c.place));
                        }
                    }
                }
            }
            if !runnable(c, dir.path()) {
                continue;
            }
            ran += 1;
            let out = Command::new(bin())
                .args(&c.words)
                .current_dir(dir.path())
                .output()
                .unwrap();
            if let Some(error) = &c.error {
                // The message's first words: what follows names sets and counts that depend
                // on the commands before it.
                let head: String = error.split(' ').take(4).collect::<Vec<_>>().join(" ");
                let stderr = String::from_utf8_lossy(&out.stderr);
                if out.status.success() || !stderr.contains(&head) {
                    problems.push(format!(
                        "{}: `lrs-tourney {}` should fail with {error:?} ({}):\n{stderr}",
                        c.place,
                        c.words.join(" "),
                        out.status
                    ));
                }
            } else if !out.status.success() {
                problems.push(format!(
                    "{}: `lrs-tourney {}` failed ({}):\n{}{}",
                    c.place,
                    c.words.join(" "),
                    out.status,
                    String::from_utf8_lossy(&out.stdout),
                    String::from_utf8_lossy(&out.stderr)
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    ran
}

#[test]
fn the_readme_commands_work() {
    assert!(check_documents(&["README.md"]) >= 15);
}

#[test]
fn the_docs_commands_work() {
    assert!(check_documents(&["docs/"]) >= 10);
}

#[test]
fn the_starter_kits_commands_work() {
    assert!(check_documents(&["examples/bots/"]) >= 6);
}

/// The extraction itself: a command with a placeholder is only checked, a plain one runs.
#[test]
fn commands_are_read_as_a_shell_reads_them() {
    assert_eq!(
        shell_words("play --bot 'jsonl:python3 bot.py' --games 10 # ten games"),
        ["play", "--bot", "jsonl:python3 bot.py", "--games", "10"]
    );
    let doc = tempfile::NamedTempFile::new_in(repo()).unwrap();
    std::fs::write(
        doc.path(),
        "```sh\nlrs-tourney run configs/school.toml\n$ lrs-tourney status FILE.toml|DB [--all]\n```\n\
         lrs-tourney outside a block\n",
    )
    .unwrap();
    let commands = commands_of(doc.path());
    assert_eq!(commands.len(), 2, "{commands:?}");
    assert_eq!(commands[0].words, ["run", "configs/school.toml"]);
    assert!(!commands[0].templated);
    assert_eq!(commands[1].words, ["status", "FILE.toml|DB"]);
    assert!(commands[1].templated);
}
