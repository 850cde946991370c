//! Defines the tournament report: a static site (index, bracket, wild cards, one page per
//! set, team and game) written from the database alone.
//!
//! Organisers post it or put it on a screen during the event, so it must open from
//! `file://` with no server and no network: every page carries its styles and its small
//! sorting script inline, and links are relative. Each file is written whole (a temporary
//! file renamed into place), so a screen refreshing while `report` runs again never shows
//! half a page.

mod bracket;
mod games;
mod html;
mod index;
mod set_page;
mod team_page;

use super::Snapshot;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use thiserror::Error;

pub use games::StoredLogs;
pub use html::decisive_final;

/// Why the report could not be written.
#[derive(Debug, Error)]
pub enum SiteError {
    #[error("{path}: cannot write: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{0}")]
    Replay(String),
}

/// What `report` wrote.
#[derive(Debug, Clone, Default)]
pub struct SiteSummary {
    pub pages: usize,
    pub replays: usize,
    pub bytes: u64,
    /// The index page.
    pub index: PathBuf,
}

/// Writes the whole site into `out` (created if missing). `logs` holds the decision log of
/// every stored game of the current runs, for the replays. The pages publish no seed
/// unless `reveal_seed` and the tournament is finished.
pub fn write_site(
    snap: &Snapshot,
    logs: &StoredLogs,
    out: &Path,
    generated: &str,
    reveal_seed: bool,
) -> Result<SiteSummary, SiteError> {
    let mut writer = Writer::new(out)?;
    let replays = games::replay_all(snap, logs)?;
    let ctx = html::Context::new(snap, generated, &replays, reveal_seed);
    writer.write("index.html", &index::index_page(&ctx))?;
    writer.write("bracket.html", &bracket::bracket_page(&ctx))?;
    if ctx.has_wild_cards() {
        writer.write("wildcards.html", &index::wild_card_page(&ctx))?;
    }
    writer.write("schools.html", &bracket::schools_page(&ctx))?;
    for set in &snap.sets {
        writer.write(&html::set_file(&set.id), &set_page::set_page(&ctx, set))?;
    }
    for team in &snap.teams {
        writer.write(&html::team_file(team.id), &team_page::team_page(&ctx, team))?;
    }
    let mut replay_count = 0;
    for (game, played) in &replays.games {
        let page = games::replay_page(&ctx, &game.set, game.index, played);
        writer.write(&html::replay_file(&game.set, game.index), &page)?;
        replay_count += 1;
    }
    Ok(SiteSummary {
        pages: writer.pages,
        replays: replay_count,
        bytes: writer.bytes,
        index: out.join("index.html"),
    })
}

/// Writes files under one directory, each whole or not at all.
struct Writer {
    root: PathBuf,
    pages: usize,
    bytes: u64,
    made: HashMap<PathBuf, ()>,
}

impl Writer {
    fn new(root: &Path) -> Result<Writer, SiteError> {
        std::fs::create_dir_all(root).map_err(|source| SiteError::Write {
            path: root.to_path_buf(),
            source,
        })?;
        Ok(Writer {
            root: root.to_path_buf(),
            pages: 0,
            bytes: 0,
            made: HashMap::new(),
        })
    }

    fn write(&mut self, rel: &str, text: &str) -> Result<(), SiteError> {
        let path = self.root.join(rel);
        let err = |source| SiteError::Write {
            path: path.clone(),
            source,
        };
        if let Some(dir) = path.parent()
            && !self.made.contains_key(dir)
        {
            std::fs::create_dir_all(dir).map_err(err)?;
            self.made.insert(dir.to_path_buf(), ());
        }
        let tmp = path.with_extension("html.part");
        std::fs::write(&tmp, text).map_err(err)?;
        std::fs::rename(&tmp, &path).map_err(err)?;
        self.pages += 1;
        self.bytes += text.len() as u64;
        Ok(())
    }
}
