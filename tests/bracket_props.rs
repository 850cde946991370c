//! Property tests of the bracket: random school sizes and random series results, checked
//! against the rules of docs/tournament.md.
//!
//! Every case runs a whole tournament through `simulate_bracket` and checks: each school
//! with n >= 2 sends exactly `advance_per_set` (2) qualifiers, the top of its final, and a
//! school of one sends its team as `SingleTeam`; every round of every stage has
//! `ceil(m / 8)` sets of 2..=8 teams whose sizes differ by at most 1, no team twice, the
//! round's field being exactly the advancing teams of the round before; nationals round 1
//! has a multiple of 8 teams, or every team when there are not enough; the wild cards are
//! exactly the best non-qualified teams by school-stage total (recomputed here); in every
//! nationals round each school's m teams are spread evenly over the k sets (each set holds
//! floor(m/k) or ceil(m/k) of them: the fewest schoolmate pairs possible); and the same
//! inputs give the same bracket.

use lrs_tourney::rng::GameRng;
use lrs_tourney::tourney::bracket::{
    BracketOutcome, Roster, SeriesTotals, SetPlace, SetPlan, StagePlan, TournamentSeed, compare,
    deal_snake, derive_seed, parse_set_id, simulate_bracket, wild_card_count,
};
use lrs_tourney::tourney::model::{BracketFormat, QualifiedBy, SchoolId, Stage, TeamId};
use proptest::prelude::*;
use std::cmp::Ordering;
use std::collections::{BTreeMap, HashMap, HashSet};

/// Random but reproducible series totals: small ranges, so that every tie-break step and
/// the seeded draw are exercised.
fn random_results(results_seed: u64) -> impl FnMut(&SetPlan) -> Vec<SeriesTotals> {
    move |set: &SetPlan| {
        let mut rng = GameRng::new(derive_seed(results_seed, set.id.as_str()));
        set.teams
            .iter()
            .map(|&team| SeriesTotals {
                team,
                score: i64::from(rng.below(5)) - 1,
                games_won: rng.below(3),
                stats: {
                    let flags = rng.below(3);
                    let deaths = rng.below(3);
                    lrs_tourney::games::Stats::from_values(&[flags, 0, 0, 0, deaths])
                },
            })
            .collect()
    }
}

fn run(seed: u64, sizes: &[usize], results_seed: u64) -> (Roster, BracketOutcome) {
    let roster = Roster::from_sizes(TournamentSeed::keyed(seed), BracketFormat::default(), sizes);
    let outcome =
        simulate_bracket(&roster, random_results(results_seed)).expect("a valid bracket plays");
    (roster, outcome)
}

