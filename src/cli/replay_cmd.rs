//! `lrs-tourney replay FILE|DB SET GAME`: a stored game rebuilt turn by turn from its seed
//! and decision log (no bot is run), checked against the stored scores; printed as a
//! summary, as text turn by turn (`--text`), or as a per-turn JSON trace (`--json`) for
//! students' own analysis tools.

use super::{CliError, target};
use crate::games::lrs::replay::{Replay, replay};
use crate::report::viewer::{PageInfo, page};
use crate::store::{GameStatus, Store};
use crate::tourney::model::{BracketFormat, SetId, SetRun, TeamId};
use clap::Args;
use serde::Serialize;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// The tournament file (.toml) or its database.
    target: PathBuf,
    /// The set, as `status` and `export games` show it (e.g. `nationals/final`).
    set: SetId,
    /// `GAME`, or `RUN GAME` as `export games` names a game: the game of the series,
    /// counted from 0, of the set's current run, or of run `RUN` (an earlier run that a
    /// rerun replaced can still be watched).
    #[arg(value_name = "[RUN] GAME", num_args = 1..=2, required = true)]
    numbers: Vec<u32>,
    /// Every turn's state and events as one JSON object.
    #[arg(long, conflicts_with = "text")]
    json: bool,
    /// Every turn as text: the robots and what happened.
    #[arg(long)]
    text: bool,
    /// Also write the replay viewer: one self-contained HTML page (open it in a browser,
    /// no network needed).
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
}

/// What `--json` prints.
#[derive(Serialize)]
struct ReplayReport<'a> {
    set: &'a SetId,
    game: u32,
    board: &'a str,
    turn_limit: u16,
    /// The team in each seat.
    seats: Vec<SeatEntry>,
    /// Bytes stored for the game (its decision log), and the same game as a full-state
    /// trace (this JSON's `replay`).
    stored_bytes: usize,
    full_state_bytes: usize,
    replay: &'a Replay,
}

#[derive(Serialize)]
struct SeatEntry {
    seat: usize,
    team: String,
    score: i32,
}

