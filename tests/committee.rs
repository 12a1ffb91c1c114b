//! The committee's tools: one cycle under several editions (`compare`),
//! two rulebooks over the corpus (`diff --cases`), proposals written as
//! rules files, and what the corpus reaches (`coverage`).
//!
//! The snapshots are the reports a committee reads; the assertions tie
//! them to the seeds: where the articles rule a case differently under two
//! editions, the comparison must mark exactly those moves.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashMap;
use std::path::Path;

use qili::cli::compare::{comparison_text, corpus_text, load_cases, load_games};
use qili::cli::judge::prepare;
use qili::judge::case::{Case, Expectation};
use qili::judge::compare::{compare, corpus_diff, coverage, games_diff, ItemRef};
use qili::judge::Rulebook;

fn book(id: &str) -> Rulebook {
    Rulebook::from_folder(id, "rules").unwrap()
}

fn item(kind: &str, id: &str) -> ItemRef {
    ItemRef {
        kind: kind.into(),
        id: id.into(),
    }
}

/// The cases whose articles rule under more than one edition that has a
/// rules file: the edition-contrast cases.
fn contrast_cases() -> Vec<Case> {
    load_cases(&["cases".into()])
        .unwrap()
        .into_iter()
        .filter(|c| !c.line)
        .filter(|c| {
            c.expect
                .iter()
                .flat_map(|e| &e.editions)
                .filter(|ed| Path::new("rules").join(format!("{ed}.qili")).is_file())
                .count()
                > 1
        })
        .collect()
}

fn expectation_for<'c>(case: &'c Case, edition: &str) -> Option<&'c Expectation> {
    case.expect
        .iter()
        .find(|e| e.editions.iter().any(|x| x == edition))
}

#[test]
fn compare_marks_exactly_the_moves_the_articles_rule_differently() {
    let mut books: HashMap<String, Rulebook> = HashMap::new();
    let cases = contrast_cases();
    assert!(cases.len() >= 5, "only {} contrast cases", cases.len());
    for case in &cases {
        let editions: Vec<String> = case
            .expect
            .iter()
            .flat_map(|e| e.editions.clone())
            .filter(|ed| Path::new("rules").join(format!("{ed}.qili")).is_file())
            .collect();
        for ed in &editions {
            books.entry(ed.clone()).or_insert_with(|| book(ed));
        }
        let refs: Vec<&Rulebook> = editions.iter().map(|e| &books[e]).collect();
        let cycle = prepare(case).unwrap();
        let cmp = compare(&refs, &cycle, true);
        insta::assert_snapshot!(
            format!("compare_{}", case.id.to_lowercase().replace('-', "_")),
            comparison_text(&cmp, true)
        );
        // Where every expectation is one qili meets, the marks must follow
        // the articles: a move differs exactly when the articles' natures
        // for it differ between the editions.
        let exp: Vec<&Expectation> = editions
            .iter()
            .map(|e| expectation_for(case, e).unwrap())
            .collect();
        if exp
            .iter()
            .any(|e| e.known_failure.is_some() || e.natures.is_empty())
        {
            continue;
        }
        for (i, m) in cmp.moves.iter().enumerate() {
            let article_differs = exp.iter().any(|e| e.natures[i] != exp[0].natures[i]);
            assert_eq!(m.differs, article_differs, "{} move {}", case.id, m.ply);
            if m.differs {
                assert!(!m.responsible.is_empty(), "{} move {}", case.id, m.ply);
            }
        }
        let outcomes_differ = exp.iter().any(|e| e.outcome != exp[0].outcome);
        assert_eq!(cmp.outcome_differs, outcomes_differ, "{}", case.id);
    }
}

