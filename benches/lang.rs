//! Criterion benchmarks of the rules language front end: parsing a rules
//! file, finding its comments, printing it, and the whole `qili fmt` path
//! (parse, print, re-parse and compare).
//!
//! `cargo bench --bench lang` · single thread · inputs: the sample below
//! and the bundled 2011 trial rules (`rules/2011-trial.qili`, with its
//! comments).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use qili::lang::fmt::{comments, format, format_source};
use qili::lang::{parse, Source};

/// The skeleton of the 2011 rules.
const SAMPLE: &str = r#"# A sample: the skeleton of the 2011 rules.
edition "2011" {
  title "中国象棋竞赛规则（2011）" / "Chinese Xiangqi Competition Rules (2011)"
  year 2011
  source "中国象棋协会, 2011, 第六章 棋例"
}
extends "2011-trial"

values {
  rook 10
  horse 5
  cannon 5
  advisor 2
  elephant 2
  pawn.crossed 2
  pawn.uncrossed 0
}

define 有根(p: piece) : bool "有根" "rooted" @24.15 =
  exists q in real_roots(p): true

define threatened(t: piece) : bool =
  exists a in pieces(mover) where can_take(a, t): exchange(a, t) > 0

nature 将 "check" @24.1 = gives_check(mover)

nature 捉 "chase" @24.3 =
  exists t in pieces(opponent) where kind(t) != king and not (kind(t) = pawn and not crossed(t)):
    threatened(t) and not before { threatened(t) }

nature 献 "sacrifice offer" @24.5 =
  exists t in pieces(opponent) where can_take(t, moved):
    after take(t, moved) { not mate_by_checks(mover, 3) and -1 < 0 }

override clause king-answer "帅应将产生的捉杀为闲" "a king's answer to check" @26.1.2 {
  when answers_check and kind(moved) = king
  recast 捉, 杀 -> 闲
}

remove clause mutual-reach

order 将 > 杀 > 捉 > 兑 = 献 = 闲

define forbidden(s: side) : bool =
  forall m in moves(s): nature_of(m) in {将, 杀, 捉}

verdict {
  case perpetual-check "长将" @26.2 for s: 长将(s) and not 长将(other(s)) => s must change
  case one-forbidden for s: forbidden(s) and not forbidden(other(s)) => s must change
  otherwise => draw
}
"#;

const TRIAL: &str = include_str!("../rules/2011-trial.qili");

fn bench_lang(c: &mut Criterion) {
    let mut g = c.benchmark_group("lang");
    for (name, text) in [("sample", SAMPLE), ("2011-trial", TRIAL)] {
        let src = Source::new(format!("{name}.qili"), text);
        let Ok(book) = parse(&src) else { continue };
        let notes = comments(&src);
        g.throughput(Throughput::Bytes(text.len() as u64));
        g.bench_function(format!("parse/{name}"), |b| {
            b.iter(|| parse(black_box(&src)).ok())
        });
        g.bench_function(format!("comments/{name}"), |b| {
            b.iter(|| comments(black_box(&src)))
        });
        g.bench_function(format!("print/{name}"), |b| {
            b.iter(|| format(black_box(&book), black_box(&notes)))
        });
        g.bench_function(format!("format_source/{name}"), |b| {
            b.iter(|| format_source(black_box(&src)))
        });
    }
    g.finish();
}

/// Every edition in rules/, parsed, resolved through its `extends` chain
/// and checked: what `qili check rules/*.qili` does.
fn bench_editions(c: &mut Criterion) {
    use qili::lang::check::check;
    use qili::lang::resolve::{resolve, Folder, Library};
    let folder = Folder(std::path::PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/rules"
    )));
    let ids = folder.ids();
    let sources: Vec<_> = ids.iter().filter_map(|id| folder.find(id)).collect();
    let mut g = c.benchmark_group("editions");
    g.bench_function("resolve_all", |b| {
        b.iter(|| {
            sources
                .iter()
                .filter_map(|(src, path)| resolve(src.clone(), path.clone(), &folder).ok())
                .count()
        })
    });
    let resolved: Vec<_> = sources
        .iter()
        .filter_map(|(src, path)| resolve(src.clone(), path.clone(), &folder).ok())
        .collect();
    g.bench_function("check_all", |b| {
        b.iter(|| {
            resolved
                .iter()
                .map(|r| check(r).errors.len())
                .sum::<usize>()
        })
    });
    g.finish();
}

criterion_group!(benches, bench_lang, bench_editions);
criterion_main!(benches);
