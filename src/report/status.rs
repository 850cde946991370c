//! `status`: what is planned, running and done, stage by stage and set by set.

use super::snapshot::Snapshot;
use crate::store::{SetRow, StageRow, StageStatus};
use crate::tourney::model::SetId;
use std::fmt::Write;

/// A set's state as shown to organisers, in the words of a stage's: `done` once its
/// advancement is stored, `planned` before any of its games is, `running` in between.
pub fn set_state(snap: &Snapshot, set: &SetRow) -> StageStatus {
    if set.is_done() {
        StageStatus::Done
    } else if snap.games_done(&set.id) == 0 {
        StageStatus::Planned
    } else {
        StageStatus::Running
    }
}

/// What `status` calls a stage or set in `state`: one under way (stored `running`, or some
/// games stored) is `running` only while a run holds the database's lock (`live`);
/// otherwise the run that was playing it stopped, and the next `run` resumes it.
fn under_way(state: StageStatus, live: bool) -> &'static str {
    if state == StageStatus::Running && !live {
        "interrupted"
    } else {
        state.as_str()
    }
}

/// The stages in the order `status` lists them: schools by id, the nationals last.
fn stages_in_order(snap: &Snapshot) -> Vec<&StageRow> {
    let mut stages: Vec<&StageRow> = snap.stages.iter().collect();
    stages.sort_by_key(|s| (s.id.is_nationals(), s.id.clone()));
    stages
}

/// The status report; `all_sets` lists finished stages' sets too; `live` says whether a
/// `run` or `rerun` holds the database's lock now.
pub fn status_text(snap: &Snapshot, database: &str, all_sets: bool, live: bool) -> String {
    let mut out = String::new();
    let totals = snap.game_totals();
    let (planned, done, restarted) = (totals.planned, totals.done, totals.restarted);
    let _ = writeln!(out, "{}, database {database}", snap.tournament.name);
    let _ = writeln!(
        out,
        "seed: commitment (SHA-256) {} (the seed is secret unless the tournament file writes it)",
        snap.tournament.seed.commitment()
    );
    let _ = writeln!(
        out,
        "games: {done} of {planned} planned so far stored{}",
        if restarted > 0 {
            format!(" ({restarted} restarted after an interrupted run)")
        } else {
            String::new()
        }
    );
    let count = |state: StageStatus| snap.stages.iter().filter(|s| s.status == state).count();
    let finished = !snap.stages.is_empty() && count(StageStatus::Done) == snap.stages.len();
    let _ = writeln!(
        out,
        "run: {}",
        if live {
            "in progress (a run holds the database's lock)"
        } else if finished {
            "finished"
        } else {
            "interrupted (no run holds the lock): run it again to resume"
        }
    );
    let _ = writeln!(
        out,
        "stages: {} done, {} {}, {} planned",
        count(StageStatus::Done),
        count(StageStatus::Running),
        under_way(StageStatus::Running, live),
        count(StageStatus::Planned)
    );
    let many = snap.sets.len() > 200 && !all_sets;
    for StageRow { id: stage, status } in stages_in_order(snap) {
        let sets: Vec<_> = snap.sets.iter().filter(|s| s.stage_id == *stage).collect();
        let _ = writeln!(out, "\n{stage}: {}", under_way(*status, live));
        if many && *status == StageStatus::Done {
            let _ = writeln!(out, "  {} set(s), all done", sets.len());
            continue;
        }
        if sets.is_empty() {
            let qualified = snap
                .advancement
                .iter()
                .filter(|a| {
                    a.stage_id == *stage
                        && a.kind == crate::tourney::model::AdvancementKind::SingleTeam
                })
                .map(|a| snap.team_name(a.team))
                .collect::<Vec<_>>();
            if !qualified.is_empty() {
                let _ = writeln!(
                    out,
                    "  single team, qualified without playing: {}",
                    qualified.join(", ")
                );
            }
        }
        let mut sorted = sets.clone();
        sorted.sort_by_key(|s| (s.is_final, s.round, s.set_index));
        for set in sorted {
            let names: Vec<&str> = set.members.iter().map(|&t| snap.team_name(t)).collect();
            let _ = writeln!(
                out,
                "  {:<28} {:<11} {:>2}/{:<2} games  {}{}",
                set.id,
                under_way(set_state(snap, set), live),
                snap.games_done(&set.id),
                snap.games_planned(&set.id),
                names.join(", "),
                if set.run_no > 0 {
                    format!("  (run {}: earlier runs kept as history)", set.run_no)
                } else {
                    String::new()
                }
            );
        }
    }
    if many {
        let _ = writeln!(out, "\n(finished stages summarised; --all lists every set)");
    }
    if !snap.audit.is_empty() {
        let _ = writeln!(out, "\naudit log:");
        for a in &snap.audit {
            let _ = writeln!(
                out,
                "  {} {} {} {} {}",
                super::time::stored_time_text(&a.at),
                a.action,
                a.set_id.as_ref().map_or("", SetId::as_str),
                a.reason
                    .as_deref()
                    .map(|r| format!("reason: {r}"))
                    .unwrap_or_default(),
                a.details.as_deref().unwrap_or("")
            );
        }
    }
    out
}

/// What `status --json` prints: the same facts as [`status_text`], every set listed.
pub fn status_json(snap: &Snapshot, live: bool) -> serde_json::Value {
    use serde_json::json;
    let totals = snap.game_totals();
    let (planned, done) = (totals.planned, totals.done);
    let finished =
        !snap.stages.is_empty() && snap.stages.iter().all(|s| s.status == StageStatus::Done);
    let run = if live {
        "in progress"
    } else if finished {
        "finished"
    } else {
        "interrupted"
    };
    let stages: Vec<serde_json::Value> = stages_in_order(snap)
        .into_iter()
        .map(|StageRow { id: stage, status }| {
            let mut sets: Vec<_> = snap.sets.iter().filter(|s| s.stage_id == *stage).collect();
            sets.sort_by_key(|s| (s.is_final, s.round, s.set_index));
            let sets: Vec<serde_json::Value> = sets
                .into_iter()
                .map(|set| {
                    json!({
                        "id": set.id,
                        "state": under_way(set_state(snap, set), live),
                        "games_done": snap.games_done(&set.id),
                        "games_planned": snap.games_planned(&set.id),
                        "teams": set.members.iter().map(|&t| snap.team_name(t)).collect::<Vec<_>>(),
                        "run": set.run_no,
                    })
                })
                .collect();
            json!({"id": stage, "state": under_way(*status, live), "sets": sets})
        })
        .collect();
    let audit: Vec<serde_json::Value> = snap
        .audit
        .iter()
        .map(|a| {
            json!({
                "at": super::time::stored_time_text(&a.at),
                "action": a.action,
                "set": a.set_id,
                "reason": a.reason,
                "details": a.details,
            })
        })
        .collect();
    json!({
        "name": snap.tournament.name,
        "seed_commitment": snap.tournament.seed.commitment(),
        "games_stored": done,
        "games_planned": planned,
        "run": run,
        "stages": stages,
        "audit": audit,
    })
}
