//! `lrs-tourney standings FILE|DB [--stage S] [--round R]`: a terminal table.

use super::{CliError, target};
use crate::report::{Snapshot, standings};
use crate::tourney::bracket::rank;
use clap::Args;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct StandingsArgs {
    /// The tournament file (.toml) or its database.
    target: PathBuf,
    /// Only this stage: a school's id (as in set ids, e.g. westfield-high) or `nationals`.
    #[arg(long)]
    stage: Option<String>,
    /// Only this round of the stage (a number, or `final`); needs --stage.
    #[arg(long, requires = "stage")]
    round: Option<String>,
}

pub fn run(args: StandingsArgs) -> Result<(), CliError> {
    let (snap, _) = target::load_snapshot(&args.target)?;
    match &args.stage {
        None => print_overall(&snap),
        Some(stage) => print_stage(&snap, stage, args.round.as_deref())?,
    }
    Ok(())
}

fn print_overall(snap: &Snapshot) {
    let rows = standings(snap);
    let tw = rows.iter().map(|r| r.team.len()).max().unwrap_or(4).max(4);
    let sw = rows
        .iter()
        .map(|r| r.school.len())
        .max()
        .unwrap_or(6)
        .max(6);
    println!(
        "{:>4}  {:<tw$}  {:<sw$}  {:<9} {:<6} {:>7} {:>7} {:>7} {:>5} {:>5} {:>5}  qualified",
        "rank",
        "team",
        "school",
        "stage",
        "round",
        "total",
        "school",
        "nation",
        "games",
        "won",
        "flags"
    );
    for r in rows {
        println!(
            "{:>4}  {:<tw$}  {:<sw$}  {:<9} {:<6} {:>7} {:>7} {:>7} {:>5} {:>5} {:>5}  {}",
            r.rank,
            r.team,
            r.school,
            r.stage_reached,
            r.round_reached,
            r.total_score,
            r.school_score,
            r.nationals_score,
            r.games_played,
            r.games_won,
            r.flags,
            r.qualified_by
        );
    }
}

fn print_stage(snap: &Snapshot, stage: &str, round: Option<&str>) -> Result<(), CliError> {
    let sets: Vec<_> = snap
        .sets
        .iter()
        .filter(|s| s.stage_id == stage)
        .filter(|s| match round {
            None => true,
            Some("final") => s.is_final,
            Some(r) => r.parse::<u32>().is_ok_and(|n| n == s.round),
        })
        .collect();
    if sets.is_empty() {
        let stages: Vec<&str> = snap.stages.iter().map(|(id, _)| id.as_str()).collect();
        return Err(CliError::input(format!(
            "no sets for stage {stage:?}{}; stages are: {}",
            round.map(|r| format!(" round {r}")).unwrap_or_default(),
            stages.join(", ")
        )));
    }
    let draw = snap.draw();
    let mut totals = std::collections::BTreeMap::new();
    for set in &sets {
        for t in snap.set_totals(set) {
            let e = totals
                .entry(t.team)
                .or_insert_with(|| crate::tourney::bracket::SeriesTotals::zero(t.team));
            *e = e.plus(&t);
        }
    }
    let all: Vec<_> = totals.into_values().collect();
    let ranking = rank(&all, &draw);
    let tw = ranking
        .iter()
        .map(|r| snap.team_name(r.totals.team).len())
        .max()
        .unwrap_or(4)
        .max(4);
    println!(
        "{stage}{}: {} team(s) in {} set(s)",
        round.map(|r| format!(" round {r}")).unwrap_or_default(),
        ranking.len(),
        sets.len()
    );
    println!(
        "{:>4}  {:<tw$}  {:>7} {:>5} {:>5} {:>6}",
        "rank", "team", "score", "won", "flags", "deaths"
    );
    for (i, r) in ranking.iter().enumerate() {
        println!(
            "{:>4}  {:<tw$}  {:>7} {:>5} {:>5} {:>6}",
            i + 1,
            snap.team_name(r.totals.team),
            r.totals.score,
            r.totals.games_won,
            r.totals.flags,
            r.totals.deaths
        );
    }
    Ok(())
}