/// S3 图6: the 2011 final's 26.3 addition (a root given up to answer a
/// check is the answerer's own doing) is what turns black's 马3退2 from a
/// chase into an idle move; the comparison names that clause.
#[test]
fn the_26_3_addition_is_named_where_the_trial_and_the_final_part() {
    let (trial, fin) = (book("2011-trial"), book("2011"));
    let case = Case::load(Path::new("cases/s3-6.toml")).unwrap();
    let cmp = compare(&[&trial, &fin], &prepare(&case).unwrap(), false);
    let m4 = &cmp.moves[3];
    assert_eq!(m4.natures, ["捉", "闲"]);
    assert!(m4.responsible.contains(&item("clause", "abandoned-root")));
    assert!(cmp.outcome_differs);
    assert_eq!(cmp.outcomes, ["black_must_change", "red_must_change"]);
}

/// Each proposal in `examples/proposals/` is a rules file extending 2011;
/// its report over the corpus is a snapshot, and its point shows in it.
#[test]
fn proposals_change_the_corpus_without_rust() {
    let base = book("2011");
    let cases = load_cases(&["cases".into()]).unwrap();
    let mut files: Vec<_> = std::fs::read_dir("examples/proposals")
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "qili"))
        .collect();
    files.sort();
    assert!(files.len() >= 3);
    for f in &files {
        let proposal = Rulebook::from_folder(f.to_str().unwrap(), "rules").unwrap();
        let d = corpus_diff(&base, &proposal, &cases, prepare, true);
        let name = f.file_stem().unwrap().to_string_lossy().into_owned();
        insta::assert_snapshot!(format!("proposal_{name}"), corpus_text(&d, true, true));
        let changed = |id: &str| {
            d.changed
                .iter()
                .find(|c| c.comparison.editions[1] == proposal.id() && c.id == id)
        };
        match name.as_str() {
            // Pawn chases count: the changed moves are blamed on the exemption.
            "pawn-chases-again" => {
                assert!(!d.changed.is_empty());
                for c in &d.changed {
                    for m in c.comparison.moves.iter().filter(|m| m.differs) {
                        assert!(
                            m.responsible.contains(&item("define", "exempt-chaser")),
                            "{}",
                            c.id
                        );
                    }
                }
            }
            // S0 L53 图2: under 威力互达 the pawn beside the king offers
            // itself, 长献, and the cycle is drawn.
            "mutual-reach-restored" => {
                let c = changed("S0-53-2").expect("S0-53-2 changes");
                assert_eq!(c.comparison.outcomes, ["red_must_change", "draw"]);
                assert_eq!(c.comparison.moves[0].natures, ["将", "献"]);
            }
            // S0 L54 图2: the acceptance runs into 炮七进八 and 兵六进一, a mate
            // one step removed; asking two moves makes the offer a chase, as
            // in 图1 where the mate is immediate.
            "offer-survives-two-plies" => {
                let c = changed("S0-54-2").expect("S0-54-2 changes");
                assert_eq!(c.comparison.outcomes, ["draw", "red_must_change"]);
                assert_eq!(c.comparison.moves[0].natures, ["献", "捉"]);
                assert!(c.comparison.moves[0]
                    .responsible
                    .contains(&item("define", "safe-take")));
            }
            // S0 L56 图1: the rook's only root is the fork 马4进3 with
            // check. Captures only, the root is not seen: 车八退六 chases,
            // and red's 一将一捉 must change where the article draws.
            "exchange-captures-only" => {
                let c = changed("S0-56-1").expect("S0-56-1 changes");
                assert_eq!(c.comparison.outcomes, ["draw", "red_must_change"]);
                assert_eq!(c.comparison.moves[0].natures, ["闲", "捉"]);
                assert!(c.comparison.moves[0]
                    .responsible
                    .contains(&item("exchange", "exchange")));
            }
            // The peer engine's perpetual-check test (Fairy-Stockfish's
            // test.py, line 1187): black's rooks shuffle on the seventh rank
            // beside a mate by checks (a rook to the f-file, the cannon's
            // block taken, the other rook after it) that black already has
            // before each of its moves. Read as standing, none of them is a
            // mate threat: 长杀 becomes four idle moves and the cycle a draw.
            "mate-threat-must-be-new" => {
                let c = changed("axf-cases-20").expect("axf-cases-20 changes");
                assert_eq!(c.comparison.outcomes, ["black_must_change", "draw"]);
                let black: Vec<_> = c
                    .comparison
                    .moves
                    .iter()
                    .filter(|m| m.side == "black")
                    .collect();
                assert_eq!(black.len(), 4);
                for m in black {
                    assert_eq!(m.natures, ["杀", "闲"]);
                    assert!(m.responsible.contains(&item("nature", "杀")));
                }
                assert_eq!(d.changed.len(), 1, "only the standing mate changes");
            }
            other => panic!("a proposal without an assertion: {other}"),
        }
    }
}

