//! The command line as scripts use it: output shapes are contracts.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)] // tests fail by panicking

use std::process::{Command, Output};

fn qili(args: &[&str]) -> Output {
    match Command::new(env!("CARGO_BIN_EXE_qili")).args(args).output() {
        Ok(o) => o,
        Err(e) => panic!("cannot run qili: {e}"),
    }
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn perft_prints_the_total_alone_on_its_last_line() {
    let o = qili(&["perft", "--depth", "3"]);
    assert!(o.status.success());
    // 79,666: the published count for the start position at depth 3.
    assert_eq!(stdout(&o).lines().last(), Some("79666"));

    let o = qili(&["perft", "--depth", "2", "--divide"]);
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 45, "44 root moves and the total");
    assert_eq!(lines.last(), Some(&"1920"));
    // After 炮二平五 black has 45 replies, not the 44 of the start: the cannon
    // on h7 gains h2 and h1 (+2) but loses h7xh0, which needed h2 as its
    // screen (-1).
    assert!(lines.contains(&"h2e2: 45"), "{out}");
}

#[test]
fn perft_suite_checks_the_bundled_reference_counts() {
    let o = qili(&[
        "perft",
        "--suite",
        "tests/data/perft.epd",
        "--max-nodes",
        "100000",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = stdout(&o);
    let last = out.lines().last().unwrap_or_default();
    assert!(last.ends_with(" passed, 0 failed"), "{last}");
}

#[test]
fn move_json_is_the_documented_contract() {
    let o = qili(&["move", "--move", "炮二平五", "--format", "json"]);
    assert!(o.status.success());
    let v: serde_json::Value = match serde_json::from_slice(&o.stdout) {
        Ok(v) => v,
        Err(e) => panic!("not JSON: {e}"),
    };
    let expected = serde_json::json!({
        "iccs": "h2e2",
        "wxf": "C2=5",
        "chinese": "炮二平五",
        // the cannon from h2 now on e2: rank 2 reads b2 cannon, e2 cannon
        "fen_after": "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 0 1",
    });
    assert_eq!(v, expected);
}

#[test]
fn every_notation_of_one_move_shows_the_same_move() {
    for m in ["h2e2", "C2=5", "C2.5", "炮二平五", "砲二平五", "炮２平５"] {
        let o = qili(&["move", "--move", m, "--format", "json"]);
        assert!(
            o.status.success(),
            "{m}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(stdout(&o).contains("\"iccs\":\"h2e2\""), "{m}");
    }
}

#[test]
fn bad_input_exits_non_zero_with_a_coded_diagnostic_on_stderr() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["perft", "--fen", "rnbakabnr/9 w", "--depth", "1"],
            "qili::fen::rank_count",
        ),
        (
            &["move", "--move", "炮二进五"],
            "qili::notation::illegal_move",
        ),
        (
            &["move", "--move", "马五进四"],
            "qili::notation::no_such_piece",
        ),
        (
            &["board", "--fen", "3k5/9/9/9/9/9/9/9/9/3K5 w"],
            "qili::fen::kings_facing",
        ),
    ];
    for (args, code) in cases {
        let o = qili(args);
        assert!(!o.status.success(), "{args:?}");
        assert!(o.stdout.is_empty(), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(code), "{args:?}: {err}");
    }
}

/// 26.2's lone perpetual check: a rook checks on every move while the king
/// steps back and forth.
const PERPETUAL_CHECK: &[&str] = &[
    "judge",
    "--rules",
    "2011",
    "--fen",
    "3k5/R8/9/9/9/9/9/9/9/4K4 w",
    "--moves",
    "车九进一 将4进1 车九退一 将4退1",
];

/// `--moves -` reads the line from standard input: 26.2's perpetual check
/// piped in with move numbers over two lines rules as on the command line
/// (red must change); bytes that are not UTF-8 are a coded error.
#[test]
fn moves_can_come_from_standard_input() {
    use std::io::Write;
    let run = |input: &[u8]| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_qili"))
            .args([
                "judge",
                "--fen",
                "3k5/R8/9/9/9/9/9/9/9/4K4 w",
                "--moves",
                "-",
            ])
            .args(["--format", "json"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(input).unwrap();
        child.wait_with_output().unwrap()
    };
    let o = run("1. 车九进一 将4进1\n2. 车九退一 将4退1\n".as_bytes());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["outcome"], "red_must_change");
    assert_eq!(v["moves"].as_array().unwrap().len(), 4);
    let o = run(&[0xff, 0xfe]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("qili::io"));
}

