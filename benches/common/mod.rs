//! What the tournament benchmarks share: the games of a whole bracket played without a
//! database, the baseline the store's cost is measured against.

use lrs_tourney::games::Arena;
use lrs_tourney::runner::{GameJob, series_totals};
use lrs_tourney::tourney::bracket::{Roster, TournamentSeed, simulate_bracket};
use lrs_tourney::tourney::model::Tournament;
use rayon::prelude::*;

/// Plays every game of the bracket as `run` would, without storing anything: each round's
/// sets one after another, the games of a set in parallel.
pub fn games_only(t: &Tournament) -> usize {
    // Generated tournaments write their seed in the file.
    let seed = TournamentSeed::keyed(t.seed.unwrap_or(0));
    let roster = Roster::from_tournament(t, seed);
    let arenas: Vec<Arena> = Arena::pool(&t.bracket.game, &t.bracket.boards)
        .iter()
        .map(|name| {
            Arena::load(&t.bracket.game, name, t.bracket.turns_per_game).expect("shipped arena")
        })
        .collect();
    let mut games = 0;
    simulate_bracket(&roster, |set| {
        let jobs: Vec<GameJob> = (0..t.bracket.games_per_series)
            .map(|g| GameJob {
                set_id: set.id.clone(),
                run_no: 0,
                game_index: g,
                seed: set.game_seed(&seed, g, 0),
                arena: arenas[g as usize % arenas.len()].clone(),
                teams: set
                    .teams
                    .iter()
                    .map(|&m| (m, t.team(m).bot.clone()))
                    .collect(),
            })
            .collect();
        games += jobs.len();
        let records: Vec<_> = jobs.par_iter().map(|j| j.play().expect("game")).collect();
        series_totals(&set.teams, records.iter().flat_map(|r| &r.results))
    })
    .expect("bracket");
    games
}

/// Removes a database and its WAL files, so the next run starts from nothing.
pub fn remove_database(db: &lrs_tourney::store::DbLocation) {
    let Some(db) = db.as_file() else {
        return;
    };
    for suffix in ["", "-wal", "-shm"] {
        let mut p = db.to_path_buf().into_os_string();
        p.push(suffix);
        let _ = std::fs::remove_file(p);
    }
}
