//! Slugs of project names.

/// A URL slug: lowercase ASCII letters and digits, runs of anything else as one
/// hyphen, no leading or trailing hyphen; `project` when nothing is left.
pub fn slugify(text: &str) -> String {
    let mut slug = String::with_capacity(text.len());
    for character in text.chars().flat_map(char::to_lowercase) {
        if character.is_ascii_alphanumeric() {
            slug.push(character);
        } else if !slug.is_empty() && !slug.ends_with('-') {
            slug.push('-');
        }
    }
    while slug.ends_with('-') {
        slug.pop();
    }
    if slug.is_empty() {
        slug.push_str("project");
    }
    slug
}

/// The first of `base`, `base-2`, `base-3`, … that `taken` does not hold.
pub(super) fn unique_slug(base: &str, taken: &[String]) -> String {
    if !taken.iter().any(|slug| slug == base) {
        return base.to_owned();
    }
    (2u64..)
        .map(|suffix| format!("{base}-{suffix}"))
        .find(|candidate| !taken.contains(candidate))
        .unwrap_or_else(|| base.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_become_lowercase_hyphenated_slugs() {
        assert_eq!(slugify("  Spring Launch — 2025!  "), "spring-launch-2025");
        assert_eq!(slugify("Ça va?"), "a-va");
        assert_eq!(slugify("!!!"), "project");
    }

    #[test]
    fn taken_slugs_get_a_numeric_suffix() {
        let taken = vec!["tour".to_owned(), "tour-2".to_owned()];
        assert_eq!(unique_slug("tour", &taken), "tour-3");
        assert_eq!(unique_slug("other", &taken), "other");
    }
}
