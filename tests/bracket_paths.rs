//! Paths through the bracket (`report::paths`) on real stored tournaments, checked
//! against the advancement the runner stored, and the `how` lines `standings` prints.
//!
//! Two tournaments of built-in AIs with nationals and wild cards: the Tie Cup plays
//! one-turn games of random players, where most robots score nothing, so tie-breaks decide
//! many cuts (down to the seeded draw); the Score Cup plays longer games, where scores
//! decide most.

mod common;

use common::ok;
use lrs_tourney::report::Snapshot;
use lrs_tourney::report::paths::{
    Decider, Entry, Outcome, SetLine, SetRankings, TeamPath, team_paths, wild_card_table,
};
use lrs_tourney::store::Store;
use lrs_tourney::tourney::model::{TeamId, TieBreak};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// A tournament of built-in AIs (dealt to the teams in turn); wild cards fill the
/// nationals to a multiple of 8.
struct Cup {
    name: &'static str,
    seed: u64,
    set_size: usize,
    games: u32,
    turns: u32,
    ais: &'static [&'static str],
    schools: &'static [(&'static str, usize)],
}

const TIE_CUP: Cup = Cup {
    name: "tie-cup",
    seed: 5,
    set_size: 8,
    games: 1,
    turns: 1,
    ais: &["random"],
    schools: &[("North", 20), ("South", 5), ("East", 1)],
};

const SCORE_CUP: Cup = Cup {
    name: "score-cup",
    seed: 77,
    set_size: 6,
    games: 2,
    turns: 25,
    ais: &["random", "runner", "hunter"],
    schools: &[("Hill", 13), ("Lake", 4), ("Dale", 1)],
};

const ONE_SCHOOL: Cup = Cup {
    name: "one-school-cup",
    seed: 3,
    set_size: 8,
    games: 1,
    turns: 10,
    ais: &["random", "runner"],
    schools: &[("Solo", 11)],
};

/// Plays `cup` once per test binary; returns its directory (the tests only read it).
fn played(cup: &Cup) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(cup.name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let bracket = format!(
        "name = \"Quick\"\nset_size = {}\ngames_per_series = {}\nadvance_per_set = 2\nturns_per_game = {}\nfill_nationals_to_multiple_of = 8\nboards = [\"gear-works\", \"corridor-dash\"]\n",
        cup.set_size, cup.games, cup.turns
    );
    std::fs::write(dir.join("quick.toml"), bracket).unwrap();
    let mut toml = format!(
        "name = \"{}\"\nseed = {}\nbracket = \"quick.toml\"\n",
        cup.name, cup.seed
    );
    for (school, teams) in cup.schools {
        toml += &format!("[[school]]\nname = \"{school}\"\n");
        for i in 0..*teams {
            let ai = cup.ais[i % cup.ais.len()];
            toml += &format!(
                "  [[school.team]]\n  name = \"{school} {i}\"\n  bot = \"builtin:{ai}\"\n"
            );
        }
    }
    std::fs::write(dir.join("cup.toml"), toml).unwrap();
    ok(&dir, &["run", "cup.toml", "--quiet"]);
    dir
}

fn tie_cup() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| played(&TIE_CUP))
}

fn score_cup() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| played(&SCORE_CUP))
}

fn snapshot(dir: &Path) -> Snapshot {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let store = Store::open_read_only(&dir.join("cup.sqlite").into())
            .await
            .unwrap();
        let snap = Snapshot::load(&store).await.unwrap();
        store.close().await;
        snap
    })
}

/// The tie-break a decider stands for, as the store names it (`None`: the score decided).
fn stored_step(d: Option<&Decider>) -> Option<TieBreak> {
    d.and_then(Decider::tie_break)
}

