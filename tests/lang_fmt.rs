#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)] // tests fail by panicking

//! The canonical formatter: its layout (a snapshot of a real file), its
//! promises (idempotent, same tree, same comments), the parentheses it must
//! and must not print, and — the real guarantee — random syntax trees that
//! print and read back as themselves.

use miette::Diagnostic;
use proptest::prelude::*;
use qili::lang::ast::*;
use qili::lang::fmt::{comments, format, format_source, Comments};
use qili::lang::{parse, Rulebook, Source};

/// The skeleton of the 2011 rules, as a committee member would write it.
const SAMPLE: &str = include_str!("data/lang/sample.qili");

/// The same rules laid out badly: few lines, odd spacing, `;`, needless
/// parentheses, fields out of order, a string with a needless escape.
const MESSY: &str = "# A sample: the skeleton of the 2011 rules.
edition \"2011\"{source \"中国象棋协会, 2011, 第六章 棋例\" year 2011
 title \"中国象棋竞赛规则（2011）\"/\"Chinese Xiangqi Competition Rules (2011)\"}extends \"2011-trial\" values{rook 10;horse 5 cannon 5
advisor 2 elephant 2 pawn.crossed 2 pawn.uncrossed 0}
define 有根 ( p : piece ):bool \"有根\" \"rooted\"   @24.15 = exists q in real_roots( p ) : true ;
define threatened(t:piece):bool=exists a in pieces(mover)where can_take(a,t):(exchange(a,t))>0
nature 将 \"check\"@24.1=gives_check(mover)nature 捉 \"chase\" @24.3 = exists t in pieces(opponent) where (kind(t)!=king) and not(kind(t)=pawn and not crossed(t)):threatened(t)and not before{threatened(t)}
nature 献 \"sacrifice offer\" @24.5 =
        exists t in pieces(opponent) where can_take(t, moved):
 after   take(t,moved){not mate_by_checks(mover,3)and - 1<0}
override clause king-answer \"帅应将产生的捉杀为闲\" \"a king's answer to check\" @26.1.2 { when (answers_check and kind(moved)=king); recast 捉,杀->闲 } remove clause mutual-reach;
order 将>杀>捉>兑=献=闲 ; define forbidden(s:side):bool=forall m in moves(s):nature_of(m)in{将,杀,捉}
verdict{case perpetual-check \"长将\"@26.2 for s:长将(s)and not 长将(other(s))=>s must change;case one-forbidden for s:
forbidden(s) and not forbidden(other(s)) => s must change otherwise=>draw}";

fn source(text: &str) -> Source {
    Source::new("test.qili", text)
}

fn fmt(text: &str) -> String {
    match format_source(&source(text)) {
        Ok(out) => out,
        Err(e) => panic!("cannot format:\n{text}\n{e:?}"),
    }
}

fn tree(text: &str) -> Rulebook {
    match parse(&source(text)) {
        Ok(book) => book,
        Err(e) => panic!("does not parse:\n{text}\n{e}"),
    }
}

fn comment_texts(text: &str) -> Vec<String> {
    let mut texts: Vec<String> = comments(&source(text))
        .iter()
        .map(|c| c.text.clone())
        .collect();
    texts.sort();
    texts
}

// -----------------------------------------------------------------------------
// The layout of a real file
// -----------------------------------------------------------------------------

#[test]
fn sample_in_canonical_layout() {
    insta::assert_snapshot!("sample", fmt(SAMPLE));
}

#[test]
fn formatting_is_idempotent() {
    for text in [SAMPLE, MESSY, COMMENTED] {
        let once = fmt(text);
        assert_eq!(fmt(&once), once);
    }
}

#[test]
fn formatting_keeps_the_tree() {
    for text in [SAMPLE, MESSY, COMMENTED] {
        assert_eq!(tree(&fmt(text)), tree(text));
    }
}

#[test]
fn a_badly_laid_out_file_formats_like_the_tidy_one() {
    assert_ne!(MESSY, SAMPLE);
    assert_eq!(
        tree(MESSY),
        tree(SAMPLE),
        "the two texts must say the same thing"
    );
    assert_eq!(fmt(MESSY), fmt(SAMPLE));
}

#[test]
fn lines_fit_in_80_columns_where_they_can_break() {
    let out = fmt(SAMPLE);
    let clause_head = "override clause king-answer";
    for line in out
        .lines()
        .filter(|l| !l.starts_with(clause_head) && !l.contains("title"))
    {
        let columns: usize = line
            .chars()
            .map(|c| if c > '\u{2E80}' { 2 } else { 1 })
            .sum();
        assert!(columns <= 80, "{columns} columns: {line}");
    }
}