/// Checks one stage's rounds; returns nothing, panics with a message on a violation.
fn check_rounds(plan: &StagePlan, roster: &Roster, school_of: &HashMap<TeamId, SchoolId>) {
    let set_size = roster.format.set_size;
    let advance = roster.format.advance_per_set;
    let mut field: Vec<TeamId> = plan.entrants.clone();
    for (r, round) in plan.rounds.iter().enumerate() {
        assert_eq!(round.round as usize, r + 1);
        let m = field.len();
        let k = m.div_ceil(set_size);
        assert_eq!(
            round.sets.len(),
            k,
            "{}: round {} set count",
            plan.label,
            r + 1
        );
        let sizes: Vec<usize> = round.sets.iter().map(|s| s.plan.teams.len()).collect();
        assert!(
            sizes.iter().all(|&s| (2..=set_size).contains(&s)),
            "{}: set sizes {sizes:?}",
            plan.label
        );
        let (lo, hi) = (sizes.iter().min(), sizes.iter().max());
        assert!(
            hi.zip(lo).is_some_and(|(h, l)| h - l <= 1),
            "unbalanced {sizes:?}"
        );
        let mut seen = HashSet::new();
        for set in &round.sets {
            for &t in &set.plan.teams {
                assert!(
                    seen.insert(t),
                    "team {t} plays twice in {} r{}",
                    plan.label,
                    r + 1
                );
            }
        }
        let expected: HashSet<TeamId> = field.iter().copied().collect();
        assert_eq!(seen, expected, "{} r{}: the field", plan.label, r + 1);
        let dealt: HashSet<TeamId> = round.dealt_from.iter().copied().collect();
        assert_eq!(dealt, expected);
        assert_eq!(round.is_final, r + 1 == plan.rounds.len());
        // Ids parse back.
        for (i, set) in round.sets.iter().enumerate() {
            assert_eq!(set.plan.key.round as usize, r + 1);
            assert_eq!(set.plan.key.set as usize, i + 1);
            let id = parse_set_id(set.plan.id.as_str()).expect("ids parse");
            assert_eq!(plan.label, id.stage_label.as_str());
            let place = if round.is_final {
                SetPlace::Final
            } else {
                SetPlace::Round {
                    round: set.plan.key.round,
                    set: set.plan.key.set,
                }
            };
            assert_eq!(id.place, place);
        }
        // Nationals: every school evenly spread over the round's sets.
        if plan.stage == Stage::Nationals {
            let mut per_school: BTreeMap<SchoolId, Vec<usize>> = BTreeMap::new();
            for (i, set) in round.sets.iter().enumerate() {
                for t in &set.plan.teams {
                    let school = school_of.get(t).copied().expect("known team");
                    per_school.entry(school).or_insert_with(|| vec![0; k])[i] += 1;
                }
            }
            for (school, counts) in per_school {
                let m_s: usize = counts.iter().sum();
                let (floor, ceil) = (m_s / k, m_s.div_ceil(k));
                assert!(
                    counts.iter().all(|&c| c == floor || c == ceil),
                    "nationals r{}: school {school} spread {counts:?}",
                    r + 1
                );
            }
        }
        // Every set ranked by the chain; its top `advance` move on.
        let mut next = Vec::new();
        for set in &round.sets {
            let result = set
                .result
                .as_ref()
                .expect("a finished bracket has every result");
            for pair in result.ranking.windows(2) {
                let (order, step) = compare(&pair[0].totals, &pair[1].totals, &roster.draw);
                assert_eq!(order, Ordering::Less);
                assert_eq!(pair[0].separated_from_next, Some(step));
            }
            let top: Vec<TeamId> = result
                .ranking
                .iter()
                .take(advance)
                .map(|p| p.totals.team)
                .collect();
            let adv: Vec<TeamId> = result.advancing.iter().map(|(t, _)| *t).collect();
            assert_eq!(adv, top);
            assert!(
                result
                    .advancing
                    .iter()
                    .all(|(_, q)| matches!(q, QualifiedBy::Top { .. }))
            );
            next.extend(adv);
        }
        field = next;
    }
}

/// School-stage totals recomputed from the sets.
fn recomputed_totals(outcome: &BracketOutcome) -> BTreeMap<TeamId, SeriesTotals> {
    let mut sums = BTreeMap::new();
    for plan in &outcome.schools {
        for &t in &plan.entrants {
            sums.insert(t, SeriesTotals::zero(t));
        }
        for round in &plan.rounds {
            for set in &round.sets {
                for p in set.result.iter().flat_map(|r| r.ranking.iter()) {
                    let sum = sums
                        .entry(p.totals.team)
                        .or_insert(SeriesTotals::zero(p.totals.team));
                    *sum = sum.plus(&p.totals);
                }
            }
        }
    }
    sums
}