/// `explain-rules --format json` gives the chain and every item with its
/// lineage; each lineage step's file and line hold that item's keyword
/// and id (checked against the files themselves), and 2011 overrides
/// `already-threatened` (26.3) that the 2011 trial defined.
#[test]
fn explain_rules_json_points_each_step_at_its_line() {
    let o = qili(&["explain-rules", "2011", "--format", "json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["chain"], serde_json::json!(["2011-trial", "2011"]));
    let items = v["items"].as_array().unwrap();
    let threatened = items
        .iter()
        .find(|i| i["id"] == "already-threatened")
        .unwrap();
    assert_eq!(threatened["cite"], "26.3");
    let steps: Vec<&str> = threatened["lineage"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["step"].as_str().unwrap())
        .collect();
    assert_eq!(steps, ["defined", "overridden"]);
    for item in items.iter().filter(|i| i["kind"] == "define") {
        for step in item["lineage"].as_array().unwrap() {
            let file = std::fs::read_to_string(step["file"].as_str().unwrap()).unwrap();
            let line = file
                .lines()
                .nth(step["line"].as_u64().unwrap() as usize - 1)
                .unwrap();
            let id = item["id"].as_str().unwrap();
            assert!(
                line.contains(&format!("define {id}")),
                "{id}: {step} is `{line}`"
            );
        }
    }
}

/// `qili completions bash` is a script bash accepts (`bash -n`), and it
/// completes every subcommand and the options scripts use.
#[test]
fn the_bash_completion_script_parses_and_knows_the_commands() {
    let o = qili(&["completions", "bash"]);
    assert!(o.status.success());
    let script = stdout(&o);
    for word in [
        "judge",
        "test",
        "survey",
        "compare",
        "--rules-dir",
        "--explain",
    ] {
        assert!(script.contains(word), "{word}");
    }
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("qili.bash");
    std::fs::write(&path, &script).unwrap();
    // Where bash is missing the check is left to the other assertions.
    if let Ok(check) = Command::new("bash").arg("-n").arg(&path).output() {
        assert!(
            check.status.success(),
            "{}",
            String::from_utf8_lossy(&check.stderr)
        );
    }
}

/// A folder outside the checkout, with no `rules` and no `cases` in it (as
/// where an installed qili runs), and qili run there.
fn outside(name: &str) -> (std::path::PathBuf, impl Fn(&[&str]) -> Output) {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::create_dir_all(&dir).unwrap();
    assert!(!dir.join("rules").exists() && !dir.join("cases").exists());
    let here = dir.clone();
    let run = move |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_qili"))
            .args(args)
            .current_dir(&here)
            .output()
            .unwrap()
    };
    (dir, run)
}

/// Run where there is no `rules` folder, as an installed qili is, the
/// editions built into the program answer, for an edition id and for a
/// draft's `extends`; a rules folder named on purpose must exist, so a
/// mistyped one is refused rather than quietly replaced.
#[test]
fn outside_the_checkout_the_built_in_editions_answer() {
    let (elsewhere, run) = outside("no-rules-folder");

    let o = run(&[PERPETUAL_CHECK, &["--format", "json"]].concat());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["rules"]["id"], "2011");
    assert_eq!(v["outcome"], "red_must_change");

    let draft = "edition \"draft\" {\n  title \"草案\" / \"draft\"\n}\nextends \"2011\"\n";
    std::fs::write(elsewhere.join("draft.qili"), draft).unwrap();
    let o = run(&["check", "draft.qili"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(stdout(&o).trim(), "ok draft.qili");

    let o = run(&[PERPETUAL_CHECK, &["--rules-dir", "rulez"]].concat());
    assert!(!o.status.success());
    assert!(o.stdout.is_empty());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("qili::rules::no_folder"), "{err}");
}

/// Outside the checkout the case corpus is built in: `qili test` runs the
/// same cases to the same counts as in the checkout, and `--case` finds a
/// seed figure by its id and rules it word for word as from its file. The
/// built-in files are the folder's, text for text.
#[test]
fn outside_the_checkout_the_built_in_corpus_answers() {
    let mut on_disk = qili::cli::judge::case_files(&["cases".into()])
        .unwrap()
        .into_iter()
        .map(|f| f.name())
        .collect::<Vec<_>>();
    on_disk.sort();
    let mut built_in: Vec<String> = qili::judge::case::BUNDLED_CASES
        .iter()
        .map(|(path, text)| {
            let file = std::fs::read_to_string(path).unwrap();
            assert!(file == *text, "{path}: the built-in text is not the file's");
            (*path).to_string()
        })
        .collect();
    built_in.sort();
    assert_eq!(on_disk, built_in);
    assert!(built_in.len() > 60, "only {} case files", built_in.len());

    let (_, run) = outside("no-cases-folder");
    let last = |o: &Output| stdout(o).lines().last().unwrap_or_default().to_string();
    let here = qili(&["test"]);
    let there = run(&["test"]);
    assert!(
        there.status.success(),
        "{}",
        String::from_utf8_lossy(&there.stderr)
    );
    assert_eq!(last(&there), last(&here));
    assert!(
        last(&there).ends_with(" passed, 0 failed"),
        "{}",
        last(&there)
    );

    let from_file = qili(&["judge", "--case", "cases/s3-2.toml"]);
    for id in ["s3-2", "S3-2", "cases/s3-2.toml"] {
        let o = run(&["judge", "--case", id]);
        assert!(
            o.status.success(),
            "{id}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert_eq!(stdout(&o), stdout(&from_file), "{id}");
    }
    let o = run(&["judge", "--case", "s9-99"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("qili::case::io"));
    let o = run(&["judge", "--case", "s3-22"]);
    // The diagnostic is wrapped to the terminal's width: read it unwrapped.
    let err = String::from_utf8_lossy(&o.stderr).replace('│', " ");
    let err = err.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(err.contains("did you mean `s3-2`?"), "{err}");
    let o = run(&["test", "cases/nosuch"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("qili::test::no_cases"));
}

#[test]
fn judge_json_is_the_documented_contract() {
    let o = qili(&[PERPETUAL_CHECK, &["--format", "json"]].concat());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, ["moves", "outcome", "rules", "sides"]);
    assert_eq!(v["outcome"], "red_must_change");
    assert_eq!(v["moves"].as_array().unwrap().len(), 4);
    assert_eq!(v["moves"][1]["side"], "black");
    assert_eq!(v["sides"]["red"]["status"], "forbidden");
}

/// `--profile` adds one key to the JSON (the contract's keys stay as they
/// are) and a table to the text, both naming the rulebook's own steps.
#[test]
fn a_profile_is_added_only_when_asked_for() {
    let args = |format| {
        [
            PERPETUAL_CHECK,
            &["--profile", "--lang", "en", "--format", format],
        ]
        .concat()
    };
    let o = qili(&args("json"));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, ["moves", "outcome", "profile", "rules", "sides"]);
    assert_eq!(v["outcome"], "red_must_change");
    assert_eq!(v["profile"]["cycles"], 1);
    let rows = v["profile"]["rows"].as_array().unwrap();
    assert!(rows
        .iter()
        .any(|r| r["kind"] == "nature" && r["id"] == "将" && r["calls"].as_u64() >= Some(4)));
    assert!(rows
        .iter()
        .any(|r| r["kind"] == "definition" && r["id"] == "forbidden"));
    let o = qili(&args("text"));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = stdout(&o);
    assert!(
        out.contains("Where the time went (self time): 1 cycle"),
        "{out}"
    );
    assert!(
        out.trim_end()
            .ends_with("elsewhere (move names, summaries, records, the timing's own residue)"),
        "{out}"
    );
}

#[test]
fn judge_a_corpus_case_and_say_whether_the_article_agrees() {
    let o = qili(&["judge", "--case", "cases/s3-2.toml"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = stdout(&o);
    // Seed 003 图2: red 一杀一闲, black 一将一捉 — black must change.
    assert!(
        out.contains("裁决：黑方一将一捉为禁止着法，红方一杀一闲为允许着法：黑方变着，不变作负"),
        "{out}"
    );
    assert!(out.contains("文章（2011）：与本裁决一致"), "{out}");
    let o = qili(&["judge", "--case", "cases/s3-2.toml", "--lang", "en"]);
    assert!(stdout(&o).contains("Article (2011): the article agrees"));
}

#[test]
fn the_corpus_run_ends_with_its_timing_and_counts() {
    let o = qili(&["test"]);
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    let last = lines.last().copied().unwrap_or_default();
    assert!(
        last.ends_with(" failed") && last.contains(" passed, "),
        "{out}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("ruled ") && l.contains("median") && l.contains("p99")),
        "{out}"
    );
    assert_eq!(o.status.success(), last.ends_with(", 0 failed"));
}

/// `diff --games` adds a `games` object beside `clauses` in the JSON, and
/// its text ends with the count; a path that is not there is refused.
#[test]
fn diff_over_games_is_reported_in_text_and_json() {
    let args = [
        "diff",
        "2011",
        "examples/proposals/exchange-captures-only.qili",
        "--games",
        "tests/data/games",
    ];
    let text = qili(&args);
    assert!(text.status.success());
    let out = stdout(&text);
    assert!(out.contains("== played#1@4 — "), "{out}");
    assert!(
        out.ends_with("1 of 2 repetitions in 4 games change (1 outcomes)\n"),
        "{out}"
    );
    let json = qili(&[&args[..], &["--format", "json"]].concat());
    let v: serde_json::Value = serde_json::from_str(&stdout(&json)).unwrap();
    assert!(v["clauses"].is_object());
    assert!(v.get("corpus").is_none());
    let g = &v["games"];
    assert_eq!(g["games"], 4);
    assert_eq!(
        g["duplicates"][0],
        serde_json::json!([
            "tests/data/games/played.pgn:19, game 4",
            "tests/data/games/played.pgn:9, game 2"
        ])
    );
    assert_eq!(g["repetitions"], 2);
    assert_eq!(g["outcomes_changed"], 1);
    assert_eq!(g["changed"][0]["id"], "played#1@4");
    assert_eq!(g["cut"][0][0], "tests/data/games/played.pgn:15, game 3");
    let missing = qili(&["diff", "2011", "2011", "--games", "no/such/games"]);
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("qili::games::missing"));
}

/// `qili judge --pgn`: a repetition of a game record, named as the survey
/// names it; a game without one, or a game the file does not hold, is
/// refused with a coded diagnostic.
#[test]
fn judge_a_repetition_of_a_game_record() {
    let pgn = "tests/data/games/played.pgn";
    let first = qili(&["judge", "--pgn", pgn, "--format", "json"]);
    assert!(first.status.success());
    let v: serde_json::Value = serde_json::from_str(&stdout(&first)).unwrap();
    // S0 L56 图1's cycle, the second time round: the article's natures.
    let natures: Vec<&str> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["nature"].as_str().unwrap())
        .collect();
    assert_eq!(natures, ["闲", "兑", "将", "闲"]);
    assert_eq!(v["outcome"], "draw");
    let text = stdout(&qili(&["judge", "--pgn", pgn, "--game", "2", "--at", "2"]));
    assert!(
        text.starts_with("played#2@2 — Horses out and back"),
        "{text}"
    );
    let refused = |args: &[&str], code: &str| {
        let o = qili(args);
        assert!(!o.status.success());
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert!(err.contains(code), "{err}");
        err
    };
    let err = refused(
        &["judge", "--pgn", pgn, "--game", "3"],
        "qili::games::no_repetition",
    );
    assert!(err.contains("read only up to"), "{err}");
    let err = refused(
        &["judge", "--pgn", pgn, "--game", "2", "--at", "1"],
        "qili::games::no_repetition",
    );
    assert!(err.contains("end at moves 2"), "{err}");
    refused(
        &["judge", "--pgn", pgn, "--game", "9"],
        "qili::games::no_game",
    );
}

/// `qili survey`: the text ends with the counts; the JSON keeps its keys.
#[test]
fn a_survey_is_reported_in_text_and_json() {
    let text = qili(&["survey", "tests/data/games", "--lang", "en"]);
    assert!(text.status.success());
    let out = stdout(&text);
    assert!(out.starts_with("survey: 2011 — "), "{out}");
    assert!(
        out.ends_with("2 repetitions in 4 games: 2 draw, 0 red must change, 0 black must change\n"),
        "{out}"
    );
    // Chinese by default, headings and outcomes included.
    let out = stdout(&qili(&["survey", "tests/data/games"]));
    assert!(out.starts_with("棋例统计：2011 — "), "{out}");
    assert!(out.contains("\n  和棋         2  100.0%\n"), "{out}");
    assert!(
        out.ends_with("4局中2处重复局面：和棋2处，红方变着0处，黑方变着0处\n"),
        "{out}"
    );
    assert!(!out.contains("outcome"), "{out}");
    let json = qili(&[
        "survey",
        "tests/data/games",
        "--format",
        "json",
        "--lang",
        "en",
    ]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&json)).unwrap();
    for key in [
        "rules",
        "games",
        "repetitions",
        "outcomes",
        "natures",
        "patterns",
        "cut",
        "rulings",
    ] {
        assert!(v.get(key).is_some(), "{key}");
    }
    assert_eq!(v["rulings"][1]["red"], "two idle moves");
    assert_eq!(v["rulings"][0]["natures"][1], "兑");
    let missing = qili(&["survey", "no/such/games"]);
    assert!(!missing.status.success());
    // A folder with no `.pgn` file in it is an error, not an empty survey.
    let none = qili(&["survey", "tests/data/lang"]);
    assert!(!none.status.success());
    assert!(String::from_utf8_lossy(&none.stderr).contains("qili::games::none"));
    // Several rulebooks: a line each, and a JSON array in their order.
    let two = qili(&["survey", "tests/data/games", "--rules", "1999,2011"]);
    let out = stdout(&two);
    let lines: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("  19") || l.starts_with("  20"))
        .collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(
        lines[0].starts_with("  1999 ") && lines[1].starts_with("  2011 "),
        "{out}"
    );
    let json = qili(&[
        "survey",
        "tests/data/games",
        "--rules",
        "1999,2011",
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&json)).unwrap();
    assert_eq!(v[0]["rules"]["id"], "1999");
    assert_eq!(v[1]["rules"]["id"], "2011");
    assert_eq!(v[1]["repetitions"], 2);
}

