//! Defines [`GameSettings`]: the game a tournament plays with its settings, as a bracket
//! file gives them and as the store keeps them (inside the bracket format's JSON).
//!
//! A bracket file names its game in one of two ways: `game = "robots"` (that game with its
//! default settings), or a `[game]` table with `id = "robots"` and the game's own keys.
//! (TOML cannot hold both a `game` key and a `[game]` table, so the table carries the id.)
//! Each game reads its own table in its folder and keeps its settings here as JSON values
//! the orchestrator stores and compares without knowing what they mean; the configuration
//! layer only places the problems in the file.

use super::GameKind;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

/// The game of a tournament and its settings: the game's id and its own keys, in the
/// order the game wrote them (so the stored JSON is stable).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameSettings {
    kind: GameKind,
    values: Map<String, Value>,
}

/// A problem with a `[game]` table: where (a byte offset into the file, when known), what
/// and what was expected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettingsProblem {
    pub offset: Option<usize>,
    pub what: String,
    pub expected: String,
}

impl GameSettings {
    /// The settings of `kind` given as a typed value of the game (a struct whose fields
    /// are its keys; `()` for a game with none).
    pub fn of<T: Serialize>(kind: GameKind, settings: &T) -> GameSettings {
        let values = match serde_json::to_value(settings) {
            Ok(Value::Object(map)) => map,
            _ => Map::new(),
        };
        GameSettings { kind, values }
    }

    /// The game's typed view of its settings (the type it gave to [`GameSettings::of`]).
    pub fn read<T: DeserializeOwned>(&self) -> Result<T, String> {
        serde_json::from_value(Value::Object(self.values.clone())).map_err(|e| {
            format!(
                "the stored settings of {} are not readable by this build: {e}",
                self.kind.id()
            )
        })
    }

    pub fn kind(&self) -> GameKind {
        self.kind
    }

    /// Whether these are the default game's settings with no keys, which the stored JSON
    /// leaves out (so databases of the first game read as they always did).
    pub fn is_plain_default(&self) -> bool {
        self.kind.is_default() && self.values.is_empty()
    }

    /// The settings `game = "ID"` means.
    pub fn default_for(kind: GameKind) -> GameSettings {
        kind.game().default_settings()
    }

    /// The most turns one game lasts (`pool_turns`: the bracket's `turns_per_game`, for
    /// games with an arena pool).
    pub fn turns(&self, pool_turns: u16) -> u32 {
        self.kind.game().max_turns(self, pool_turns)
    }

    /// The settings in one line, for summaries and configuration comparisons.
    pub fn describe(&self) -> String {
        self.kind.game().describe_settings(self)
    }

    /// Reads the `[game]` table of the bracket file `text` for `kind` (its `id` already
    /// read). Keys of another game, or unknown ones, are problems.
    pub fn from_table(kind: GameKind, text: &str) -> Result<GameSettings, SettingsProblem> {
        kind.game().settings_from_table(text)
    }
}

impl Default for GameSettings {
    fn default() -> GameSettings {
        GameSettings::default_for(GameKind::default())
    }
}

/// `{"id": "robots", "width": 30, ...}`: the id first, then the game's keys.
impl Serialize for GameSettings {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = Map::with_capacity(self.values.len() + 1);
        map.insert("id".to_string(), Value::String(self.kind.id().to_string()));
        map.extend(self.values.iter().map(|(k, v)| (k.clone(), v.clone())));
        map.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for GameSettings {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<GameSettings, D::Error> {
        let mut values = Map::deserialize(deserializer)?;
        let id = match values.shift_remove("id") {
            Some(Value::String(id)) => id,
            _ => return Err(serde::de::Error::missing_field("id")),
        };
        let kind = GameKind::parse(&id).map_err(serde::de::Error::custom)?;
        Ok(GameSettings { kind, values })
    }
}

/// The file's `game` table, other keys of the file ignored.
#[derive(Deserialize)]
struct Doc<T> {
    game: T,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct IdOnly {
    #[allow(dead_code)]
    id: String,
}

/// Reads the file's `[game]` table as `T` (a game's table type, `id` among its fields);
/// `expected` says what the table may hold, for the problem.
pub(in crate::games) fn table<T: for<'de> Deserialize<'de>>(
    text: &str,
    expected: &str,
) -> Result<T, SettingsProblem> {
    toml::from_str::<Doc<T>>(text)
        .map(|d| d.game)
        .map_err(|e| SettingsProblem {
            offset: e.span().map(|s| s.start),
            what: e.message().trim().to_string(),
            expected: expected.to_string(),
        })
}

/// The integer setting `key`, if written, within `range`; out of range is a problem placed
/// where it is written.
pub(in crate::games) fn integer_in(
    value: &Option<toml::Spanned<i64>>,
    key: &str,
    range: std::ops::RangeInclusive<i64>,
) -> Result<Option<i64>, SettingsProblem> {
    match value {
        None => Ok(None),
        Some(v) if range.contains(v.get_ref()) => Ok(Some(*v.get_ref())),
        Some(v) => Err(SettingsProblem {
            offset: Some(v.span().start),
            what: format!("`{key}` = {} is out of range", v.get_ref()),
            expected: format!("an integer from {} to {}", range.start(), range.end()),
        }),
    }
}

/// Checks that the `[game]` table of `text` holds its `id` alone (`expected` says why).
pub(in crate::games) fn no_settings(text: &str, expected: &str) -> Result<(), SettingsProblem> {
    table::<IdOnly>(text, expected).map(|_| ())
}
