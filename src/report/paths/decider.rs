//! The step of the tie-break chain that separated two teams, with both teams' values.
//!
//! Reports say why a team advanced or stopped with the numbers that decided it, not just
//! the name of the step; this reads those numbers off the same chain the bracket ranks by
//! ([`compare`]), so they always agree with the stored advancement.

use crate::games::GameKind;
use crate::report::Snapshot;
use crate::tourney::bracket::{Ranked, Separation, SeriesTotals, TieDraw, compare};
use crate::tourney::model::{TeamId, TieBreak};
use serde::Serialize;

/// The step that separated two neighbouring teams, with both teams' values.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Decider {
    /// `score`, `games_won`, one of the game's steps (`flags`, `fewer_deaths`, `kills`...)
    /// or `seeded_draw`: the names the store uses for tie-break steps, plus `score` when the
    /// score alone decided.
    pub step: String,
    /// Our value at that step (for the seeded draw, our draw value: the lower ranks first).
    pub ours: String,
    /// The other team's value at that step.
    pub theirs: String,
    pub other_team: TeamId,
    /// Whether our team ranks above the other one.
    pub ahead: bool,
    /// The steps before `step`, on which both teams are equal.
    pub tied: Vec<Tied>,
    /// The step as the bracket ranks by it (what the store records).
    #[serde(skip)]
    separation: Separation,
}

/// A step of the chain on which two teams are equal, with their common value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Tied {
    /// The step's stored name (`score`, `games_won`, `flags`, ...).
    pub step: String,
    pub value: String,
}

/// The steps before the draw, with a team's value at each: score, games won, then the
/// game's own steps.
fn values(t: &SeriesTotals, draw: &TieDraw) -> Vec<(&'static str, String)> {
    let mut v = vec![
        ("score", t.score.to_string()),
        ("games_won", t.games_won.to_string()),
    ];
    v.extend(
        draw.steps()
            .iter()
            .map(|step| (step.name, t.stats.get(step.stat).to_string())),
    );
    v
}

/// How a step reads in a sentence (`fewer_deaths` reads `deaths`).
fn label(step: &str) -> &str {
    match step {
        "games_won" => "games won",
        "seeded_draw" => "seeded draw",
        other => GameKind::all()
            .flat_map(|k| k.tie_steps())
            .find(|s| s.name == other)
            .map_or(other, |s| s.noun),
    }
}

impl Decider {
    /// What separated `ours` from `theirs` in the chain of the tournament's `draw`.
    pub fn between(ours: &SeriesTotals, theirs: &SeriesTotals, draw: &TieDraw) -> Decider {
        let (order, separation) = compare(ours, theirs, draw);
        let (mine, other) = (values(ours, draw), values(theirs, draw));
        let at = match separation {
            Separation::Score => 0,
            Separation::TieBreak(step) => mine
                .iter()
                .position(|(name, _)| *name == step.name())
                .unwrap_or(mine.len()),
        };
        let tied = mine[..at]
            .iter()
            .map(|(name, value)| Tied {
                step: name.to_string(),
                value: value.clone(),
            })
            .collect();
        let (step, ours_value, theirs_value) = match (mine.get(at), other.get(at)) {
            (Some((name, a)), Some((_, b))) => (name.to_string(), a.clone(), b.clone()),
            _ => (
                "seeded_draw".to_string(),
                draw.value(ours.team).to_string(),
                draw.value(theirs.team).to_string(),
            ),
        };
        Decider {
            step,
            ours: ours_value,
            theirs: theirs_value,
            other_team: theirs.team,
            ahead: order.is_lt(),
            tied,
            separation,
        }
    }

    /// The tie-break step as the store records it: `None` when the score decided.
    pub fn tie_break(&self) -> Option<TieBreak> {
        self.separation.tie_break()
    }

    /// The step and numbers without the other team: `games won 5 vs 4`, or for the draw
    /// `seeded draw (tied on score 300, games won 4, flags 6, deaths 2)`.
    pub fn numbers(&self) -> String {
        if self.step == "seeded_draw" {
            let tied: Vec<String> = self
                .tied
                .iter()
                .map(|t| format!("{} {}", label(&t.step), t.value))
                .collect();
            format!("seeded draw (tied on {})", tied.join(", "))
        } else {
            format!("{} {} vs {}", label(&self.step), self.ours, self.theirs)
        }
    }

