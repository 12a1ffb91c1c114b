fn main() {
    let args: Vec<String> = std::env::args().collect();
    let fen = &args[1];
    let depth: u32 = args[2].parse().unwrap();
    let mut pos = qili::board::parse_fen(fen).unwrap();
    let t = std::time::Instant::now();
    let n = qili::board::perft::perft(&mut pos, depth);
    let dt = t.elapsed();
    println!("{n} {:?} {:.1} Mnps", dt, n as f64 / dt.as_secs_f64() / 1e6);
}
