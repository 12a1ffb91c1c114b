//! Any text given as a rules file is either a rulebook or a syntax error
//! about the text (never the tree builder's own), never a panic; and a
//! rulebook formats to text that reads back as the same rulebook with the
//! same comments, and formats to itself.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qili::lang::fmt::{comments, format_source};
use qili::lang::{parse, Source};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let src = Source::new("fuzz.qili", text);
    let book = match parse(&src) {
        Ok(book) => book,
        Err(e) => {
            // A text the grammar reads but the tree builder cannot is the
            // builder's bug, not the writer's error.
            let said = e.to_string();
            assert!(!said.contains("qili cannot build"), "{said}\n{text}");
            return;
        }
    };
    let formatted = match format_source(&src) {
        Ok(t) => t,
        Err(e) => panic!("a rulebook that parses did not format: {e}\n{e:?}"),
    };
    let out = Source::new("fuzz.qili", formatted.as_str());
    assert!(
        parse(&out).is_ok_and(|again| again == book),
        "formatting changed the tree:\n{formatted}"
    );
    assert_eq!(comments(&out).len(), comments(&src).len());
    assert!(
        format_source(&out).is_ok_and(|again| again == formatted),
        "not idempotent:\n{formatted}"
    );
});