// -----------------------------------------------------------------------------
// Comments
// -----------------------------------------------------------------------------

/// A comment in every place the rules name, plus some that cannot be
/// placed exactly.
const COMMENTED: &str = r##"# file head

# second head, after a blank line
edition "x" {  # opens the edition
  # before the year
  year 2011 # the year
  title "t" # the title
  # at the end of the edition
} # closes the edition
extends "p" # the parent
# before the values
values { rook 10 # a rook
  # before the horse
  horse 5;
  # after the last value
}  # closes the values
define a = x and # in the middle of a line of an item
  y  # on its last line
define b = very_long_name_number_one(alpha, beta) and very_long_name_number_two(gamma) # tail
verdict { # opens the verdict
  # before the case
  case c "#not a comment": a => draw # after the case
  # before otherwise
  otherwise => draw # after otherwise
  # at the end of the verdict
}
clause k @test { # opens the clause
  # before when
  when a # after when
  # before the action
  drop 捉 # after the action
  # at the end of the clause
}
define c =
  # inside an expression
  1 + 2
# at the end

# really the end
"##;

#[test]
fn no_comment_is_lost_or_invented() {
    let before = comment_texts(COMMENTED);
    assert_eq!(before.len(), 32);
    assert!(
        !before.iter().any(|c| c.contains("not a comment")),
        "a `#` in a string is no comment"
    );
    assert_eq!(comment_texts(&fmt(COMMENTED)), before);
}

#[test]
fn comments_stay_where_they_were_written() {
    let expected = r##"# file head

# second head, after a blank line
edition "x" {  # opens the edition
  title "t"  # the title
  # before the year
  year 2011  # the year
  # at the end of the edition
}  # closes the edition
extends "p"  # the parent

# before the values
values {
  rook 10  # a rook
  # before the horse
  horse 5
  # after the last value
}  # closes the values

# on its last line
define a = x and y  # in the middle of a line of an item

define b =  # tail
  very_long_name_number_one(alpha, beta) and very_long_name_number_two(gamma)

verdict {  # opens the verdict
  # before the case
  case c "#not a comment": a => draw  # after the case
  # before otherwise
  otherwise => draw  # after otherwise
  # at the end of the verdict
}

clause k @test {  # opens the clause
  # before when
  when a  # after when
  # before the action
  drop 捉  # after the action
  # at the end of the clause
}

# inside an expression
define c = 1 + 2

# at the end

# really the end
"##;
    assert_eq!(fmt(COMMENTED), expected);
}

#[test]
fn a_comment_ending_the_last_line_of_a_long_item_stays_there() {
    let text = "edition \"x\" {}\n\ndefine a =\n  very_long_name_number_one(alpha, beta)\n  and very_long_name_number_two(gamma, delta)  # why\n";
    assert_eq!(fmt(text), text);
}

#[test]
fn windows_line_endings_become_newlines_and_comments_keep_their_place() {
    let text = "# head\r\nedition \"x\" {}\r\n\r\n# about a\r\ndefine a = 1 # one\r\n";
    let expected = "# head\nedition \"x\" {}\n\n# about a\ndefine a = 1  # one\n";
    assert_eq!(fmt(text), expected);
}

#[test]
fn comments_of_another_text_are_kept_at_the_end() {
    let book = tree("edition \"x\" {}\n");
    let notes = comments(&source(
        "edition \"y\" {}\ndefine a = 1 # one\n# two\ndefine b = 2\n",
    ));
    assert_eq!(notes.len(), 2);
    assert_eq!(format(&book, &notes), "edition \"x\" {}\n\n# one\n# two\n");
}

#[test]
fn a_file_that_does_not_parse_keeps_its_comments() {
    let notes = comments(&source("# a\nedition {\n# b\n"));
    let texts: Vec<&str> = notes.iter().map(|c| c.text.as_str()).collect();
    assert_eq!(texts, ["# a", "# b"]);
}

// -----------------------------------------------------------------------------
// Parentheses: exactly where the tree needs them
// -----------------------------------------------------------------------------

/// The body of `define x = …` after formatting.
fn body(expr: &str) -> String {
    let out = fmt(&format!("edition \"x\" {{}}\ndefine x = {expr}\n"));
    let text = out
        .strip_prefix("edition \"x\" {}\n\ndefine x = ")
        .unwrap_or(&out);
    text.trim_end().to_string()
}

