//! Text → [`Rulebook`]: the pest grammar in `grammar/qili.pest`, then one
//! `build_<rule>` function per grammar rule that turns its pairs into AST.
//!
//! pest's own error names grammar rules (`expected or_expr`); users should
//! read what was expected in their words, on their file, at the exact line
//! and column — [`SyntaxError`] does that, with every grammar rule given a
//! human name in [`rule_name`].

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use miette::{Diagnostic, LabeledSpan, SourceCode};
use pest::iterators::Pair;
use pest::Parser;

use crate::diagnostic::SourceText;

use super::ast::*;

#[derive(pest_derive::Parser)]
#[grammar = "grammar/qili.pest"]
struct QiliParser;

/// A rules file's text with its name, shared by every diagnostic about it.
#[derive(Clone, Debug)]
pub struct Source {
    pub name: String,
    pub text: Arc<String>,
}

impl Source {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Source {
        Source {
            name: name.into(),
            text: Arc::new(text.into()),
        }
    }

    pub fn named(&self) -> SourceText {
        SourceText::new(self.name.clone(), self.text.as_str().to_string())
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let before = self.text.get(..offset.min(self.text.len())).unwrap_or("");
        let line = before.matches('\n').count() + 1;
        let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        (line, col)
    }
}

/// How deeply brackets may nest, and how many nesting keywords (`exists`,
/// `forall`, `if`, `count`, `before`, `after`) a file may hold. Real
/// rulebooks stay far below both; the limits exist because the recursive
/// descent spends stack on every level, and a hostile file must get a
/// diagnostic, not a stack overflow.
const MAX_BRACKET_DEPTH: usize = 100;
const MAX_NESTING_KEYWORDS: usize = 500;
/// Operators (`and`, `or`, `+`, `-`, `*`) in one file: a long chain of them
/// is a deep tree for every later phase that walks it.
const MAX_OPERATORS: usize = 5_000;
/// The parser runs on its own thread with this much stack (address space;
/// only what is used is touched): enough for both limits at once.
const PARSER_STACK: usize = 128 << 20;

/// Parses a rules file.
#[expect(
    clippy::result_large_err,
    reason = "a syntax error is rare and carries its source for the report"
)]
pub fn parse(source: &Source) -> Result<Rulebook, SyntaxError> {
    if let Some((span, what)) = too_deep(source.text.as_str()) {
        return Err(SyntaxError::too_deep(source, span, what));
    }
    let src = source.clone();
    let worker = std::thread::Builder::new()
        .stack_size(PARSER_STACK)
        .spawn(move || {
            #[expect(
                clippy::result_large_err,
                reason = "the parse result crosses the thread as is"
            )]
            let run = || parse_here(&src);
            run()
        });
    match worker.map(|h| h.join()) {
        Ok(Ok(result)) => result,
        // No thread could be had, or it died: parse on this one (the limits
        // above keep that safe on an ordinary main-thread stack too).
        _ => parse_here(source),
    }
}

#[expect(
    clippy::result_large_err,
    reason = "a syntax error is rare and carries its source for the report"
)]
fn parse_here(source: &Source) -> Result<Rulebook, SyntaxError> {
    let text = source.text.as_str();
    let mut pairs =
        QiliParser::parse(Rule::file, text).map_err(|e| SyntaxError::from_pest(source, &e))?;
    let file = pairs.next().ok_or_else(|| SyntaxError::internal(source))?;
    // A number the grammar reads but an i64 cannot hold is the writer's
    // error, not the builder's: say so before building.
    if let Some(big) = file
        .clone()
        .into_inner()
        .flatten()
        .find(|p| p.as_rule() == Rule::integer && p.as_str().parse::<i64>().is_err())
    {
        return Err(SyntaxError::too_large(source, span_of(&big)));
    }
    build_file(file).map_err(|span| SyntaxError::at(source, span))
}

