//! Defines [`GridOrigin`]: where a grid's text lies in its enclosing file.
//!
//! Grids are TOML strings inside board and scenario files; to report a bad cell at the
//! file's line and column, the parser maps offsets in the decoded string back to the file,
//! across the opening delimiter, a trimmed first newline and any escapes.

use crate::text::{advance, line_col};
use std::ops::Range;

/// Where a grid string starts in its enclosing file, so errors point at the file's line and
/// column rather than the grid's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GridOrigin(Origin);

#[derive(Debug, Clone, PartialEq, Eq)]
enum Origin {
    /// The grid text appears verbatim in the file, starting at this 1-based line and column.
    At { line: usize, column: usize },
    /// The grid came from a TOML string with escapes: file `(line, column)` of every byte of
    /// the decoded text, plus one entry for its end.
    Mapped(Vec<(usize, usize)>),
}

impl Default for GridOrigin {
    /// The grid is the whole file (line 1, column 1).
    fn default() -> Self {
        GridOrigin::at(1, 1)
    }
}

impl GridOrigin {
    /// The grid text appears verbatim in its file from the 1-based `line` and `column`.
    pub fn at(line: usize, column: usize) -> GridOrigin {
        GridOrigin(Origin::At {
            line: line.max(1),
            column: column.max(1),
        })
    }

    /// The origin of a TOML string value: `span` is the byte range of the value in
    /// `file_text`, delimiters included (as given by [`toml::Spanned::span`]), and `value` is
    /// its decoded text. Handles `"..."`, `'...'`, `"""..."""` (whose newline right after the
    /// opening delimiter is trimmed) and `'''...'''`; escapes such as `\t` and
    /// line-ending backslashes are mapped back to their place in the file.
    pub fn of_toml_string(file_text: &str, span: Range<usize>, value: &str) -> GridOrigin {
        let Some(raw) = file_text.get(span.clone()) else {
            let (line, column) = line_col(file_text, span.start);
            return GridOrigin::at(line, column);
        };
        let (delim, basic) = if raw.starts_with("\"\"\"") {
            (3, true)
        } else if raw.starts_with("'''") {
            (3, false)
        } else if raw.starts_with('"') {
            (1, true)
        } else {
            (1, false)
        };
        let mut start = span.start + delim.min(raw.len());
        let end = span.end.saturating_sub(delim).max(start);
        let Some(mut content) = file_text.get(start..end) else {
            let (line, column) = line_col(file_text, span.start);
            return GridOrigin::at(line, column);
        };
        if delim == 3 {
            for newline in ["\r\n", "\n"] {
                if let Some(rest) = content.strip_prefix(newline) {
                    start += newline.len();
                    content = rest;
                    break;
                }
            }
        }
        let (line, column) = line_col(file_text, start);
        if !basic || !content.contains('\\') || content == value {
            return GridOrigin::at(line, column);
        }
        match decode_basic(content, start) {
            Some((decoded, offsets)) if decoded == value => {
                let mut table = Vec::with_capacity(offsets.len());
                let mut cursor = (0, 1, 1);
                for offset in offsets {
                    cursor = advance(file_text, cursor, offset);
                    table.push((cursor.1, cursor.2));
                }
                GridOrigin(Origin::Mapped(table))
            }
            _ => GridOrigin::at(line, column),
        }
    }

    /// The file position of byte `byte` of the grid text, which lies on grid line `line_idx`
    /// (0-based) at character `char_col` (0-based).
    pub(super) fn locate(&self, line_idx: usize, char_col: usize, byte: usize) -> (usize, usize) {
        match &self.0 {
            Origin::At { line, column } => {
                if line_idx == 0 {
                    (*line, column + char_col)
                } else {
                    (line + line_idx, char_col + 1)
                }
            }
            Origin::Mapped(table) => table.get(byte).or(table.last()).copied().unwrap_or((1, 1)),
        }
    }
}

/// Decodes the content of a TOML basic string, returning the text and, for each of its
/// bytes plus the end, the file offset of the character that produced it. `None` when the
/// content has an escape this decoder does not know (the caller then falls back).
fn decode_basic(content: &str, base: usize) -> Option<(String, Vec<usize>)> {
    let mut out = String::with_capacity(content.len());
    let mut offsets = Vec::with_capacity(content.len() + 1);
    let mut chars = content.char_indices().peekable();
    let push = |out: &mut String, offsets: &mut Vec<usize>, c: char, at: usize| {
        out.push(c);
        offsets.extend(std::iter::repeat_n(base + at, c.len_utf8()));
    };
    while let Some((i, c)) = chars.next() {
        if c != '\\' {
            push(&mut out, &mut offsets, c, i);
            continue;
        }
        let (_, e) = chars.next()?;
        let simple = match e {
            'b' => Some('\u{8}'),
            't' => Some('\t'),
            'n' => Some('\n'),
            'f' => Some('\u{c}'),
            'r' => Some('\r'),
            'e' => Some('\u{1b}'),
            '"' => Some('"'),
            '\\' => Some('\\'),
            _ => None,
        };
        if let Some(s) = simple {
            push(&mut out, &mut offsets, s, i);
            continue;
        }
        let digits = match e {
            'x' => 2,
            'u' => 4,
            'U' => 8,
            ' ' | '\t' | '\r' | '\n' => {
                while chars
                    .peek()
                    .is_some_and(|(_, c)| matches!(c, ' ' | '\t' | '\r' | '\n'))
                {
                    chars.next();
                }
                continue;
            }
            _ => return None,
        };
        let mut code = 0u32;
        for _ in 0..digits {
            let (_, d) = chars.next()?;
            code = code * 16 + d.to_digit(16)?;
        }
        push(&mut out, &mut offsets, char::from_u32(code)?, i);
    }
    offsets.push(base + content.len());
    Some((out, offsets))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_map_back_to_file_offsets() {
        let Some((text, offsets)) = decode_basic(
            r"a\tb\u0041\
   c",
            10,
        ) else {
            panic!("decoding failed")
        };
        assert_eq!(text, "a\tbAc");
        assert_eq!(offsets, vec![10, 11, 13, 14, 25, 26]);
        assert!(decode_basic(r"\q", 0).is_none());
    }

    #[test]
    fn line_col_counts_characters() {
        let text = "ab\nçd\n";
        assert_eq!(line_col(text, 0), (1, 1));
        assert_eq!(line_col(text, 3), (2, 1));
        assert_eq!(line_col(text, 5), (2, 2));
        assert_eq!(line_col(text, 99), (3, 1));
    }
}
