//! Defines [`check_summary`], the human summary printed by `lrs-tourney check FILE`.
//!
//! An organiser checks a configuration before the contest: the summary repeats what was
//! understood (seed, database, format, schools, bots) and previews the bracket each school
//! and the nationals will get, so a wrong roster or format shows up before any game.

use crate::tourney::model::{Bot, BracketFormat, Tournament};
use std::collections::BTreeMap;
use std::fmt::Write;

/// A multi-line summary of a checked tournament (ends with a newline).
pub fn check_summary(t: &Tournament) -> String {
    let f = &t.bracket;
    let mut out = String::new();
    let mut line = |s: String| {
        out.push_str(&s);
        out.push('\n');
    };
    line(format!("Tournament: {}", t.name));
    line(format!("  file:      {}", t.source.display()));
    line(match t.seed {
        Some(_) => {
            "  seed:      written in the file (not secret: see the warning below)".to_string()
        }
        None => "  seed:      secret, drawn at the first run and kept in the database".to_string(),
    });
    line(format!("  database:  {}", t.database));
    line(format!(
        "  format:    {}: sets of up to {} teams, series of {} games of {} turns, top {} of each set advance",
        f.name, f.set_size, f.games_per_series, f.turns_per_game, f.advance_per_set
    ));
    if f.game.kind().has_arena_pool() {
        line(format!(
            "  boards:    {} (cycled game by game)",
            f.boards.join(", ")
        ));
    } else {
        line(format!("  game:      {}", f.game.describe()));
    }
    line(format!(
        "  limits:    {} ms per answer, {} ms to start, {} MB memory (external bots)",
        t.limits.time_limit_ms, t.limits.start_limit_ms, t.limits.memory_mb
    ));
    line(format!(
        "Schools: {} ({})",
        t.schools.len(),
        plural(t.teams.len(), "team", "teams")
    ));
    let mut qualifiers = 0;
    for school in &t.schools {
        let n = school.teams.len();
        let q = qualifiers_of(n, f);
        qualifiers += q;
        line(format!(
            "  {} [{}]: {}; {}",
            school.name,
            school.slug,
            describe_stage(n, f, "school final"),
            if q == 1 {
                "1 qualifies".to_owned()
            } else {
                format!("{q} qualify")
            }
        ));
    }
    if t.has_nationals() {
        let fill = f.fill_nationals_to_multiple_of.max(1);
        let short = (fill - qualifiers % fill) % fill;
        let available = t.teams.len().saturating_sub(qualifiers);
        let wild = short.min(available);
        let mut text = format!(
            "Nationals: {} + {} = {}",
            plural(qualifiers, "qualifier", "qualifiers"),
            plural(wild, "wild card", "wild cards"),
            describe_stage(qualifiers + wild, f, "national final")
        );
        if wild < short {
            let _ = write!(
                text,
                " (a multiple of {fill} needs {}, but only {} did not qualify)",
                plural(short, "wild card", "wild cards"),
                plural(available, "team", "teams")
            );
        }
        line(text);
    } else {
        line("Nationals: none (one school: its final ranking is the result)".to_owned());
    }
    line(format!("Bots: {}", describe_bots(t)));
    out
}

/// `1 team` / `3 teams`.
fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {many}")
    }
}

/// Teams that leave a stage of `n` teams: all of a single team, else the final's top.
fn qualifiers_of(n: usize, f: &BracketFormat) -> usize {
    match n {
        0 | 1 => n,
        _ => {
            let rounds = stage_rounds(n, f);
            let last = rounds.last().map_or(n, |r| r.iter().sum());
            f.advance_per_set.min(last)
        }
    }
}

/// The set sizes of every round of a stage of `n` teams (docs/tournament.md): rounds of
/// `ceil(n / set_size)` sets differing by at most one team while more than a set remain,
/// then the final. This is a preview for the summary; the bracket planner decides.
pub fn stage_rounds(n: usize, f: &BracketFormat) -> Vec<Vec<usize>> {
    let set_size = f.set_size.max(2);
    let advance = f.advance_per_set.clamp(1, set_size / 2);
    let mut rounds = Vec::new();
    let mut n = n;
    while n > set_size {
        let sets = n.div_ceil(set_size);
        let sizes: Vec<usize> = (0..sets)
            .map(|i| n / sets + usize::from(i < n % sets))
            .collect();
        n = sizes.iter().map(|&s| s.min(advance)).sum();
        rounds.push(sizes);
    }
    if n >= 2 {
        rounds.push(vec![n]);
    }
    rounds
}

