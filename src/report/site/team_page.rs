//! Defines a team's page: its path through the bracket, every game it played with its
//! faults, and the audit record (its bot's command and content hash, the engine version).

use super::games::{fault_text, replay_href};
use super::html::{Context, heads, heads_of, num, page, stat_cells, stat_headings};
use crate::report::paths::Outcome;
use crate::report::paths::ordinal;
use crate::report::viewer::escape;
use crate::store::TeamRow;
use std::collections::BTreeMap;
use std::fmt::Write;

pub fn team_page(ctx: &Context, team: &TeamRow) -> String {
    let snap = ctx.snap;
    let mut body = String::new();
    let path = ctx.paths.get(team.id.index());
    let _ = write!(
        body,
        "<h1>{}</h1><p>{} · {}</p>",
        escape(&team.name),
        escape(snap.school_of(team.id)),
        path.map_or_else(String::new, |p| escape(&p.how))
    );

    if let Some(path) = path {
        let _ = write!(
            body,
            "<table id=\"path\"><caption>Path through the bracket</caption>{}<tbody>",
            heads(&["Set", "#Place", "#Score", "#Games", "Result"])
        );
        for s in &path.sets {
            let decider = s
                .decider
                .as_ref()
                .map(|d| format!(" ({})", d.describe(snap)))
                .unwrap_or_default();
            let result = match s.outcome {
                Outcome::Playing => "playing".to_string(),
                Outcome::Advanced => format!("advanced{decider}"),
                Outcome::Eliminated => format!("out{decider}"),
                Outcome::Champion => "champion".to_string(),
                Outcome::Finalist => format!("{} in the final", ordinal(s.place)),
            };
            let _ = write!(
                body,
                "<tr><td>{}</td><td class=\"num\">{} of {}</td>{}<td class=\"num\">{}/{}</td><td>{}</td></tr>",
                ctx.set_link(&s.set_id, 1),
                ordinal(s.place),
                s.of,
                num(s.score),
                s.games_done,
                s.games_planned,
                escape(&result)
            );
        }
        body.push_str("</tbody></table>");
    }

    // Every game, from the stored result lines of the current runs.
    let rows = ctx.lines_of(team.id);
    let mut all_faults: BTreeMap<&'static str, u32> = BTreeMap::new();
    let _ = write!(
        body,
        "<table class=\"sortable\" id=\"team-games\"><caption>Every game</caption>{}<tbody>",
        heads_of(
            &["Set", "#Game", "#Seat", "#Score"]
                .map(String::from)
                .into_iter()
                .chain(stat_headings(ctx.snap.tournament.game))
                .chain(["#Faults", "Fault kinds", "Won", "Replay"].map(String::from))
                .collect::<Vec<_>>()
        )
    );
    for &(set, r) in rows {
        let played = ctx.replays.get(&set.id, r.game_index);
        let kinds = played.map(|p| p.faults_of(r.line.seat)).unwrap_or_default();
        for (k, n) in &kinds {
            *all_faults.entry(k).or_insert(0) += n;
        }
        let link = if played.is_some() {
            format!(
                "<a href=\"{}#turn=0\">watch</a>",
                replay_href(&set.id, r.game_index, 1)
            )
        } else {
            String::new()
        };
        let _ = write!(
            body,
            "<tr><td>{}</td>{}{}{}{}{}<td>{}</td><td>{}</td><td>{link}</td></tr>",
            ctx.set_link(&set.id, 1),
            num(r.game_index),
            num(r.line.seat),
            num(r.line.outcome.score),
            stat_cells(ctx.snap.tournament.game, &r.line.outcome.stats),
            num(r.line.outcome.faults),
            escape(&fault_text(&kinds)),
            if r.line.outcome.won { "won" } else { "" }
        );
    }
    body.push_str("</tbody></table>");
    let _ = write!(
        body,
        "<p id=\"faults\">Faults in all games: {}.</p>",
        if all_faults.is_empty() {
            "none".to_string()
        } else {
            escape(&fault_text(&all_faults))
        }
    );

    let _ = write!(
        body,
        "<h2>Audit record</h2><table id=\"audit\"><tbody>\
         <tr><th scope=\"row\">Bot</th><td><code>{}</code></td></tr>",
        escape(&team.bot)
    );
    if let Some(dir) = &team.dir {
        let _ = write!(
            body,
            "<tr><th scope=\"row\">Directory</th><td><code>{}</code></td></tr>",
            escape(dir)
        );
    }
    let _ = write!(
        body,
        "<tr><th scope=\"row\">Content hash</th><td><code id=\"content-hash\">{}</code></td></tr>\
         <tr><th scope=\"row\">Engine version</th><td id=\"engine-version\">{}</td></tr>\
         <tr><th scope=\"row\">Tournament seed</th><td id=\"seed\">{}</td></tr></tbody></table>",
        team.content_hash
            .as_deref()
            .map_or_else(|| "none (a built-in AI)".to_string(), escape),
        snap.tournament.engine_version,
        escape(&ctx.seed_text())
    );
    page(ctx, &team.name, 1, &body)
}