pub fn run(args: ReplayArgs) -> Result<(), CliError> {
    let db = target::database_of(&args.target)?;
    let (run_arg, game_index) = match args.numbers[..] {
        [game] => (None, game),
        [run, game] => (Some(run), game),
        _ => return Err(CliError::input("expected GAME or RUN GAME")),
    };
    let (stored, games, results, log, teams) = target::runtime()?
        .block_on(async {
            let store = Store::open_read_only(&db).await?;
            let stored = store.tournament().await?;
            let games = store.game_history().await?;
            let results = store.result_history().await?;
            // The set's current run unless one is named.
            let run = run_arg.unwrap_or_else(|| {
                games
                    .iter()
                    .filter(|g| g.set_id == args.set && !g.superseded)
                    .map(|g| g.run_no)
                    .max()
                    .unwrap_or(0)
            });
            let log = store.decisions_of_run(&args.set, run, game_index).await?;
            let teams = store.teams().await?;
            store.close().await;
            Ok::<_, crate::store::StoreError>((stored, (run, games), results, log, teams))
        })
        .map_err(CliError::input)?;
    let (run, games) = games;
    let stored =
        stored.ok_or_else(|| CliError::input(format!("{}: no tournament stored", db.display())))?;
    let format: BracketFormat = serde_json::from_str(&stored.format_json).map_err(|e| {
        CliError::failure(format!("{}: unreadable bracket format: {e}", db.display()))
    })?;
    let game = games
        .iter()
        .find(|g| g.set_id == args.set && g.run_no == run && g.game_index == game_index)
        .ok_or_else(|| {
            CliError::input(format!(
                "no game {game_index} of set {:?} (run {run}) in {}; `lrs-tourney export games` \
                 lists them",
                args.set,
                db.display()
            ))
        })?;
    let log = match (game.status, log) {
        (GameStatus::Done, Some(log)) => log,
        _ => {
            return Err(CliError::input(format!(
                "game {} of {} has not been played yet",
                game_index, args.set
            )));
        }
    };
    let mut lines: Vec<_> = results
        .get(&SetRun {
            set: args.set.clone(),
            run,
        })
        .map(|rows| {
            rows.iter()
                .filter(|r| r.game_index == game_index)
                .copied()
                .collect()
        })
        .unwrap_or_default();
    lines.sort_by_key(|r| r.seat);
    let team_name = |id: TeamId| {
        teams
            .iter()
            .find(|t| t.id == id)
            .map_or_else(|| format!("team {id}"), |t| t.name.clone())
    };
    if !format.game.is_lrs() {
        return replay_other_game(
            &args, run_arg, &format, game, &lines, &log, &stored, &team_name,
        );
    }
    let board = crate::games::lrs::boards::load_board(&game.arena).map_err(CliError::failure)?;
    let replayed = replay(board, lines.len(), game.seed, format.turns_per_game, &log)
        .map_err(|e| CliError::failure(format!("{} game {}: {e}", args.set, game_index)))?;
    // The replay must be the game: every seat's score as stored.
    let differ: Vec<String> = lines
        .iter()
        .filter(|r| replayed.scores.get(r.seat).map(|&s| i64::from(s)) != Some(r.score))
        .map(|r| {
            format!(
                "seat {}: stored {}, replayed {:?}",
                r.seat,
                r.score,
                replayed.scores.get(r.seat)
            )
        })
        .collect();
    if !differ.is_empty() {
        return Err(CliError::failure(format!(
            "REPLAY DIFFERS FROM THE STORED GAME ({} game {}): {}; the database was written \
             by engine version {} (this is {}), or it is corrupt",
            args.set,
            game_index,
            differ.join("; "),
            stored.engine_version,
            crate::games::lrs::engine::ENGINE_VERSION
        )));
    }
    let seats: Vec<SeatEntry> = lines
        .iter()
        .map(|r| SeatEntry {
            seat: r.seat,
            team: team_name(r.team),
            score: replayed.scores[r.seat],
        })
        .collect();
    let full_state_bytes = serde_json::to_vec(&replayed).map_or(0, |v| v.len());
    if let Some(path) = &args.html {
        let board =
            crate::games::lrs::boards::load_board(&game.arena).map_err(CliError::failure)?;
        let info = PageInfo {
            title: match run_arg {
                Some(r) => format!("{}, run {r}, game {game_index}", args.set),
                None => format!("{}, game {game_index}", args.set),
            },
            meta: format!(
                "{} · board {} · engine version {}",
                stored.name, game.arena, stored.engine_version
            ),
            back: None,
            seats: seats.iter().map(|s| s.team.clone()).collect(),
            stored_scores: Some(lines.iter().map(|r| r.score as i32).collect()),
        };
        write_page(path, &page(&board, &replayed, &info))?;
        eprintln!("wrote {}", path.display());
    }
    if args.json {
        let report = ReplayReport {
            set: &args.set,
            game: game_index,
            board: &game.arena,
            turn_limit: format.turns_per_game,
            seats,
            stored_bytes: log.len(),
            full_state_bytes,
            replay: &replayed,
        };
        let text = serde_json::to_string(&report).map_err(CliError::failure)?;
        println!("{text}");
        return Ok(());
    }
    if args.text {
        let board =
            crate::games::lrs::boards::load_board(&game.arena).map_err(CliError::failure)?;
        let mut names = vec![String::new(); replayed.start.len()];
        for s in &seats {
            if let Some(n) = names.get_mut(s.seat) {
                n.clone_from(&s.team);
            }
        }
        print!(
            "{}",
            text_turn("start", &board, &replayed.start, &[], &names)
        );
        for step in &replayed.steps {
            let title = format!("turn {}", step.turn);
            print!(
                "{}",
                text_turn(&title, &board, &step.robots, &step.events, &names)
            );
        }
    }
    println!(
        "{} game {}: {} turns on {} replayed from {} stored bytes; the scores match \
         the stored results",
        args.set,
        game_index,
        replayed.steps.len(),
        game.arena,
        log.len()
    );
    for s in &seats {
        println!("  seat {} {:<24} {}", s.seat, s.team, s.score);
    }
    println!(
        "stored: {} bytes of decisions; the same game as full state per turn (JSON): {} bytes \
         ({:.0}x)",
        log.len(),
        full_state_bytes,
        full_state_bytes as f64 / log.len().max(1) as f64
    );
    Ok(())
}

/// Writes a page whole or not at all: a temporary file renamed into place.
pub(crate) fn write_page(path: &std::path::Path, html: &str) -> Result<(), CliError> {
    let tmp = path.with_extension("html.part");
    std::fs::write(&tmp, html)
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|e| CliError::input(format!("{}: cannot write: {e}", path.display())))
}

