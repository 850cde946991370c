//! Defines the bracket diagram (every stage, round by round, each set a box with its teams
//! and who advanced and why) and the printable results per school.

use super::html::{Context, heads_of, num, page, tie_stat_cells, tie_stat_headings};
use crate::report::paths::SetLine;
use crate::report::paths::ordinal;
use crate::report::status::set_state;
use crate::report::viewer::escape;
use crate::store::{SetRow, StageRow, StageStatus};
use crate::tourney::model::StageId;
use std::fmt::Write;

/// The sets of one stage grouped by round, in order (the final last).
fn rounds_of<'a>(ctx: &Context<'a>, stage: &StageId) -> Vec<Vec<&'a SetRow>> {
    let mut rounds: Vec<Vec<&SetRow>> = Vec::new();
    let mut key = None;
    for &set in ctx.sets_of_stage(stage) {
        let k = (set.round, set.is_final);
        if key != Some(k) {
            rounds.push(Vec::new());
            key = Some(k);
        }
        if let Some(last) = rounds.last_mut() {
            last.push(set);
        }
    }
    rounds
}

/// One set as a box: its teams in ranking order, the advancing ones marked with why.
pub fn set_box(ctx: &Context, set: &SetRow, depth: usize) -> String {
    let ranking = ctx.rankings.of(set);
    let done = ctx.snap.games_done(&set.id);
    let planned = ctx.snap.games_planned(&set.id);
    let state = set_state(ctx.snap, set);
    let mut out = format!(
        "<div class=\"setbox\" data-set=\"{}\"><div class=\"title\">{}<span class=\"muted\">{}</span></div><ol>",
        escape(set.id.as_str()),
        ctx.set_link(&set.id, depth),
        if state == StageStatus::Done {
            format!("{done} games")
        } else {
            format!("{state} {done}/{planned}")
        }
    );
    let decisive = super::html::decisive_final(ctx.snap).is_some_and(|f| f.id == set.id);
    // Round 1 of the nationals says where each team came from.
    let first_nationals = set.stage_id.is_nationals() && set.round == 1;
    for line in &ranking {
        let entry = if first_nationals {
            ctx.paths
                .get(line.team.index())
                .and_then(|p| p.nationals_entry.as_ref())
                .map(|e| {
                    let class = if matches!(e, crate::report::paths::Entry::WildCard { .. }) {
                        "tag wild"
                    } else {
                        "tag"
                    };
                    format!(
                        " <span class=\"{class}\">{}</span>",
                        escape(&e.describe(ctx.snap, line.team))
                    )
                })
                .unwrap_or_default()
        } else {
            String::new()
        };
        let _ = write!(
            out,
            "<li{}>{} <span class=\"muted\">{}</span>{entry}{}</li>",
            if line.marked_advancing(decisive) {
                " class=\"adv\""
            } else {
                ""
            },
            ctx.team_link(line.team, depth),
            line.score,
            line_reason(ctx, set, line, decisive)
        );
    }
    out.push_str("</ol></div>");
    out
}

/// Why a line advanced, or what stopped it at the cut.
fn line_reason(ctx: &Context, set: &SetRow, line: &SetLine, decisive: bool) -> String {
    if !set.is_done() {
        return String::new();
    }
    if decisive {
        // Nobody advances from the last final: it only places its teams.
        return if line.place == 1 {
            "<span class=\"why\">champion</span>".to_string()
        } else {
            format!(
                "<span class=\"muted\"> ({} place)</span>",
                ordinal(line.place)
            )
        };
    }
    let decider = line
        .decider
        .as_ref()
        .map(|d| d.describe(ctx.snap))
        .unwrap_or_default();
    if line.advanced {
        let how = if decider.is_empty() {
            format!("advanced: {}", ordinal(line.place))
        } else {
            format!("advanced: {}, {}", ordinal(line.place), decider)
        };
        format!("<span class=\"why\">{}</span>", escape(&how))
    } else if !decider.is_empty() {
        format!("<span class=\"stop\">stopped: {}</span>", escape(&decider))
    } else {
        String::new()
    }
}

pub fn bracket_page(ctx: &Context) -> String {
    let mut body = String::from(
        "<h1>Bracket</h1><p>Each box is a set; its teams are listed in ranking order; \
         <strong>bold</strong> teams advanced, with the reason. Set names link to the games. \
         The nationals come first; each school's stage follows, in the order of the roster.</p>",
    );
    // The nationals first: it is what most visitors look for, and its first round says
    // which school final or wild card each team came from.
    let mut stages: Vec<&StageId> = ctx.snap.stages.iter().map(|s| &s.id).collect();
    stages.sort_by_key(|id| !id.is_nationals());
    for stage in stages {
        let name = ctx.stage_name(stage);
        let rounds = rounds_of(ctx, stage);
        if rounds.is_empty() {
            continue;
        }
        let _ = write!(
            body,
            "<section class=\"stage\" id=\"stage-{}\"><h2>{}</h2><div class=\"bracket\">",
            escape(stage.as_str()),
            escape(&name)
        );
        for (i, sets) in rounds.iter().enumerate() {
            if i > 0 {
                body.push_str("<div class=\"arrow\" aria-hidden=\"true\">&#x2192;</div>");
            }
            let label = if sets[0].is_final {
                "Final".to_string()
            } else {
                format!("Round {}", sets[0].round)
            };
            let _ = write!(body, "<div class=\"round\"><h3>{label}</h3>");
            for set in sets {
                body.push_str(&set_box(ctx, set, 0));
            }
            body.push_str("</div>");
        }
        body.push_str("</div></section>");
    }
    page(ctx, "Bracket", 0, &body)
}

/// Results to hand out: one printed page per school, each of its sets as a table.
pub fn schools_page(ctx: &Context) -> String {
    let mut body = String::from(
        "<h1 class=\"noprint\">Results per school</h1><p class=\"noprint\">Print this page: \
         each school starts on a new sheet.</p>",
    );
    for StageRow { id: stage, .. } in &ctx.snap.stages {
        let name = ctx.stage_name(stage);
        let sets = ctx.sets_of_stage(stage);
        if sets.is_empty() {
            continue;
        }
        let _ = write!(
            body,
            "<section class=\"school\"><h2>{} — {}</h2>",
            escape(&ctx.snap.tournament.name),
            escape(&name)
        );
        for set in sets {
            let _ = write!(
                body,
                "<table><caption>{} ({})</caption>{}<tbody>",
                escape(set.id.as_str()),
                set_state(ctx.snap, set),
                heads_of(
                    &["#Place", "Team", "#Score", "#Won"]
                        .map(String::from)
                        .into_iter()
                        .chain(tie_stat_headings(ctx.snap.tournament.game))
                        .chain(["Advanced".to_string()])
                        .collect::<Vec<_>>()
                )
            );
            for line in ctx.rankings.of(set) {
                let _ = write!(
                    body,
                    "<tr{}>{}<td>{}</td>{}{}{}<td>{}</td></tr>",
                    if line.advanced {
                        " class=\"advanced\""
                    } else {
                        ""
                    },
                    num(line.place),
                    escape(ctx.snap.team_name(line.team)),
                    num(line.score),
                    num(line.games_won),
                    tie_stat_cells(ctx.snap.tournament.game, &line.stats),
                    if line.advanced { "yes" } else { "" }
                );
            }
            body.push_str("</tbody></table>");
        }
        body.push_str("</section>");
    }
    page(ctx, "Results per school", 0, &body)
}
