//! Any FEN and any moves (first line the FEN, the rest the moves) are
//! either judged under the 2011 rules or refused with a diagnostic, never a
//! panic; the text and JSON reports of a ruling always render, explained
//! and not; a profiled ruling is the same ruling.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use qili::judge::{judge_line, report, Options, Rulebook};

static BOOK: OnceLock<Option<Rulebook>> = OnceLock::new();

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Some(book) = BOOK
        .get_or_init(|| {
            Rulebook::from_texts(
                "2011.qili",
                include_str!("../../rules/2011.qili"),
                &[("2011-trial", include_str!("../../rules/2011-trial.qili"))],
            )
            .ok()
        })
        .as_ref()
    else {
        return;
    };
    let (fen, moves) = text.split_once('\n').unwrap_or((text, ""));
    let Ok(start) = qili::board::parse_fen(fen) else { return };
    let explain = Options {
        explain: true,
        ..Options::default()
    };
    if let Ok(r) = judge_line(book, &start, moves, explain) {
        let _ = report::to_text(book, &r, true, true);
        let _ = report::to_json(book, &r, false);
    }
    // The default ruling, whose traces keep only what the reasons read;
    // profiled, the same ruling, and its table renders.
    if let Ok(r) = judge_line(book, &start, moves, Options::default()) {
        let _ = report::to_text(book, &r, false, false);
        let profiled = Options {
            profile: true,
            ..Options::default()
        };
        if let Ok(p) = judge_line(book, &start, moves, profiled) {
            assert_eq!(p.outcome, r.outcome);
            assert!(p.moves.iter().zip(&r.moves).all(|(a, b)| a.natures == b.natures));
            if let Some(table) = &p.profile {
                let _ = table.to_text(true, 20);
            }
        }
    }
});
