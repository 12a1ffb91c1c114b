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
const SAMPLE: &str = include_str!("../tests/data/lang/sample.qili");

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
