//! Defines the number types of configuration files: [`NonNegative`] (the seed) and
//! [`Positive`] (limits).
//!
//! They check their range while deserializing, so a bad value is reported by the TOML
//! parser at the value's own line and column, with an "expected" text a person can act on.

use serde::de::{self, Deserialize, Deserializer, Unexpected, Visitor};
use std::fmt;

/// An integer >= 0 (TOML integers are at most `i64::MAX`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NonNegative(pub u64);

/// An integer >= 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Positive(pub u64);

/// Accepts integers of at least `min`.
struct AtLeast {
    min: u64,
    expecting: &'static str,
}

impl Visitor<'_> for AtLeast {
    type Value = u64;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.expecting)
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<u64, E> {
        match u64::try_from(v) {
            Ok(v) => self.visit_u64(v),
            Err(_) => Err(E::invalid_value(Unexpected::Signed(v), &self)),
        }
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<u64, E> {
        if v >= self.min {
            Ok(v)
        } else {
            Err(E::invalid_value(Unexpected::Unsigned(v), &self))
        }
    }
}

impl<'de> Deserialize<'de> for NonNegative {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_i64(AtLeast {
            min: 0,
            expecting: "an integer >= 0",
        })
        .map(NonNegative)
    }
}

impl<'de> Deserialize<'de> for Positive {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_i64(AtLeast {
            min: 1,
            expecting: "a positive integer",
        })
        .map(Positive)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    struct T {
        seed: NonNegative,
        limit: Option<Positive>,
    }

    #[test]
    fn ranges_are_checked_while_parsing() {
        let ok: Result<T, _> = toml::from_str("seed = 0\nlimit = 3");
        assert!(matches!(
            ok,
            Ok(T {
                seed: NonNegative(0),
                limit: Some(Positive(3))
            })
        ));
        let Err(e) = toml::from_str::<T>("seed = -1") else {
            panic!("accepted a negative seed")
        };
        assert!(e.message().contains("expected an integer >= 0"), "{e}");
        let Err(e) = toml::from_str::<T>("seed = 1\nlimit = 0") else {
            panic!("accepted a zero limit")
        };
        assert!(e.message().contains("expected a positive integer"), "{e}");
    }
}
