//! Any text given as a FEN is either a position or a diagnostic, never a
//! panic; and a position read from a FEN prints back to a FEN that reads
//! the same position.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match qili::board::parse_fen(text) {
        Ok(pos) => {
            let again = qili::board::parse_fen(&qili::board::to_fen(&pos));
            assert!(again.is_ok_and(|p| p == pos));
            let _ = pos.legal_moves();
        }
        Err(e) => {
            assert!(!e.problems.is_empty());
            let _ = e.to_string();
        }
    }
});