/// The first place where the text nests deeper than the parser allows.
fn too_deep(text: &str) -> Option<(Span, &'static str)> {
    let mut depth = 0usize;
    let mut nesters = 0usize;
    let mut in_string = false;
    let mut in_comment = false;
    let mut escaped = false;
    let mut word_start: Option<usize> = None;
    let operators = std::cell::RefCell::new(0usize);
    let mut previous = ' ';
    let check_word =
        |start: usize, end: usize, nesters: &mut usize| -> Option<(Span, &'static str)> {
            let word = text.get(start..end).unwrap_or("");
            if matches!(
                word,
                "exists" | "forall" | "if" | "count" | "before" | "after"
            ) {
                *nesters += 1;
                if *nesters > MAX_NESTING_KEYWORDS {
                    return Some((Span::new(start, end), "nesting keywords"));
                }
            }
            if matches!(word, "and" | "or") {
                *operators.borrow_mut() += 1;
            }
            None
        };
    let over = |i: usize, ops: usize| -> Option<(Span, &'static str)> {
        (ops > MAX_OPERATORS).then_some((Span::new(i, i + 1), "operators"))
    };
    for (i, c) in text.char_indices() {
        let prev = std::mem::replace(&mut previous, c);
        let is_word = c.is_alphanumeric() || c == '_' || (c == '-' && word_start.is_some());
        if !is_word {
            if let Some(s) = word_start.take() {
                if let Some(found) = check_word(s, i, &mut nesters) {
                    return Some(found);
                }
                if let Some(found) = over(i, *operators.borrow()) {
                    return Some(found);
                }
            }
        }
        if in_comment {
            in_comment = c != '\n';
            continue;
        }
        if in_string {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '#' => in_comment = true,
            '"' => in_string = true,
            '(' | '{' => {
                depth += 1;
                if depth > MAX_BRACKET_DEPTH {
                    return Some((Span::new(i, i + 1), "brackets"));
                }
            }
            ')' | '}' => depth = depth.saturating_sub(1),
            '+' | '*' => {
                *operators.borrow_mut() += 1;
                if let Some(found) = over(i, *operators.borrow()) {
                    return Some(found);
                }
            }
            '-' if !prev.is_alphanumeric() => {
                *operators.borrow_mut() += 1;
                if let Some(found) = over(i, *operators.borrow()) {
                    return Some(found);
                }
            }
            _ if is_word && word_start.is_none() => word_start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = word_start {
        return check_word(s, text.len(), &mut nesters);
    }
    None
}

/// A failure inside the tree builder: the grammar accepted something the
/// builder does not expect. Only a grammar/builder mismatch can cause it.
type Built<T> = Result<T, Span>;

fn span_of(p: &Pair<'_, Rule>) -> Span {
    let s = p.as_span();
    Span::new(s.start(), s.end())
}

fn ident(p: Pair<'_, Rule>) -> Ident {
    Ident {
        name: p.as_str().to_string(),
        span: span_of(&p),
    }
}

fn string(p: Pair<'_, Rule>) -> String {
    let inner = p.into_inner().next().map(|i| i.as_str()).unwrap_or("");
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => out.push('\n'),
                Some(other) => out.push(other),
                None => {}
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn build_file(p: Pair<'_, Rule>) -> Built<Rulebook> {
    let whole = span_of(&p);
    let mut header = None;
    let mut items = Vec::new();
    for child in p.into_inner() {
        match child.as_rule() {
            Rule::header => header = Some(build_header(child)?),
            Rule::item => items.push(build_item(child)?),
            Rule::EOI => {}
            _ => return Err(span_of(&child)),
        }
    }
    Ok(Rulebook {
        header: header.ok_or(whole)?,
        items,
    })
}

fn build_header(p: Pair<'_, Rule>) -> Built<Header> {
    let mut header = Header {
        edition: Ident {
            name: String::new(),
            span: span_of(&p),
        },
        title_zh: None,
        title_en: None,
        year: None,
        source: None,
        status: None,
        extends: None,
    };
    for child in p.into_inner() {
        match child.as_rule() {
            Rule::edition => {
                for part in child.into_inner() {
                    match part.as_rule() {
                        Rule::string => {
                            header.edition = Ident {
                                span: span_of(&part),
                                name: string(part),
                            }
                        }
                        Rule::edition_field => {
                            let field = part.into_inner().next().ok_or(header.edition.span)?;
                            let rule = field.as_rule();
                            let fspan = span_of(&field);
                            let mut inner = field.into_inner();
                            match rule {
                                Rule::title_field => {
                                    header.title_zh = inner.next().map(string);
                                    header.title_en = inner.next().map(string);
                                }
                                Rule::year_field => {
                                    let y = inner.next().ok_or(fspan)?;
                                    header.year =
                                        Some(y.as_str().parse().map_err(|_| span_of(&y))?);
                                }
                                Rule::source_field => header.source = inner.next().map(string),
                                Rule::status_field => header.status = inner.next().map(string),
                                _ => return Err(fspan),
                            }
                        }
                        _ => return Err(span_of(&part)),
                    }
                }
            }
            Rule::extends => {
                let span = span_of(&child);
                let mut ext = Extends {
                    target: String::new(),
                    by_path: false,
                    pin: None,
                    span,
                };
                for part in child.into_inner() {
                    match part.as_rule() {
                        Rule::path_kw => ext.by_path = true,
                        Rule::string => ext.target = string(part),
                        Rule::pin => ext.pin = part.into_inner().next().map(string),
                        _ => return Err(span_of(&part)),
                    }
                }
                header.extends = Some(ext);
            }
            _ => return Err(span_of(&child)),
        }
    }
    Ok(header)
}

fn build_item(p: Pair<'_, Rule>) -> Built<Item> {
    let span = span_of(&p);
    let inner = p.into_inner().next().ok_or(span)?;
    Ok(match inner.as_rule() {
        Rule::values => Item::Values(build_values(inner)?),
        Rule::exchange_horizon => Item::Exchange(build_horizon(inner)?),
        Rule::definition => Item::Define(build_definition(inner)?),
        Rule::nature => Item::Nature(build_nature(inner)?),
        Rule::clause => Item::Clause(build_clause(inner)?),
        Rule::order => Item::Order(build_order(inner)?),
        Rule::verdict => Item::Verdict(build_verdict(inner)?),
        Rule::removal => Item::Remove(build_removal(inner)?),
        _ => return Err(span_of(&inner)),
    })
}

fn build_removal(p: Pair<'_, Rule>) -> Built<Removal> {
    let span = span_of(&p);
    let mut inner = p.into_inner();
    let kind = match inner.next().map(|k| k.as_str().to_string()).as_deref() {
        Some("define") => ItemKind::Define,
        Some("nature") => ItemKind::Nature,
        Some("clause") => ItemKind::Clause,
        _ => return Err(span),
    };
    let id = ident(inner.next().ok_or(span)?);
    Ok(Removal { kind, id, span })
}

fn build_values(p: Pair<'_, Rule>) -> Built<Values> {
    let span = span_of(&p);
    let (amend, entries) = keyed_block(p, Rule::value_entry)?;
    Ok(Values {
        amend,
        entries,
        span,
    })
}

fn build_horizon(p: Pair<'_, Rule>) -> Built<Horizon> {
    let span = span_of(&p);
    let (amend, entries) = keyed_block(p, Rule::setting_entry)?;
    Ok(Horizon {
        amend,
        entries,
        span,
    })
}

/// A block of `key integer` entries (`values`, `exchange`): whether it
/// overrides, and its entries as written.
fn keyed_block(p: Pair<'_, Rule>, entry: Rule) -> Built<(Amend, Vec<ValueEntry>)> {
    let span = span_of(&p);
    let mut amend = Amend::Add;
    let mut entries = Vec::new();
    for child in p.into_inner() {
        match child.as_rule() {
            Rule::override_kw => amend = Amend::Override,
            r if r == entry => {
                let mut parts = child.into_inner();
                let key = ident(parts.next().ok_or(span)?);
                let v = parts.next().ok_or(span)?;
                let value_span = span_of(&v);
                let value = v.as_str().parse().map_err(|_| value_span)?;
                entries.push(ValueEntry {
                    key,
                    value,
                    value_span,
                });
            }
            _ => return Err(span_of(&child)),
        }
    }
    Ok((amend, entries))
}

fn build_names(p: Pair<'_, Rule>) -> Names {
    let mut it = p.into_inner();
    Names {
        zh: it.next().map(string),
        en: it.next().map(string),
    }
}

fn build_cite(p: Pair<'_, Rule>) -> Cite {
    let span = span_of(&p);
    Cite {
        id: p
            .into_inner()
            .next()
            .map(|c| c.as_str().to_string())
            .unwrap_or_default(),
        span,
    }
}

fn build_type(p: Pair<'_, Rule>) -> Built<TypeName> {
    let span = span_of(&p);
    let inner = p.into_inner().next().ok_or(span)?;
    let simple = |s: &str| -> Built<SetOf> {
        Ok(match s {
            "bool" => SetOf::Bool,
            "int" => SetOf::Int,
            "piece" => SetOf::Piece,
            "side" => SetOf::Side,
            "kind" => SetOf::Kind,
            "nature" => SetOf::Nature,
            "move" => SetOf::Move,
            _ => return Err(span),
        })
    };
    Ok(match inner.as_rule() {
        Rule::set_type => {
            let elem = inner.into_inner().next().ok_or(span)?;
            TypeName::Set(simple(elem.as_str())?)
        }
        _ => TypeName::from(simple(inner.as_str())?),
    })
}

fn build_definition(p: Pair<'_, Rule>) -> Built<Definition> {
    let span = span_of(&p);
    let mut amend = Amend::Add;
    let mut name = None;
    let mut params = Vec::new();
    let mut ty = None;
    let mut names = Names::default();
    let mut cite = None;
    let mut body = None;
    for child in p.into_inner() {
        match child.as_rule() {
            Rule::override_kw => amend = Amend::Override,
            Rule::ident => name = Some(ident(child)),
            Rule::params => {
                for param in child.into_inner() {
                    let mut parts = param.into_inner();
                    let pname = ident(parts.next().ok_or(span)?);
                    let pty = build_type(parts.next().ok_or(span)?)?;
                    params.push(Param {
                        name: pname,
                        ty: pty,
                    });
                }
            }
            Rule::type_name => ty = Some(build_type(child)?),
            Rule::def_eq => {}
            Rule::names => names = build_names(child),
            Rule::cite => cite = Some(build_cite(child)),
            Rule::expr => body = Some(build_expr(child)?),
            _ => return Err(span_of(&child)),
        }
    }
    Ok(Definition {
        amend,
        name: name.ok_or(span)?,
        params,
        ty,
        names,
        cite,
        body: body.ok_or(span)?,
        span,
    })
}

fn build_nature(p: Pair<'_, Rule>) -> Built<Nature> {
    let span = span_of(&p);
    let mut amend = Amend::Add;
    let mut name = None;
    let mut en = None;
    let mut cite = None;
    let mut body = None;
    for child in p.into_inner() {
        match child.as_rule() {
            Rule::override_kw => amend = Amend::Override,
            Rule::ident => name = Some(ident(child)),
            Rule::string => en = Some(string(child)),
            Rule::cite => cite = Some(build_cite(child)),
            Rule::def_eq => {}
            Rule::expr => body = Some(build_expr(child)?),
            _ => return Err(span_of(&child)),
        }
    }
    Ok(Nature {
        amend,
        name: name.ok_or(span)?,
        en,
        cite,
        body: body.ok_or(span)?,
        span,
    })
}

fn build_ident_list(p: Pair<'_, Rule>) -> Vec<Ident> {
    p.into_inner().map(ident).collect()
}

fn build_clause(p: Pair<'_, Rule>) -> Built<Clause> {
    let span = span_of(&p);
    let mut amend = Amend::Add;
    let mut id = None;
    let mut names = Names::default();
    let mut cite = None;
    let mut when = None;
    let mut action = None;
    for child in p.into_inner() {
        match child.as_rule() {
            Rule::override_kw => amend = Amend::Override,
            Rule::ident => id = Some(ident(child)),
            Rule::names => names = build_names(child),
            Rule::cite => cite = Some(build_cite(child)),
            Rule::clause_when => {
                let e = child.into_inner().next().ok_or(span)?;
                when = Some(build_expr(e)?);
            }
            Rule::clause_action => {
                let a = child.into_inner().next().ok_or(span)?;
                let aspan = span_of(&a);
                let rule = a.as_rule();
                let mut parts = a.into_inner();
                action = Some(match rule {
                    Rule::recast => {
                        let from = build_ident_list(parts.next().ok_or(aspan)?);
                        let to = ident(parts.next().ok_or(aspan)?);
                        ClauseAction::Recast { from, to }
                    }
                    Rule::drop_natures => {
                        ClauseAction::Drop(build_ident_list(parts.next().ok_or(aspan)?))
                    }
                    Rule::add_natures => {
                        ClauseAction::Add(build_ident_list(parts.next().ok_or(aspan)?))
                    }
                    _ => return Err(aspan),
                });
            }
            _ => return Err(span_of(&child)),
        }
    }
    Ok(Clause {
        amend,
        id: id.ok_or(span)?,
        names,
        cite,
        when: when.ok_or(span)?,
        action: action.ok_or(span)?,
        span,
    })
}

fn build_order(p: Pair<'_, Rule>) -> Built<Order> {
    let span = span_of(&p);
    let mut amend = Amend::Add;
    let mut groups = Vec::new();
    for child in p.into_inner() {
        match child.as_rule() {
            Rule::override_kw => amend = Amend::Override,
            Rule::order_group => groups.push(child.into_inner().map(ident).collect()),
            _ => return Err(span_of(&child)),
        }
    }
    Ok(Order {
        amend,
        groups,
        span,
    })
}

fn build_ruling(p: Pair<'_, Rule>) -> Built<Ruling> {
    let span = span_of(&p);
    let inner = p.into_inner().next().ok_or(span)?;
    Ok(match inner.as_rule() {
        Rule::draw => Ruling::Draw,
        Rule::must_change => Ruling::MustChange(ident(meaningful(inner).next().ok_or(span)?)),
        _ => return Err(span),
    })
}

fn build_verdict(p: Pair<'_, Rule>) -> Built<Verdict> {
    let span = span_of(&p);
    let mut amend = Amend::Add;
    let mut cases = Vec::new();
    let mut otherwise = None;
    for child in p.into_inner() {
        match child.as_rule() {
            Rule::override_kw => amend = Amend::Override,
            Rule::case => {
                let cspan = span_of(&child);
                let mut id = None;
                let mut names = Names::default();
                let mut cite = None;
                let mut for_side = None;
                let mut cond = None;
                let mut ruling = None;
                for part in child.into_inner() {
                    match part.as_rule() {
                        Rule::ident => id = Some(ident(part)),
                        Rule::names => names = build_names(part),
                        Rule::cite => cite = Some(build_cite(part)),
                        Rule::for_side => for_side = meaningful(part).next().map(ident),
                        Rule::expr => cond = Some(build_expr(part)?),
                        Rule::ruling => ruling = Some(build_ruling(part)?),
                        Rule::arrow => {}
                        _ => return Err(span_of(&part)),
                    }
                }
                cases.push(Case {
                    id: id.ok_or(cspan)?,
                    names,
                    cite,
                    for_side,
                    cond: cond.ok_or(cspan)?,
                    ruling: ruling.ok_or(cspan)?,
                    span: cspan,
                });
            }
            Rule::otherwise => {
                let r = child
                    .into_inner()
                    .find(|q| q.as_rule() == Rule::ruling)
                    .ok_or(span)?;
                otherwise = Some(build_ruling(r)?);
            }
            _ => return Err(span_of(&child)),
        }
    }
    Ok(Verdict {
        amend,
        cases,
        otherwise: otherwise.ok_or(span)?,
        span,
    })
}

// -----------------------------------------------------------------------------
// Expressions
// -----------------------------------------------------------------------------

fn boxed(e: Expr) -> Box<Expr> {
    Box::new(e)
}

/// Keyword tokens carry no meaning of their own once the rule matched.
fn is_keyword_token(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::or_kw
            | Rule::and_kw
            | Rule::in_kw
            | Rule::where_kw
            | Rule::if_kw
            | Rule::then_kw
            | Rule::else_kw
            | Rule::after_kw
            | Rule::take_kw
            | Rule::pass_kw
            | Rule::lift_kw
            | Rule::move_word
            | Rule::count_kw
            | Rule::for_kw
            | Rule::must_kw
            | Rule::change_kw
    )
}

/// The children of a pair that carry meaning.
fn meaningful<'a>(p: Pair<'a, Rule>) -> impl Iterator<Item = Pair<'a, Rule>> {
    p.into_inner().filter(|q| !is_keyword_token(q.as_rule()))
}