#[test]
fn parentheses_are_printed_where_the_tree_needs_them() {
    let cases = [
        // (written, printed, the same without the parentheses that stay)
        ("not (a and b)", "not (a and b)", "not a and b"),
        ("(a or b) and c", "(a or b) and c", "a or b and c"),
        ("-(x - y)", "-(x - y)", "-x - y"),
        ("a - (b - c)", "a - (b - c)", "a - b - c"),
        ("a * (b + c)", "a * (b + c)", "a * b + c"),
        ("(a = b) = c", "(a = b) = c", ""),
        ("(not a) = b", "(not a) = b", "not a = b"),
        (
            "a and (exists t in s: p) and q",
            "a and (exists t in s: p) and q",
            "",
        ),
        (
            "(exists t in s: p) or q",
            "(exists t in s: p) or q",
            "exists t in s: p or q",
        ),
        (
            "(count t in s) > 3",
            "(count t in s) > 3",
            "count t in s > 3",
        ),
        (
            "(a and exists t in s: p) or q",
            "(a and exists t in s: p) or q",
            "a and exists t in s: p or q",
        ),
        (
            "-(exists t in s: p) * 2",
            "-(exists t in s: p) * 2",
            "-exists t in s: p * 2",
        ),
        (
            "(count t in s where p) and q",
            "(count t in s where p) and q",
            "count t in s where p and q",
        ),
        (
            "(if a then b else c) + 1",
            "(if a then b else c) + 1",
            "if a then b else c + 1",
        ),
        (
            "count t in (count u in s) where p",
            "count t in (count u in s) where p",
            "count t in count u in s where p",
        ),
    ];
    for (written, printed, bare) in cases {
        assert_eq!(body(written), printed, "{written}");
        let with = tree(&format!("edition \"x\" {{}}\ndefine x = {written}\n"));
        if !bare.is_empty() {
            let without = parse(&source(&format!("edition \"x\" {{}}\ndefine x = {bare}\n")));
            assert!(
                without.map_or(true, |b| b != with),
                "`{bare}` means `{written}`: no parentheses needed"
            );
        }
    }
}

#[test]
fn an_and_inside_an_or_keeps_its_parentheses_for_the_reader() {
    let cases = [
        ("a or b and c", "a or (b and c)"),
        ("a and b or c", "(a and b) or c"),
        ("a or (b and c) or d", "a or (b and c) or d"),
        ("(a or b) and c", "(a or b) and c"),
        ("a or not (b and c)", "a or not (b and c)"),
    ];
    for (written, printed) in cases {
        assert_eq!(body(written), printed, "{written}");
        // The parentheses are the reader's: the tree is the same without.
        let with = tree(&format!("edition \"x\" {{}}\ndefine x = {printed}\n"));
        let without = tree(&format!("edition \"x\" {{}}\ndefine x = {written}\n"));
        assert_eq!(with, without, "{written}");
    }
}

#[test]
fn needless_parentheses_are_dropped() {
    let cases = [
        ("(a and b) and c", "a and b and c"),
        ("not (a = b)", "not a = b"),
        ("(a - b) - c", "a - b - c"),
        ("-(x) * y", "-x * y"),
        ("(a * b) + c", "a * b + c"),
        ("a and (not b)", "a and not b"),
        ("exists t in s: (a and b)", "exists t in s: a and b"),
        ("f((a), (b or c))", "f(a, b or c)"),
        ("{(a), (b)}", "{a, b}"),
        ("(a and b)", "a and b"),
        ("a and (exists t in s: p)", "a and exists t in s: p"),
        ("not (exists t in s: p)", "not exists t in s: p"),
        ("a = (if c then 1 else 2)", "a = if c then 1 else 2"),
        ("(counted) in s", "counted in s"),
        (
            "if (iffy) then (orders) else (nothing)",
            "if iffy then orders else nothing",
        ),
    ];
    for (written, printed) in cases {
        assert_eq!(body(written), printed, "{written}");
    }
}

#[test]
fn a_long_expression_breaks_at_its_loosest_operator_and_after_the_quantifier() {
    let text = "edition \"x\" {}\nnature 捉 \"chase\" = exists t in pieces(opponent) where kind(t) != king and not (kind(t) = pawn and not crossed(t)): threatened(t) and not before { threatened(t) and not protected_by_a_long_chain(t) }\n";
    let expected = "edition \"x\" {}

nature 捉 \"chase\" =
  exists t in pieces(opponent)
      where kind(t) != king and not (kind(t) = pawn and not crossed(t)):
    threatened(t)
    and not before { threatened(t) and not protected_by_a_long_chain(t) }
";
    assert_eq!(fmt(text), expected);
}

// -----------------------------------------------------------------------------
// Errors
// -----------------------------------------------------------------------------

