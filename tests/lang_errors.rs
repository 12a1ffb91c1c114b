//! Every way a rules file can be wrong, with the diagnostics a user sees.
//!
//! Each fixture in `tests/lang_errors/` is a small broken rules file whose
//! first line, `# expect: qili::<code>`, names the first diagnostic it must
//! produce. Fixtures about `extends` hold several files: lines `$$ <id>`
//! start the editions of an in-memory rules folder; the file under test
//! (the first section) is then in that folder too, named `<its edition
//! id>.qili` as a folder would name it. The rendered diagnostics are snapshotted; each snapshot
//! was read for the exact line and column, what was expected, and the hint.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)] // tests fail by panicking

mod common;

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use miette::Diagnostic;
use qili::lang::check::check;
use qili::lang::resolve::{resolve, InMemory};
use qili::lang::Source;

/// A fixture split into the file under test and its library.
struct Fixture {
    stem: String,
    expect: String,
    source: Source,
    library: InMemory,
}

fn fixtures() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/lang_errors");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "qili"))
        .collect();
    files.sort();
    files
}

/// The id in the first `edition "…"` of a text.
fn edition_id(text: &str) -> Option<String> {
    let rest = &text[text.find("edition \"")? + "edition \"".len()..];
    Some(rest[..rest.find('"')?].to_string())
}

fn load(path: &Path) -> Fixture {
    let stem = path.file_stem().unwrap().to_string_lossy().to_string();
    let text = std::fs::read_to_string(path).unwrap();
    let expect = text
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("# expect: "))
        .unwrap_or_else(|| panic!("{stem}: the first line must be `# expect: qili::<code>`"))
        .trim()
        .to_string();
    let mut sections: Vec<(Option<String>, String)> = vec![(None, String::new())];
    for line in text.split_inclusive('\n') {
        if let Some(id) = line.strip_prefix("$$ ") {
            sections.push((Some(id.trim().to_string()), String::new()));
        } else {
            sections.last_mut().unwrap().1.push_str(line);
        }
    }
    let (_, main) = sections.remove(0);
    let mut library: HashMap<String, String> = sections
        .into_iter()
        .map(|(id, t)| (id.unwrap(), t))
        .collect();
    let name = if library.is_empty() {
        format!("{stem}.qili")
    } else {
        // The file under test sits in the folder too, so `extends` can come back to it.
        let id = edition_id(&main).unwrap_or_else(|| stem.clone());
        library.insert(id.clone(), main.clone());
        format!("{id}.qili")
    };
    let library = InMemory(library);
    Fixture {
        stem,
        expect,
        source: Source::new(name, main),
        library,
    }
}

/// The codes and renderings of every diagnostic of a fixture, in order.
fn diagnose(f: &Fixture) -> (Vec<String>, String) {
    let code = |d: &dyn Diagnostic| d.code().map(|c| c.to_string()).unwrap_or_default();
    let (codes, rendered): (Vec<String>, Vec<String>) =
        match resolve(f.source.clone(), None, &f.library) {
            Err(errors) => errors
                .0
                .iter()
                .map(|d| (code(d), common::render(d)))
                .unzip(),
            Ok(resolved) => check(&resolved)
                .diagnostics()
                .map(|d| (code(d), common::render(d)))
                .unzip(),
        };
    (codes, rendered.join("\n"))
}