/// Checks every stored advancement row against the paths and the wild-card table, and
/// every advancing placing and entry against a stored row. Returns the number of stored
/// rows whose tie-break step is set.
fn check_agreement(snap: &Snapshot) -> usize {
    let paths = team_paths(snap);
    let wild = wild_card_table(snap);
    assert_eq!(paths.len(), snap.teams.len());
    assert!(paths.iter().enumerate().all(|(i, p)| p.team.index() == i));
    let mut tie_breaks = 0;
    for row in &snap.advancement {
        let path = &paths[row.team.index()];
        tie_breaks += usize::from(row.tie_break.is_some());
        match (row.kind.as_str(), &row.set_id) {
            ("top", Some(set_id)) => {
                let placing = path
                    .sets
                    .iter()
                    .find(|p| &p.set_id == set_id)
                    .unwrap_or_else(|| panic!("{row:?}: no placing in {set_id}"));
                assert!(
                    matches!(
                        placing.outcome,
                        Outcome::Advanced | Outcome::Champion | Outcome::Finalist
                    ),
                    "{row:?}: {placing:?}"
                );
                assert_eq!(placing.place, row.place as usize, "{row:?}");
                // The set line's decider is the one at the cut, as stored.
                let set = snap.sets.iter().find(|s| &s.id == set_id).unwrap();
                let line = SetRankings::new(snap)
                    .of(set)
                    .into_iter()
                    .find(|l| l.team == row.team)
                    .unwrap();
                assert!(line.advanced, "{row:?}");
                assert_eq!(stored_step(line.decider.as_ref()), row.tie_break, "{row:?}");
                if placing.outcome == Outcome::Advanced {
                    assert_eq!(placing.decider, line.decider, "{row:?}");
                }
                let school_final = set.is_final && set.stage_id != "nationals";
                if school_final && snap.has_nationals() {
                    assert_eq!(
                        path.nationals_entry,
                        Some(Entry::SchoolTop {
                            school_final: set_id.clone(),
                            place: row.place as usize
                        }),
                        "{row:?}"
                    );
                }
            }
            ("wildcard", None) => {
                let Some(Entry::WildCard { rank, school_total }) = &path.nationals_entry else {
                    panic!("{row:?}: entry {:?}", path.nationals_entry);
                };
                assert_eq!(*rank, row.place as usize, "{row:?}");
                let candidate = &wild[rank - 1];
                assert_eq!(candidate.team, row.team, "{row:?}");
                assert!(candidate.selected);
                assert_eq!(candidate.school_total, *school_total);
                assert_eq!(
                    stored_step(candidate.decider.as_ref()),
                    row.tie_break,
                    "{row:?}"
                );
            }
            ("single_team", None) => {
                assert_eq!(path.nationals_entry, Some(Entry::SingleTeam), "{row:?}");
                assert!(path.sets.first().is_none_or(|p| p.stage_id == "nationals"));
            }
            _ => panic!("unexpected advancement row {row:?}"),
        }
    }
    // The other way round: nothing advances or enters without a stored row.
    for path in &paths {
        for placing in path.sets.iter().filter(|p| p.outcome == Outcome::Advanced) {
            assert!(
                snap.advancement.iter().any(|a| a.team == path.team
                    && a.set_id.as_ref() == Some(&placing.set_id)
                    && a.kind.as_str() == "top"),
                "{placing:?}"
            );
        }
        let kind = match path.nationals_entry {
            None => continue,
            Some(Entry::SchoolTop { .. }) => "top",
            Some(Entry::WildCard { .. }) => "wildcard",
            Some(Entry::SingleTeam) => "single_team",
        };
        assert!(
            snap.advancement
                .iter()
                .any(|a| a.team == path.team && a.kind.as_str() == kind),
            "{path:?}"
        );
    }
    // The wild cards taken are exactly the stored ones, in their stored order.
    let stored: Vec<(usize, u32)> = {
        let mut rows: Vec<(usize, u32)> = snap
            .advancement
            .iter()
            .filter(|a| a.kind.as_str() == "wildcard")
            .map(|a| (a.team.index(), a.place))
            .collect();
        rows.sort_by_key(|r| r.1);
        rows
    };
    let taken: Vec<(usize, u32)> = wild
        .iter()
        .filter(|w| w.selected)
        .map(|w| (w.team.index(), w.rank as u32))
        .collect();
    assert_eq!(taken, stored);
    tie_breaks
}

/// `score 0, games won 1, flags 0, deaths 0` for the steps before `step`, from a line.
fn tied_text(line: &SetLine, step: &str) -> String {
    let all = [
        ("score", format!("score {}", line.score)),
        ("games_won", format!("games won {}", line.games_won)),
        ("flags", format!("flags {}", line.stats.get(0))),
        ("fewer_deaths", format!("deaths {}", line.stats.get(4))),
    ];
    let before: Vec<String> = all
        .iter()
        .take_while(|(name, _)| *name != step)
        .map(|(_, text)| text.clone())
        .collect();
    before.join(", ")
}

