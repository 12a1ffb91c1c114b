//! Position identity, the ground of every repetition ruling.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)] // tests fail by panicking

use qili::board::{parse_fen, Move, Position};

fn play(moves: &[&str]) -> Position {
    let mut pos = Position::startpos();
    for m in moves {
        let mv: Move = m.parse().unwrap();
        pos = pos.play(mv).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    pos
}

#[test]
fn two_move_orders_reaching_one_placement_are_one_position() {
    // 马二进三 马8进7 马八进七 马2进3 against 马八进七 马2进3 马二进三 马8进7.
    let a = play(&["h0g2", "h9g7", "b0c2", "b9c7"]);
    let b = play(&["b0c2", "b9c7", "h0g2", "h9g7"]);
    assert_eq!(a.repetition_key(), b.repetition_key());
    assert_eq!(a.hash(), b.hash());
    assert_eq!(a, b);
}

#[test]
fn a_cycle_of_four_plies_returns_to_the_start() {
    // 车一进一 车1进1 车一退一 车1退1: the shortest repetition cycle.
    let start = Position::startpos();
    let back = play(&["i0i1", "a9a8", "i1i0", "a8a9"]);
    assert_eq!(back.repetition_key(), start.repetition_key());
    assert_eq!(back.hash(), start.hash());
}

#[test]
fn the_side_to_move_is_part_of_the_identity() {
    let red = parse_fen("3k5/9/9/9/9/9/9/9/4A4/4K4 w").unwrap();
    let black = parse_fen("3k5/9/9/9/9/9/9/9/4A4/4K4 b").unwrap();
    assert_ne!(red.repetition_key(), black.repetition_key());
    assert_ne!(red.hash(), black.hash());
}

#[test]
fn a_side_without_a_legal_move_has_lost_even_out_of_check() {
    // The lone black king on d9 against the red king on e0: e9 would face the
    // red king on the open e-file, c9 is outside the palace, so d8 is its
    // only move.
    let free = parse_fen("3k5/9/9/9/9/9/9/9/9/4K4 b").unwrap();
    assert_eq!(free.legal_moves().len(), 1);

    // Add a red pawn on c8 (crossed, so it also guards d8 sideways, but not
    // d9): black is not in check and has no legal move — 困毙, a loss.
    let trapped = parse_fen("3k5/2P6/9/9/9/9/9/9/9/4K4 b").unwrap();
    assert!(!trapped.in_check());
    assert!(!trapped.has_legal_move());
    assert!(
        !trapped.is_checkmate(),
        "困毙 is not 将死, but it loses all the same"
    );
}

#[test]
fn every_move_of_the_bundled_master_games_is_legal() {
    // 2,516 games (data/games/README.md); each move must be legal in turn,
    // and make/unmake must keep the incremental hash exact along the way.
    let mut games = 0;
    let mut plies = 0;
    for file in [
        "Hu_Ronghua_1391_UCI_games.pgn",
        "Liu_Dahua_1125_UCI_games.pgn",
    ] {
        let path = format!(
            "{}/data/games/wukong-xqdb/{file}",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        for block in text
            .split("\n\n")
            .filter(|b| !b.trim().is_empty() && !b.trim_start().starts_with('['))
        {
            games += 1;
            let mut pos = Position::startpos();
            for token in block
                .split_whitespace()
                .filter(|t| t.len() == 4 && !t.ends_with('.'))
            {
                let (Ok(from), Ok(to)) = (token[..2].parse(), token[2..].parse()) else {
                    panic!("game {games}: unreadable move {token}");
                };
                let m = Move::new(from, to);
                assert!(
                    pos.is_legal(m),
                    "game {games}: {token} is illegal in {pos:?}"
                );
                pos.make(m);
                plies += 1;
            }
            assert_eq!(pos.hash(), pos.hash_from_scratch());
        }
    }
    assert_eq!(games, 2516);
    assert!(plies > 150_000, "{plies} plies");
}

#[test]
fn filtered_generation_keeps_exactly_the_legal_moves_it_is_asked_for() {
    // Captures only, through the filter, against the full list filtered
    // afterwards, along a master game.
    let text = std::fs::read_to_string(format!(
        "{}/data/games/wukong-xqdb/Liu_Dahua_1125_UCI_games.pgn",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let block = text
        .split("\n\n")
        .find(|b| !b.trim().is_empty() && !b.trim_start().starts_with('['))
        .unwrap();
    let mut pos = Position::startpos();
    for token in block
        .split_whitespace()
        .filter(|t| t.len() == 4 && !t.ends_with('.'))
    {
        let captures = |m: &Move| pos.piece_at(m.to).is_some();
        let all: Vec<Move> = pos.legal_moves().iter().copied().filter(captures).collect();
        let filtered: Vec<Move> = pos
            .legal_moves_where(|m| pos.piece_at(m.to).is_some())
            .iter()
            .copied()
            .collect();
        assert_eq!(all, filtered, "{pos:?}");
        assert_eq!(pos.has_legal_move(), !pos.legal_moves().is_empty());
        let m = Move::new(token[..2].parse().unwrap(), token[2..].parse().unwrap());
        pos.make(m);
    }
}

/// Every position along the first `games` bundled master games of one
/// master (Hu Ronghua's), each before its move.
fn master_game_positions(games: usize) -> Vec<Position> {
    let text = std::fs::read_to_string(format!(
        "{}/data/games/wukong-xqdb/Hu_Ronghua_1391_UCI_games.pgn",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let mut out = Vec::new();
    for block in text
        .split("\n\n")
        .filter(|b| !b.trim().is_empty() && !b.trim_start().starts_with('['))
        .take(games)
    {
        let mut pos = Position::startpos();
        for token in block
            .split_whitespace()
            .filter(|t| t.len() == 4 && !t.ends_with('.'))
        {
            out.push(pos.clone());
            let m = Move::new(token[..2].parse().unwrap(), token[2..].parse().unwrap());
            pos.make(m);
        }
    }
    out
}

#[test]
fn moves_and_check_come_together_as_they_come_apart() {
    // Along the first 40 bundled master games: the generation's own check
    // flag agrees with `in_check`, and its list with `legal_moves`.
    let mut checks = 0;
    for pos in master_game_positions(40) {
        let (moves, in_check) = pos.legal_moves_and_check();
        assert_eq!(in_check, pos.in_check(), "{pos:?}");
        assert_eq!(moves.as_slice(), pos.legal_moves().as_slice(), "{pos:?}");
        checks += usize::from(in_check);
    }
    assert!(checks > 50, "only {checks} positions in check");
}

#[test]
fn a_side_has_a_legal_move_exactly_when_its_move_list_is_not_empty() {
    // Every position of the first 40 bundled master games and every position
    // one legal move away from them (in check after the checks), and three
    // boards where the king cannot step: 困毙, 将死, and a king hemmed in by
    // its own advisors with other pieces free to move.
    let agree = |p: &Position| {
        assert_eq!(p.has_legal_move(), !p.legal_moves().is_empty(), "{p:?}");
    };
    let mut in_check = 0;
    for pos in master_game_positions(40) {
        agree(&pos);
        for &m in pos.legal_moves().iter() {
            let mut child = pos.clone();
            child.make(m);
            agree(&child);
            in_check += usize::from(child.in_check());
        }
    }
    assert!(in_check > 1000, "only {in_check} positions in check");
    let stalemate = parse_fen("3k5/2P6/9/9/9/9/9/9/9/4K4 b").unwrap();
    let checkmate = parse_fen("R2k5/R8/9/9/9/9/9/9/9/4K4 b").unwrap();
    let hemmed = parse_fen("3aka3/4n4/9/9/9/9/9/9/9/3K4R b").unwrap();
    assert!(checkmate.in_check());
    for (p, has) in [(&stalemate, false), (&checkmate, false), (&hemmed, true)] {
        assert_eq!(p.has_legal_move(), has, "{p:?}");
        agree(p);
    }
}
