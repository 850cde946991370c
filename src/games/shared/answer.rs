//! What the games whose answers echo their turn (`{"turn": N, ...}`) check of a bot's line
//! before reading it as their own answer: that it is text, and that it answers this turn;
//! and, for those that answer with one order, the whole reading.

use crate::games::jsonl::Reading;
use serde_json::Value;

/// `line` as text if it may answer turn `turn`; else what it is: malformed when it is not
/// UTF-8, a late answer when it names another turn (discarded, as for every JSON-lines bot).
/// A line that is not JSON, or names no turn, is left to the game's reader.
pub fn answer_text<T>(line: &[u8], turn: u32) -> Result<&str, Reading<T>> {
    let Ok(text) = std::str::from_utf8(line) else {
        return Err(Reading::Malformed("it is not UTF-8 text".to_string()));
    };
    if let Ok(v) = serde_json::from_str::<Value>(text)
        && let Some(t) = v.get("turn").and_then(Value::as_u64)
        && t != u64::from(turn)
    {
        return Err(Reading::OtherTurn);
    }
    Ok(text)
}

/// A bot's line read as its one answer to turn `turn` (`parse` reads the text), for the
/// games whose seats answer each question with a single order: the turn check of
/// [`answer_text`] comes first, so a late line is discarded before it can be called malformed.
pub fn read_single<T>(
    line: &[u8],
    turn: u32,
    parse: impl FnOnce(&str) -> Result<T, String>,
) -> Reading<Vec<T>> {
    let text = match answer_text(line, turn) {
        Ok(text) => text,
        Err(reading) => return reading,
    };
    match parse(text) {
        Ok(a) => Reading::Answer(vec![a]),
        Err(why) => Reading::Malformed(why),
    }
}
