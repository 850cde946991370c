//! Defines the tournament report: a static site (index, bracket, wild cards, one page per
//! set, team and game) written from the database alone.
//!
//! Organisers post it or put it on a screen during the event, so it must open from
//! `file://` with no server and no network: every page carries its styles and its small
//! sorting script inline, the replay pages share the viewer's styles and script in
//! `viewer/`, and links are relative. Each file is written whole (a temporary
//! file renamed into place), so a screen refreshing while `report` runs again never shows
//! half a page.

mod bracket;
mod games;
mod html;
mod index;
mod set_page;
mod team_page;

use super::Snapshot;
use rayon::prelude::*;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use thiserror::Error;

pub use games::{ALL_REPLAYS_UP_TO, ReplayPages, StoredLogs};
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

/// The folder of the site that holds the styles and script every replay page shares.
pub const VIEWER_DIR: &str = "viewer/";

/// Writes the whole site into `out` (created if missing). `logs` holds the decision log of
/// every stored game of the current runs; `pages` says which of them get a replay page. The
/// pages publish no seed unless `reveal_seed` and the tournament is finished.
///
/// Every page's data comes from indexes built once ([`html::Context`]), and pages are
/// written in parallel: the time grows with the number of pages, not with pages times sets.
pub fn write_site(
    snap: &Snapshot,
    logs: &StoredLogs,
    out: &Path,
    generated: &str,
    reveal_seed: bool,
    pages: ReplayPages,
) -> Result<SiteSummary, SiteError> {
    let writer = Writer::new(out)?;
    let mut ctx = html::Context::new(snap, generated, reveal_seed);
    if pages != ReplayPages::None
        && let Some(viewer) = snap.tournament.game.game().viewer()
    {
        for (name, text) in crate::games::view::asset_files(&viewer) {
            writer.write(&format!("{VIEWER_DIR}{name}"), &text)?;
        }
    }
    ctx.replays = games::write_replays(&ctx, logs, pages, &writer)?;
    ctx.replay_pages = pages;
    let replay_count = ctx.replays.games.len();
    writer.write("index.html", &index::index_page(&ctx))?;
    writer.write("bracket.html", &bracket::bracket_page(&ctx))?;
    if ctx.has_wild_cards() {
        writer.write("wildcards.html", &index::wild_card_page(&ctx))?;
    }
    writer.write("schools.html", &bracket::schools_page(&ctx))?;
    snap.sets.par_iter().try_for_each(|set| {
        writer.write(&html::set_file(&set.id), &set_page::set_page(&ctx, set))
    })?;
    snap.teams.par_iter().try_for_each(|team| {
        writer.write(&html::team_file(team.id), &team_page::team_page(&ctx, team))
    })?;
    Ok(SiteSummary {
        pages: writer.pages.load(Ordering::Relaxed),
        replays: replay_count,
        bytes: writer.bytes.load(Ordering::Relaxed),
        index: out.join("index.html"),
    })
}

/// Writes files under one directory, each whole or not at all, from any thread.
pub struct Writer {
    root: PathBuf,
    pages: AtomicUsize,
    bytes: AtomicU64,
    made: Mutex<HashSet<PathBuf>>,
}

impl Writer {
    fn new(root: &Path) -> Result<Writer, SiteError> {
        std::fs::create_dir_all(root).map_err(|source| SiteError::Write {
            path: root.to_path_buf(),
            source,
        })?;
        Ok(Writer {
            root: root.to_path_buf(),
            pages: AtomicUsize::new(0),
            bytes: AtomicU64::new(0),
            made: Mutex::new(HashSet::new()),
        })
    }

    fn write(&self, rel: &str, text: &str) -> Result<(), SiteError> {
        let path = self.root.join(rel);
        let err = |source| SiteError::Write {
            path: path.clone(),
            source,
        };
        if let Some(dir) = path.parent() {
            let mut made = self.made.lock().unwrap_or_else(|e| e.into_inner());
            if !made.contains(dir) {
                std::fs::create_dir_all(dir).map_err(err)?;
                made.insert(dir.to_path_buf());
            }
        }
        let mut tmp = path.clone().into_os_string();
        tmp.push(".part");
        let tmp = PathBuf::from(tmp);
        std::fs::write(&tmp, text).map_err(err)?;
        std::fs::rename(&tmp, &path).map_err(err)?;
        if rel.ends_with(".html") {
            self.pages.fetch_add(1, Ordering::Relaxed);
        }
        self.bytes.fetch_add(text.len() as u64, Ordering::Relaxed);
        Ok(())
    }
}
