//! `lrs-tourney standings FILE|DB [--stage S] [--round R]`: a terminal table.

use super::{CliError, target};
use crate::report::paths::team_paths;
use crate::report::{Snapshot, standings};
use crate::tourney::bracket::rank;
use crate::tourney::model::TeamId;
use clap::Args;
use std::io::Write;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct StandingsArgs {
    /// The tournament file (.toml) or its database (an SQLite file or a postgres:// URL).
    target: PathBuf,
    #[command(flatten)]
    db: target::DbArg,
    /// Only this stage: a school's id (as in set ids, e.g. westfield-high) or `nationals`.
    #[arg(long)]
    stage: Option<String>,
    /// Only this round of the stage: `r1`, `r2`, ... as `status` shows them, or just the
    /// number, or `final`; needs --stage.
    #[arg(long, requires = "stage", value_parser = parse_round)]
    round: Option<Round>,
    /// The overall standings as JSON: one object per team, with the fields of the
    /// standings CSV (`export standings`) plus `set_reached` and `how`.
    #[arg(long, conflicts_with = "stage")]
    json: bool,
}

/// A `--round` value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Round {
    /// Round 1, 2, ...
    Number(u32),
    /// The stage's final.
    Final,
}

impl Round {
    fn matches(self, set: &crate::store::SetRow) -> bool {
        match self {
            Round::Final => set.is_final,
            Round::Number(n) => set.round == n,
        }
    }
}

impl std::fmt::Display for Round {
    /// `r1`, `r2`, ... or `final`, as `status` and the standings' round column write them.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Round::Number(n) => write!(f, "r{n}"),
            Round::Final => f.write_str("final"),
        }
    }
}

/// Parses `r1`, `1` or `final` (any case).
fn parse_round(text: &str) -> Result<Round, String> {
    let t = text.trim().to_ascii_lowercase();
    if t == "final" {
        return Ok(Round::Final);
    }
    let digits = t.strip_prefix('r').unwrap_or(&t);
    match digits.parse::<u32>() {
        Ok(n) if n >= 1 && digits.bytes().all(|b| b.is_ascii_digit()) => Ok(Round::Number(n)),
        _ => Err(format!(
            "expected a round as `status` shows it (r1, r2, ...), its number (1, 2, ...) or `final`, got {text:?}"
        )),
    }
}

pub async fn run(args: StandingsArgs) -> Result<(), CliError> {
    let (snap, _) = target::load_snapshot(&args.target, &args.db, target::Reading::Sums).await?;
    // Rows are written as they are formatted, through one buffer.
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    if args.json {
        serde_json::to_writer_pretty(&mut out, &standings(&snap)).map_err(CliError::failure)?;
        writeln!(out).map_err(CliError::failure)?;
    } else {
        match &args.stage {
            None => print_overall(&snap, &mut out).map_err(CliError::failure)?,
            Some(stage) => print_stage(&snap, stage, args.round, &mut out)?,
        }
    }
    out.flush().map_err(CliError::failure)
}

/// What the overall table's `score` column means.
pub const SCORE_LEGEND: &str = "score: series score in the set reached; teams rank by the stage \
     and round they reached, then by this score (the decisive final in its own order)";

fn print_overall(snap: &Snapshot, out: &mut impl Write) -> std::io::Result<()> {
    let rows = standings(snap);
    let width = |cells: Vec<usize>, min: usize| cells.into_iter().max().unwrap_or(min).max(min);
    let tw = width(rows.iter().map(|r| r.team.len()).collect(), 4);
    let sw = width(rows.iter().map(|r| r.school.len()).collect(), 6);
    let xw = width(
        rows.iter()
            .map(|r| r.set_reached.as_ref().map_or(1, |s| s.as_str().len()))
            .collect(),
        11,
    );
    let game = snap.tournament.game;
    let headline = game.headline_stat();
    let hn = game.statistics()[headline];
    let hw = hn.len().max(5);
    // Faults beside the figures, so a broken bot shows in the table everyone reads.
    writeln!(
        out,
        "{:>4}  {:<tw$}  {:<sw$}  {:>7}  {:<xw$}  {:>5} {:>5} {:>hw$} {:>6}  how",
        "rank", "team", "school", "score", "set reached", "games", "won", hn, "faults"
    )?;
    for r in &rows {
        let score = r.ranked_score.map_or("-".to_string(), |s| s.to_string());
        let set = r.set_reached.as_ref().map_or("-", |s| s.as_str());
        writeln!(
            out,
            "{:>4}  {:<tw$}  {:<sw$}  {:>7}  {:<xw$}  {:>5} {:>5} {:>hw$} {:>6}  {}",
            r.rank,
            r.team,
            r.school,
            score,
            set,
            r.games_played,
            r.games_won,
            r.stats.stats.get(headline),
            r.faults,
            r.how
        )?;
    }
    writeln!(out, "\n{SCORE_LEGEND}")
}