#[test]
fn every_broken_rules_file_gets_its_diagnostic() {
    let files = fixtures();
    assert!(files.len() >= 32, "only {} fixtures", files.len());
    let mut wrong = Vec::new();
    for path in files {
        let f = load(&path);
        let (codes, rendered) = diagnose(&f);
        if codes.first() != Some(&f.expect) {
            wrong.push(format!(
                "{}: expected {}, got {codes:?}\n{rendered}",
                f.stem, f.expect
            ));
        }
        insta::assert_snapshot!(f.stem.clone(), rendered);
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// A syntax error's message says `at file:line:column`; the report's
/// header says it again, and both count columns in characters, as an editor
/// does (the fixtures' lines hold Chinese names such as 将, three bytes
/// each). Several fixtures have such a character before the error.
#[test]
fn a_syntax_errors_message_and_header_name_the_same_column() {
    let mut compared = 0;
    let mut after_chinese = 0;
    for path in fixtures() {
        let f = load(&path);
        let (_, rendered) = diagnose(&f);
        let Some(at) = rendered
            .split(" at ")
            .nth(1)
            .and_then(|r| r.split_whitespace().next())
            .filter(|w| w.contains(".qili:"))
        else {
            continue;
        };
        let header = rendered
            .split("╭─[")
            .nth(1)
            .and_then(|r| r.split(']').next())
            .unwrap();
        assert_eq!(at, header, "{}\n{rendered}", f.stem);
        compared += 1;
        // Count the errors in the fixture's own text (not a parent's) that
        // stand after a Chinese character on their line.
        let mut parts = at.rsplitn(3, ':');
        let column: usize = parts.next().unwrap().parse().unwrap();
        let line: usize = parts.next().unwrap().parse().unwrap();
        if parts.next() == Some(f.source.name.as_str()) {
            let text = f.source.text.lines().nth(line - 1).unwrap_or("");
            if text.chars().take(column - 1).any(|c| !c.is_ascii()) {
                after_chinese += 1;
            }
        }
    }
    assert!(compared >= 5, "{compared}");
    assert!(after_chinese >= 1, "{after_chinese}");
}

/// Every code the checks can give is shown by at least one fixture.
#[test]
fn the_corpus_covers_every_check() {
    let expected: BTreeSet<&str> = [
        "qili::parse::syntax",
        "qili::resolve::unknown_parent",
        "qili::resolve::pin_mismatch",
        "qili::resolve::cycle",
        "qili::resolve::duplicate",
        "qili::resolve::redefined",
        "qili::resolve::remove_missing",
        "qili::resolve::override_missing",
        "qili::check::unknown_name",
        "qili::check::not_callable",
        "qili::check::arity",
        "qili::check::type",
        "qili::check::result_type",
        "qili::check::scope",
        "qili::check::unknown_nature",
        "qili::check::order_missing",
        "qili::check::order_duplicate",
        "qili::check::missing_item",
        "qili::check::no_natures",
        "qili::check::value_missing",
        "qili::check::value_duplicate",
        "qili::check::value_unknown",
        "qili::check::exchange_missing",
        "qili::check::exchange_duplicate",
        "qili::check::exchange_unknown",
        "qili::check::exchange_range",
        "qili::check::ruling_side",
        "qili::check::duplicate_case",
        "qili::check::recursion",
        "qili::check::shadow",
        "qili::check::unused",
        "qili::check::unreachable",
        "qili::check::dead_clause",
    ]
    .into_iter()
    .collect();
    let covered: BTreeSet<String> = fixtures().iter().map(|p| load(p).expect).collect();
    let missing: Vec<&&str> = expected.iter().filter(|c| !covered.contains(**c)).collect();
    assert!(missing.is_empty(), "no fixture expects {missing:?}");
}

/// The 2011 skeleton (the sample the language was designed on), completed
/// so that it stands alone: the natures it orders are defined, `长将` is a
/// definition, `king` has a value, and 将 says "the opponent is in check"
/// with `in_check` (there is no `gives_check` primitive).
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
  king 1000
  pawn.crossed 2
  pawn.uncrossed 0
}

define 有根(p: piece) : bool "有根" "rooted" @24.15 =
  exists q in real_roots(p): true

define threatened(t: piece) : bool =
  exists a in pieces(mover) where can_take(a, t): exchange(a, t) > 0

nature 将 "check" @24.1 = in_check(opponent)

nature 杀 "mate threat" @24.2 = threatens_mate(mover, 3)

nature 捉 "chase" @24.3 =
  exists t in pieces(opponent) where kind(t) != king and not (kind(t) = pawn and not crossed(t)):
    threatened(t) and not before { threatened(t) }

nature 兑 "exchange offer" @24.4 =
  exists t in pieces_of(opponent, kind(moved)) where can_take(t, moved) and can_take(moved, t):
    有根(moved) and 有根(t)

nature 献 "sacrifice offer" @24.5 =
  exists t in pieces(opponent) where can_take(t, moved):
    after take(t, moved) { not mate_by_checks(mover, 3) and -1 < 0 }

nature 闲 "idle" @24.6 = true

override clause king-answer "帅应将产生的捉杀为闲" "a king's answer to check" @26.1.2 {
  when answers_check and kind(moved) = king
  recast 捉, 杀 -> 闲
}

remove clause mutual-reach

order 将 > 杀 > 捉 > 兑 = 献 = 闲

define 长将(s: side) : bool "长将" "perpetual check" =
  forall m in moves(s): nature_of(m) = 将

define forbidden(s: side) : bool =
  forall m in moves(s): nature_of(m) in {将, 杀, 捉}

verdict {
  case perpetual-check "长将" @26.2 for s: 长将(s) and not 长将(other(s)) => s must change
  case one-forbidden for s: forbidden(s) and not forbidden(other(s)) => s must change
  otherwise => draw
}
"#;

/// The parent the sample overrides and removes clauses of.
const PARENT: &str = r#"edition "2011-trial" { year 2011 }
clause king-answer @test { when answers_check recast 捉 -> 闲 }
clause mutual-reach @test { when false drop 捉 }
"#;

#[test]
fn the_sample_checks_clean() {
    let library = InMemory(HashMap::from([(
        "2011-trial".to_string(),
        PARENT.to_string(),
    )]));
    let resolved = resolve(Source::new("2011.qili", SAMPLE), None, &library)
        .unwrap_or_else(|e| panic!("{}", common::render(&e)));
    let report = check(&resolved);
    let all: Vec<String> = report.diagnostics().map(|d| common::render(d)).collect();
    assert!(
        report.is_ok() && report.warnings.is_empty(),
        "{}",
        all.join("\n")
    );
}

/// `qili check` on a folder: one summary line per file on stdout, the
/// diagnostics on stderr, and a failing exit when any file has an error.
#[test]
fn the_command_line_summarises_each_file() {
    let dir = std::env::temp_dir().join(format!("qili-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("2011-trial.qili"), PARENT).unwrap();
    std::fs::write(dir.join("2011.qili"), SAMPLE).unwrap();
    let broken = SAMPLE.replace("in_check(opponent)", "in_chek(opponent)");
    std::fs::write(dir.join("broken.qili"), broken).unwrap();
    let run = |files: &[&str]| {
        let mut args = vec![
            "check".to_string(),
            "--rules".into(),
            dir.display().to_string(),
        ];
        args.extend(files.iter().map(|f| dir.join(f).display().to_string()));
        std::process::Command::new(env!("CARGO_BIN_EXE_qili"))
            .args(&args)
            .output()
            .unwrap()
    };

    let ok = run(&["2011.qili"]);
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    let stdout = String::from_utf8_lossy(&ok.stdout).into_owned();
    assert_eq!(
        stdout.lines().collect::<Vec<_>>(),
        vec![format!("ok {}", dir.join("2011.qili").display())]
    );

    let bad = run(&["2011.qili", "broken.qili", "missing.qili"]);
    assert!(!bad.status.success());
    let stdout = String::from_utf8_lossy(&bad.stdout).into_owned();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    assert!(lines[0].starts_with("ok "), "{stdout}");
    assert!(
        lines[1].ends_with("broken.qili: 1 error, 0 warnings"),
        "{stdout}"
    );
    assert!(
        lines[2].ends_with("missing.qili: 1 error, 0 warnings"),
        "{stdout}"
    );
    let stderr = String::from_utf8_lossy(&bad.stderr).into_owned();
    assert!(
        stderr.contains("qili::check::unknown_name") && stderr.contains("in_check"),
        "{stderr}"
    );
    assert!(stderr.contains("qili::check::unreadable"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}
