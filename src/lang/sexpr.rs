//! The syntax tree as S-expressions: every operator with its operands in
//! parentheses, so a reader (and a snapshot) sees exactly how a rules file
//! was parsed — which `and` binds what, where a quantifier's body ends.

use super::ast::*;

fn q(s: &str) -> String {
    format!("{s:?}")
}

fn names(n: &Names) -> String {
    let mut out = String::new();
    if let Some(zh) = &n.zh {
        out.push_str(&format!(" {}", q(zh)));
    }
    if let Some(en) = &n.en {
        out.push_str(&format!(" {}", q(en)));
    }
    out
}

fn cite(c: &Option<Cite>) -> String {
    c.as_ref()
        .map(|c| format!(" @{}", c.id))
        .unwrap_or_default()
}

fn amend(a: Amend) -> &'static str {
    match a {
        Amend::Add => "",
        Amend::Override => "override ",
    }
}

fn idents(list: &[Ident]) -> String {
    list.iter()
        .map(|i| i.name.as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

/// One expression.
pub fn expr(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Bool(b) => b.to_string(),
        ExprKind::Int(i) => i.to_string(),
        ExprKind::Name(n) => n.name.clone(),
        ExprKind::Call(f, args) => {
            let args: Vec<String> = args.iter().map(expr).collect();
            format!("({} {})", f.name, args.join(" "))
        }
        ExprKind::Not(a) => format!("(not {})", expr(a)),
        ExprKind::Neg(a) => format!("(- {})", expr(a)),
        ExprKind::Binary(op, a, b) => format!("({} {} {})", op.symbol(), expr(a), expr(b)),
        ExprKind::Quantified {
            quantifier,
            var,
            set,
            filter,
            body,
        } => {
            let word = quantifier.keyword();
            let filter = filter
                .as_ref()
                .map(|f| format!(" (where {})", expr(f)))
                .unwrap_or_default();
            format!("({word} {} {}{filter} {})", var.name, expr(set), expr(body))
        }
        ExprKind::Count { var, set, filter } => {
            let filter = filter
                .as_ref()
                .map(|f| format!(" (where {})", expr(f)))
                .unwrap_or_default();
            format!("(count {} {}{filter})", var.name, expr(set))
        }
        ExprKind::SetBuilder { var, set, filter } => {
            format!(
                "(set-of {} {} (where {}))",
                var.name,
                expr(set),
                expr(filter)
            )
        }
        ExprKind::SetLiteral(items) => {
            let items: Vec<String> = items.iter().map(expr).collect();
            format!("(set {})", items.join(" "))
        }
        ExprKind::If(c, t, f) => format!("(if {} {} {})", expr(c), expr(t), expr(f)),
        ExprKind::Context(ctx, body) => match ctx.as_ref() {
            Context::Before => format!("(before {})", expr(body)),
            Context::Previously => format!("(previously {})", expr(body)),
            Context::AfterPass => format!("(after-pass {})", expr(body)),
            Context::AfterLift(p) => format!("(after-lift {} {})", expr(p), expr(body)),
            Context::AfterMove(m) => format!("(after-move {} {})", expr(m), expr(body)),
            Context::AfterTake(a, b) => {
                format!("(after-take {} {} {})", expr(a), expr(b), expr(body))
            }
        },
    }
}

fn ty(t: &Option<TypeName>) -> String {
    t.map(|t| format!(" : {t}")).unwrap_or_default()
}

fn ruling(r: &Ruling) -> String {
    match r {
        Ruling::Draw => "draw".into(),
        Ruling::MustChange(s) => format!("({} must-change)", s.name),
    }
}

/// `(values (rook 10) …)`, `(exchange (plies 16) …)`.
fn keyed(keyword: &str, how: Amend, entries: &[ValueEntry]) -> String {
    let entries: Vec<String> = entries
        .iter()
        .map(|e| format!("({} {})", e.key.name, e.value))
        .collect();
    format!("({}{keyword} {})", amend(how), entries.join(" "))
}

/// One item, on one or two lines.
pub fn item(it: &Item) -> String {
    match it {
        Item::Values(v) => keyed("values", v.amend, &v.entries),
        Item::Exchange(h) => keyed("exchange", h.amend, &h.entries),
        Item::Define(d) => {
            let params: Vec<String> = d
                .params
                .iter()
                .map(|p| format!("({} {})", p.name.name, p.ty))
                .collect();
            format!(
                "({}define {} ({}){}{}{}\n  {})",
                amend(d.amend),
                d.name.name,
                params.join(" "),
                ty(&d.ty),
                names(&d.names),
                cite(&d.cite),
                expr(&d.body)
            )
        }
        Item::Nature(n) => format!(
            "({}nature {}{}{}\n  {})",
            amend(n.amend),
            n.name.name,
            n.en.as_ref()
                .map(|e| format!(" {}", q(e)))
                .unwrap_or_default(),
            cite(&n.cite),
            expr(&n.body)
        ),
        Item::Clause(c) => {
            let action = match &c.action {
                ClauseAction::Recast { from, to } => {
                    format!("(recast ({}) {})", idents(from), to.name)
                }
                ClauseAction::Drop(l) => format!("(drop {})", idents(l)),
                ClauseAction::Add(l) => format!("(add {})", idents(l)),
            };
            format!(
                "({}clause {}{}{}\n  (when {})\n  {action})",
                amend(c.amend),
                c.id.name,
                names(&c.names),
                cite(&c.cite),
                expr(&c.when)
            )
        }
        Item::Order(o) => {
            let groups: Vec<String> = o
                .groups
                .iter()
                .map(|g| format!("({})", idents(g)))
                .collect();
            format!("({}order {})", amend(o.amend), groups.join(" "))
        }
        Item::Verdict(v) => {
            let mut out = format!("({}verdict", amend(v.amend));
            for c in &v.cases {
                let side = c
                    .for_side
                    .as_ref()
                    .map(|s| format!(" (for {})", s.name))
                    .unwrap_or_default();
                out.push_str(&format!(
                    "\n  (case {}{}{}{side}\n    {}\n    {})",
                    c.id.name,
                    names(&c.names),
                    cite(&c.cite),
                    expr(&c.cond),
                    ruling(&c.ruling)
                ));
            }
            out.push_str(&format!("\n  (otherwise {}))", ruling(&v.otherwise)));
            out
        }
        Item::Remove(r) => format!("(remove {} {})", r.kind.keyword(), r.id.name),
    }
}

/// A whole file: the header, then each item.
pub fn rulebook(book: &Rulebook) -> String {
    let h = &book.header;
    let mut out = format!("(edition {}", q(&h.edition.name));
    if h.title_zh.is_some() || h.title_en.is_some() {
        out.push_str(&format!(
            " (title{}{})",
            h.title_zh
                .as_ref()
                .map(|t| format!(" {}", q(t)))
                .unwrap_or_default(),
            h.title_en
                .as_ref()
                .map(|t| format!(" {}", q(t)))
                .unwrap_or_default()
        ));
    }
    if let Some(y) = h.year {
        out.push_str(&format!(" (year {y})"));
    }
    if let Some(s) = &h.source {
        out.push_str(&format!(" (source {})", q(s)));
    }
    if let Some(s) = &h.status {
        out.push_str(&format!(" (status {})", q(s)));
    }
    out.push_str(")\n");
    if let Some(e) = &h.extends {
        out.push_str(&format!(
            "(extends{} {}{})\n",
            if e.by_path { " path" } else { "" },
            q(&e.target),
            e.pin
                .as_ref()
                .map(|p| format!(" (sha256 {})", q(p)))
                .unwrap_or_default()
        ));
    }
    for it in &book.items {
        out.push_str(&item(it));
        out.push('\n');
    }
    out
}
