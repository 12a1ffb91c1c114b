fn main() {
    let fens = [
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w",
        "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w",
        "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w",
        "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w",
        "CnN1k1b2/c3a4/4ba3/9/2nr5/9/9/4C4/4A4/4KA3 w",
        "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w",
        "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w",
    ];
    let ps: Vec<_> = fens
        .iter()
        .filter_map(|f| qili::board::parse_fen(f).ok())
        .collect();
    let iters: usize = std::env::var("ITERS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2_000_000);
    let list = std::env::var("LIST").is_ok();
    let t = std::time::Instant::now();
    let mut n = 0u64;
    for _ in 0..iters {
        for p in &ps {
            n += if list {
                std::hint::black_box(p).legal_moves().len() as u64
            } else {
                std::hint::black_box(p).count_legal()
            };
        }
    }
    let dt = t.elapsed();
    println!(
        "{} positions {n} {:.1} ns/position",
        ps.len(),
        dt.as_nanos() as f64 / (iters * ps.len()) as f64
    );
    for p in &ps {
        println!("{} moves, in check {}", p.count_legal(), p.in_check());
    }
}
