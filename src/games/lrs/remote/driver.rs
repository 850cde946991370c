//! Plays one game with any mix of in-process and remote players: remote players of one
//! query round are asked concurrently, so a slow bot costs its own time limit once per
//! round, not once per seat.

use super::{BoxFuture, GameSetup, RemotePlayer, View};
use crate::games::lrs::engine::{Fault, Game, GameError, Pending, Player, StartReply, TurnReply};
use futures_util::future::join_all;

/// The player in one seat.
pub enum SeatPlayer {
    Local(Box<dyn Player + Send>),
    Remote(Box<dyn RemotePlayer>),
}

fn view(game: &Game) -> View {
    View {
        turn: game.turn(),
        repair_on: game.repair_on(),
        robots: game.robots().to_vec(),
    }
}

/// The replies to one round of `queries` (each for the seat `seat_of` says), in query
/// order: local players answer in place (`local`), remote ones are asked concurrently
/// (`remote`), a seat with no player crashes (`crash`).
async fn ask_all<Q: Sync, R: Send + Copy>(
    seats: &mut [SeatPlayer],
    game: &Game,
    queries: &[Q],
    seat_of: impl Fn(&Q) -> usize,
    local: impl Fn(&mut (dyn Player + Send), &Game, &Q) -> R,
    remote: impl for<'a> Fn(&'a mut dyn RemotePlayer, &'a View, &'a Q) -> BoxFuture<'a, R>,
    crash: R,
) -> Vec<R> {
    let snapshot = view(game);
    let mut replies: Vec<Option<R>> = queries.iter().map(|_| None).collect();
    let mut asks = Vec::new();
    let mut remote_index = Vec::new();
    for (seat, player) in seats.iter_mut().enumerate() {
        let Some(i) = queries.iter().position(|q| seat_of(q) == seat) else {
            continue;
        };
        match player {
            SeatPlayer::Local(p) => replies[i] = Some(local(p.as_mut(), game, &queries[i])),
            SeatPlayer::Remote(r) => {
                asks.push(remote(r.as_mut(), &snapshot, &queries[i]));
                remote_index.push(i);
            }
        }
    }
    for (i, reply) in remote_index.into_iter().zip(join_all(asks).await) {
        replies[i] = Some(reply);
    }
    replies.into_iter().map(|r| r.unwrap_or(crash)).collect()
}

/// Plays `game` to its end. `setups[seat]` is what the player in that seat is told when the
/// game begins.
pub async fn drive_game(
    game: &mut Game,
    seats: &mut [SeatPlayer],
    setups: &[GameSetup],
) -> Result<(), GameError> {
    let remote_begins = seats.iter_mut().zip(setups).filter_map(|(p, s)| match p {
        SeatPlayer::Remote(r) => Some(r.begin_game(s)),
        SeatPlayer::Local(_) => None,
    });
    join_all(remote_begins).await;
    loop {
        match game.pending() {
            Pending::Start(queries) => {
                let queries = queries.to_vec();
                let replies = ask_all(
                    seats,
                    game,
                    &queries,
                    |q| q.seat,
                    |p, game, q| p.start(game, q),
                    |p, view, q| p.start(view, q),
                    StartReply::Fault(Fault::Crash),
                )
                .await;
                game.answer_start(&replies)?;
            }
            Pending::Turn(queries) => {
                let queries = queries.to_vec();
                let replies = ask_all(
                    seats,
                    game,
                    &queries,
                    |q| q.seat,
                    |p, game, q| p.turn(game, q),
                    |p, view, q| p.turn(view, q),
                    TurnReply::Fault(Fault::Crash),
                )
                .await;
                game.answer_turn(&replies)?;
            }
            Pending::Cards => return Err(GameError::WrongPhase("drive_game", "scenario cards")),
            Pending::Over => break,
        }
    }
    let snapshot = view(game);
    let overs = seats.iter_mut().filter_map(|p| match p {
        SeatPlayer::Remote(r) => Some(r.game_over(&snapshot)),
        SeatPlayer::Local(_) => None,
    });
    join_all(overs).await;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::lrs::ai::BuiltinAi;
    use crate::games::lrs::engine::{EventKind, GameConfig};
    use crate::games::lrs::remote::Absent;

    #[tokio::test]
    async fn an_absent_remote_player_faults_every_query_and_the_game_completes() {
        let board = crate::games::lrs::boards::load_board("gear-works").unwrap();
        let mut game = Game::new(board.clone(), 2, 7, GameConfig::default()).unwrap();
        let mut seats = vec![
            SeatPlayer::Local(BuiltinAi::Runner.player(7, 0)),
            SeatPlayer::Remote(Box::new(Absent {
                fault: Some(crate::games::lrs::engine::Fault::Timeout),
            })),
        ];
        let setups: Vec<GameSetup> = (0..2)
            .map(|seat| GameSetup {
                seat,
                players: vec!["a".into(), "b".into()],
                board: board.clone(),
                turn_limit: 60,
                time_limit_ms: 1000,
            })
            .collect();
        drive_game(&mut game, &mut seats, &setups).await.unwrap();
        assert!(game.is_over());
        let timeouts = game
            .events()
            .iter()
            .filter(|e| e.kind == EventKind::Timeout && e.robot == 1)
            .count();
        let asked = game
            .decisions()
            .iter()
            .filter(|d| {
                matches!(
                    d,
                    crate::games::lrs::engine::Decision::Turn { seat: 1, .. }
                        | crate::games::lrs::engine::Decision::Start { seat: 1, .. }
                )
            })
            .count();
        assert!(timeouts > 0);
        assert_eq!(timeouts, asked, "one timeout event per query of seat 1");
        assert!(
            game.events()
                .iter()
                .all(|e| !(e.kind.is_fault() && e.robot == 0))
        );
    }
}