/// One turn as text: the board with the robots on it (seat number and facing), each
/// robot's state, and what happened.
fn text_turn(
    title: &str,
    board: &crate::games::lrs::engine::Board,
    robots: &[crate::games::lrs::engine::Robot],
    events: &[crate::games::lrs::engine::Event],
    names: &[String],
) -> String {
    use std::fmt::Write as _;
    let label = |seat: usize| char::from_digit(seat as u32 + 1, 10).unwrap_or('?');
    let on_board: Vec<_> = robots
        .iter()
        .enumerate()
        .filter(|(_, r)| r.is_active())
        .map(|(seat, r)| (r.pos, label(seat), r.facing))
        .collect();
    let mut out = format!("== {title}\n");
    out.push_str(&crate::games::lrs::boards::render::render_grid(
        board, &on_board,
    ));
    for (seat, r) in robots.iter().enumerate() {
        let _ = writeln!(
            out,
            "  {} {:<22} {:<9} ({:>2},{:>2}) facing {:<5} damage {} lives {} score {}",
            label(seat),
            names.get(seat).map_or("", String::as_str),
            r.status.name(),
            r.pos.x,
            r.pos.y,
            r.facing.word(),
            r.damage,
            r.lives,
            r.score
        );
    }
    for e in events {
        let victim = e
            .victim
            .map_or_else(String::new, |v| format!(" {}", label(v)));
        let extra = match (e.points, e.cause, e.flag) {
            (_, Some(c), _) => format!(" ({})", c.name()),
            (_, _, Some(f)) => format!(" flag {f} (+{})", e.points),
            (p, _, _) if p != 0 => format!(" (+{p})"),
            _ => String::new(),
        };
        let _ = writeln!(
            out,
            "  - {} {}{victim}{extra}",
            label(e.robot),
            e.kind.name()
        );
    }
    out
}

/// `replay` of a RobotGame or Robots game: replayed from its decision log, checked against
/// the stored scores, and written as the game's trace (`--json`) or viewer page (`--html`).
#[allow(clippy::too_many_arguments)]
fn replay_other_game(
    args: &ReplayArgs,
    run_arg: Option<u32>,
    format: &BracketFormat,
    game: &crate::store::GameHistoryRow,
    lines: &[crate::store::ResultRow],
    log: &[u8],
    stored: &crate::store::StoredTournament,
    team_name: &dyn Fn(TeamId) -> String,
) -> Result<(), CliError> {
    use crate::play::contest;
    let kind = format.game.kind();
    let arena = crate::games::Arena::load(&format.game, &game.arena, format.turns_per_game)
        .map_err(CliError::failure)?;
    let label = format!("{} game {}", args.set, game.game_index);
    let replayed = contest::replay_for_view(&arena, lines.len(), game.seed, log)
        .map_err(|e| CliError::failure(format!("{label}: {e}")))?;
    let scores = replayed.scores();
    let differ: Vec<String> = lines
        .iter()
        .filter(|r| scores.get(r.seat) != Some(&r.score))
        .map(|r| {
            format!(
                "seat {}: stored {}, replayed {:?}",
                r.seat,
                r.score,
                scores.get(r.seat)
            )
        })
        .collect();
    if !differ.is_empty() {
        return Err(CliError::failure(format!(
            "REPLAY DIFFERS FROM THE STORED GAME ({label}): {}; the database was written by \
             engine version {} (this is {}), or it is corrupt",
            differ.join("; "),
            stored.engine_version,
            kind.engine_version()
        )));
    }
    if args.text {
        let names: Vec<String> = lines.iter().map(|r| team_name(r.team)).collect();
        let text = contest::replay_text(&arena, lines.len(), game.seed, log, &names)
            .map_err(|e| CliError::failure(format!("{label}: {e}")))?;
        print!("{text}");
    }
    let crate::games::view::Replayed::Trace { trace, .. } = &replayed else {
        return Err(CliError::failure(format!("{label}: not a trace replay")));
    };
    let seats: Vec<SeatEntry> = lines
        .iter()
        .map(|r| SeatEntry {
            seat: r.seat,
            team: team_name(r.team),
            score: r.score as i32,
        })
        .collect();
    if let Some(path) = &args.html {
        let info = PageInfo {
            title: match run_arg {
                Some(r) => format!("{}, run {r}, game {}", args.set, game.game_index),
                None => format!("{}, game {}", args.set, game.game_index),
            },
            meta: format!(
                "{} · {} · engine version {}",
                stored.name,
                kind.title(),
                stored.engine_version
            ),
            back: None,
            seats: seats.iter().map(|s| s.team.clone()).collect(),
            stored_scores: None,
        };
        write_page(path, &replayed.page(&info))?;
        eprintln!("wrote {}", path.display());
    }
    if args.json {
        let report = serde_json::json!({
            "game_kind": kind.id(),
            "set": args.set,
            "game": game.game_index,
            "arena": game.arena,
            "seats": seats,
            "stored_bytes": log.len(),
            "trace": trace,
        });
        println!("{report}");
        return Ok(());
    }
    let turns = trace
        .get("steps")
        .and_then(serde_json::Value::as_array)
        .map_or(0, Vec::len);
    println!(
        "{label}: {} turns of {} replayed from {} stored bytes; the scores match the \
         stored results",
        turns,
        kind.title(),
        log.len()
    );
    Ok(())
}