/// The value of `step` in a line (`seeded_draw` has none).
fn value(line: &SetLine, step: &str) -> String {
    match step {
        "score" => line.score.to_string(),
        "games_won" => line.games_won.to_string(),
        "flags" => line.stats.get(0).to_string(),
        "fewer_deaths" => line.stats.get(4).to_string(),
        other => panic!("no value for {other}"),
    }
}

#[test]
fn the_paths_agree_with_the_stored_advancement_when_tie_breaks_decide() {
    let snap = snapshot(tie_cup());
    let tie_breaks = check_agreement(&snap);
    assert!(
        tie_breaks > 0,
        "one-turn games should leave ties: {:?}",
        snap.advancement
    );
    assert!(!wild_card_table(&snap).is_empty());
}

#[test]
fn the_paths_agree_with_the_stored_advancement_when_scores_decide() {
    let snap = snapshot(score_cup());
    check_agreement(&snap);
    // 2 + 2 + 1 qualifiers: three wild cards, every other school team a candidate.
    let wild = wild_card_table(&snap);
    assert_eq!(wild.iter().filter(|w| w.selected).count(), 3);
    assert_eq!(wild.len(), 13 + 4 - 4);
    assert!(
        wild.windows(2)
            .all(|w| w[0].school_total >= w[1].school_total)
    );
    assert!(wild.iter().enumerate().all(|(i, w)| w.rank == i + 1));
}

#[test]
fn a_one_school_final_is_the_last_word() {
    let dir = played(&ONE_SCHOOL);
    let snap = snapshot(&dir);
    check_agreement(&snap);
    assert!(wild_card_table(&snap).is_empty());
    let paths = team_paths(&snap);
    assert!(paths.iter().all(|p| p.nationals_entry.is_none()));
    let in_final: Vec<&TeamPath> = paths
        .iter()
        .filter(|p| p.sets.last().is_some_and(|s| s.set_id == "solo/final"))
        .collect();
    assert_eq!(in_final.len(), 4, "two sets of round 1 send 2 each");
    for path in in_final {
        let last = path.sets.last().unwrap();
        let expected = match last.place {
            1 => "won solo/final, qualified (top 2)".to_string(),
            2 => "2nd of 4 in solo/final, qualified (top 2)".to_string(),
            n => format!("{} of 4 in solo/final", ordinal(n)),
        };
        assert!(path.how.starts_with(&expected), "{}", path.how);
        assert_eq!(
            last.outcome,
            if last.place == 1 {
                Outcome::Champion
            } else {
                Outcome::Finalist
            }
        );
        // Round 1 took it there.
        assert_eq!(path.sets[0].outcome, Outcome::Advanced);
    }
}

#[test]
fn every_cut_names_the_deciding_step_with_both_teams_numbers() {
    let snap = snapshot(tie_cup());
    let mut seen_tie_break = false;
    for set in &snap.sets {
        let lines = SetRankings::new(&snap).of(set);
        let by_team: HashMap<TeamId, &SetLine> = lines.iter().map(|l| (l.team, l)).collect();
        for line in &lines {
            let Some(d) = &line.decider else { continue };
            let other = by_team[&d.other_team];
            assert_eq!(d.ahead, line.place < other.place, "{line:?}");
            if d.step == "seeded_draw" {
                // Tied on everything: the description lists the shared values.
                assert_eq!(
                    tied_text(line, "seeded_draw"),
                    tied_text(other, "seeded_draw")
                );
                assert!(
                    d.describe(&snap).ends_with(&format!(
                        "{} (tied on {})",
                        snap.team_name(other.team),
                        tied_text(line, "seeded_draw")
                    )),
                    "{}",
                    d.describe(&snap)
                );
            } else {
                assert_eq!(d.ours, value(line, &d.step), "{line:?}");
                assert_eq!(d.theirs, value(other, &d.step), "{line:?}");
                assert_ne!(d.ours, d.theirs, "{line:?}");
                assert_eq!(tied_text(line, &d.step), tied_text(other, &d.step));
            }
            seen_tie_break |= d.tie_break().is_some();
        }
    }
    assert!(
        seen_tie_break,
        "no cut of the Tie Cup was decided by a tie-break"
    );
}

