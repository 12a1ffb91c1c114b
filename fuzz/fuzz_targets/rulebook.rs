//! Any text given as a rules file, with the bundled editions to extend, is
//! either refused with diagnostics or a rulebook that rules a seed figure's
//! cycle and renders its reports, explained and not, in both languages:
//! never a panic. What a committee writes reaches the resolver, the checks,
//! the lowering and the interpreter, not only the parser (`rules` fuzzes
//! that alone).
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use qili::judge::case::{bundled_case, Case};
use qili::judge::{judge_cycle, report, Cycle, Options, Rulebook};
use qili::lang::resolve::BUNDLED;

/// Seed 003, 图2 (自毙, a check answered and a mate threat left behind) and
/// 图6 (a chase through an exchange with a piece left aside), from the
/// corpus built into qili: short cycles that reach checks, mate threats,
/// chases and the 26.3 clauses.
fn cycles() -> &'static [Cycle] {
    static CYCLES: OnceLock<Vec<Cycle>> = OnceLock::new();
    CYCLES.get_or_init(|| {
        let cycles = ["s3-2", "s3-6"]
            .iter()
            .filter_map(|id| bundled_case(id))
            .filter_map(|(name, text)| Case::parse(name, text).ok())
            .filter_map(|case| qili::cli::judge::prepare(&case).ok())
            .collect::<Vec<_>>();
        // A renamed or broken case would leave the target fuzzing the
        // loading alone: say so instead.
        assert_eq!(
            cycles.len(),
            2,
            "seed 003 图2 and 图6 are in the built-in corpus"
        );
        cycles
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(book) = Rulebook::from_texts("fuzz.qili", text, &BUNDLED) else {
        return;
    };
    for cycle in cycles() {
        for explain in [false, true] {
            let options = Options {
                explain,
                ..Options::default()
            };
            let r = judge_cycle(&book, cycle.clone(), options);
            let _ = report::to_text(&book, &r, true, explain);
            let _ = report::to_text(&book, &r, false, explain);
            let _ = report::to_json(&book, &r, explain);
        }
    }
});
