//! The tactics layer on positions that read like the rulebook's figures,
//! and cross-checks against the board core on real master games.

// A test reports failure by panicking.
#![allow(clippy::panic)]

use qili::board::{parse_fen, Move, Position, Square};
use qili::tactics::{
    attackers, checkers, exchange, exchange_exceeds, gives_check, is_rooted, mate_by_checks,
    mate_threat, protection, pseudo_attackers, ExchangeLimits, MateSearch, NodeBudget, ValueTable,
};

fn pos(fen: &str) -> Position {
    parse_fen(fen).unwrap_or_else(|e| panic!("bad test FEN {fen}: {e:?}"))
}

fn sq(s: &str) -> Square {
    s.parse().unwrap_or_else(|_| panic!("bad square {s}"))
}

fn mv(s: &str) -> Move {
    s.parse().unwrap_or_else(|_| panic!("bad move {s}"))
}

fn text(line: &[Move]) -> Vec<String> {
    line.iter().map(|m| m.to_string()).collect()
}

/// 连将杀 as the rulebook states it: every attacker move checks, the
/// defender answers legally, and ends without a legal move.
fn is_mating_line(start: &Position, line: &[Move]) -> bool {
    let mut p = start.clone();
    for (i, &m) in line.iter().enumerate() {
        if !p.is_legal(m) {
            return false;
        }
        p.make(m);
        if i % 2 == 0 && !p.in_check() {
            return false;
        }
    }
    line.len() % 2 == 1 && !p.has_legal_move()
}

// ---------------------------------------------------------------------------
// Figures
// ---------------------------------------------------------------------------

#[test]
fn double_cannon_mate_重炮() {
    // Black king e9 between its advisors d9 and f9. Red cannon e3 (no screen
    // yet) and cannon h5. Ch5-e5: the rear cannon checks through e5; e8 is on
    // the same line; an advisor stepping to e8 becomes the front cannon's
    // screen. Mate in one, and the only one: Ch5-h9+ (screen f9) lets the
    // king out to e8.
    let p = pos("3aka3/9/9/9/7C1/9/4C4/9/9/3K5 w");
    let mut budget = NodeBudget::default();
    let found = mate_by_checks(&p, 5, &mut budget);
    assert_eq!(found, MateSearch::Mate(vec![mv("h5e5")]));
}

#[test]
fn horse_and_cannon_mate_马后炮() {
    // Red horse e7 guards d9 and f9 (leg e8 empty); Ca2-e2 checks through the
    // horse as screen and also covers e8. Nothing black can take or block.
    let p = pos("4k4/9/4N4/9/9/9/9/C8/9/3K5 w");
    let mut budget = NodeBudget::default();
    assert_eq!(
        mate_by_checks(&p, 3, &mut budget),
        MateSearch::Mate(vec![mv("a2e2")])
    );
}

#[test]
fn mate_threat_is_new_after_the_quiet_move_杀() {
    // Black king d9 cannot use e9 (facing kings); black pawn d3 shuts the
    // d-file. The quiet Ra0-a8 takes d8 away: Ri1-i9 would then mate.
    let before = pos("3k5/9/9/9/9/9/3p5/9/8R/R3K4 w");
    let after = before.play(mv("a0a8")).unwrap_or_else(|e| panic!("{e}"));
    let mut budget = NodeBudget::default();
    let threat = mate_threat(&after, 3, &mut budget).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(threat, MateSearch::Mate(vec![mv("i1i9")]));
    let mut asked_before = before.clone();
    asked_before.pass();
    assert_eq!(
        mate_threat(&asked_before, 1, &mut budget),
        Ok(MateSearch::NoMate)
    );
}

#[test]
fn discovered_double_check_wins_the_capturer_back_暗根() {
    // The black cannon b3 has no direct root (the horse c0 reaches a1, b2,
    // d2, e1; the rook a0 its rank and file). Rb8xb3 (+5). Then the horse
    // c0 leaves rank 0 for d2 (leg c1): the rook a0 checks along rank 0 and
    // the horse checks too (leg d1), and it attacks b3 (leg c2). Double
    // check: the king must go to e1 (d0 and f0 are on the rook's rank), and
    // Nxb3 wins the rook (−10): 5 − 10 = −5. Na1+ forks b3 as well and wins
    // the same rook (Rb0 blocking is taken by Rxb0+). Within 4 plies black
    // has no mate: the king on e1 always keeps e2 or e0.
    let fen = "3k5/1R7/9/9/9/9/1c7/9/9/r1n1K4 w";
    let p = pos(fen);
    assert!(!is_rooted(&p, sq("b3")));
    let values = ValueTable::conventional();
    let limits = ExchangeLimits {
        max_plies: 4,
        ..ExchangeLimits::default()
    };
    let mut budget = NodeBudget::default();
    let r =
        exchange(&p, mv("b8b3"), &values, limits, &mut budget).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.net, -5, "{:?}", text(&r.line));
    assert_eq!(r.mated, None);
    assert_eq!(r.line.first(), Some(&mv("b8b3")));
    assert_eq!(r.line.len(), 4, "{:?}", text(&r.line));
    assert!(r.starter_loses());
}

