//! Splits a bot command (`jsonl:COMMAND`) into words the way a POSIX shell would, without
//! any expansion: no globbing (`lib/*` stays `lib/*`), no variables, no `~`.
//!
//! Quoting: `'...'` is literal; `"..."` is literal except `\"`, `\\`, `\$`, `` \` `` and
//! `\`-newline; outside quotes `\x` is `x` and `\`-newline disappears. Words are separated
//! by unquoted spaces, tabs and newlines.

use thiserror::Error;

/// Why a command line cannot be split.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SplitError {
    #[error("unterminated {0} quote")]
    Unterminated(&'static str),
    #[error("ends with a lone backslash")]
    TrailingBackslash,
}

/// The words of `command`.
pub fn split_command(command: &str) -> Result<Vec<String>, SplitError> {
    let mut words = Vec::new();
    let mut word = String::new();
    // Whether a word has started (so that `''` is an empty word).
    let mut in_word = false;
    let mut chars = command.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' | '\n' => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\\' => match chars.next() {
                Some('\n') => {}
                Some(next) => {
                    word.push(next);
                    in_word = true;
                }
                None => return Err(SplitError::TrailingBackslash),
            },
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(ch) => word.push(ch),
                        None => return Err(SplitError::Unterminated("single")),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(ch @ ('"' | '\\' | '$' | '`')) => word.push(ch),
                            Some('\n') => {}
                            Some(ch) => {
                                word.push('\\');
                                word.push(ch);
                            }
                            None => return Err(SplitError::Unterminated("double")),
                        },
                        Some(ch) => word.push(ch),
                        None => return Err(SplitError::Unterminated("double")),
                    }
                }
            }
            _ => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(s: &str) -> Vec<String> {
        split_command(s).unwrap()
    }

    #[test]
    fn plain_words() {
        assert_eq!(split("python3 bot.py"), ["python3", "bot.py"]);
        assert_eq!(split("  a\tb \n c  "), ["a", "b", "c"]);
        assert!(split("").is_empty());
        assert!(split("   ").is_empty());
    }

    #[test]
    fn no_globbing_or_expansion() {
        assert_eq!(
            split("java -cp lib/* Main $HOME ~ *.py"),
            ["java", "-cp", "lib/*", "Main", "$HOME", "~", "*.py"]
        );
    }

    #[test]
    fn quotes_and_escapes() {
        assert_eq!(split("'my bot.py' x"), ["my bot.py", "x"]);
        assert_eq!(split(r#""a \"b\" \$c \n""#), [r#"a "b" $c \n"#]);
        assert_eq!(split(r"a\ b c"), ["a b", "c"]);
        assert_eq!(split("''"), [""]);
        assert_eq!(split(r#"x""y'z'"#), ["xyz"]);
        assert_eq!(split("'it'\\''s'"), ["it's"]);
        assert_eq!(split("a\\\nb"), ["ab"]);
    }

    #[test]
    fn errors() {
        assert_eq!(
            split_command("'open"),
            Err(SplitError::Unterminated("single"))
        );
        assert_eq!(
            split_command("\"open"),
            Err(SplitError::Unterminated("double"))
        );
        assert_eq!(split_command("a\\"), Err(SplitError::TrailingBackslash));
    }
}