/// `diff --games`: a rulebook and a proposal over the repetitions of played
/// games. The fixture's first game plays S0 L56 图1's cycle round twice
/// from the figure's position; the repetition is ruled once, on its last
/// cycle, and the captures-only proposal changes it as it changes the case
/// (the article: 一将一闲 vs 二闲, a draw). The second game's horses go out
/// and back: a repetition of idle moves under both. The third record has a
/// move that cannot be played; it is read up to there and said to be cut.
/// The fourth is a copy of the second and is passed over.
#[test]
fn diff_over_games_rules_each_repetition_once_and_names_what_changed() {
    let base = book("2011");
    let proposal =
        Rulebook::from_folder("examples/proposals/exchange-captures-only.qili", "rules").unwrap();
    let files = load_games(&["tests/data/games/played.pgn".into()]).unwrap();
    let d = games_diff(&base, &proposal, &files, prepare, true);
    assert_eq!((d.games, d.duplicates.len(), d.repetitions), (4, 1, 2));
    assert!(d.unjudged.is_empty(), "{:?}", d.unjudged);
    assert_eq!(d.changed.len(), 1);
    assert_eq!(d.outcomes_changed, 1);
    let c = &d.changed[0];
    // Moves 3–4 (plies 4–8), the second time round, named by move 4,
    // where the position came back the last time.
    assert_eq!(c.id, "played#1@4");
    assert!(c.title.ends_with("RED – BLACK, moves 3–4"), "{}", c.title);
    assert_eq!(c.comparison.outcomes, ["draw", "red_must_change"]);
    assert_eq!(c.comparison.moves[0].natures, ["闲", "捉"]);
    assert!(c.comparison.moves[0]
        .responsible
        .contains(&item("exchange", "exchange")));
    assert_eq!(d.cut.len(), 1);
    assert_eq!(d.cut[0].0, "tests/data/games/played.pgn:15, game 3");
    assert!(
        d.cut[0].1.starts_with("move 2 (red, ply 3) `h2h9`"),
        "{:?}",
        d.cut
    );
    let text = qili::cli::compare::games_text(&d, true, false);
    assert!(
        text.ends_with("1 of 2 repetitions in 4 games change (1 outcomes)\n"),
        "{text}"
    );
}

/// S3 图6 has no king move and its move 4 is the 26.3 addition: over that
/// case alone, 2011's king-answer clause is unreached and the abandoned-root
/// clause is reached.
#[test]
fn coverage_names_what_a_corpus_leaves_untested() {
    let fin = book("2011");
    let case = Case::load(Path::new("cases/s3-6.toml")).unwrap();
    let cov = coverage(&fin, &[case], prepare);
    let by = |kind: &str, id: &str| {
        cov.items
            .iter()
            .find(|(i, _)| *i == item(kind, id))
            .map(|(_, by)| by.clone())
            .unwrap()
    };
    assert_eq!(cov.cases, 1);
    assert_eq!(by("clause", "abandoned-root"), ["S3-6"]);
    assert!(by("clause", "king-answer").is_empty());
    assert_eq!(by("nature", "将"), ["S3-6"]);
}