    /// One phrase: `games won 5 vs 4 over River Rats`, `score 298 vs 312 against River
    /// Rats`, `seeded draw over River Rats (tied on score 300, games won 4, flags 6,
    /// deaths 2)`.
    pub fn describe(&self, snap: &Snapshot) -> String {
        let side = if self.ahead { "over" } else { "against" };
        let other = snap.team_name(self.other_team);
        let numbers = self.numbers();
        match numbers.strip_prefix("seeded draw ") {
            Some(tied) => format!("seeded draw {side} {other} {tied}"),
            None => format!("{numbers} {side} {other}"),
        }
    }
}

/// The deciders at the cut of a ranking whose first `cut` places go through: each of them
/// against the first team left out, the first team left out against the last one through,
/// `None` for everyone else (and for everyone when nobody is left out or nobody goes).
pub fn at_cut(ranking: &[Ranked], cut: usize, draw: &TieDraw) -> Vec<Option<Decider>> {
    let first_out = ranking.get(cut).map(|r| r.totals);
    let last_in = cut
        .checked_sub(1)
        .and_then(|i| ranking.get(i))
        .map(|r| r.totals);
    ranking
        .iter()
        .enumerate()
        .map(|(i, r)| match (first_out, last_in) {
            (Some(out), Some(_)) if i < cut => Some(Decider::between(&r.totals, &out, draw)),
            (Some(_), Some(last)) if i == cut => Some(Decider::between(&r.totals, &last, draw)),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tourney::bracket::rank;

    use crate::tourney::bracket::lrs_totals as t;

    fn draw() -> TieDraw {
        TieDraw::new(
            crate::games::GameKind::default().tie_steps(),
            crate::tourney::bracket::TournamentSeed::keyed(7),
            ["a", "b", "c", "d"],
        )
    }

    #[test]
    fn each_step_carries_both_values_and_the_tied_ones_before_it() {
        let d = Decider::between(&t(0, 312, 5, 1, 1), &t(1, 298, 9, 9, 0), &draw());
        assert_eq!(
            (d.step.as_str(), d.ours.as_str(), d.theirs.as_str()),
            ("score", "312", "298")
        );
        assert!(d.ahead && d.tied.is_empty() && d.tie_break().is_none());
        assert_eq!(d.numbers(), "score 312 vs 298");

        let d = Decider::between(&t(0, 300, 4, 1, 1), &t(1, 300, 5, 0, 0), &draw());
        assert_eq!(d.step, "games_won");
        assert!(!d.ahead);
        assert_eq!(d.numbers(), "games won 4 vs 5");
        assert_eq!(
            d.tied,
            vec![Tied {
                step: "score".to_string(),
                value: "300".to_string()
            }]
        );

        let d = Decider::between(&t(2, 300, 4, 6, 2), &t(3, 300, 4, 6, 3), &draw());
        assert_eq!(
            (d.step.as_str(), d.tie_break().map(TieBreak::name)),
            ("fewer_deaths", Some("fewer_deaths"))
        );
        assert!(d.ahead);
        assert_eq!(d.numbers(), "deaths 2 vs 3");
    }

    #[test]
    fn the_seeded_draw_lists_every_tied_value_and_follows_the_draw() {
        let draw = draw();
        let (a, b) = (t(0, 300, 4, 6, 2), t(1, 300, 4, 6, 2));
        let d = Decider::between(&a, &b, &draw);
        assert_eq!(d.step, "seeded_draw");
        assert_eq!(d.ahead, draw.value(TeamId(0)) < draw.value(TeamId(1)));
        assert_eq!(d.ours, draw.value(TeamId(0)).to_string());
        assert_eq!(
            d.numbers(),
            "seeded draw (tied on score 300, games won 4, flags 6, deaths 2)"
        );
        assert_eq!(d.tied.len(), 4);
    }

    #[test]
    fn the_cut_pairs_the_teams_through_with_the_first_left_out() {
        let draw = draw();
        // 9, 7 (3 won), 7 (2 won, 5 flags), 7 (2 won, 4 flags).
        let ranking = rank(
            &[
                t(0, 9, 0, 0, 0),
                t(1, 7, 3, 0, 0),
                t(2, 7, 2, 5, 0),
                t(3, 7, 2, 4, 0),
            ],
            &draw,
        );
        let cut = at_cut(&ranking, 2, &draw);
        let steps: Vec<Option<(&str, usize)>> = cut
            .iter()
            .map(|d| d.as_ref().map(|d| (d.step.as_str(), d.other_team.index())))
            .collect();
        assert_eq!(
            steps,
            vec![
                Some(("score", 2)),
                Some(("games_won", 2)),
                Some(("games_won", 1)),
                None
            ]
        );
        assert!(cut[2].as_ref().is_some_and(|d| !d.ahead));
        assert!(at_cut(&ranking, 4, &draw).iter().all(Option::is_none));
    }
}
