//! Positions in text files: byte offsets as the 1-based lines and character columns that
//! every located error message (configurations, boards, scenarios) names.

/// 1-based `(line, column)` of byte `offset` in `text`; columns count characters.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let (_, line, column) = advance(text, (0, 1, 1), offset);
    (line, column)
}

/// Moves a `(byte, line, column)` cursor forward to byte `offset` of `text` (or to the
/// first character boundary after it).
pub fn advance(text: &str, cursor: (usize, usize, usize), offset: usize) -> (usize, usize, usize) {
    let (at, mut line, mut column) = cursor;
    let Some(rest) = text.get(at..) else {
        return cursor;
    };
    let mut reached = text.len();
    for (i, c) in rest.char_indices() {
        if at + i >= offset {
            reached = at + i;
            break;
        }
        if c == '\n' {
            line += 1;
            column = 1;
        } else {
            column += 1;
        }
    }
    (reached.max(at), line, column)
}

/// The TOML type name of a value, for "expected ..." messages.
pub fn toml_type_name(value: &toml::de::DeValue<'_>) -> &'static str {
    use toml::de::DeValue;
    match value {
        DeValue::String(_) => "a string",
        DeValue::Integer(_) => "an integer",
        DeValue::Float(_) => "a float",
        DeValue::Boolean(_) => "a boolean",
        DeValue::Datetime(_) => "a datetime",
        DeValue::Array(_) => "an array",
        DeValue::Table(_) => "a table",
    }
}
