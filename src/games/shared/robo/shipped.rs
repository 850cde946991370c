//! Defines [`Shipped`]: the grid files a game ships (its boards or ships, compiled in so
//! the binary works from any directory), the loading of one by its name or by a path, and
//! what `lrs-tourney boards` shows of them. Every game whose arenas are grid files lists,
//! loads and draws them the same way; only the files, the parser and the legend differ.

use crate::games::SettingsProblem;
use crate::games::kind::ShippedArena;
use std::sync::Arc;
use toml::Spanned;

/// An arena read from a grid file, as [`Shipped`] lists and draws it.
pub trait GridArena {
    /// Its `name` key (`Dock Sprint`).
    fn title(&self) -> &str;
    /// Its `description` key.
    fn description(&self) -> &str;
    /// Width and height in squares.
    fn size(&self) -> (i32, i32);
    /// The grid as written, rows joined by newlines, one space between cells.
    fn grid(&self) -> &str;
}

/// Implements [`GridArena`] for an arena type read from a grid file: its `name`,
/// `description` and `grid` fields keep the file's keys, its `width()` and `height()` its
/// size. The game's boards and ships all keep them so, and are listed and drawn alike.
macro_rules! grid_arena {
    ($arena:ty) => {
        impl $crate::games::shared::robo::shipped::GridArena for $arena {
            fn title(&self) -> &str {
                &self.name
            }

            fn description(&self) -> &str {
                &self.description
            }

            fn size(&self) -> (i32, i32) {
                (self.width(), self.height())
            }

            fn grid(&self) -> &str {
                &self.grid
            }
        }
    };
}
pub(crate) use grid_arena;

/// The grid files a game ships and how it reads them.
pub struct Shipped<T: 'static> {
    /// The game's name in messages (`RoboRally`).
    pub game: &'static str,
    /// What one arena is called in messages (`board`, `ship`).
    pub noun: &'static str,
    /// The folder the files are compiled in from, which a shipped file's errors name.
    pub folder: &'static str,
    /// The shipped files as (name, file text), in the order the game lists them.
    pub files: &'static [(&'static str, &'static str)],
    /// Reads a file's text; the second argument names the file in errors.
    pub parse: fn(&str, &str) -> Result<T, String>,
    /// How wide each cell is drawn by [`Shipped::render`] (the longest token and a space).
    pub cell_width: usize,
    /// What the tokens mean, printed under a drawn grid.
    pub legend: &'static str,
}

impl<T: GridArena> Shipped<T> {
    /// The shipped names, for messages.
    pub fn names(&self) -> String {
        let names: Vec<&str> = self.files.iter().map(|(name, _)| *name).collect();
        names.join(", ")
    }

    /// The arena named `name` (a shipped one) or at the path `name`.
    pub fn load(&self, name: &str) -> Result<Arc<T>, String> {
        if let Some((stem, text)) = self.files.iter().find(|(n, _)| *n == name) {
            let file = format!("{}/{stem}.toml", self.folder);
            return (self.parse)(text, &file).map(Arc::new);
        }
        let text = std::fs::read_to_string(name).map_err(|e| {
            format!(
                "{name}: not a {} {} ({}) nor a readable {} file: {e}",
                self.game,
                self.noun,
                self.names(),
                self.noun
            )
        })?;
        (self.parse)(&text, name).map(Arc::new)
    }

    /// `arena` drawn as text with the legend (`lrs-tourney boards show`).
    pub fn render(&self, arena: &T) -> String {
        let (width, height) = arena.size();
        let mut out = format!(
            "{} ({width}x{height})\n{}\n\n",
            arena.title(),
            arena.description()
        );
        for line in arena.grid().lines() {
            let cells: Vec<String> = line
                .split(' ')
                .map(|t| format!("{t:<w$}", w = self.cell_width))
                .collect();
            out += cells.concat().trim_end();
            out.push('\n');
        }
        out.push('\n');
        out += self.legend;
        out
    }

    /// Every shipped arena that loads, as `lrs-tourney boards` lists it.
    pub fn arenas(&self) -> Vec<ShippedArena> {
        self.files
            .iter()
            .filter_map(|(name, _)| {
                let arena = self.load(name).ok()?;
                let (width, height) = arena.size();
                Some(ShippedArena {
                    name: name.to_string(),
                    title: arena.title().to_string(),
                    size: format!("{width}x{height}"),
                    about: arena.description().to_string(),
                })
            })
            .collect()
    }

    /// The names of a settings list `key` (`boards = [...]`): not empty, each a shipped
    /// name or a file that loads and passes `check` (given the arena and its name as
    /// written, it answers what is wrong and what was expected).
    pub fn read_names(
        &self,
        key: &str,
        list: Spanned<Vec<Spanned<String>>>,
        check: impl Fn(&T, &str) -> Result<(), (String, String)>,
    ) -> Result<Vec<String>, SettingsProblem> {
        let noun = self.noun;
        if list.get_ref().is_empty() {
            return Err(SettingsProblem {
                offset: Some(list.span().start),
                what: format!("`{key}` is empty"),
                expected: format!("{noun} names ({}) or {noun} files", self.names()),
            });
        }
        for name in list.get_ref() {
            let offset = Some(name.span().start);
            let arena = self.load(name.get_ref()).map_err(|what| SettingsProblem {
                offset,
                what,
                expected: format!("a {} {noun}: {}", self.game, self.names()),
            })?;
            check(&arena, name.get_ref()).map_err(|(what, expected)| SettingsProblem {
                offset,
                what,
                expected,
            })?;
        }
        Ok(list
            .into_inner()
            .into_iter()
            .map(Spanned::into_inner)
            .collect())
    }

    /// The arena `name` drawn, or why it does not load.
    pub fn show(&self, name: &str) -> Result<String, String> {
        self.load(name).map(|arena| self.render(&arena))
    }
}