#[test]
fn a_syntax_error_keeps_its_place_in_the_file() {
    let Err(e) = format_source(&source("edition \"x\" {\n  year\n}\n")) else {
        panic!("a file without a year number formatted");
    };
    assert_eq!(
        e.code().map(|c| c.to_string()).as_deref(),
        Some("qili::fmt::syntax")
    );
    let labels: Vec<_> = e.labels().into_iter().flatten().collect();
    assert_eq!(labels.len(), 1);
    assert_eq!(
        labels[0].offset(),
        21,
        "at the `}}` where the number should be"
    );
    assert!(e.source_code().is_some());
}

// -----------------------------------------------------------------------------
// Random trees print and read back as themselves
// -----------------------------------------------------------------------------

fn ident(name: &str) -> Ident {
    Ident {
        name: name.to_string(),
        span: Span::default(),
    }
}

fn expr(kind: ExprKind) -> Expr {
    Expr {
        kind,
        span: Span::default(),
    }
}

/// Names, with the ones that start like a keyword (`counted`, `iffy`,
/// `exists_x`, `notable`…) that the grammar can mistake for one.
fn name() -> impl Strategy<Value = String> {
    proptest::sample::select(vec![
        "a",
        "t",
        "mover",
        "x-1",
        "有根",
        "_p",
        "counted",
        "counter",
        "iffy",
        "if_",
        "exists_x",
        "forall2",
        "before_x",
        "afterpass",
        "notable",
        "inx",
        "wherever",
        "andy",
        "orb",
        "thence",
        "elsewhere",
        "falsey",
    ])
    .prop_map(str::to_string)
}

fn leaf() -> impl Strategy<Value = Expr> {
    prop_oneof![
        any::<bool>().prop_map(|b| expr(ExprKind::Bool(b))),
        prop_oneof![0i64..100, Just(i64::MAX)].prop_map(|n| expr(ExprKind::Int(n))),
        name().prop_map(|n| expr(ExprKind::Name(ident(&n)))),
    ]
}

fn binop() -> impl Strategy<Value = BinOp> {
    proptest::sample::select(vec![
        BinOp::Or,
        BinOp::And,
        BinOp::Eq,
        BinOp::Ne,
        BinOp::Lt,
        BinOp::Le,
        BinOp::Gt,
        BinOp::Ge,
        BinOp::In,
        BinOp::Add,
        BinOp::Sub,
        BinOp::Mul,
    ])
}

/// Any expression the grammar can write, up to a small depth.
fn any_expr() -> impl Strategy<Value = Expr> {
    leaf().prop_recursive(5, 40, 3, |inner| {
        let b = |e: Expr| Box::new(e);
        let quantifier = prop_oneof![Just(Quantifier::Exists), Just(Quantifier::Forall)];
        let context = prop_oneof![
            Just(Context::Before),
            Just(Context::AfterPass),
            (inner.clone(), inner.clone()).prop_map(|(x, y)| Context::AfterTake(x, y)),
        ];
        prop_oneof![
            4 => (binop(), inner.clone(), inner.clone()).prop_map(move |(op, l, r)| expr(ExprKind::Binary(op, b(l), b(r)))),
            1 => inner.clone().prop_map(move |x| expr(ExprKind::Not(b(x)))),
            1 => inner.clone().prop_map(move |x| expr(ExprKind::Neg(b(x)))),
            1 => (name(), proptest::collection::vec(inner.clone(), 0..3))
                .prop_map(|(f, args)| expr(ExprKind::Call(ident(&f), args))),
            1 => (quantifier, name(), inner.clone(), proptest::option::of(inner.clone()), inner.clone()).prop_map(
                move |(quantifier, var, set, filter, body)| expr(ExprKind::Quantified {
                    quantifier,
                    var: ident(&var),
                    set: b(set),
                    filter: filter.map(b),
                    body: b(body),
                })
            ),
            1 => (name(), inner.clone(), proptest::option::of(inner.clone())).prop_map(move |(var, set, filter)| expr(
                ExprKind::Count {
                    var: ident(&var),
                    set: b(set),
                    filter: filter.map(b),
                }
            )),
            1 => (name(), inner.clone(), inner.clone()).prop_map(move |(var, set, filter)| expr(ExprKind::SetBuilder {
                var: ident(&var),
                set: b(set),
                filter: b(filter),
            })),
            1 => proptest::collection::vec(inner.clone(), 0..3).prop_map(|items| expr(ExprKind::SetLiteral(items))),
            1 => (inner.clone(), inner.clone(), inner.clone())
                .prop_map(move |(c, t, e)| expr(ExprKind::If(b(c), b(t), b(e)))),
            1 => (context, inner).prop_map(move |(ctx, body)| expr(ExprKind::Context(Box::new(ctx), b(body)))),
        ]
    })
}

