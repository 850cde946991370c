//! Defines how text a bot wrote is shown to people: [`escape_controls`].
//!
//! A bot's stderr, its stdout lines that were not answers and anything else it chose the
//! bytes of reach the organiser's terminal (`play`, `check`, `logs`), CSV files and the
//! report. Control characters in them would act on that terminal: a clipboard write
//! (OSC 52), a window title, a cleared screen, a carriage return that overwrites a line with
//! a fake verdict. Every such text goes through this one function when it is captured, and
//! again where stored text is printed, so it is shown as text and never obeyed.

use std::fmt::Write;

/// `text` with every C0 and C1 control character and DEL escaped as `\xHH` (code points
/// above `\xff` cannot be controls), and backslashes left alone; newline and tab are kept.
///
/// Escaping is idempotent: escaped text holds no control character, so showing it again
/// changes nothing.
pub fn escape_controls(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() && c != '\n' && c != '\t' {
            let _ = write!(out, "\\x{:02x}", u32::from(c));
        } else {
            out.push(c);
        }
    }
    out
}

/// Bytes a bot wrote, as text to show: invalid UTF-8 replaced (U+FFFD), controls escaped.
pub fn shown(bytes: &[u8]) -> String {
    escape_controls(&String::from_utf8_lossy(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_c0_c1_and_del_and_keeps_newline_and_tab() {
        let text = "a\x1b]52;c;eA==\x07b\rc\u{9b}2J\x7f\td\n\u{85}é✓";
        assert_eq!(
            escape_controls(text),
            "a\\x1b]52;c;eA==\\x07b\\x0dc\\x9b2J\\x7f\td\n\\x85é✓"
        );
    }

    #[test]
    fn escaping_twice_changes_nothing() {
        let once = escape_controls("\x1b[2J\\x1b\r\n");
        assert_eq!(escape_controls(&once), once);
    }

    #[test]
    fn invalid_utf8_is_replaced_not_passed_through() {
        assert_eq!(shown(b"ok\xff\x1b"), "ok\u{fffd}\\x1b");
    }
}
