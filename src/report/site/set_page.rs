//! Defines a set's page: its ranking with who advanced and why, a chart of each team's
//! score per game, and every game with its scores and a link to its replay.

use super::games::replay_href;
use super::html::{Context, heads, heads_of, num, page, tie_stat_cells, tie_stat_headings};
use crate::report::set_state;
use crate::report::viewer::escape;
use crate::store::{GameStatus, SetRow};
use crate::tourney::model::TeamId;
use std::collections::BTreeMap;
use std::fmt::Write;

/// Colours safe for the common colour-vision deficiencies (Okabe-Ito), with a dash pattern
/// each, so lines stay apart in print and in grey.
const LINES: [(&str, &str); 8] = [
    ("#E69F00", ""),
    ("#56B4E9", "6 3"),
    ("#009E73", "2 3"),
    ("#B8A000", "8 3 2 3"),
    ("#0072B2", "12 4"),
    ("#D55E00", "4 4"),
    ("#CC79A7", "1 2"),
    ("#444444", "10 3 2 3 2 3"),
];

pub fn set_page(ctx: &Context, set: &SetRow) -> String {
    let game = ctx.snap.tournament.game;
    let snap = ctx.snap;
    let mut body = String::new();
    let round = if set.is_final {
        "final".to_string()
    } else {
        format!("round {}", set.round)
    };
    let done = snap.games_done(&set.id);
    let planned = snap.games_planned(&set.id);
    let _ = write!(
        body,
        "<h1>{}</h1><p>{}, {round}: {} teams, {done} of {planned} games stored ({}){}.</p>",
        escape(set.id.as_str()),
        escape(&ctx.stage_name(&set.stage_id)),
        set.members.len(),
        set_state(snap, set),
        if set.run_no > 0 {
            format!("; replayed after a dispute, run {}", set.run_no)
        } else {
            String::new()
        }
    );
    let ranking = ctx.rankings.of(set);
    // Nobody advances from the tournament's last final: it only places its teams.
    let decisive = super::html::decisive_final(snap).is_some_and(|f| f.id == set.id);
    let _ = write!(
        body,
        "<table class=\"sortable\" id=\"set-ranking\"><caption>Ranking (series score, then \
         games won, {}, seeded draw)</caption>{}<tbody>",
        game.tie_steps()
            .iter()
            .map(|s| s.name.replace('_', " "))
            .collect::<Vec<_>>()
            .join(", "),
        heads_of(
            &["#Place", "Team", "#Score", "#Won"]
                .map(String::from)
                .into_iter()
                .chain(tie_stat_headings(game))
                .chain(["Result".to_string()])
                .collect::<Vec<_>>()
        )
    );
    for line in &ranking {
        let decider = line
            .decider
            .as_ref()
            .map(|d| d.describe(snap))
            .unwrap_or_default();
        let result = match (set.is_done(), line.advanced) {
            (false, _) => "playing".to_string(),
            (true, _) if decisive && line.place == 1 => "champion".to_string(),
            (true, _) if decisive => format!("{} place", crate::report::paths::ordinal(line.place)),
            (true, true) if decider.is_empty() => "advanced".to_string(),
            (true, true) => format!("advanced ({decider})"),
            (true, false) if !decider.is_empty() => format!("stopped ({decider})"),
            (true, false) => String::new(),
        };
        let _ = write!(
            body,
            "<tr{}>{}<td>{}</td>{}{}{}<td>{}</td></tr>",
            if line.marked_advancing(decisive) {
                " class=\"advanced\""
            } else {
                ""
            },
            num(line.place),
            ctx.team_link(line.team, 1),
            num(line.score),
            num(line.games_won),
            tie_stat_cells(game, &line.stats),
            escape(&result)
        );
    }
    body.push_str("</tbody></table>");

    // Scores per game, by team, from the stored result lines.
    let mut per_game: BTreeMap<u32, BTreeMap<TeamId, (i64, bool)>> = BTreeMap::new();
    for r in snap.results.get(&set.id).into_iter().flatten() {
        per_game
            .entry(r.game_index)
            .or_default()
            .insert(r.line.team, (r.line.outcome.score, r.line.outcome.won));
    }
    body.push_str(&chart(ctx, set, &per_game));

    let mut names: Vec<&str> = vec!["#Game", "Board"];
    let team_names: Vec<String> = set
        .members
        .iter()
        .map(|&t| format!("#{}", snap.team_name(t)))
        .collect();
    names.extend(team_names.iter().map(String::as_str));
    names.push("Replay");
    let _ = write!(
        body,
        "<table class=\"sortable\" id=\"games\"><caption>Games (bold: won the game)</caption>{}<tbody>",
        heads(&names)
    );
    for g in snap
        .games
        .iter()
        .filter(|g| g.set_id == set.id && !g.superseded)
    {
        let _ = write!(
            body,
            "<tr data-game=\"{}\">{}<td>{}</td>",
            g.game_index,
            num(g.game_index),
            escape(&g.arena)
        );
        let scores = per_game.get(&g.game_index);
        for t in &set.members {
            match scores.and_then(|s| s.get(t)) {
                Some((score, true)) => {
                    let _ = write!(body, "<td class=\"num\"><strong>{score}</strong></td>");
                }
                Some((score, false)) => body.push_str(&num(score)),
                None => body.push_str("<td></td>"),
            }
        }
        let link = match ctx.replays.get(&set.id, g.game_index) {
            Some(p) if p.problem().is_some() => format!(
                "<a href=\"{}\" class=\"bad\">does not replay</a>",
                replay_href(&set.id, g.game_index, 1)
            ),
            Some(_) => format!(
                "<a href=\"{}\">watch</a>",
                replay_href(&set.id, g.game_index, 1)
            ),
            None if g.status == GameStatus::Done && !ctx.replay_pages.includes(set) => {
                "no replay page (<code>report --replays all</code> writes it)".to_string()
            }
            None if g.status == GameStatus::Done => "no decisions stored".to_string(),
            None => "not played yet".to_string(),
        };
        let _ = write!(body, "<td>{link}</td></tr>");
    }
    body.push_str("</tbody></table>");
    page(ctx, set.id.as_str(), 1, &body)
}