fn header() -> Header {
    Header {
        edition: ident("random"),
        title_zh: None,
        title_en: None,
        year: None,
        source: None,
        status: None,
        extends: None,
    }
}

/// `define x = e` — the item the guarantee is stated for.
fn defining(e: Expr) -> Rulebook {
    Rulebook {
        header: header(),
        items: vec![Item::Define(Definition {
            amend: Amend::Add,
            name: ident("x"),
            params: Vec::new(),
            ty: None,
            names: Names::default(),
            cite: None,
            body: e,
            span: Span::default(),
        })],
    }
}

/// The same expression in every other place an item holds one: a nature,
/// a clause's `when` (followed by its action), a case (followed by `=>`).
fn everywhere(e: Expr) -> Rulebook {
    let mut book = defining(e.clone());
    book.items.push(Item::Nature(Nature {
        amend: Amend::Override,
        name: ident("捉"),
        en: Some("chase".into()),
        cite: Some(Cite {
            id: "24.3".into(),
            span: Span::default(),
        }),
        body: e.clone(),
        span: Span::default(),
    }));
    book.items.push(Item::Clause(Clause {
        amend: Amend::Add,
        id: ident("k"),
        names: Names::default(),
        cite: Some(Cite {
            id: "test".into(),
            span: Span::default(),
        }),
        when: e.clone(),
        action: ClauseAction::Drop(vec![ident("捉")]),
        span: Span::default(),
    }));
    book.items.push(Item::Verdict(Verdict {
        amend: Amend::Add,
        cases: vec![Case {
            id: ident("c"),
            names: Names::default(),
            cite: None,
            for_side: Some(ident("s")),
            cond: e,
            ruling: Ruling::MustChange(ident("s")),
            span: Span::default(),
        }],
        otherwise: Ruling::Draw,
        span: Span::default(),
    }));
    book
}

fn reads_back(book: &Rulebook) -> Result<(), TestCaseError> {
    let text = format(book, &Comments::default());
    let again = parse(&source(&text)).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
    prop_assert_eq!(&again, book, "printed as:\n{}", text);
    prop_assert_eq!(format(&again, &Comments::default()), text);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn a_random_expression_prints_and_reads_back_as_itself(e in any_expr()) {
        reads_back(&defining(e))?;
    }

    #[test]
    fn a_random_expression_reads_back_in_every_place(e in any_expr()) {
        reads_back(&everywhere(e))?;
    }
}

/// The sample, without its comment, cut into its words (strings whole).
fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut in_string = false;
    for c in text.chars() {
        if c == '"' {
            in_string = !in_string;
        }
        if c.is_whitespace() && !in_string {
            if !word.is_empty() {
                out.push(std::mem::take(&mut word));
            }
        } else {
            word.push(c);
        }
    }
    out.push(word);
    out
}

proptest! {
    #[test]
    fn whitespace_between_words_does_not_change_the_output(
        gaps in proptest::collection::vec(proptest::sample::select(vec![" ", "\n", "\t ", "\n\n    ", " \u{3000}"]), 300)
    ) {
        let tidy = SAMPLE.split_once('\n').map_or(SAMPLE, |(_, rest)| rest);
        let words = words(tidy);
        let mut text = String::new();
        for (i, w) in words.iter().enumerate() {
            text.push_str(w);
            text.push_str(gaps[i % gaps.len()]);
        }
        prop_assert_eq!(fmt(&text), fmt(tidy));
    }

    #[test]
    fn comments_anywhere_survive_and_settle(
        marks in proptest::collection::vec((any::<bool>(), any::<bool>()), 60)
    ) {
        let mut text = String::new();
        let mut count = 0;
        for (i, line) in SAMPLE.lines().enumerate() {
            let (before, after) = marks[i % marks.len()];
            if before {
                text.push_str(&format!("  # above {i}\n"));
                count += 1;
            }
            text.push_str(line);
            if after && !line.starts_with('#') {
                text.push_str(&format!(" # after {i}"));
                count += 1;
            }
            text.push('\n');
        }
        let once = fmt(&text);
        prop_assert_eq!(comment_texts(&once).len(), count + 1);
        prop_assert_eq!(comment_texts(&once), comment_texts(&text));
        prop_assert_eq!(tree(&once), tree(SAMPLE));
        prop_assert_eq!(fmt(&once), once);
    }
}
