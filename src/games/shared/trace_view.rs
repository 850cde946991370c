//! Defines [`TraceView`]: the replay view of a game shown by its JSON trace. The viewer
//! draws the trace, `replay --json` prints it and its size is the game's full state, so
//! such a game supplies only the trace, its page and its text.

use crate::games::arena::Decisions;
use crate::games::shared::seats::TurnArena;
use crate::games::view::{PageInfo, ReplayAbout, ReplayView, Replayed};
use crate::games::{GameKind, GameOutcome};
use serde_json::{Value, json};

/// The text of a game turn by turn (`replay --text`).
type Text = Box<dyn Fn(&[String]) -> String + Send + Sync>;

/// A replayed game shown by its trace.
pub struct TraceView {
    kind: GameKind,
    scores: Vec<i64>,
    trace: Value,
    page: fn(&Value, &PageInfo) -> String,
    text: Text,
}

impl TraceView {
    /// The view of a game of `kind` that ended as `outcome`, traced as `trace`; `page`
    /// draws the trace, `text(names)` tells the game turn by turn.
    pub fn replayed(
        kind: GameKind,
        outcome: &GameOutcome,
        trace: Value,
        page: fn(&Value, &PageInfo) -> String,
        text: impl Fn(&[String]) -> String + Send + Sync + 'static,
    ) -> Replayed {
        Replayed::new(TraceView {
            kind,
            scores: outcome.seats.iter().map(|s| s.score).collect(),
            trace,
            page,
            text: Box::new(text),
        })
    }

    /// The view of `game`, replayed in `arena` with its state kept turn by turn, for a game
    /// whose finished state alone yields both its trace and its text: the game is kept for
    /// `text(game, names)`, which is asked only when the text is wanted.
    pub fn of_game<A>(
        arena: &A,
        game: A::Game,
        trace: fn(&A::Game) -> Value,
        page: fn(&Value, &PageInfo) -> String,
        text: fn(&A::Game, &[String]) -> String,
    ) -> Replayed
    where
        A: TurnArena<Game: Sync + 'static>,
    {
        let outcome = arena.outcome(&game, Decisions::Skip);
        let trace = trace(&game);
        TraceView::replayed(
            TurnArena::kind(arena),
            &outcome,
            trace,
            page,
            move |names| text(&game, names),
        )
    }
}

impl ReplayView for TraceView {
    fn scores(&self) -> Vec<i64> {
        self.scores.clone()
    }

    /// Turns in the trace (its `steps`).
    fn turns(&self) -> usize {
        self.trace
            .get("steps")
            .and_then(Value::as_array)
            .map_or(0, Vec::len)
    }

    fn page(&self, info: &PageInfo) -> String {
        (self.page)(&self.trace, info)
    }

    fn text(&self, names: &[String]) -> String {
        (self.text)(names)
    }

    fn report_json(&self, about: &ReplayAbout) -> Value {
        json!({
            "game_kind": self.kind.id(),
            "set": about.set,
            "game": about.game,
            "arena": about.arena,
            "seats": about.seats,
            "stored_bytes": about.stored_bytes,
            "trace": self.trace,
        })
    }

    fn full_state_bytes(&self) -> usize {
        self.trace.to_string().len()
    }
}

/// A game told turn by turn: `game` at the start, then after each of `turns` that `play`
/// replays (it gives the turn's number; the text stops at the first that fails), each
/// drawn by `render(title, game)`. Empty when the game could not be set up.
pub fn turn_by_turn<G, T, N: std::fmt::Display>(
    game: Option<G>,
    turns: impl IntoIterator<Item = T>,
    mut play: impl FnMut(&mut G, &T) -> Option<N>,
    render: impl Fn(&str, &G) -> String,
) -> String {
    let Some(mut game) = game else {
        return String::new();
    };
    let mut out = render("start", &game);
    for turn in turns {
        let Some(number) = play(&mut game, &turn) else {
            break;
        };
        out += &render(&format!("turn {number}"), &game);
    }
    out
}
