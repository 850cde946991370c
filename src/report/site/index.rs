//! Defines the report's index (champion, final ranking, progress) and wild-card pages.

use super::html::{Context, heads, heads_of, num, page, stat_heading};
use crate::report::paths::wild_card_table;
use crate::report::standings;
use crate::report::viewer::escape;
use std::fmt::Write;

pub fn index_page(ctx: &Context) -> String {
    let game = ctx.snap.tournament.game;
    let snap = ctx.snap;
    let mut body = String::new();
    let _ = write!(body, "<h1>{}</h1>", escape(&snap.tournament.name));
    let planned = snap.games.iter().filter(|g| !g.superseded).count();
    let done = snap.games.iter().filter(|g| g.is_current_result()).count();
    let rows = standings(snap);
    if ctx.complete {
        if let Some(first) = rows.first() {
            let link = ctx.team_link(first.team_id, 0);
            let _ = write!(
                body,
                "<p class=\"champion\" id=\"champion\">Champion: <strong>{link}</strong> ({})</p>",
                escape(&first.school)
            );
        }
    } else {
        let _ = write!(
            body,
            "<p class=\"live\" id=\"progress\">In progress: {done} of {planned} planned games \
             stored. This page reloads every minute; run <code>lrs-tourney report</code> again \
             to refresh it.</p>"
        );
    }
    let problems = ctx.replays.problems();
    if !problems.is_empty() {
        let _ = write!(
            body,
            "<div class=\"verdict bad\" id=\"problems\"><strong>{} stored game(s) do not \
             replay to their stored scores</strong> (another engine version, or a damaged \
             database):<ul>",
            problems.len()
        );
        for (game, why) in problems.iter().take(20) {
            let _ = write!(
                body,
                "<li>{} game {}: {}</li>",
                ctx.set_link(&game.set, 0),
                game.index,
                escape(why)
            );
        }
        body.push_str("</ul></div>");
    }
    let _ = write!(
        body,
        "<p>{} teams from {} school(s); {} sets. See the <a href=\"bracket.html\">bracket</a>, \
         {}the <a href=\"schools.html\">printable results per school</a>.</p>",
        snap.teams.len(),
        snap.schools.len(),
        snap.sets.len(),
        if ctx.has_wild_cards() {
            "the <a href=\"wildcards.html\">wild cards</a> and "
        } else {
            ""
        }
    );
    let _ = write!(
        body,
        "<table class=\"sortable\" id=\"ranking\"><caption>{} (click a column to sort)</caption>{}<tbody>",
        if ctx.complete {
            "Final ranking"
        } else {
            "Ranking so far"
        },
        heads_of(&[
            "#Rank".to_string(),
            "Team".to_string(),
            "School".to_string(),
            "Set reached".to_string(),
            "#Score".to_string(),
            "#Total".to_string(),
            "#Games".to_string(),
            "#Won".to_string(),
            stat_heading(game.statistics()[game.headline_stat()]),
            "#Faults".to_string(),
            "How".to_string(),
        ])
    );
    for r in &rows {
        let reached = match &r.set_reached {
            None => escape(&r.stage_reached),
            Some(set) => ctx.set_link(set, 0),
        };
        let _ = write!(
            body,
            "<tr data-team=\"{}\"><td class=\"num\">{}</td><td>{}</td><td>{}</td><td>{reached}</td>{}{}{}{}{}{}<td>{}</td></tr>",
            r.team_id,
            r.rank,
            ctx.team_link(r.team_id, 0),
            escape(&r.school),
            r.ranked_score.map_or_else(|| "<td></td>".to_string(), num),
            num(r.total_score),
            num(r.games_played),
            num(r.games_won),
            num(r.stats.stats.get(game.headline_stat())),
            num(r.faults),
            escape(&r.how),
        );
    }
    body.push_str("</tbody></table>");
    body.push_str(
        "<p class=\"muted\">Score: the team's series score in the set it reached (what the \
         ranking uses, after the stage and round reached). Total: every game it played.</p>",
    );
    // The commitment lets anyone check the seed once it is revealed; the seed itself
    // appears only then (docs/determinism.md).
    let _ = write!(
        body,
        "<p class=\"muted\" id=\"seed\">Tournament seed: {}</p>",
        escape(&ctx.seed_text())
    );
    page(ctx, "Results", 0, &body)
}

pub fn wild_card_page(ctx: &Context) -> String {
    let table = wild_card_table(ctx.snap);
    let mut body = String::from("<h1>Wild cards</h1>");
    if table.is_empty() {
        body.push_str(
            "<p id=\"no-wildcards\">No wild cards: this tournament has no nationals, or its \
             qualifiers already fill the nationals to a multiple of the set size.</p>",
        );
        return page(ctx, "Wild cards", 0, &body);
    }
    let selected = table.iter().filter(|c| c.selected).count();
    let _ = write!(
        body,
        "<p>The nationals take every school's qualifiers, then fill up to a multiple of the set \
         size with the best other teams by school-stage total: {selected} wild card(s) from {} \
         candidates.</p>",
        table.len()
    );
    let _ = write!(
        body,
        "<table class=\"sortable\" id=\"wildcards\"><caption>Every wild-card candidate, in rank order</caption>{}<tbody>",
        heads(&[
            "#Rank",
            "Team",
            "School",
            "#School-stage total",
            "Wild card",
            "Decided by"
        ])
    );
    for c in &table {
        let decider = c
            .decider
            .as_ref()
            .map_or_else(String::new, |d| escape(&d.describe(ctx.snap)));
        let _ = write!(
            body,
            "<tr{}><td class=\"num\">{}</td><td>{}</td><td>{}</td>{}<td>{}</td><td>{decider}</td></tr>",
            if c.selected {
                " class=\"advanced\""
            } else {
                ""
            },
            c.rank,
            ctx.team_link(c.team, 0),
            escape(&c.school),
            num(c.school_total),
            if c.selected {
                "<span class=\"tag wild\">wild card</span>"
            } else {
                "no"
            },
        );
    }
    body.push_str("</tbody></table>");
    page(ctx, "Wild cards", 0, &body)
}