/// Score per game for each team of the set, as an inline SVG line chart.
fn chart(
    ctx: &Context,
    set: &SetRow,
    per_game: &BTreeMap<u32, BTreeMap<TeamId, (i64, bool)>>,
) -> String {
    if per_game.is_empty() {
        return String::new();
    }
    let (w, h, left, bottom, top, right) = (720.0, 300.0, 48.0, 36.0, 12.0, 12.0);
    let games = per_game.keys().copied().max().unwrap_or(0) + 1;
    let scores = || per_game.values().flat_map(|m| m.values().map(|v| v.0));
    let max = scores().max().unwrap_or(0).max(1);
    let min = scores().min().unwrap_or(0).min(0);
    let x = |g: u32| left + (w - left - right) * f64::from(g) / f64::from((games - 1).max(1));
    let y = |s: i64| top + (h - top - bottom) * (1.0 - (s - min) as f64 / (max - min) as f64);
    let mut out = format!(
        "<h2>Score per game</h2><svg class=\"chart\" id=\"score-chart\" viewBox=\"0 0 {w} {h}\" role=\"img\" \
         aria-label=\"Score per game for each team of {}\" xmlns=\"http://www.w3.org/2000/svg\">",
        escape(set.id.as_str())
    );
    // Axes with a few labelled grid lines.
    for i in 0..=4 {
        let v = min + (max - min) * i / 4;
        let _ = write!(
            out,
            "<line x1=\"{left}\" x2=\"{}\" y1=\"{y0:.1}\" y2=\"{y0:.1}\" stroke=\"#ddd\"/><text x=\"{}\" y=\"{:.1}\" font-size=\"11\" text-anchor=\"end\">{v}</text>",
            w - right,
            left - 6.0,
            y(v) + 4.0,
            y0 = y(v)
        );
    }
    for g in 0..games {
        let _ = write!(
            out,
            "<text x=\"{:.1}\" y=\"{}\" font-size=\"11\" text-anchor=\"middle\">{g}</text>",
            x(g),
            h - bottom + 16.0
        );
    }
    let _ = write!(
        out,
        "<text x=\"{:.1}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\">game</text>",
        (left + w - right) / 2.0,
        h - 4.0
    );
    for (i, &team) in set.members.iter().enumerate() {
        let (colour, dash) = LINES[i % LINES.len()];
        let points: Vec<(u32, i64)> = per_game
            .iter()
            .filter_map(|(&g, m)| m.get(&team).map(|v| (g, v.0)))
            .collect();
        let path: Vec<String> = points
            .iter()
            .map(|&(g, s)| format!("{:.1},{:.1}", x(g), y(s)))
            .collect();
        let _ = write!(
            out,
            "<polyline fill=\"none\" stroke=\"{colour}\" stroke-width=\"2.5\" stroke-dasharray=\"{dash}\" points=\"{}\"/>",
            path.join(" ")
        );
        for &(g, s) in &points {
            let _ = write!(
                out,
                "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3.5\" fill=\"{colour}\" stroke=\"#000\" stroke-width=\"0.8\"><title>{}: game {g}, score {s}</title></circle>",
                x(g),
                y(s),
                escape(ctx.snap.team_name(team))
            );
        }
    }
    out.push_str("</svg><div class=\"legend\">");
    for (i, &team) in set.members.iter().enumerate() {
        let (colour, dash) = LINES[i % LINES.len()];
        let _ = write!(
            out,
            "<span><svg width=\"26\" height=\"8\" aria-hidden=\"true\"><line x1=\"0\" y1=\"4\" x2=\"26\" y2=\"4\" stroke=\"{colour}\" stroke-width=\"3\" stroke-dasharray=\"{dash}\"/></svg> {}</span>",
            escape(ctx.snap.team_name(team))
        );
    }
    out.push_str("</div>");
    out
}