/// `lhs op rhs`, spanning both.
fn binary(op: BinOp, lhs: Expr, rhs: Expr) -> Expr {
    let span = Span::new(lhs.span.start, rhs.span.end);
    Expr {
        kind: ExprKind::Binary(op, boxed(lhs), boxed(rhs)),
        span,
    }
}

/// A run of prefix operators (`not not x`, `- - x`), the innermost applied first.
fn prefixed(p: Pair<'_, Rule>, span: Span, wrap: fn(Box<Expr>) -> ExprKind) -> Built<Expr> {
    let parts: Vec<Pair<'_, Rule>> = meaningful(p).collect();
    let (ops, rest) = parts.split_at(parts.len().saturating_sub(1));
    let mut acc = build_expr(rest.first().cloned().ok_or(span)?)?;
    for o in ops.iter().rev() {
        let s = Span::new(span_of(o).start, acc.span.end);
        acc = Expr {
            kind: wrap(boxed(acc)),
            span: s,
        };
    }
    Ok(acc)
}

fn build_expr(p: Pair<'_, Rule>) -> Built<Expr> {
    let span = span_of(&p);
    match p.as_rule() {
        Rule::expr | Rule::primary => {
            let inner = meaningful(p).next().ok_or(span)?;
            build_expr(inner)
        }
        Rule::quantified => {
            let mut parts = meaningful(p);
            let q = match parts.next().map(|q| q.as_str().to_string()).as_deref() {
                Some("exists") => Quantifier::Exists,
                Some("forall") => Quantifier::Forall,
                _ => return Err(span),
            };
            let var = ident(parts.next().ok_or(span)?);
            let rest: Vec<Pair<'_, Rule>> = parts.collect();
            let (set, filter, body) = match rest.len() {
                2 => (rest[0].clone(), None, rest[1].clone()),
                3 => (rest[0].clone(), Some(rest[1].clone()), rest[2].clone()),
                _ => return Err(span),
            };
            Ok(Expr {
                kind: ExprKind::Quantified {
                    quantifier: q,
                    var,
                    set: boxed(build_expr(set)?),
                    filter: filter.map(build_expr).transpose()?.map(boxed),
                    body: boxed(build_expr(body)?),
                },
                span,
            })
        }
        Rule::conditional => {
            let mut parts = meaningful(p);
            let c = build_expr(parts.next().ok_or(span)?)?;
            let t = build_expr(parts.next().ok_or(span)?)?;
            let e = build_expr(parts.next().ok_or(span)?)?;
            Ok(Expr {
                kind: ExprKind::If(boxed(c), boxed(t), boxed(e)),
                span,
            })
        }
        Rule::or_expr | Rule::and_expr => {
            let op = if p.as_rule() == Rule::or_expr {
                BinOp::Or
            } else {
                BinOp::And
            };
            let mut parts = meaningful(p);
            let mut acc = build_expr(parts.next().ok_or(span)?)?;
            for next in parts {
                acc = binary(op, acc, build_expr(next)?);
            }
            Ok(acc)
        }
        Rule::not_expr => prefixed(p, span, ExprKind::Not),
        Rule::compare => {
            let mut parts = meaningful(p);
            let lhs = build_expr(parts.next().ok_or(span)?)?;
            match (parts.next(), parts.next()) {
                (Some(op), Some(rhs)) => {
                    let op = match op.as_str() {
                        "=" => BinOp::Eq,
                        "!=" => BinOp::Ne,
                        "<" => BinOp::Lt,
                        "<=" => BinOp::Le,
                        ">" => BinOp::Gt,
                        ">=" => BinOp::Ge,
                        "in" => BinOp::In,
                        _ => return Err(span_of(&op)),
                    };
                    Ok(Expr {
                        kind: ExprKind::Binary(op, boxed(lhs), boxed(build_expr(rhs)?)),
                        span,
                    })
                }
                _ => Ok(lhs),
            }
        }
        Rule::sum => {
            let mut parts = meaningful(p);
            let mut acc = build_expr(parts.next().ok_or(span)?)?;
            while let (Some(op), Some(next)) = (parts.next(), parts.next()) {
                let op = if op.as_str() == "+" {
                    BinOp::Add
                } else {
                    BinOp::Sub
                };
                acc = binary(op, acc, build_expr(next)?);
            }
            Ok(acc)
        }
        Rule::product => {
            let mut parts = meaningful(p);
            let mut acc = build_expr(parts.next().ok_or(span)?)?;
            for next in parts {
                acc = binary(BinOp::Mul, acc, build_expr(next)?);
            }
            Ok(acc)
        }
        Rule::unary => prefixed(p, span, ExprKind::Neg),
        Rule::context => {
            let mut parts = meaningful(p);
            let kind = parts.next().ok_or(span)?;
            let which = meaningful(kind).next().ok_or(span)?;
            let ctx = match which.as_rule() {
                Rule::before_kw => Context::Before,
                Rule::previously_kw => Context::Previously,
                Rule::after_pass => Context::AfterPass,
                Rule::after_lift => {
                    let mut args = meaningful(which);
                    Context::AfterLift(build_expr(args.next().ok_or(span)?)?)
                }
                Rule::after_move => {
                    let mut args = meaningful(which);
                    Context::AfterMove(build_expr(args.next().ok_or(span)?)?)
                }
                Rule::after_take => {
                    let mut args = meaningful(which);
                    let a = build_expr(args.next().ok_or(span)?)?;
                    let b = build_expr(args.next().ok_or(span)?)?;
                    Context::AfterTake(a, b)
                }
                _ => return Err(span_of(&which)),
            };
            let body = build_expr(parts.next().ok_or(span)?)?;
            Ok(Expr {
                kind: ExprKind::Context(Box::new(ctx), boxed(body)),
                span,
            })
        }
        Rule::count_expr => {
            let mut parts = meaningful(p);
            let var = ident(parts.next().ok_or(span)?);
            let set = build_expr(parts.next().ok_or(span)?)?;
            let filter = parts.next().map(build_expr).transpose()?.map(boxed);
            Ok(Expr {
                kind: ExprKind::Count {
                    var,
                    set: boxed(set),
                    filter,
                },
                span,
            })
        }
        Rule::set_builder => {
            let mut parts = meaningful(p);
            let var = ident(parts.next().ok_or(span)?);
            let set = build_expr(parts.next().ok_or(span)?)?;
            let filter = build_expr(parts.next().ok_or(span)?)?;
            Ok(Expr {
                kind: ExprKind::SetBuilder {
                    var,
                    set: boxed(set),
                    filter: boxed(filter),
                },
                span,
            })
        }
        Rule::set_literal => Ok(Expr {
            kind: ExprKind::SetLiteral(meaningful(p).map(build_expr).collect::<Built<_>>()?),
            span,
        }),
        Rule::integer => Ok(Expr {
            kind: ExprKind::Int(p.as_str().parse().map_err(|_| span)?),
            span,
        }),
        Rule::boolean => Ok(Expr {
            kind: ExprKind::Bool(p.as_str() == "true"),
            span,
        }),
        Rule::call => {
            let mut parts = meaningful(p);
            let name = ident(parts.next().ok_or(span)?);
            let args = parts.map(build_expr).collect::<Built<Vec<_>>>()?;
            Ok(Expr {
                kind: ExprKind::Call(name, args),
                span,
            })
        }
        Rule::variable => {
            let id = ident(meaningful(p).next().ok_or(span)?);
            Ok(Expr {
                kind: ExprKind::Name(id),
                span,
            })
        }
        _ => Err(span),
    }
}