fn check_bracket(sizes: &[usize], roster: &Roster, outcome: &BracketOutcome) {
    let school_of: HashMap<TeamId, SchoolId> = roster
        .schools
        .iter()
        .flat_map(|s| s.teams.iter().map(move |&t| (t, s.id)))
        .collect();
    let playing: Vec<usize> = (0..sizes.len()).filter(|&i| sizes[i] > 0).collect();
    assert_eq!(outcome.schools.len(), playing.len());

    // School stages and their qualifiers.
    let mut qualifiers = Vec::new();
    for (plan, &school) in outcome.schools.iter().zip(&playing) {
        assert_eq!(plan.stage, Stage::School(SchoolId(school)));
        check_rounds(plan, roster, &school_of);
        let result = plan.outcome.as_ref().expect("every school finishes");
        if sizes[school] == 1 {
            assert!(plan.rounds.is_empty());
            assert_eq!(
                result.qualifiers,
                vec![(plan.entrants[0], QualifiedBy::SingleTeam)]
            );
        } else {
            assert_eq!(result.qualifiers.len(), 2, "school {school}");
            let last = plan.rounds.last().expect("a school of 2+ plays");
            assert!(last.is_final && last.sets.len() == 1);
            let fin = last.sets[0].result.as_ref().expect("final played");
            let top: Vec<TeamId> = fin.ranking.iter().take(2).map(|p| p.totals.team).collect();
            let q: Vec<TeamId> = result.qualifiers.iter().map(|(t, _)| *t).collect();
            assert_eq!(q, top);
        }
        qualifiers.extend(result.qualifiers.iter().cloned());
    }
    assert_eq!(outcome.qualifiers, qualifiers);

    // School-stage totals.
    let totals = recomputed_totals(outcome);
    let reported: BTreeMap<TeamId, SeriesTotals> =
        outcome.school_totals.iter().map(|t| (t.team, *t)).collect();
    assert_eq!(reported, totals);

    let Some(nationals) = &outcome.nationals else {
        assert!(playing.len() < 2);
        assert!(outcome.wild_cards.is_empty());
        return;
    };
    assert!(playing.len() >= 2);

    // Wild cards: the best non-qualified by school-stage total, recomputed here.
    let qualified: HashSet<TeamId> = qualifiers.iter().map(|(t, _)| *t).collect();
    let mut others: Vec<SeriesTotals> = totals
        .values()
        .filter(|t| !qualified.contains(&t.team))
        .copied()
        .collect();
    others.sort_by_key(|t| {
        (
            std::cmp::Reverse(t.score),
            std::cmp::Reverse(t.games_won),
            std::cmp::Reverse(t.stats.get(0)),
            t.stats.get(4),
            roster.draw.value(t.team),
            t.team,
        )
    });
    let want = wild_card_count(qualifiers.len(), 8).min(others.len());
    let expected: Vec<TeamId> = others.iter().take(want).map(|t| t.team).collect();
    let got: Vec<TeamId> = outcome.wild_cards.iter().map(|(t, _)| *t).collect();
    assert_eq!(got, expected);
    assert!(
        outcome
            .wild_cards
            .iter()
            .all(|(_, q)| matches!(q, QualifiedBy::WildCard { .. }))
    );

    // Nationals round 1: a multiple of 8, or every team.
    let n1 = nationals.entrants.len();
    let all_teams: usize = sizes.iter().sum();
    assert_eq!(n1, qualifiers.len() + got.len());
    assert!(
        n1 % 8 == 0 || n1 == all_teams,
        "nationals of {n1} of {all_teams}"
    );
    check_rounds(nationals, roster, &school_of);
    // Round 1 is dealt from the ranking by school-stage total.
    if let Some(first) = nationals.rounds.first() {
        for pair in first.dealt_from.windows(2) {
            let (a, b) = (totals[&pair[0]], totals[&pair[1]]);
            assert_eq!(compare(&a, &b, &roster.draw).0, Ordering::Less);
        }
    }
    // The final ranking is the national final's.
    let fin = nationals.rounds.last().expect("nationals play");
    assert!(fin.is_final && fin.sets.len() == 1);
    let ranking = &fin.sets[0].result.as_ref().expect("final played").ranking;
    assert_eq!(&outcome.final_ranking, ranking);
    assert!(
        nationals
            .outcome
            .as_ref()
            .is_some_and(|o| o.qualifiers.is_empty())
    );
}

