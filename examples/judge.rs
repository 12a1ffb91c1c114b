//! Embedding the judge: load an edition, rule on a cycle, read the typed
//! result with its reasons, hand the JSON to a GUI, or see where the
//! ruling's time went.
//!
//! `cargo run --example judge` (from anywhere: the edition is the one built
//! into the library).
//!
//! The position: a lone red rook checks the black king along the 8th and
//! 9th ranks while the king steps between d9 and d8. Under the 2011 rules
//! (26.2) a unilateral perpetual check is never allowed: red must change.

use qili::board::parse_fen;
use qili::judge::report::{reasons, to_json, wording};
use qili::judge::{judge_line, Options, Outcome, Rulebook};

fn main() -> miette::Result<()> {
    // An edition built into the library, by id: no file is read.
    // `Rulebook::from_folder` reads a folder of editions first (a
    // committee's edited copy), `from_text_in` a draft's text, `from_texts`
    // a text with its parents in memory.
    let book = Rulebook::bundled("2011")?;
    let start = parse_fen("3k5/R8/9/9/9/9/9/9/9/4K4 w")?;
    // Any notation the core reads: ICCS here, Chinese or WXF as well. A
    // longer line is fine too: the last cycle in it is judged.
    let ruling = judge_line(&book, &start, "a8a9 d9d8 a9a8 d8d9", Options::default())?;

    for m in &ruling.moves {
        let why: Vec<String> = reasons(&book, m).into_iter().map(|t| t.en).collect();
        println!(
            "{:>2} {} {:<6} {}  {}",
            m.ply,
            m.side.english(),
            m.chinese,
            m.nature(&book),
            why.join("; ")
        );
    }
    println!("{}", wording(&ruling).zh);
    assert_eq!(ruling.outcome, Outcome::MustChange(qili::board::Color::Red));

    // The stable JSON shape of `qili judge --format json`.
    let json = serde_json::to_string(&to_json(&book, &ruling, true))
        .map_err(|e| miette::miette!("{e}"))?;
    println!("{json}");

    // Where the ruling's time went, by the rulebook's own steps: the same
    // ruling, timed (`qili judge --profile`).
    let timed = Options {
        profile: true,
        ..Options::default()
    };
    let profiled = judge_line(&book, &start, "a8a9 d9d8 a9a8 d8d9", timed)?;
    assert_eq!(profiled.outcome, ruling.outcome);
    if let Some(profile) = &profiled.profile {
        print!("{}", profile.to_text(false, 5));
    }
    Ok(())
}
