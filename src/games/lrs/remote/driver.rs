//! Plays one game with any mix of in-process and remote players: remote players of one
//! query round are asked concurrently, so a slow bot costs its own time limit once per
//! round, not once per seat.

use super::{BoxFuture, GameSetup, RemotePlayer, View};
use crate::games::lrs::engine::{
    Fault, Game, GameError, Pending, Player, StartQuery, StartReply, TurnQuery, TurnReply,
};
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

/// A kind of question one round asks every seat it names (a start square, a turn): how an
/// in-process and a remote player answer it, and the answer of a seat with no player.
trait Question: Sync {
    type Reply: Send + Copy;
    /// The answer of a seat whose player is missing.
    const CRASH: Self::Reply;
    fn seat(&self) -> usize;
    fn local(&self, player: &mut (dyn Player + Send), game: &Game) -> Self::Reply;
    fn remote<'a>(
        &'a self,
        player: &'a mut dyn RemotePlayer,
        view: &'a View,
    ) -> BoxFuture<'a, Self::Reply>;
}

/// Implements [`Question`] for a query whose players' method is `$ask`.
macro_rules! question {
    ($query:ty, $reply:ident, $ask:ident) => {
        impl Question for $query {
            type Reply = $reply;
            const CRASH: $reply = $reply::Fault(Fault::Crash);
            fn seat(&self) -> usize {
                self.seat
            }
            fn local(&self, player: &mut (dyn Player + Send), game: &Game) -> $reply {
                player.$ask(game, self)
            }
            fn remote<'a>(
                &'a self,
                player: &'a mut dyn RemotePlayer,
                view: &'a View,
            ) -> BoxFuture<'a, $reply> {
                player.$ask(view, self)
            }
        }
    };
}

question!(StartQuery, StartReply, start);
question!(TurnQuery, TurnReply, turn);

/// The replies to one round of `queries`, in query order: local players answer in place,
/// remote ones are asked concurrently, a seat with no player crashes.
async fn ask_all<Q: Question>(
    seats: &mut [SeatPlayer],
    game: &Game,
    queries: &[Q],
) -> Vec<Q::Reply> {
    let snapshot = view(game);
    let mut replies: Vec<Option<Q::Reply>> = queries.iter().map(|_| None).collect();
    let mut asks = Vec::new();
    let mut remote_index = Vec::new();
    for (seat, player) in seats.iter_mut().enumerate() {
        let Some(i) = queries.iter().position(|q| q.seat() == seat) else {
            continue;
        };
        match player {
            SeatPlayer::Local(p) => replies[i] = Some(queries[i].local(p.as_mut(), game)),
            SeatPlayer::Remote(r) => {
                asks.push(queries[i].remote(r.as_mut(), &snapshot));
                remote_index.push(i);
            }
        }
    }
    for (i, reply) in remote_index.into_iter().zip(join_all(asks).await) {
        replies[i] = Some(reply);
    }
    replies.into_iter().map(|r| r.unwrap_or(Q::CRASH)).collect()
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
                let replies = ask_all(seats, game, queries).await;
                game.answer_start(&replies)?;
            }
            Pending::Turn(queries) => {
                let replies = ask_all(seats, game, queries).await;
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
