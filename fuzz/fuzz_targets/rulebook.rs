//! Any text given as a rules file, with the bundled editions to extend, is
//! either refused with diagnostics or a rulebook that rules a seed figure's
//! cycle and renders its reports, explained and not, in both languages:
//! never a panic. What a committee writes reaches the resolver, the checks,
//! the lowering and the interpreter, not only the parser (`rules` fuzzes
//! that alone).
#![no_main]

use libfuzzer_sys::fuzz_target;
use qili::board::parse_fen;
use qili::judge::{judge_line, report, Options, Rulebook};
use qili::lang::resolve::BUNDLED;

/// Seed 003, 图2 (自毙, a check answered and a mate threat left behind) and
/// 图6 (a chase through an exchange with a piece left aside): short cycles
/// that reach checks, mate threats, chases and the 26.3 clauses.
const CYCLES: [(&str, &str); 2] = [
    (
        "3k2P2/4P1cC1/9/9/7r1/9/9/9/4A4/4K4 w - - 0 1",
        "e1f0 h5e5 f0e1 e5h5",
    ),
    (
        "3aka3/9/9/9/9/9/1n2C2r1/9/3RA4/4K4 w - - 0 1",
        "d1d3 b3c1 d3d1 c1b3",
    ),
];

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(book) = Rulebook::from_texts("fuzz.qili", text, &BUNDLED) else {
        return;
    };
    for (fen, moves) in CYCLES {
        let Ok(start) = parse_fen(fen) else { continue };
        for explain in [false, true] {
            let options = Options {
                explain,
                ..Options::default()
            };
            if let Ok(r) = judge_line(&book, &start, moves, options) {
                let _ = report::to_text(&book, &r, true, explain);
                let _ = report::to_text(&book, &r, false, explain);
                let _ = report::to_json(&book, &r, explain);
            }
        }
    }
});
