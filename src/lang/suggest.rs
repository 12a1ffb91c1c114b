//! "Did you mean": the closest known name to a misspelt one.

/// The candidate closest to `name` by edit distance, if it is close enough
/// to be a plausible typo: at most a third of the name's length (one edit at
/// least), and sharing at least one character with it — otherwise any
/// one-character name would be "near" every other (`捉` is no typo of `将`).
pub fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<String> {
    let limit = (name.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .filter(|c| *c != name && c.chars().any(|ch| name.contains(ch)))
        .map(|c| (strsim::levenshtein(name, c), c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, c)| (*d, c.to_string()))
        .map(|(_, c)| c.to_string())
}

#[cfg(test)]
mod tests {
    use super::closest;

    #[test]
    fn suggests_only_near_names() {
        let names = ["rooted", "real_roots", "exchange", "有根"];
        assert_eq!(
            closest("rooted", names).as_deref(),
            None,
            "an exact name is not a suggestion"
        );
        assert_eq!(closest("roted", names).as_deref(), Some("rooted"));
        assert_eq!(closest("exchnage", names).as_deref(), Some("exchange"));
        assert_eq!(closest("有", names).as_deref(), Some("有根"));
        assert_eq!(closest("mate", names), None);
        assert_eq!(
            closest("捉", ["将", "杀"]),
            None,
            "one-character names share nothing"
        );
    }
}