/// No two games of the bracket share a seed.
fn check_game_seeds(roster: &Roster, outcome: &BracketOutcome) {
    let mut seen = HashSet::new();
    let stages = outcome.schools.iter().chain(outcome.nationals.iter());
    for set in stages.flat_map(|p| p.sets()) {
        for g in 0..roster.format.games_per_series {
            assert!(
                seen.insert(set.plan.game_seed(&roster.seed, g, 0)),
                "{}",
                set.plan.id
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn large_brackets_follow_the_rules(
        seed in any::<u64>(),
        results_seed in any::<u64>(),
        sizes in prop::collection::vec(0usize..=60, 1..=300),
    ) {
        let (roster, outcome) = run(seed, &sizes, results_seed);
        check_bracket(&sizes, &roster, &outcome);
        check_game_seeds(&roster, &outcome);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 192, ..ProptestConfig::default() })]

    #[test]
    fn small_brackets_follow_the_rules_and_are_deterministic(
        seed in any::<u64>(),
        results_seed in any::<u64>(),
        sizes in prop::collection::vec(prop_oneof![0usize..=3, 0usize..=60], 1..=12),
    ) {
        let (roster, outcome) = run(seed, &sizes, results_seed);
        check_bracket(&sizes, &roster, &outcome);
        let (_, again) = run(seed, &sizes, results_seed);
        prop_assert_eq!(outcome, again);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// The repair spreads any mix of schools, however clustered, keeping the sets balanced
    /// and ordered by rank.
    #[test]
    fn snake_dealing_spreads_any_mix_of_schools(
        schools in prop::collection::vec(0usize..6, 1..=120),
        set_size in 3usize..=8,
    ) {
        let ranked: Vec<TeamId> = (0..schools.len()).map(TeamId).collect();
        let sets = deal_snake(&ranked, set_size, |t| schools.get(t.index()).copied().map(SchoolId), true);
        let k = schools.len().div_ceil(set_size);
        prop_assert_eq!(sets.len(), k);
        let mut all: Vec<TeamId> = sets.concat();
        all.sort_unstable();
        prop_assert_eq!(all, ranked);
        let sizes: Vec<usize> = sets.iter().map(Vec::len).collect();
        let (lo, hi) = (sizes.iter().min().copied(), sizes.iter().max().copied());
        prop_assert!(hi.zip(lo).is_some_and(|(h, l)| h - l <= 1 && h <= set_size));
        for set in &sets {
            prop_assert!(set.windows(2).all(|w| w[0] < w[1]), "ordered by rank");
        }
        for school in 0..6 {
            let m = schools.iter().filter(|&&s| s == school).count();
            for set in &sets {
                let c = set.iter().filter(|t| schools[t.index()] == school).count();
                prop_assert!(c == m / k || c == m.div_ceil(k), "school {} x{} in {:?}", school, c, sizes);
            }
        }
    }
}

#[test]
fn a_single_school_has_no_nationals() {
    let (roster, outcome) = run(1, &[20], 2);
    check_bracket(&[20], &roster, &outcome);
    assert!(outcome.nationals.is_none());
    assert_eq!(outcome.final_ranking.len(), 6);
}

#[test]
fn lone_teams_meet_at_the_nationals() {
    // Three schools of one: three single-team qualifiers, no one left for wild cards.
    let (roster, outcome) = run(1, &[1, 1, 1], 2);
    check_bracket(&[1, 1, 1], &roster, &outcome);
    assert!(outcome.wild_cards.is_empty());
    assert!(
        outcome
            .qualifiers
            .iter()
            .all(|(_, q)| *q == QualifiedBy::SingleTeam)
    );
    assert_eq!(outcome.final_ranking.len(), 3);
}

#[test]
fn the_seed_changes_the_draw_but_not_the_shape() {
    let sizes = [30, 9, 1, 14, 0, 8];
    let (_, a) = run(1, &sizes, 5);
    let (_, b) = run(2, &sizes, 5);
    let shape = |o: &BracketOutcome| -> Vec<Vec<usize>> {
        o.schools
            .iter()
            .chain(o.nationals.iter())
            .map(|p| p.sets().map(|s| s.plan.teams.len()).collect())
            .collect()
    };
    assert_eq!(shape(&a), shape(&b));
    assert_ne!(a, b);
}
