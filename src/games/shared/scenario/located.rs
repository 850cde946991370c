//! Defines [`Located`]: a problem at a place of a text file, shown `file:line:column: problem`.

use thiserror::Error;

/// A problem at a place in a file, shown `file:line:column: problem`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{file}:{line}:{column}: {problem}")]
pub struct Located<P> {
    /// The file name as the caller gave it (e.g. `boards/x.toml`).
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, counted in characters.
    pub column: usize,
    pub problem: P,
}

impl<P> Located<P> {
    /// `problem` at byte `offset` of `text`, the contents of `file`.
    pub fn at(file: &str, text: &str, offset: usize, problem: P) -> Located<P> {
        let (line, column) = crate::text::line_col(text, offset);
        Located {
            file: file.to_string(),
            line,
            column,
            problem,
        }
    }

    /// `(line, column)`.
    pub fn position(&self) -> (usize, usize) {
        (self.line, self.column)
    }
}
