//! Any text given as moves (in any notation) from the start position is
//! either a legal line or a diagnostic, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let pos = qili::board::Position::startpos();
    let _ = qili::notation::parse_move(&pos, text).map_err(|e| e.to_string());
    let _ = qili::notation::parse_line(&pos, text).map_err(|e| e.to_string());
});
