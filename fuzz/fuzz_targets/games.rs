//! Any text read as a PGN file gives games whose moves are legal in turn,
//! and repetitions whose cycles come back to their start; never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    for g in qili::notation::pgn::read_games(text) {
        let mut p = g.start.clone();
        for &m in &g.moves {
            assert!(p.is_legal(m));
            p.make(m);
        }
        for r in qili::judge::cycle::repetitions(&g.start, &g.moves) {
            let mut p = r.cycle.start.clone();
            for &m in &r.cycle.moves {
                p.make(m);
            }
            assert_eq!(p.repetition_key(), r.cycle.start.repetition_key());
            let _ = g.label();
        }
    }
});
