//! Hostile nesting gets a diagnostic, never a stack overflow; nesting up to
//! the limits parses.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)] // tests fail by panicking

use qili::lang::{parse, Source};

fn file_with(body: &str) -> String {
    format!("edition \"deep\" {{ year 2026 }}\ndefine d = {body}\n")
}

#[test]
fn brackets_nested_to_the_limit_parse() {
    let body = format!("{}true{}", "(".repeat(99), ")".repeat(99));
    assert!(parse(&Source::new("deep.qili", file_with(&body))).is_ok());
    let calls = format!("{}true{}", "not (".repeat(99), ")".repeat(99));
    assert!(parse(&Source::new("deep.qili", file_with(&calls))).is_ok());
}

#[test]
fn brackets_nested_past_the_limit_are_refused_with_a_diagnostic() {
    let body = format!("{}true{}", "(".repeat(5000), ")".repeat(5000));
    let err = parse(&Source::new("deep.qili", file_with(&body)))
        .err()
        .unwrap();
    assert_eq!(err.line, 2);
    assert_eq!(err.column, 12 + 100, "points at the 101st bracket");
    assert!(err.to_string().contains("nested deeper"), "{err}");
}

#[test]
fn a_long_chain_of_quantifiers_is_refused_not_overflowed() {
    let body = "exists x in pieces(red): ".repeat(600) + "true";
    let err = parse(&Source::new("deep.qili", file_with(&body)))
        .err()
        .unwrap();
    assert!(err.to_string().contains("nesting keywords"), "{err}");
}

#[test]
fn a_chain_within_the_keyword_limit_parses_on_the_parsers_own_stack() {
    let body = "exists x in pieces(red): ".repeat(490) + "true";
    assert!(parse(&Source::new("deep.qili", file_with(&body))).is_ok());
}

#[test]
fn an_endless_chain_of_operators_is_refused() {
    let body = vec!["true"; 6000].join(" and ");
    let err = parse(&Source::new("deep.qili", file_with(&body)))
        .err()
        .unwrap();
    assert!(err.to_string().contains("operators"), "{err}");
    // names with inner dashes are not subtractions
    let dashed = vec!["king-answer-idle"; 3000].join(" or ");
    assert!(parse(&Source::new("deep.qili", file_with(&dashed))).is_ok());
}
