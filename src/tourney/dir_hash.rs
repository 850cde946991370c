//! A content hash of a bot's directory, stored with each team so that organisers can tell
//! afterwards exactly which version of a bot played.
//!
//! FNV-1a 64 over every regular file below the directory in sorted path order: the
//! relative path, a NUL byte, the length as 8 little-endian bytes, then the contents.
//! Symbolic links are not followed. Stable across machines and runs.

use super::bracket::fnv1a64;
use super::model::Bot;
use std::path::{Path, PathBuf};

/// The content hash of a command bot's folder now, of the absolute folder as the teams
/// table stores it; `None` for a built-in AI or a folder that cannot be read.
pub fn bot_code(bot: &Bot) -> Option<String> {
    let Bot::Command { program, .. } = bot else {
        return None;
    };
    let dir = std::fs::canonicalize(&program.dir).unwrap_or_else(|_| program.dir.clone());
    dir_hash(&dir).ok()
}

/// The hash of `dir`'s files, as 16 hex digits.
pub fn dir_hash(dir: &Path) -> std::io::Result<String> {
    let mut files = Vec::new();
    collect(dir, dir, &mut files)?;
    files.sort();
    let mut bytes = Vec::new();
    for rel in &files {
        let contents = std::fs::read(dir.join(rel))?;
        bytes.extend_from_slice(rel.to_string_lossy().as_bytes());
        bytes.push(0);
        bytes.extend_from_slice(&(contents.len() as u64).to_le_bytes());
        bytes.extend_from_slice(&contents);
    }
    Ok(format!("{:016x}", fnv1a64(&bytes)))
}

fn collect(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let kind = entry.file_type()?;
        let path = entry.path();
        if kind.is_dir() {
            collect(root, &path, out)?;
        } else if kind.is_file()
            && let Ok(rel) = path.strip_prefix(root)
        {
            out.push(rel.to_path_buf());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hash_follows_contents_and_names_only() {
        let a = tempfile::tempdir().unwrap();
        let b = tempfile::tempdir().unwrap();
        for d in [a.path(), b.path()] {
            std::fs::create_dir(d.join("src")).unwrap();
            std::fs::write(d.join("bot.py"), "print(1)\n").unwrap();
            std::fs::write(d.join("src/lib.py"), "x = 2\n").unwrap();
        }
        assert_eq!(dir_hash(a.path()).unwrap(), dir_hash(b.path()).unwrap());
        std::fs::write(b.path().join("src/lib.py"), "x = 3\n").unwrap();
        assert_ne!(dir_hash(a.path()).unwrap(), dir_hash(b.path()).unwrap());
    }
}