// -----------------------------------------------------------------------------
// Diagnostics
// -----------------------------------------------------------------------------

/// What a user would call each grammar rule, for "expected …" messages.
pub fn rule_name(rule: Rule) -> Option<&'static str> {
    Some(match rule {
        Rule::file | Rule::header => "`edition \"…\" { … }` at the top of the file",
        Rule::edition => "`edition \"id\" { … }`",
        Rule::edition_field => "`title`, `year`, `source` or `status`",
        Rule::title_field => "`title \"中文\" / \"English\"`",
        Rule::year_field => "`year 2011`",
        Rule::source_field => "`source \"…\"`",
        Rule::status_field => "`status \"…\"`",
        Rule::extends => "`extends \"edition\"`",
        Rule::pin => "`sha256 \"…\"`",
        Rule::item => {
            "an item (`define`, `nature`, `clause`, `values`, `exchange`, `order`, `verdict`, `remove`)"
        }
        Rule::removal => "`remove define|nature|clause <id>`",
        Rule::item_kind => "`define`, `nature` or `clause`",
        Rule::values => "`values { … }`",
        Rule::value_entry | Rule::value_key => "a value such as `rook 10` or `pawn.crossed 2`",
        Rule::exchange_horizon => "`exchange { … }`",
        Rule::setting_entry | Rule::setting_key => "a setting such as `plies 16` or `quiet-checks 2`",
        Rule::definition => "`define name(…) = …`",
        Rule::params => "a parameter list `(p: piece, …)`",
        Rule::param => "a parameter `name: type`",
        Rule::type_name | Rule::simple_type | Rule::set_type => {
            "a type (`bool`, `int`, `piece`, `side`, `kind`, `nature`, `move`, `set<…>`)"
        }
        Rule::names => "a quoted name",
        Rule::cite | Rule::cite_id => "a citation such as `@24.3`",
        Rule::nature => "`nature 名 \"english\" = …`",
        Rule::clause => "`clause id { when …  recast … -> … }`",
        Rule::clause_when => "`when <condition>`",
        Rule::clause_action => "`recast A, B -> C`, `drop A` or `add A`",
        Rule::recast => "`recast A, B -> C`",
        Rule::drop_natures => "`drop A, B`",
        Rule::add_natures => "`add A, B`",
        Rule::ident_list => "a list of natures",
        Rule::order => "`order 将 > 杀 > …`",
        Rule::order_group => "a nature, or natures of equal weight joined by `=`",
        Rule::verdict => "`verdict { case … otherwise => … }`",
        Rule::case => "`case id: <condition> => <ruling>`",
        Rule::for_side => "`for s`",
        Rule::otherwise => "`otherwise => <ruling>`",
        Rule::ruling | Rule::must_change => "`draw` or `<side> must change`",
        Rule::draw => "`draw`",
        Rule::def_eq => "`=` and the definition",
        Rule::arrow => "`=>` and the ruling",
        Rule::expr
        | Rule::or_expr
        | Rule::and_expr
        | Rule::not_expr
        | Rule::compare
        | Rule::sum
        | Rule::product
        | Rule::unary
        | Rule::primary => "an expression",
        Rule::quantified => "`exists x in … : …` or `forall x in … : …`",
        Rule::quantifier => "`exists` or `forall`",
        Rule::conditional => "`if … then … else …`",
        Rule::compare_op => "a comparison (`=`, `!=`, `<`, `<=`, `>`, `>=`, `in`)",
        Rule::sum_op => "`+` or `-`",
        Rule::context | Rule::context_kind => {
            "`before { … }`, `after take(a, b) { … }` or `after pass { … }`"
        }
        Rule::after_take => "`after take(a, b) { … }`",
        Rule::count_expr => "`count x in …`",
        Rule::set_builder | Rule::set_literal => "a set `{ … }`",
        Rule::call => "a call `name(…)`",
        Rule::variable | Rule::ident => "a name",
        Rule::integer => "a number",
        Rule::boolean => "`true` or `false`",
        Rule::string | Rule::string_inner => "a quoted string",
        Rule::EOI => "the end of the file",
        _ => return None,
    })
}

