//! Human set ids (`westfield-high/r1/s2`, `westfield-high/final`, `nationals/r2/s1`) and
//! their parser.
//!
//! Organisers name sets on the command line (`lrs-tourney rerun DB SET`) and in exports; the
//! id carries the stage label (school slug or `nationals`), then `r{round}/s{set}` (1-based,
//! decimal, no leading zeros) or `final` for the stage's last round. The label is everything
//! before the last one (`final`) or two (`r../s..`) `/`-separated parts.

use super::BracketError;
use crate::tourney::model::SetId;

/// Where a set sits within its stage, as its id says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SetPlace {
    /// A round before the final.
    Round { round: u32, set: u32 },
    /// The stage's final (its last round, a single set).
    Final,
}

/// What a set id says: its stage's label and its place in the stage.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SetAddress {
    /// School slug or `nationals`.
    pub stage_label: String,
    pub place: SetPlace,
}

/// The id of a set: `{label}/r{round}/s{set}`, or `{label}/final` when `is_final`.
pub fn set_id(stage_label: &str, round: u32, set: u32, is_final: bool) -> SetId {
    SetId::new(if is_final {
        format!("{stage_label}/final")
    } else {
        format!("{stage_label}/r{round}/s{set}")
    })
}

/// Parses an id written by [`set_id`].
pub fn parse_set_id(id: &str) -> Result<SetAddress, BracketError> {
    let bad = |reason: &'static str| BracketError::BadSetId {
        id: id.to_string(),
        reason,
    };
    let (rest, last) = id
        .rsplit_once('/')
        .ok_or_else(|| bad("expected LABEL/final or LABEL/rN/sN"))?;
    let (stage_label, place) = if last == "final" {
        (rest, SetPlace::Final)
    } else {
        let set = number(last, 's').ok_or_else(|| bad("the last part must be `final` or sN"))?;
        let (label, round) = rest
            .rsplit_once('/')
            .ok_or_else(|| bad("expected LABEL/rN/sN"))?;
        let round = number(round, 'r').ok_or_else(|| bad("expected rN before sN"))?;
        (label, SetPlace::Round { round, set })
    };
    if stage_label.is_empty() {
        return Err(bad("the stage label is empty"));
    }
    Ok(SetAddress {
        stage_label: stage_label.to_string(),
        place,
    })
}

/// `{prefix}{n}` with `n >= 1` in canonical decimal.
fn number(text: &str, prefix: char) -> Option<u32> {
    let digits = text.strip_prefix(prefix)?;
    if digits.is_empty() || digits.starts_with('0') || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_ids_round_trip() {
        for (label, round, set, fin) in [
            ("westfield-high", 1, 2, false),
            ("westfield-high", 3, 1, true),
            ("nationals", 2, 11, false),
            ("nationals", 4, 1, true),
            ("a/b", 1, 1, false),
        ] {
            let id = set_id(label, round, set, fin);
            let parsed = parse_set_id(id.as_str()).expect("an id we wrote parses");
            assert_eq!(parsed.stage_label, label);
            let place = if fin {
                SetPlace::Final
            } else {
                SetPlace::Round { round, set }
            };
            assert_eq!(parsed.place, place);
        }
        assert_eq!(set_id("nationals", 1, 2, false).as_str(), "nationals/r1/s2");
        assert_eq!(set_id("nationals", 3, 1, true).as_str(), "nationals/final");
    }

    #[test]
    fn malformed_set_ids_are_rejected() {
        for id in [
            "",
            "final",
            "/final",
            "x/r1",
            "x/s1",
            "/r1/s1",
            "x/r0/s1",
            "x/r1/s01",
            "x/r1/s",
            "x/rr/s1",
            "x/r1/s1/",
            "x/r+1/s1",
            "x/r1/s99999999999",
        ] {
            assert!(parse_set_id(id).is_err(), "{id} should be rejected");
        }
    }
}
