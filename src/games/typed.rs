//! The settings half of the game seam: [`SettingsSeam`], what the orchestrator asks about a
//! tournament's [`GameSettings`], and [`TypedGame`], how a game answers it from its own
//! settings type.
//!
//! Every game reads its stored settings back into its own type before it can say anything
//! about them; [`TypedGame`] gives that reading (and the fallback to the defaults where
//! the stored settings are unreadable) one home, so a game's `kind.rs` says only what
//! differs: its table, its description, its turn limit, its arena pool and its arenas.

use super::{Arena, Game, GameKind, GameSettings, SettingsProblem};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// What the orchestrator may ask of a game kind about its settings (a supertrait of
/// [`Game`]). The shipped games answer through [`TypedGame`]; a game may also implement
/// it directly.
pub trait SettingsSeam {
    /// The settings a bracket file's `game = "ID"` means with no `[game]` table.
    fn default_settings(&self) -> GameSettings;

    /// Reads the `[game]` table of the bracket file `text` (its `id` already read). Keys of
    /// another game, or unknown ones, are problems.
    fn settings_from_table(&self, text: &str) -> Result<GameSettings, SettingsProblem>;

    /// The settings in one line, for summaries and configuration comparisons.
    fn describe_settings(&self, settings: &GameSettings) -> String;

    /// The most turns one game lasts (`pool_turns`: the bracket's `turns_per_game`, which
    /// games with an arena pool play).
    fn max_turns(&self, settings: &GameSettings, pool_turns: u16) -> u32;

    /// The arena names a tournament's games cycle through, game `g` on `pool[g % len]`:
    /// the bracket's `boards` for games with an arena pool, else the arenas the settings
    /// describe.
    fn arena_pool(&self, settings: &GameSettings, boards: &[String]) -> Vec<String>;

    /// The arena stored as `name`, ready to play (`turns`: the bracket's `turns_per_game`).
    fn load_arena(&self, settings: &GameSettings, name: &str, turns: u16) -> Result<Arena, String>;
}

/// A game whose settings are a value of its own type, `Settings` (its keys as fields;
/// [`NoSettings`] for a game without any). [`SettingsSeam`] follows from it.
pub trait TypedGame: Game + Sized {
    type Settings: Serialize + DeserializeOwned + Default;

    /// The registered game (its handle is stored with its settings).
    const GAME: &'static Self;

    /// Reads the `[game]` table of the bracket file `text`, every value checked.
    fn read_table(&self, text: &str) -> Result<Self::Settings, SettingsProblem>;

    /// The settings in one line.
    fn describe(&self, settings: &Self::Settings) -> String;

    /// The most turns one game lasts (`pool_turns`: the bracket's `turns_per_game`).
    fn turn_limit(&self, settings: &Self::Settings, pool_turns: u16) -> u32;

    /// The arena names games cycle through (`boards`: the bracket's arena pool).
    fn arena_names(&self, settings: &Self::Settings, boards: &[String]) -> Vec<String>;

    /// The arena `name`, ready to play (`turns`: the bracket's `turns_per_game`).
    fn load(&self, settings: &Self::Settings, name: &str, turns: u16) -> Result<Arena, String>;

    /// The handle of the game.
    fn kind() -> GameKind {
        GameKind::of(Self::GAME)
    }

    /// `settings` as the seam carries and the store keeps them.
    fn carried(settings: &Self::Settings) -> GameSettings {
        GameSettings::of(Self::kind(), settings)
    }
}

/// Settings that cannot be read back (stored by another build) describe themselves by the
/// reading error, and count as the defaults for the turn limit and the arena pool; loading
/// an arena from them fails.
impl<T: TypedGame> SettingsSeam for T {
    fn default_settings(&self) -> GameSettings {
        T::carried(&T::Settings::default())
    }

    fn settings_from_table(&self, text: &str) -> Result<GameSettings, SettingsProblem> {
        self.read_table(text).map(|s| T::carried(&s))
    }

    fn describe_settings(&self, settings: &GameSettings) -> String {
        match settings.read::<T::Settings>() {
            Ok(s) => self.describe(&s),
            Err(e) => e,
        }
    }

    fn max_turns(&self, settings: &GameSettings, pool_turns: u16) -> u32 {
        self.turn_limit(&settings.read().unwrap_or_default(), pool_turns)
    }

    fn arena_pool(&self, settings: &GameSettings, boards: &[String]) -> Vec<String> {
        self.arena_names(&settings.read().unwrap_or_default(), boards)
    }

    fn load_arena(&self, settings: &GameSettings, name: &str, turns: u16) -> Result<Arena, String> {
        self.load(&settings.read()?, name, turns)
    }
}

/// The settings of a game that takes none: stored as no keys.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct NoSettings {}