#[test]
fn judge_refuses_bad_input_with_coded_diagnostics() {
    let no_cycle = qili(&["judge", "--moves", "炮二平五 马8进7"]);
    assert!(!no_cycle.status.success());
    assert!(String::from_utf8_lossy(&no_cycle.stderr).contains("qili::judge::no_repetition"));
    let unknown = qili(&["judge", "--rules", "2012", "--moves", "炮二平五"]);
    assert!(!unknown.status.success());
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("qili::rules::unknown_edition"));
}

#[test]
fn a_rules_file_that_does_not_load_fails_its_cases_instead_of_skipping_them() {
    // A copy of the rules folder whose 2011 file has a syntax error: its
    // cases must fail (not be skipped), and the run must exit non-zero.
    let dir = std::env::temp_dir().join(format!("qili-broken-rules-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for name in ["2011-trial.qili", "2011.qili"] {
        std::fs::copy(format!("rules/{name}"), dir.join(name)).unwrap();
    }
    let broken = std::fs::read_to_string(dir.join("2011.qili")).unwrap() + "\ndefine oops(\n";
    std::fs::write(dir.join("2011.qili"), broken).unwrap();
    let o = qili(&[
        "test",
        "--rules-dir",
        dir.to_str().unwrap(),
        "cases/s3-1.toml",
    ]);
    let out = stdout(&o);
    std::fs::remove_dir_all(&dir).ok();
    assert!(!o.status.success(), "{out}");
    assert!(
        out.lines()
            .any(|l| l.starts_with("FAIL S3-1 [2011]") && l.contains("does not load")),
        "{out}"
    );
    assert!(!out.contains("SKIP S3-1 [2011]"), "{out}");
}

/// `qili test --format json` reports each ruling with what the article
/// expects and what was found. Three cases: seed 003 图2 as the corpus has
/// it (passes: the article's natures are 杀 将 闲 捉 and black changes); 26.2's
/// lone perpetual check with a wrong expectation written on purpose (a
/// draw, where red must change: it fails, with the outcome's difference);
/// and an edition no rules file has (skipped). The run fails, so the exit is
/// non-zero, and the failure is JSON on stderr.
#[test]
fn the_corpus_report_as_json_gives_each_ruling_and_the_counts() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("corpus-json");
    std::fs::create_dir_all(&dir).unwrap();
    let wrong = dir.join("wrong.toml");
    std::fs::write(
        &wrong,
        r#"id = "WRONG"
title = "a perpetual check expected, wrongly, to draw"
source = "this test"
fen = "3k5/R8/9/9/9/9/9/9/9/4K4 w"
moves = "车九进一 将4进1 车九退一 将4退1"

[[expect]]
editions = ["2011"]
natures = ["将", "闲", "将", "闲"]
outcome = "draw"

[[expect]]
editions = ["1900"]
natures = ["将", "闲", "将", "闲"]
outcome = "red_must_change"
"#,
    )
    .unwrap();
    let o = qili(&[
        "test",
        "--format",
        "json",
        "cases/s3-2.toml",
        wrong.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        ["failed", "known", "passed", "results", "skipped", "timing"]
    );
    assert_eq!(
        (v["passed"].as_u64(), v["failed"].as_u64()),
        (Some(2), Some(1))
    );
    assert_eq!(
        (v["known"].as_u64(), v["skipped"].as_u64()),
        (Some(0), Some(1))
    );
    assert_eq!(v["timing"]["cycles"], 3);

    let results = v["results"].as_array().unwrap();
    let pass = &results[0];
    assert_eq!(
        (&pass["case"], &pass["edition"]),
        (&"S3-2".into(), &"2011".into())
    );
    assert_eq!(pass["status"], "pass");
    assert_eq!(
        pass["found"]["natures"],
        serde_json::json!(["杀", "将", "闲", "捉"])
    );
    assert_eq!(pass["found"]["outcome"], "black_must_change");
    let fail = results
        .iter()
        .find(|r| r["case"] == "WRONG" && r["edition"] == "2011")
        .unwrap();
    assert_eq!(fail["status"], "fail");
    assert_eq!(fail["expected"]["outcome"], "draw");
    assert_eq!(fail["found"]["outcome"], "red_must_change");
    assert_eq!(fail["differences"].as_array().unwrap().len(), 1);
    let skip = results.iter().find(|r| r["edition"] == "1900").unwrap();
    assert_eq!(skip["status"], "skip");
    assert!(skip["found"].is_null());

    let err: serde_json::Value = serde_json::from_slice(&o.stderr).unwrap();
    assert_eq!(err["code"], "qili::test::failed");
}

/// A script that asks for JSON reads a failure as JSON too: an illegal
/// fourth move (the black king cannot step from d8 to d6) gives one JSON
/// object on stderr with the diagnostic's code and the byte span of the
/// move in the line, nothing on stdout, and a non-zero exit. Without
/// `--format json` the same error is the usual text report.
#[test]
fn an_error_under_format_json_is_a_json_object_on_stderr() {
    // PERPETUAL_CHECK's position, with the king's last step made illegal.
    let line = "车九进一 将4进1 车九退一 将4进2";
    let (moves, before) = PERPETUAL_CHECK.split_last().unwrap();
    assert!(moves.starts_with("车九进一 将4进1 车九退一"));
    let args = [before, &[line]].concat();
    let o = qili(&[&args[..], &["--format", "json"]].concat());
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty());
    let v: serde_json::Value = match serde_json::from_slice(&o.stderr) {
        Ok(v) => v,
        Err(e) => panic!("not JSON: {e}: {}", String::from_utf8_lossy(&o.stderr)),
    };
    assert_eq!(v["code"], "qili::notation::illegal_move");
    assert_eq!(v["filename"], "moves");
    let span = &v["labels"][0]["span"];
    let at = line.find("将4进2").unwrap();
    assert_eq!(span["offset"], at);
    assert_eq!(span["length"], "将4进2".len());

    let o = qili(&args);
    assert_eq!(o.status.code(), Some(1));
    let text = String::from_utf8_lossy(&o.stderr);
    assert!(text.contains("qili::notation::illegal_move"), "{text}");
    assert!(serde_json::from_slice::<serde_json::Value>(&o.stderr).is_err());
}

