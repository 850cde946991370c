//! Defines school slugs: [`slugify`] and [`unique_slugs`].
//!
//! Set ids (`westfield-high/r1/s2`), file names and URLs need a short, lower-case ASCII name
//! for each school that no other school and not the nationals stage shares.

use std::collections::HashSet;

/// The slug that would collide with the nationals stage's own name.
pub const RESERVED: &str = "nationals";

/// Lower-case ASCII letters and digits, every other run of characters turned into one `-`,
/// no `-` at either end; `school` when nothing is left.
pub fn slugify(name: &str) -> String {
    let mut slug = String::with_capacity(name.len());
    for c in name.chars() {
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
        "school".to_owned()
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
        assert_eq!(slugify("Lycée 2"), "lyc-e-2");
        assert_eq!(slugify("***"), "school");
    }

    #[test]
    fn slugs_are_unique_and_never_nationals() {
        let slugs = unique_slugs(["A b", "a-b", "A.B", "Nationals", "nationals school", "?"]);
        assert_eq!(
            slugs,
            [
                "a-b",
                "a-b-2",
                "a-b-3",
                "nationals-school",
                "nationals-school-2",
                "school"
            ]
        );
    }
}