fn print_stage(
    snap: &Snapshot,
    stage: &str,
    round: Option<Round>,
    out: &mut impl Write,
) -> Result<(), CliError> {
    let in_stage: Vec<_> = snap.sets.iter().filter(|s| s.stage_id == stage).collect();
    let sets: Vec<_> = in_stage
        .iter()
        .copied()
        .filter(|s| round.is_none_or(|r| r.matches(s)))
        .collect();
    if sets.is_empty() {
        if let (Some(round), false) = (round, in_stage.is_empty()) {
            // The final carries its round number too: `r3 (final)`.
            let mut rounds: Vec<(u32, bool)> =
                in_stage.iter().map(|s| (s.round, s.is_final)).collect();
            rounds.sort();
            rounds.dedup();
            let rounds: Vec<String> = rounds
                .iter()
                .map(|&(n, is_final)| {
                    let label = Round::Number(n).to_string();
                    if is_final {
                        format!("{label} (final)")
                    } else {
                        label
                    }
                })
                .collect();
            return Err(CliError::input(format!(
                "stage {stage:?} has no round {round}; its rounds are: {}",
                rounds.join(", ")
            )));
        }
        let stages: Vec<&str> = snap.stages.iter().map(|s| s.id.as_str()).collect();
        return Err(CliError::input(format!(
            "no sets for stage {stage:?}; stages are: {}",
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
    writeln!(
        out,
        "{stage}{}: {} team(s) in {} set(s)",
        round.map(|r| format!(" {r}")).unwrap_or_default(),
        ranking.len(),
        sets.len()
    )
    .map_err(CliError::failure)?;
    let paths = team_paths(snap);
    // The team's last set among those shown, described.
    let how = |team: TeamId| {
        paths
            .get(team.index())
            .and_then(|p| {
                p.sets
                    .iter()
                    .rfind(|placing| sets.iter().any(|s| s.id == placing.set_id))
            })
            .map(|placing| placing.describe(snap))
            .unwrap_or_default()
    };
    // The statistics the game breaks ties on (Last Robot Standing: flags, deaths).
    let game = snap.tournament.game;
    let steps = game.tie_steps();
    let names: Vec<&str> = steps.iter().map(|s| game.statistics()[s.stat]).collect();
    let widths: Vec<usize> = names.iter().map(|n| n.len().max(5)).collect();
    let stat_cells = |values: Vec<String>| -> String {
        values
            .iter()
            .zip(&widths)
            .map(|(v, w)| format!(" {v:>w$}"))
            .collect()
    };
    writeln!(
        out,
        "{:>4}  {:<tw$}  {:>7} {:>5}{}  how",
        "rank",
        "team",
        "score",
        "won",
        stat_cells(names.iter().map(|n| n.to_string()).collect())
    )
    .map_err(CliError::failure)?;
    for (i, r) in ranking.iter().enumerate() {
        writeln!(
            out,
            "{:>4}  {:<tw$}  {:>7} {:>5}{}  {}",
            i + 1,
            snap.team_name(r.totals.team),
            r.totals.score,
            r.totals.games_won,
            stat_cells(
                steps
                    .iter()
                    .map(|s| r.totals.stats.get(s.stat).to_string())
                    .collect()
            ),
            how(r.totals.team)
        )
        .map_err(CliError::failure)?;
    }
    Ok(())
}