/// `qili check --format json`, as an editor would call it: a broken file
/// (a keyword used as a definition's name, line 4, column 8) and a clean
/// edition give one document with each file's counts and diagnostics; the
/// run fails, and says so as JSON on stderr.
#[test]
fn check_json_lists_each_files_diagnostics() {
    let broken = "tests/lang_errors/parse_keyword_as_name.qili";
    let o = qili(&["check", broken, "rules/2011.qili", "--format", "json"]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = match serde_json::from_slice(&o.stdout) {
        Ok(v) => v,
        Err(e) => panic!("not JSON: {e}: {}", stdout(&o)),
    };
    let files = v["files"].as_array().unwrap();
    assert_eq!(files.len(), 2);
    assert_eq!(files[0]["file"], broken);
    assert_eq!(files[0]["errors"], 1);
    let d = &files[0]["diagnostics"][0];
    assert_eq!(d["code"], "qili::parse::syntax");
    assert_eq!(d["severity"], "error");
    let text = std::fs::read_to_string(broken).unwrap();
    let line4 = text.lines().take(3).map(|l| l.len() + 1).sum::<usize>();
    assert_eq!(d["labels"][0]["span"]["offset"], line4 + 7);
    assert_eq!(d["labels"][0]["span"]["length"], "count".len());
    assert_eq!(files[1]["errors"], 0);
    assert_eq!(files[1]["diagnostics"], serde_json::json!([]));
    let e: serde_json::Value = serde_json::from_slice(&o.stderr).unwrap();
    assert_eq!(e["code"], "qili::check::failed");
}