#[test]
fn a_horse_on_a_protected_rook_still_wins_material() {
    // §2.4 "higher-value target": the red horse c6 attacks the black rook d8
    // (leg c7 empty), which the black rook a8 protects along rank 8. Nxd8
    // (+10), Rxd8 (−5): +5, so the rook's root does not save it. Black's
    // alternative Ra0+ Kf1 wins nothing and mates nothing within 4 plies
    // (Rf0+ is taken, Ra1+ leaves f0 or f2).
    let p = pos("4k4/r2r5/9/2N6/9/9/9/9/9/5K3 w");
    assert!(is_rooted(&p, sq("d8")));
    let values = ValueTable::conventional();
    let limits = ExchangeLimits {
        max_plies: 4,
        ..ExchangeLimits::default()
    };
    let mut budget = NodeBudget::default();
    let r =
        exchange(&p, mv("c6d8"), &values, limits, &mut budget).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.net, 5, "{:?}", text(&r.line));
    assert_eq!(text(&r.line), ["c6d8", "a8d8"]);
    assert!(r.starter_wins());
}

// ---------------------------------------------------------------------------
// Real games: the tactics layer agrees with the board core everywhere
// ---------------------------------------------------------------------------

/// The first `n` games of a PGN file, as ICCS move lists.
fn games(path: &str, n: usize) -> Vec<Vec<Move>> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut out = Vec::new();
    for block in text.split("\n\n") {
        if block.trim_start().starts_with('[') || block.trim().is_empty() {
            continue;
        }
        let moves: Vec<Move> = block
            .split_whitespace()
            .filter(|t| {
                t.len() == 4 && t.as_bytes()[1].is_ascii_digit() && t.as_bytes()[3].is_ascii_digit()
            })
            .filter_map(|t| {
                let from: Square = t[..2].parse().ok()?;
                let to: Square = t[2..].parse().ok()?;
                Some(Move::new(from, to))
            })
            .collect();
        if !moves.is_empty() {
            out.push(moves);
        }
        if out.len() >= n {
            break;
        }
    }
    out
}

/// Every position of the first games of both files.
fn positions(per_file: usize) -> Vec<Position> {
    let mut out = Vec::new();
    for file in [
        "Hu_Ronghua_1391_UCI_games.pgn",
        "Liu_Dahua_1125_UCI_games.pgn",
    ] {
        let path = format!(
            "{}/data/games/wukong-xqdb/{file}",
            env!("CARGO_MANIFEST_DIR")
        );
        for game in games(&path, per_file) {
            let mut p = Position::startpos();
            out.push(p.clone());
            for m in game {
                match p.play(m) {
                    Ok(next) => p = next,
                    Err(_) => break,
                }
                out.push(p.clone());
            }
        }
    }
    out
}

#[test]
fn attackers_are_exactly_the_legal_captures() {
    let all = positions(15);
    assert!(all.len() > 1000, "only {} positions", all.len());
    for p in &all {
        let us = p.side_to_move();
        let legal = p.legal_moves();
        for (sq, piece) in p.pieces() {
            if piece.color == us {
                continue;
            }
            let mut by_board: Vec<Square> = legal
                .iter()
                .filter(|m| m.to == sq)
                .map(|m| m.from)
                .collect();
            let mut by_tactics: Vec<Square> =
                attackers(p, sq, us).iter().map(|a| a.square).collect();
            by_board.sort();
            by_tactics.sort();
            assert_eq!(by_board, by_tactics, "{p:?} target {sq}");
            let pseudo: Vec<Square> = pseudo_attackers(p, sq, us)
                .iter()
                .map(|a| a.square)
                .collect();
            assert!(
                by_tactics.iter().all(|s| pseudo.contains(s)),
                "{p:?} target {sq}"
            );
        }
        assert_eq!(checkers(p).is_empty(), !p.in_check(), "{p:?}");
        for &m in legal.iter() {
            let mut q = p.clone();
            q.make(m);
            assert_eq!(gives_check(p, m), q.in_check(), "{p:?} {m}");
        }
    }
}