/// A syntax error at one place in a rules file.
#[derive(Debug)]
pub struct SyntaxError {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub span: Span,
    pub expected: Vec<Cow<'static, str>>,
    pub found: String,
    /// The keyword found where a name was expected, if that is the error.
    pub reserved: Option<String>,
    source: SourceText,
}

/// Where the parse got furthest and the literal tokens it wanted there
/// (`{`, `:`, `=>` …), from pest's detailed attempts. pest's plain error
/// names only rules, at the start of the rule that failed: for
/// `edition "x" extends …` that is the `edition` at column 1, not the
/// missing `{` after the name. The details cost time on every parse, so
/// they are asked for only again, for a file that failed. pest keeps the
/// switch in one process-wide flag, left off afterwards as pest starts.
/// Two threads doing this at once would turn it off under each other, and
/// the same broken file would be reported two ways: a lock makes them take
/// turns. (Another thread's ordinary parse meanwhile only records more.)
fn deepest_attempt(text: &str) -> Option<(usize, Vec<String>)> {
    static DETAIL: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let turn = DETAIL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    pest::set_error_detail(true);
    let again = QiliParser::parse(Rule::file, text);
    pest::set_error_detail(false);
    drop(turn);
    let attempts = again.err()?.parse_attempts()?;
    let tokens: Vec<String> = attempts
        .expected_tokens()
        .into_iter()
        .map(|t| t.to_string())
        // Literals only: not a character range (`a..z`), a built-in rule,
        // blanks or the comment sign.
        .filter(|t| {
            let range = t.chars().count() == 4 && t.chars().skip(1).take(2).all(|c| c == '.');
            !range && t != "BUILTIN_RULE" && t != "#" && !t.trim().is_empty()
        })
        .map(|t| format!("`{t}`"))
        .collect();
    Some((attempts.max_position, tokens))
}

