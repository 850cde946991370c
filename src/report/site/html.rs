//! Defines the report's shared page frame, file names and small HTML helpers.
//!
//! One place decides where each page lives, so links between pages cannot disagree with
//! the files written.

use super::games::{ReplayPages, Replays};
use crate::games::{GameKind, Stats};
use crate::report::Snapshot;
use crate::report::paths::{self, TeamPath};
use crate::report::viewer::escape;
use crate::store::{ResultRow, SetRow};
use crate::tourney::model::{SetId, StageId, TeamId};
use std::collections::HashMap;
use std::fmt::Write;

const CSS: &str = include_str!("site.css");
const SORT_JS: &str = include_str!("sort.js");

/// Everything the page builders share, with the indexes built once for all pages (sets in
/// bracket order, each team's result lines) so that no page scans the whole tournament.
pub struct Context<'a> {
    pub snap: &'a Snapshot,
    pub generated: &'a str,
    /// The games with a replay page, checked (empty until they are written).
    pub replays: Replays,
    pub paths: Vec<TeamPath>,
    /// Which games got a replay page.
    pub replay_pages: ReplayPages,
    /// Each stage's sets, in bracket order.
    stage_sets: HashMap<&'a StageId, Vec<&'a SetRow>>,
    /// Each team's result lines of the current runs, in bracket order.
    team_lines: HashMap<TeamId, Vec<(&'a SetRow, &'a ResultRow)>>,
    /// Every set's ranking, from the draw and counts computed once.
    pub rankings: paths::SetRankings<'a>,
    /// Whether the decisive final is played: the tournament is over.
    pub complete: bool,
    /// Whether the pages publish the tournament's secret seed and every game's seed
    /// (`report --reveal-seed`, on a finished tournament only).
    pub reveal_seed: bool,
}

impl<'a> Context<'a> {
    /// Whether the tournament has nationals, and so wild cards to show (one school has
    /// neither: its report has no wild-card page).
    pub fn has_wild_cards(&self) -> bool {
        self.snap.schools.len() >= 2
    }

    pub fn new(snap: &'a Snapshot, generated: &'a str, reveal_seed: bool) -> Context<'a> {
        let complete = decisive_final(snap).is_some_and(SetRow::is_done);
        let stage_pos: HashMap<&StageId, usize> = snap
            .stages
            .iter()
            .enumerate()
            .map(|(i, s)| (&s.id, i))
            .collect();
        // Sets in bracket order: stages as stored (schools, then nationals), rounds, sets.
        let mut sets: Vec<&SetRow> = snap.sets.iter().collect();
        sets.sort_by_key(|s| {
            (
                stage_pos.get(&s.stage_id).copied().unwrap_or(usize::MAX),
                s.round,
                s.is_final,
                s.set_index,
            )
        });
        let mut stage_sets: HashMap<&StageId, Vec<&SetRow>> = HashMap::new();
        let mut team_lines: HashMap<TeamId, Vec<(&SetRow, &ResultRow)>> = HashMap::new();
        for &set in &sets {
            stage_sets.entry(&set.stage_id).or_default().push(set);
            for r in snap.results.get(&set.id).into_iter().flatten() {
                team_lines.entry(r.line.team).or_default().push((set, r));
            }
        }
        let rankings = paths::SetRankings::new(snap);
        Context {
            snap,
            generated,
            replays: Replays::default(),
            replay_pages: ReplayPages::None,
            stage_sets,
            team_lines,
            paths: paths::paths_of_teams(&rankings),
            rankings,
            complete,
            reveal_seed: reveal_seed && complete,
        }
    }

    /// What the pages say of the tournament's seed: its commitment, and the secret once
    /// revealed.
    pub fn seed_text(&self) -> String {
        let seed = &self.snap.tournament.seed;
        if self.reveal_seed {
            format!(
                "{} (revealed; its SHA-256 is the commitment {})",
                seed.secret(),
                seed.commitment()
            )
        } else {
            format!(
                "commitment (SHA-256) {} (the seed is secret unless the tournament file writes it)",
                seed.commitment()
            )
        }
    }

    /// A stage's sets, in bracket order.
    pub fn sets_of_stage(&self, stage: &StageId) -> &[&'a SetRow] {
        self.stage_sets.get(stage).map_or(&[], Vec::as_slice)
    }

    /// A team's result lines of the current runs, with their sets, in bracket order.
    pub fn lines_of(&self, team: TeamId) -> &[(&'a SetRow, &'a ResultRow)] {
        self.team_lines.get(&team).map_or(&[], Vec::as_slice)
    }

    /// A link to a team's page from a page `depth` folders down.
    pub fn team_link(&self, team: TeamId, depth: usize) -> String {
        format!(
            "<a href=\"{}{}\">{}</a>",
            up(depth),
            team_file(team),
            escape(self.snap.team_name(team))
        )
    }

    pub fn set_link(&self, set_id: &SetId, depth: usize) -> String {
        format!(
            "<a href=\"{}{}\">{}</a>",
            up(depth),
            set_file(set_id),
            escape(set_id.as_str())
        )
    }

    /// A stage's display name: the school's name (stage ids are school slugs), or
    /// "Nationals".
    pub fn stage_name(&self, stage_id: &StageId) -> String {
        if stage_id.is_nationals() {
            return "Nationals".to_string();
        }
        self.snap
            .schools
            .iter()
            .find(|s| *stage_id == s.slug.as_str())
            .map_or_else(|| stage_id.to_string(), |s| s.name.clone())
    }
}

