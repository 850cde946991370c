//! Every document the source cites is in the repository: a `*.md` named in `src/` is
//! `docs/NAME.md`, `README.md` or `ARCHITECTURE.md`, and that file exists. A comment that
//! sends a reader to a file a clone lacks fails here.

use std::path::{Path, PathBuf};

fn sources(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        for entry in std::fs::read_dir(path).unwrap() {
            sources(&entry.unwrap().path(), out);
        }
    } else if path.extension().is_some_and(|e| e == "rs") {
        out.push(path.to_path_buf());
    }
}

/// The `.md` file names in `text`, with the path written before them (`docs/rules.md`).
fn cited(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, _) in text.match_indices(".md") {
        let end = i + 3;
        if text[end..]
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            continue;
        }
        let start = text[..i]
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || "-_/.".contains(c)))
            .map_or(0, |p| p + 1);
        out.push(text[start..end].to_string());
    }
    out
}

#[test]
fn the_source_cites_only_documents_of_the_repository() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    sources(&root.join("src"), &mut files);
    let mut wrong = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for name in cited(&text) {
            let ok =
                (name.starts_with("docs/") || name == "README.md" || name == "ARCHITECTURE.md")
                    && root.join(&name).is_file();
            if !ok {
                wrong.push(format!(
                    "{}: {name}",
                    file.strip_prefix(root).unwrap().display()
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "cited documents a clone lacks:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn citations_are_found() {
    assert_eq!(
        cited("see docs/rules.md, and (protocol-jsonl.md); not x.mdx"),
        ["docs/rules.md", "protocol-jsonl.md"]
    );
}