#[test]
fn protection_and_exchanges_never_panic_and_stay_consistent() {
    let values = ValueTable::conventional();
    let all = positions(6);
    for p in &all {
        for (sq, piece) in p.pieces() {
            let Some(prot) = protection(p, sq) else {
                assert_eq!(piece.kind, qili::board::Kind::King);
                continue;
            };
            assert!(
                prot.real.iter().all(|s| !prot.fake.contains(s)),
                "{p:?} {sq}"
            );
            for c in &prot.captures {
                assert!(c.real.iter().all(|s| !c.fake.contains(s)), "{p:?} {sq}");
                assert_ne!(c.capturer.piece.color, piece.color);
                if c.capturer.piece.color == p.side_to_move() {
                    assert!(p.is_legal(Move::new(c.capturer.square, sq)), "{p:?} {sq}");
                }
            }
        }
        for &m in p.legal_moves().iter() {
            if p.piece_at(m.to).is_none() {
                continue;
            }
            let mut budget = NodeBudget::new(20_000);
            let r = exchange(p, m, &values, ExchangeLimits::default(), &mut budget)
                .unwrap_or_else(|e| panic!("{p:?} {m}: {e}"));
            assert_eq!(r.line.first(), Some(&m));
            // The line is legal and its net is what replaying it gives.
            let mut q = p.clone();
            let mut net = 0;
            for &x in &r.line {
                assert!(q.is_legal(x), "{p:?}: {:?}", text(&r.line));
                let v = q.piece_at(x.to).map_or(0, |v| values.value_of(v, x.to));
                net += if q.side_to_move() == r.starter { v } else { -v };
                q.make(x);
            }
            assert_eq!(net, r.net);
            assert_eq!(r.mated.is_some(), !q.has_legal_move());
            // The opponent may stop at once unless the capture checks, so the
            // starter never nets more than the piece it took, short of a mate.
            let first = p.piece_at(m.to).map_or(0, |v| values.value_of(v, m.to));
            let mut after = p.clone();
            after.make(m);
            if !after.in_check() && r.mated.is_none() {
                assert!(r.net <= first, "{p:?} {:?} {}", text(&r.line), r.net);
            }
        }
    }
}

#[test]
fn mate_searches_answer_with_real_mating_lines() {
    let all = positions(6);
    let mut mates = 0;
    for p in &all {
        let mut budget = NodeBudget::new(5_000);
        if let MateSearch::Mate(line) = mate_by_checks(p, 3, &mut budget) {
            assert!(is_mating_line(p, &line), "{p:?} {:?}", text(&line));
            mates += 1;
        }
        let mut budget = NodeBudget::new(5_000);
        match mate_threat(p, 3, &mut budget) {
            Err(_) => assert!(p.in_check()),
            Ok(MateSearch::Mate(line)) => {
                let mut q = p.clone();
                q.pass();
                assert!(is_mating_line(&q, &line), "{p:?} {:?}", text(&line));
            }
            Ok(_) => {}
        }
    }
    // The sample has middlegame checks but few forced mates; any found was verified.
    let _ = mates;
}

/// The null-window question "does the exchange net more than t" answers as
/// the full exchange does, on every capture of positions from real games.
#[test]
fn the_threshold_question_agrees_with_the_full_exchange() {
    let values = ValueTable::conventional();
    let mut asked = 0;
    for p in &positions(6) {
        for &m in p.legal_moves().iter() {
            if p.piece_at(m.to).is_none() {
                continue;
            }
            let mut budget = NodeBudget::new(200_000);
            let r = exchange(p, m, &values, ExchangeLimits::default(), &mut budget)
                .unwrap_or_else(|e| panic!("{p:?} {m}: {e}"));
            if r.exhausted {
                continue;
            }
            let value = match r.mated {
                Some(c) if c == r.starter => -1000,
                Some(_) => 1000,
                None => i64::from(r.net),
            };
            for t in [-5, -1, 0, 1, 2, 4, 5, 9] {
                let mut budget = NodeBudget::new(200_000);
                let (above, cut) =
                    exchange_exceeds(p, m, &values, ExchangeLimits::default(), &mut budget, t)
                        .unwrap_or_else(|e| panic!("{p:?} {m}: {e}"));
                if cut {
                    continue;
                }
                assert_eq!(above, value > t, "{p:?} {m} t={t}: full {value}");
                asked += 1;
            }
        }
    }
    assert!(asked > 1000, "{asked}");
}
