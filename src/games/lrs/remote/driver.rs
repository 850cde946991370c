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

/// A query of one round (start or turn), as local and remote players answer it.
trait Query: Sync {
    type Reply: Send;
    /// The reply of a seat with no player: a crash.
    const ABSENT: Self::Reply;
    fn seat(&self) -> usize;
    fn local(&self, player: &mut (dyn Player + Send), game: &Game) -> Self::Reply;
    fn remote<'a>(
        &'a self,
        player: &'a mut dyn RemotePlayer,
        view: &'a View,
    ) -> BoxFuture<'a, Self::Reply>;
}

impl Query for StartQuery {
    type Reply = StartReply;
    const ABSENT: StartReply = StartReply::Fault(Fault::Crash);
    fn seat(&self) -> usize {
        self.seat
    }
    fn local(&self, player: &mut (dyn Player + Send), game: &Game) -> StartReply {
        player.start(game, self)
    }
    fn remote<'a>(
        &'a self,
        player: &'a mut dyn RemotePlayer,
        view: &'a View,
    ) -> BoxFuture<'a, StartReply> {
        player.start(view, self)
    }
}

impl Query for TurnQuery {
    type Reply = TurnReply;
    const ABSENT: TurnReply = TurnReply::Fault(Fault::Crash);
    fn seat(&self) -> usize {
        self.seat
    }
    fn local(&self, player: &mut (dyn Player + Send), game: &Game) -> TurnReply {
        player.turn(game, self)
    }
    fn remote<'a>(
        &'a self,
        player: &'a mut dyn RemotePlayer,
        view: &'a View,
    ) -> BoxFuture<'a, TurnReply> {
        player.turn(view, self)
    }
}

/// The replies to one round of `queries`, in query order: local players answer in place,
/// remote ones are asked concurrently.
async fn ask_all<Q: Query>(
    seats: &mut [SeatPlayer],
    game: &Game,
    snapshot: &View,
    queries: &[Q],
) -> Vec<Q::Reply> {
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
                asks.push(queries[i].remote(r.as_mut(), snapshot));
                remote_index.push(i);
            }
        }
    }
    for (i, reply) in remote_index.into_iter().zip(join_all(asks).await) {
        replies[i] = Some(reply);
    }
    replies
        .into_iter()
        .map(|r| r.unwrap_or(Q::ABSENT))
        .collect()
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
        let snapshot = view(game);
        match game.pending() {
            Pending::Start(queries) => {
                let queries = queries.to_vec();
                let replies = ask_all(seats, game, &snapshot, &queries).await;
                game.answer_start(&replies)?;
            }
            Pending::Turn(queries) => {
                let queries = queries.to_vec();
                let replies = ask_all(seats, game, &snapshot, &queries).await;
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
