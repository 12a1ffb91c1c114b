//! Any text as a case file (TOML) or a peer's JSON-lines file: a list of
//! cases or a diagnostic, never a panic; and each case prepared for the
//! judge gives a cycle or a reason.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qili::judge::case::Case;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut cases = Vec::new();
    if let Ok(c) = Case::parse("fuzz.toml", text) {
        cases.push(c);
    }
    if let Ok(cs) = Case::parse_peer("fuzz.jsonl", "fuzz", text) {
        cases.extend(cs);
    }
    for c in &cases {
        let _ = qili::cli::judge::prepare(c);
    }
});
