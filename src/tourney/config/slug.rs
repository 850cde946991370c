//! Defines school slugs: [`slugify`] and [`unique_slugs`].
//!
//! Set ids (`westfield-high/r1/s2`), file names and URLs need a short, lower-case ASCII name
//! for each school that no other school and not the nationals stage shares. Names are
//! transliterated first (`École` -> `ecole`, `Ñuñoa` -> `nunoa`, `北京` -> `bei-jing`).
//!
//! A slug is stored with its school in the database and is part of set ids, seeds and the
//! configuration fingerprint: a database keeps the slugs it was started with (the runner
//! adopts them, see `runner::with_stored_slugs`), so changing this function never orphans
//! a stored tournament.

use std::collections::HashSet;

/// The slug that would collide with the nationals stage's own name.
pub const RESERVED: &str = "nationals";

/// The name transliterated to ASCII (`deunicode`), then lower-case letters and digits,
/// every other run of characters turned into one `-`, no `-` at either end. A name of which
/// nothing is left (`***`, or characters without a transliteration) gets
/// `school-` and 8 hex digits of a hash of its trimmed name: stable and non-empty, whatever
/// the other schools.
pub fn slugify(name: &str) -> String {
    let ascii = deunicode::deunicode_with_tofu(name, " ");
    let mut slug = String::with_capacity(ascii.len());
    for c in ascii.chars() {
        if c.is_ascii_alphanumeric() {
            slug.push(c.to_ascii_lowercase());
        } else if !slug.is_empty() && !slug.ends_with('-') {
            slug.push('-');
        }
    }
    while slug.ends_with('-') {
        slug.pop();
    }
    if slug.is_empty() {
        let hash = crate::tourney::bracket::fnv1a64(name.trim().as_bytes());
        format!("school-{:08x}", hash >> 32)
    } else {
        slug
    }
}

/// The slugs of `names`, in order: [`slugify`], `nationals` becomes `nationals-school`,
/// and a slug already taken gets the first free suffix `-2`, `-3`, ...
pub fn unique_slugs<'a>(names: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let mut taken = HashSet::new();
    let mut slugs = Vec::new();
    for name in names {
        let mut base = slugify(name);
        if base == RESERVED {
            base = format!("{RESERVED}-school");
        }
        let mut slug = base.clone();
        let mut n = 2;
        while taken.contains(&slug) || slug == RESERVED {
            slug = format!("{base}-{n}");
            n += 1;
        }
        taken.insert(slug.clone());
        slugs.push(slug);
    }
    slugs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_are_lower_case_ascii_with_single_dashes() {
        assert_eq!(slugify("Westfield High"), "westfield-high");
        assert_eq!(slugify("  St. Mary's -- Academy! "), "st-mary-s-academy");
        assert_eq!(slugify("Lycée 2"), "lycee-2");
    }

    #[test]
    fn accented_and_other_scripts_are_transliterated() {
        assert_eq!(slugify("École Sainte-Anne"), "ecole-sainte-anne");
        assert_eq!(slugify("Ñuñoa Técnico"), "nunoa-tecnico");
        assert_eq!(
            slugify("Gymnasium Übersee-Straße"),
            "gymnasium-ubersee-strasse"
        );
        assert_eq!(slugify("Łódź Politechnika"), "lodz-politechnika");
        assert_eq!(slugify("Москва"), "moskva");
    }

    #[test]
    fn names_with_nothing_left_get_a_stable_hashed_slug() {
        let stars = slugify("***");
        assert!(stars.starts_with("school-") && stars.len() == "school-".len() + 8);
        assert_eq!(
            slugify(" *** "),
            stars,
            "surrounding spaces do not change it"
        );
        assert_ne!(slugify("!!!"), stars);
        for name in ["\u{E000}", "\u{E000}\u{E001}", "\u{10FFFD}"] {
            let slug = slugify(name);
            assert!(slug.starts_with("school-"), "{name:?} -> {slug}");
            assert_eq!(slugify(name), slug);
        }
        // Whatever the script, the slug is lower-case ASCII and never empty.
        for name in ["北京第一中学", "🦀🦀", "Αθήνα", "Москва", "東京", "ﷺ"]
        {
            let slug = slugify(name);
            assert!(!slug.is_empty(), "{name:?}");
            assert!(
                slug.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
                "{name:?} -> {slug}"
            );
            assert!(
                !slug.starts_with('-') && !slug.ends_with('-'),
                "{name:?} -> {slug}"
            );
        }
    }

    #[test]
    fn slugs_are_unique_and_never_nationals() {
        let slugs = unique_slugs(["A b", "a-b", "A.B", "Nationals", "nationals school", "ß"]);
        assert_eq!(
            slugs,
            [
                "a-b",
                "a-b-2",
                "a-b-3",
                "nationals-school",
                "nationals-school-2",
                "ss"
            ]
        );
    }
}
