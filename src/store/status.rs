//! The stored states of stages, sets and games (the `status` columns), spelled in SQL as
//! [`as_str`](StageStatus::as_str) gives them.

use std::fmt;

/// A `status` value that this version does not know: the database was written by another
/// program, or damaged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {table} status {value:?}")]
pub struct UnknownStatus {
    /// `stage`, `set` or `game`.
    pub table: &'static str,
    pub value: String,
}

/// Defines a status enum with its stored spellings, `as_str`, `parse` and `Display`.
macro_rules! status {
    ($(#[$doc:meta])* $name:ident, $table:literal, { $($(#[$vdoc:meta])* $variant:ident => $text:literal,)+ }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$vdoc])* $variant,)+
        }

        impl $name {
            /// Every status.
            pub const ALL: &'static [$name] = &[$($name::$variant,)+];

            /// The stored spelling.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)+
                }
            }

            /// The status stored as `text`.
            pub fn parse(text: &str) -> Result<$name, UnknownStatus> {
                $name::ALL
                    .iter()
                    .copied()
                    .find(|s| s.as_str() == text)
                    .ok_or_else(|| UnknownStatus {
                        table: $table,
                        value: text.to_string(),
                    })
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.pad(self.as_str())
            }
        }
    };
}

status!(
    /// Where a stage is (`stages.status`).
    StageStatus, "stage", {
        /// Stored with the tournament; no set dealt yet.
        Planned => "planned",
        /// Some set dealt, the stage not finished.
        Running => "running",
        /// Its final (or its single team's qualification) is stored.
        Done => "done",
    }
);

status!(
    /// Where a set is (`sets.status`).
    SetStatus, "set", {
        /// Dealt, its advancement not stored yet.
        Planned => "planned",
        /// Every game stored and who advanced recorded.
        Done => "done",
        /// A rerun changed what it depends on: the next run deals it again.
        Invalidated => "invalidated",
    }
);

status!(
    /// Where a game is (`games.status`). A game goes from `planned` to `done` once, which is
    /// what keeps a result from being counted twice.
    GameStatus, "game", {
        /// Dealt, not finished.
        Planned => "planned",
        /// Finished, its decisions and result lines stored.
        Done => "done",
    }
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_read_back_as_stored() {
        for s in StageStatus::ALL {
            assert_eq!(StageStatus::parse(s.as_str()), Ok(*s));
        }
        for s in SetStatus::ALL {
            assert_eq!(SetStatus::parse(s.as_str()), Ok(*s));
        }
        for s in GameStatus::ALL {
            assert_eq!(GameStatus::parse(s.as_str()), Ok(*s));
        }
        assert_eq!(SetStatus::Invalidated.as_str(), "invalidated");
        assert_eq!(StageStatus::Running.to_string(), "running");
    }

    #[test]
    fn an_unknown_status_is_named() {
        let err = GameStatus::parse("finished").unwrap_err();
        assert_eq!(err.to_string(), "unknown game status \"finished\"");
        assert!(SetStatus::parse("running").is_err());
    }
}