impl SyntaxError {
    fn from_pest(source: &Source, e: &pest::error::Error<Rule>) -> SyntaxError {
        let text = source.text.as_str();
        let mut pos = match e.location {
            pest::error::InputLocation::Pos(p) => p,
            pest::error::InputLocation::Span((s, _)) => s,
        };
        let mut expected: Vec<Cow<'static, str>> = match &e.variant {
            pest::error::ErrorVariant::ParsingError { positives, .. } => positives
                .iter()
                .filter_map(|r| rule_name(*r))
                .map(Cow::Borrowed)
                .collect(),
            pest::error::ErrorVariant::CustomError { .. } => Vec::new(),
        };
        // A literal the parse wanted further on says more than the rule
        // that failed back at its start; not when the parse was only inside
        // a word (a name that could go on with `-` or `_`), where the rule's
        // name says more.
        if let Some((deeper, tokens)) = deepest_attempt(text) {
            let inside_word = tokens.iter().all(|t| {
                let inner = t.trim_matches('`');
                inner.chars().count() == 1
                    && inner
                        .chars()
                        .all(|c| c.is_alphanumeric() || c == '-' || c == '_')
            });
            if deeper > pos && !inside_word {
                pos = deeper;
                expected = tokens.into_iter().map(Cow::Owned).collect();
            }
        }
        expected.sort_unstable();
        expected.dedup();
        let rest = text.get(pos..).unwrap_or("");
        let found_char = rest.chars().next();
        let is_name_char = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
        // A name is shown (and underlined) whole; anything else up to the
        // next blank.
        let word: String = match found_char {
            Some(c) if is_name_char(c) => rest.chars().take_while(|&c| is_name_char(c)).collect(),
            _ => rest.chars().take_while(|c| !c.is_whitespace()).collect(),
        };
        let word: String = word.chars().take(20).collect();
        let found = match found_char {
            None => "the end of the file".to_string(),
            Some('\n' | '\r') => "the end of the line".to_string(),
            Some(_) => format!("`{word}`"),
        };
        // A keyword where a name belongs (`define count(…)`): say so.
        let reserved = (expected.iter().any(|e| e == "a name")
            && QiliParser::parse(Rule::keyword, &word)
                .is_ok_and(|mut p| p.next().is_some_and(|k| k.as_str() == word)))
        .then(|| word.clone());
        let len = match (&reserved, found_char) {
            (Some(w), _) => w.len(),
            (None, c) => c.map_or(0, char::len_utf8),
        };
        let (line, column) = source.line_col(pos);
        SyntaxError {
            file: source.name.clone(),
            line,
            column,
            span: Span::new(pos, pos + len),
            expected,
            found,
            reserved,
            source: source.named(),
        }
    }

    fn at(source: &Source, span: Span) -> SyntaxError {
        let (line, column) = source.line_col(span.start);
        SyntaxError {
            file: source.name.clone(),
            line,
            column,
            span,
            expected: vec!["a construct the tree builder knows (please report this file)".into()],
            found: "something the grammar accepted but qili cannot build".into(),
            reserved: None,
            source: source.named(),
        }
    }

    fn too_deep(source: &Source, span: Span, what: &'static str) -> SyntaxError {
        let (line, column) = source.line_col(span.start);
        SyntaxError {
            file: source.name.clone(),
            line,
            column,
            span,
            expected: vec![match what {
                "brackets" => "at most 100 brackets open at once",
                "operators" => "at most 5000 `and`, `or`, `+`, `-` or `*` in one file",
                _ => {
                    "at most 500 `exists`, `forall`, `if`, `count`, `before` or `after` in one file"
                }
            }
            .into()],
            found: format!("{what} nested deeper than qili reads"),
            reserved: None,
            source: source.named(),
        }
    }

    fn too_large(source: &Source, span: Span) -> SyntaxError {
        let (line, column) = source.line_col(span.start);
        SyntaxError {
            file: source.name.clone(),
            line,
            column,
            span,
            expected: vec!["a number up to 9223372036854775807".into()],
            found: "a number too large".into(),
            reserved: None,
            source: source.named(),
        }
    }

    fn internal(source: &Source) -> SyntaxError {
        SyntaxError::at(source, Span::new(0, 0))
    }
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unexpected {} at {}:{}:{}",
            self.found, self.file, self.line, self.column
        )
    }
}

impl std::error::Error for SyntaxError {}

impl Diagnostic for SyntaxError {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new("qili::parse::syntax"))
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        if let Some(w) = &self.reserved {
            return Some(Box::new(format!(
                "`{w}` is a keyword of the rules language; choose another name, \
                 such as `{w}-of`"
            )));
        }
        if self.expected.is_empty() {
            return None;
        }
        Some(Box::new(format!("expected {}", join_or(&self.expected))))
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.source)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let label = match self.expected.as_slice() {
            _ if self.reserved.is_some() => "a keyword, where a name was expected".to_string(),
            [] => "unexpected here".to_string(),
            [one] => format!("expected {one}"),
            many => format!("expected one of {} things", many.len()),
        };
        Some(Box::new(std::iter::once(
            LabeledSpan::new_primary_with_span(Some(label), self.span),
        )))
    }
}

fn join_or(items: &[Cow<'static, str>]) -> String {
    match items {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} or {}", rest.join(", "), last),
    }
}
