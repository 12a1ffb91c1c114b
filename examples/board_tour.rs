//! A tour of the board core and the tactics layer as a program embedding
//! qili would use them: read a position, list its moves in Chinese, ask
//! whether a piece is protected, play out a capture exchange and look for
//! a mate by consecutive checks.
//!
//! `cargo run --example board_tour`

use qili::board::{diagram::diagram, parse_fen};
use qili::notation::{chinese, parse_move};
use qili::tactics::{
    exchange, mate_by_checks, protection, ExchangeLimits, MateSearch, NodeBudget, ValueTable,
};

fn main() -> miette::Result<()> {
    // Red: king e0, rooks a0 and d5, cannon h2; black: king e9, advisors
    // d9 f9, cannon d8, elephant e7, horse g7.
    let fen = "3aka3/3c5/4b1n2/9/3R5/9/9/7C1/9/R3K4 w";
    let pos = parse_fen(fen)?;
    print!("{}", diagram(&pos));

    let moves = pos.legal_moves();
    let names: Vec<String> = moves.iter().map(|&m| chinese(&pos, m)).collect();
    println!("{} legal moves: {}", moves.len(), names.join(" "));

    // 有根? The black cannon on d8.
    let d8 = "d8".parse().map_err(|_| miette::miette!("bad square"))?;
    if let Some(p) = protection(&pos, d8) {
        println!(
            "black cannon on d8: rooted = {}, real roots {:?}, fake roots {:?}",
            p.is_rooted(),
            p.real,
            p.fake
        );
    }

    // 车六进三: the rook takes it. What does the complete exchange net?
    let take = parse_move(&pos, "车六进三")?;
    let values = ValueTable::conventional();
    let mut budget = NodeBudget::new(100_000);
    match exchange(&pos, take, &values, ExchangeLimits::default(), &mut budget) {
        Ok(result) => {
            let line: Vec<String> = result.line.iter().map(|m| m.to_string()).collect();
            println!(
                "exchange after {}: net {:+} for red, line {}",
                chinese(&pos, take),
                result.net,
                line.join(" ")
            );
        }
        Err(e) => println!("no exchange: {e:?}"),
    }

    // 连将杀 within 7 plies?
    let mut budget = NodeBudget::new(200_000);
    match mate_by_checks(&pos, 7, &mut budget) {
        MateSearch::Mate(line) => {
            let line: Vec<String> = line.iter().map(|m| m.to_string()).collect();
            println!("mate by consecutive checks: {}", line.join(" "));
        }
        MateSearch::NoMate => println!("no mate by consecutive checks within 7 plies"),
        MateSearch::BudgetExhausted => println!("mate search stopped at its node budget"),
    }
    Ok(())
}