/// The final that decides the tournament (see [`crate::store::decisive_final`]).
pub fn decisive_final(snap: &Snapshot) -> Option<&SetRow> {
    crate::store::decisive_final(&snap.sets, snap.schools.len())
}

/// `../` once per folder level.
pub fn up(depth: usize) -> String {
    "../".repeat(depth)
}

/// A set id as a file name: set ids are slugs joined by `/`, so `_` cannot clash.
fn flat(set_id: &SetId) -> String {
    set_id.as_str().replace('/', "_")
}

pub fn set_file(set_id: &SetId) -> String {
    format!("sets/{}.html", flat(set_id))
}

pub fn team_file(team: TeamId) -> String {
    format!("teams/team-{team}.html")
}

pub fn replay_file(set_id: &SetId, game: u32) -> String {
    format!("replays/{}_game-{game}.html", flat(set_id))
}

/// A whole page: head (styles inline, no network), the site's header, `body`, the sort
/// script. `refresh` adds a reload every minute, for screens during a running event.
pub fn page(ctx: &Context, title: &str, depth: usize, body: &str) -> String {
    let u = up(depth);
    let refresh = if ctx.complete {
        String::new()
    } else {
        "<meta http-equiv=\"refresh\" content=\"60\">\n".to_string()
    };
    let mut out = String::with_capacity(body.len() + CSS.len() + 2048);
    let _ = write!(
        out,
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:\">\n\
         {refresh}<title>{title} · {name}</title>\n<style>{CSS}</style>\n</head>\n<body>\n\
         <header class=\"site\"><span class=\"name\">{name}</span>\
         <nav><a href=\"{u}index.html\">Results</a><a href=\"{u}bracket.html\">Bracket</a>\
         {wild}<a href=\"{u}schools.html\">Schools (print)</a></nav>\
         <span class=\"muted\">stored results as of {generated}</span></header>\n<main>\n{body}\n</main>\n\
         <script>{SORT_JS}</script>\n</body>\n</html>\n",
        title = escape(title),
        name = escape(&ctx.snap.tournament.name),
        wild = if ctx.has_wild_cards() {
            format!("<a href=\"{}wildcards.html\">Wild cards</a>", up(depth))
        } else {
            String::new()
        },
        generated = escape(ctx.generated),
    );
    out
}

/// A numeric cell.
pub fn num(v: impl std::fmt::Display) -> String {
    format!("<td class=\"num\">{v}</td>")
}

/// Header cells; names starting with `#` are numeric columns.
pub fn heads(names: &[&str]) -> String {
    let mut out = String::from("<thead><tr>");
    for n in names {
        match n.strip_prefix('#') {
            Some(n) => {
                let _ = write!(out, "<th scope=\"col\" class=\"num\">{}</th>", escape(n));
            }
            None => {
                let _ = write!(out, "<th scope=\"col\">{}</th>", escape(n));
            }
        }
    }
    out.push_str("</tr></thead>");
    out
}

/// A statistic's numeric column heading: `push_kills` is `#Push kills`.
pub fn stat_heading(name: &str) -> String {
    let mut words = name.replace('_', " ");
    if let Some(first) = words.get(..1) {
        let upper = first.to_uppercase();
        words.replace_range(..1, &upper);
    }
    format!("#{words}")
}

/// The headings of the statistics a game breaks ties on (Last Robot Standing: flags,
/// deaths), in chain order.
pub fn tie_stat_headings(game: GameKind) -> Vec<String> {
    game.tie_steps()
        .iter()
        .map(|s| stat_heading(game.statistics()[s.stat]))
        .collect()
}

/// The cells of [`tie_stat_headings`] for `stats`.
pub fn tie_stat_cells(game: GameKind, stats: &Stats) -> String {
    game.tie_steps()
        .iter()
        .map(|s| num(stats.get(s.stat)))
        .collect()
}

/// The headings of all of a game's statistics.
pub fn stat_headings(game: GameKind) -> Vec<String> {
    game.statistics().iter().map(|n| stat_heading(n)).collect()
}

/// The cells of [`stat_headings`] for `stats`.
pub fn stat_cells(game: GameKind, stats: &Stats) -> String {
    stats
        .values(game.statistics().len())
        .iter()
        .map(num)
        .collect()
}

/// `heads` over owned names.
pub fn heads_of(names: &[String]) -> String {
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    heads(&refs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_of_distinct_sets_differ() {
        let id = SetId::new;
        assert_eq!(
            set_file(&id("westfield-high/r1/s2")),
            "sets/westfield-high_r1_s2.html"
        );
        assert_ne!(set_file(&id("a/final")), set_file(&id("a-final")));
        assert_eq!(
            replay_file(&id("nationals/final"), 3),
            "replays/nationals_final_game-3.html"
        );
    }
}