/// `19 teams: round 1 = 3 sets (7,6,6), then final of 6`.
fn describe_stage(n: usize, f: &BracketFormat, final_name: &str) -> String {
    let teams = plural(n, "team", "teams");
    let rounds = stage_rounds(n, f);
    match rounds.as_slice() {
        [] => format!("{teams}: qualifies without playing"),
        [_] => format!("{teams}: one set, the {final_name}"),
        [earlier @ .., last] => {
            let parts: Vec<String> = earlier
                .iter()
                .enumerate()
                .map(|(i, sizes)| {
                    format!(
                        "round {} = {} ({})",
                        i + 1,
                        plural(sizes.len(), "set", "sets"),
                        describe_sizes(sizes)
                    )
                })
                .collect();
            let final_size: usize = last.iter().sum();
            format!(
                "{teams}: {}, then {final_name} of {final_size}",
                parts.join(", ")
            )
        }
    }
}

/// `7,6,6` for a few sets, `9 of 8, 4 of 7` for many.
fn describe_sizes(sizes: &[usize]) -> String {
    if sizes.len() <= 8 {
        let all: Vec<String> = sizes.iter().map(ToString::to_string).collect();
        return all.join(",");
    }
    let mut counts: BTreeMap<std::cmp::Reverse<usize>, usize> = BTreeMap::new();
    for &s in sizes {
        *counts.entry(std::cmp::Reverse(s)).or_default() += 1;
    }
    let parts: Vec<String> = counts
        .into_iter()
        .map(|(size, count)| format!("{count} of {}", size.0))
        .collect();
    parts.join(", ")
}

/// `19 built-in AIs (7 builtin:runner, ...); 2 command bots (...)`.
fn describe_bots(t: &Tournament) -> String {
    let mut builtin: BTreeMap<String, usize> = BTreeMap::new();
    let mut command: BTreeMap<&str, usize> = BTreeMap::new();
    for team in &t.teams {
        match &team.bot {
            Bot::Builtin(_) => *builtin.entry(team.bot.to_string()).or_default() += 1,
            Bot::Command { protocol, .. } => *command.entry(protocol.name()).or_default() += 1,
        }
    }
    let list = |counts: Vec<(String, usize)>| {
        let parts: Vec<String> = counts.iter().map(|(k, n)| format!("{n} {k}")).collect();
        parts.join(", ")
    };
    let mut parts = Vec::new();
    if !builtin.is_empty() {
        let total: usize = builtin.values().sum();
        parts.push(format!(
            "{} ({})",
            plural(total, "built-in AI", "built-in AIs"),
            list(builtin.into_iter().collect())
        ));
    }
    if !command.is_empty() {
        let total: usize = command.values().sum();
        parts.push(format!(
            "{} ({}): each is smoke-tested below (skip with --no-smoke)",
            plural(total, "command bot", "command bots"),
            list(
                command
                    .into_iter()
                    .map(|(k, n)| (k.to_owned(), n))
                    .collect()
            )
        ));
    }
    parts.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn school_rounds_follow_the_tournament_rules() {
        let f = BracketFormat::default();
        assert_eq!(stage_rounds(1, &f), Vec::<Vec<usize>>::new());
        assert_eq!(stage_rounds(8, &f), vec![vec![8]]);
        assert_eq!(stage_rounds(19, &f), vec![vec![7, 6, 6], vec![6]]);
        assert_eq!(
            describe_stage(19, &f, "school final"),
            "19 teams: round 1 = 3 sets (7,6,6), then school final of 6"
        );
        assert_eq!(stage_rounds(100, &f).len(), 3); // 13 sets -> 26 -> 4 sets -> 8
        assert_eq!(describe_sizes(&stage_rounds(100, &f)[0]), "9 of 8, 4 of 7");
    }
}