#[test]
fn standings_say_how_each_team_advanced_or_what_stopped_it() {
    let dir = tie_cup();
    let snap = snapshot(dir);
    let paths = team_paths(&snap);
    let table = ok(dir, &["standings", "cup.toml"]);
    let json: serde_json::Value =
        serde_json::from_str(&ok(dir, &["standings", "cup.toml", "--json"])).unwrap();
    let rows = json.as_array().unwrap();
    assert_eq!(rows.len(), paths.len());
    let path_of = |team: &str| -> &TeamPath {
        paths
            .iter()
            .find(|p| snap.team_name(p.team) == team)
            .unwrap()
    };
    let mut stopped_by_tie_break = 0;
    for row in rows {
        let path = path_of(row["team"].as_str().unwrap());
        let how = row["how"].as_str().unwrap();
        assert_eq!(how, path.how);
        let last = path.sets.last().expect("everyone here played");
        assert_eq!(row["set_reached"], last.set_id.as_str());
        assert!(how.contains(last.set_id.as_str()), "{how}");
        // The table shows the same line for the team.
        assert!(
            table
                .lines()
                .any(|l| l.contains(row["team"].as_str().unwrap()) && l.ends_with(how)),
            "{how}\n{table}"
        );
        match (&path.nationals_entry, last.outcome) {
            (_, Outcome::Champion) => assert!(how.starts_with("won nationals/final"), "{how}"),
            (_, Outcome::Finalist) => assert!(
                how.starts_with(&format!("{} of 8 in nationals/final", ordinal(last.place))),
                "{how}"
            ),
            (_, Outcome::Eliminated) => {
                let d = last.decider.as_ref().expect("someone advanced");
                if d.tie_break().is_some() {
                    stopped_by_tie_break += 1;
                    assert!(
                        how.starts_with(&format!("stopped by {}", d.describe(&snap))),
                        "{how}"
                    );
                    assert!(how.contains(" against "), "{how}");
                } else {
                    assert!(
                        how.starts_with(&format!(
                            "out in {}: {}, score {} vs {} ({})",
                            last.set_id,
                            ordinal(last.place),
                            d.ours,
                            d.theirs,
                            snap.team_name(d.other_team)
                        )),
                        "{how}"
                    );
                }
            }
            (entry, outcome) => panic!("finished tournament: {entry:?} {outcome:?} {how}"),
        }
        // Every nationals player says how it got there.
        match &path.nationals_entry {
            Some(Entry::WildCard { rank, school_total }) => assert!(
                how.ends_with(&format!("wild card #{rank} (school total {school_total})")),
                "{how}"
            ),
            Some(Entry::SchoolTop {
                school_final,
                place,
            }) => assert!(
                how.ends_with(&format!("qualified {} in {school_final}", ordinal(*place))),
                "{how}"
            ),
            Some(Entry::SingleTeam) => {
                assert!(
                    how.ends_with("only team of East, qualified without playing"),
                    "{how}"
                )
            }
            None => assert_eq!(row["stage_reached"], "school"),
        }
    }
    assert!(stopped_by_tie_break > 0, "{table}");
    // The first team left out of the wild cards says what stopped it there.
    let wild = wild_card_table(&snap);
    let first_out = wild.iter().find(|w| !w.selected).expect("more candidates");
    let d = first_out.decider.as_ref().expect("a decider at the cut");
    let why = if d.step == "score" {
        format!(
            "school total {} vs {} against {}",
            d.ours,
            d.theirs,
            snap.team_name(d.other_team)
        )
    } else {
        d.describe(&snap)
    };
    assert!(
        paths[first_out.team.index()]
            .how
            .ends_with(&format!("; first left out of the wild cards: {why}")),
        "{}",
        paths[first_out.team.index()].how
    );
    assert_eq!(
        paths
            .iter()
            .filter(|p| p.how.contains("first left out of the wild cards"))
            .count(),
        1
    );
    // The stage view says the same for its sets.
    let stage = ok(
        dir,
        &["standings", "cup.toml", "--stage", "north", "--round", "1"],
    );
    let stopped = paths
        .iter()
        .filter_map(|p| p.sets.first())
        .find(|p| p.set_id.as_str().starts_with("north/r1/") && p.outcome == Outcome::Eliminated)
        .unwrap();
    assert!(stage.contains(&stopped.describe(&snap)), "{stage}");
}

fn ordinal(n: usize) -> String {
    lrs_tourney::report::paths::ordinal(n)
}
