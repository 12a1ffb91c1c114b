//! How a ruling is told: each side's pattern named as referees name it
//! (长将, 一将一捉, 两闲), the verdict in the words of a ruling, the one-line
//! reason per move, and the text and JSON forms.

use serde::Serialize;

use super::eval::{Step, Text, Trace};
use super::program::{Outcome, Program};
use super::{MoveRuling, Rulebook, Ruling};
use crate::board::diagram::diagram;
use crate::board::Color;

const NUMERALS: [&str; 10] = ["零", "一", "二", "三", "四", "五", "六", "七", "八", "九"];
const ENGLISH_NUMBERS: [&str; 10] = [
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
];

/// `n` as a Chinese numeral (一 … 九; larger counts in digits).
fn push_numeral(out: &mut String, n: usize) {
    match NUMERALS.get(n) {
        Some(s) => out.push_str(s),
        None => out.push_str(&n.to_string()),
    }
}

/// `n` as an English word (one … nine; larger counts in digits).
fn push_english_number(out: &mut String, n: usize) {
    match ENGLISH_NUMBERS.get(n) {
        Some(s) => out.push_str(s),
        None => out.push_str(&n.to_string()),
    }
}

/// The name of a side's pattern: all moves of one nature are 长X (two idle
/// moves are 两闲, as the rulings write it); a mix counts each nature,
/// heaviest first: 一将一捉, 二捉一闲.
pub fn summary(prog: &Program, moves: &[MoveRuling], side: Color) -> Text {
    let mine: Vec<usize> = moves
        .iter()
        .filter(|m| m.side == side)
        .map(|m| m.heaviest)
        .collect();
    let mut kinds: Vec<(usize, usize)> = Vec::new();
    for n in &mine {
        match kinds.iter_mut().find(|(k, _)| k == n) {
            Some((_, c)) => *c += 1,
            None => kinds.push((*n, 1)),
        }
    }
    kinds.sort_by_key(|(n, _)| (prog.weight[*n], *n));
    // Written piece by piece: a summary is made for every ruling.
    let mut zh = String::with_capacity(24);
    let mut en = String::with_capacity(48);
    if let [(n, count)] = kinds[..] {
        let name = prog.nature_name(n);
        let nature_en = prog.nature_en(n);
        if count == 1 {
            zh.push('一');
            en.push_str("one ");
        } else if is_idle(prog, n) {
            if count == 2 {
                zh.push('两');
            } else {
                push_numeral(&mut zh, count);
            }
            push_english_number(&mut en, count);
            en.push(' ');
        } else {
            zh.push('长');
            en.push_str("perpetual ");
        }
        zh.push_str(name);
        en.push_str(nature_en);
        if count > 1 && is_idle(prog, n) {
            en.push_str(" moves");
        }
        return Text::new(zh, en);
    }
    for (i, &(n, c)) in kinds.iter().enumerate() {
        push_numeral(&mut zh, c);
        zh.push_str(prog.nature_name(n));
        if i > 0 {
            en.push_str(", ");
        }
        push_english_number(&mut en, c);
        en.push(' ');
        if c == 1 {
            en.push_str(prog.nature_en(n));
        } else if is_idle(prog, n) {
            en.push_str(prog.nature_en(n));
            en.push_str(" moves");
        } else {
            push_plural(&mut en, prog.nature_en(n));
        }
    }
    Text::new(zh, en)
}

/// An English gloss in the plural, as a count of more than one reads it
/// ("two chases, one idle"): the bundled editions' glosses are nouns that
/// take -s or -es.
fn push_plural(out: &mut String, gloss: &str) {
    out.push_str(gloss);
    if ["s", "x", "z", "ch", "sh"]
        .iter()
        .any(|e| gloss.ends_with(e))
    {
        out.push_str("es");
    } else {
        out.push('s');
    }
}

/// Whether a side's English summary names several moves ("two idle
/// moves") rather than one pattern ("perpetual chase", "one check, one
/// idle"): the verb of the ruling agrees with it.
fn summary_is_plural(en: &str) -> bool {
    en.ends_with(" moves") && !en.contains(", ")
}

/// The idle nature is the one whose definition is plain `true`: it holds of
/// every move and names a move that does nothing heavier.
fn is_idle(prog: &Program, n: usize) -> bool {
    prog.natures
        .get(n)
        .is_some_and(|c| matches!(c.body.op, super::program::Op::Bool(true)))
}

fn side_zh(c: Color) -> String {
    format!("{}方", c.chinese())
}

fn side_en(c: Color) -> &'static str {
    match c {
        Color::Red => "Red",
        Color::Black => "Black",
    }
}

/// The ruling in a referee's words: 黑方一将一捉为禁止着法，红方一杀一闲为允许着法：黑方变着，不变作负.
pub fn wording(r: &Ruling) -> Text {
    let first = match r.outcome {
        Outcome::MustChange(s) => s,
        Outcome::Draw => Color::Red,
    };
    let order = [first, first.opponent()];
    let part = |c: Color| {
        let s = &r.sides[c.index()];
        let verb = if summary_is_plural(&s.summary.en) {
            " are"
        } else {
            " is"
        };
        let (zh, en) = match s.forbidden {
            Some(true) => ("为禁止着法", " forbidden"),
            Some(false) => ("为允许着法", " allowed"),
            None => ("", ""),
        };
        let verb = if en.is_empty() { "" } else { verb };
        (
            format!("{}{}{zh}", side_zh(c), s.summary.zh),
            format!("{}'s {}{verb}{en}", side_en(c), s.summary.en),
        )
    };
    let parts: Vec<(String, String)> = order.iter().map(|c| part(*c)).collect();
    let (zh_end, en_end) = match r.outcome {
        Outcome::MustChange(s) => (
            format!("{}变着，不变作负", side_zh(s)),
            format!("{} must change, or lose", side_en(s)),
        ),
        Outcome::Draw => (
            "双方不变作和".to_string(),
            "a draw if neither side changes".to_string(),
        ),
    };
    Text::new(
        format!("{}，{}：{zh_end}", parts[0].0, parts[1].0),
        format!("{}; {}: {en_end}.", parts[0].1, parts[1].1),
    )
}

/// The outcome as the JSON contract spells it.
pub fn outcome_id(o: Outcome) -> &'static str {
    match o {
        Outcome::Draw => "draw",
        Outcome::MustChange(Color::Red) => "red_must_change",
        Outcome::MustChange(Color::Black) => "black_must_change",
    }
}

/// The cycle's moves in WXF notation, which English readers (the WXF and
/// AXF rulebooks' own) read. Named by replaying the cycle when a text asks,
/// so the ruling itself need not.
pub fn wxf_names(cycle: &crate::judge::Cycle) -> Vec<String> {
    let mut pos = cycle.start.clone();
    cycle
        .moves
        .iter()
        .map(|&mv| {
            let name = crate::notation::wxf(&pos, mv);
            pos.make(mv);
            name
        })
        .collect()
}

/// An outcome id (see [`outcome_id`]) in a table read by people: as a
/// referee says it in Chinese, the id itself in English (the word scripts
/// also find in the JSON).
pub fn outcome_words(id: &str, zh: bool) -> &str {
    match (id, zh) {
        ("draw", true) => "和棋",
        ("red_must_change", true) => "红方变着",
        ("black_must_change", true) => "黑方变着",
        (other, _) => other,
    }
}

/// The facts behind a move's deciding nature, shortest first: the board
/// facts that held (captures, exchanges, mates, roots) and the contexts that
/// made the difference (what was already so before the move).
pub fn reasons(book: &Rulebook, m: &MoveRuling) -> Vec<Text> {
    let prog = &book.program;
    let mut out: Vec<Text> = Vec::new();
    let deciding = m
        .trace
        .iter()
        .find(|t| t.step == Step::Nature && t.what.zh == prog.nature_name(m.heaviest));
    if let Some(t) = deciding {
        collect(t, true, &mut out);
    }
    if !m.held.contains(&m.heaviest) {
        // A clause added the deciding nature: its condition's facts are why.
        for &c in &m.clauses {
            let id = &prog.clauses[c].label.id;
            let fired = m.trace.iter().find(|t| {
                t.step == Step::Clause
                    && t.holds == Some(true)
                    && t.what.en.split(' ').next() == Some(id.as_str())
            });
            if let Some(t) = fired {
                collect(t, true, &mut out);
            }
        }
    }
    if out.is_empty() && is_idle(prog, m.heaviest) {
        let failed: Vec<&str> = prog
            .by_weight
            .iter()
            .filter(|n| !is_idle(prog, **n) && !m.natures.contains(n) && !m.held.contains(n))
            .map(|n| prog.nature_name(*n))
            .collect();
        let failed_en: Vec<&str> = prog
            .by_weight
            .iter()
            .filter(|n| !is_idle(prog, **n) && !m.natures.contains(n) && !m.held.contains(n))
            .map(|n| prog.nature_en(*n))
            .collect();
        if !failed.is_empty() {
            out.push(Text::new(
                format!("非{}", failed.join("非")),
                format!("no {}", failed_en.join(", no ")),
            ));
        }
    }
    for &c in &m.clauses {
        let code = &prog.clauses[c];
        let cite = code.label.cite.as_deref().unwrap_or(&code.label.id);
        out.push(Text::new(
            format!("{cite}：{}", code.label.name(true)),
            format!("{cite}: {}", code.label.name(false)),
        ));
    }
    for n in &m.held {
        if !m.natures.contains(n) {
            out.push(Text::new(
                format!("原为{}", prog.nature_name(*n)),
                format!("was {}", prog.nature_en(*n)),
            ));
        }
    }
    if m.exhausted {
        out.push(Text::new(
            "搜索预算用尽，未决部分按不成立论",
            "a search ran out of budget; what it left open was taken as not holding",
        ));
    }
    out
}

/// Board facts under a trace node that holds (or the negated context that
/// mattered), depth first, each once.
fn collect(t: &Trace, positive: bool, out: &mut Vec<Text>) {
    match t.step {
        Step::Fact => {
            if positive && t.holds != Some(false) && !out.contains(&t.what) {
                out.push(t.what.clone());
            }
        }
        Step::Context if t.holds == Some(false) => {
            // `not before { … }`: say that it was not so before the move.
            let inner = t
                .children
                .iter()
                .find(|c| c.step == Step::Definition)
                .map(|c| c.what.clone());
            let said = match inner {
                Some(d) => Text::new(
                    format!("{}：{}不成立", t.what.zh, d.zh),
                    // The evaluator words a definition's English as
                    // `call — gloss`; here the gloss goes in brackets after
                    // the verb: "threatened(t = …) did not hold (the mover
                    // can win t next move)".
                    match d.en.split_once(" — ") {
                        Some((call, gloss)) => {
                            format!("{}: {call} did not hold ({gloss})", t.what.en)
                        }
                        None => format!("{}: {} did not hold", t.what.en, d.en),
                    },
                ),
                None => Text::new(
                    format!("{}：不成立", t.what.zh),
                    format!("{}: it did not hold", t.what.en),
                ),
            };
            if !out.contains(&said) {
                out.push(said);
            }
        }
        Step::Context if positive && t.holds == Some(true) && !t.what.zh.is_empty() => {
            // Facts found in another position say which: "before the move:
            // …", "with the rook h5 lifted off: …".
            let mut inner = Vec::new();
            for c in &t.children {
                collect(c, true, &mut inner);
            }
            for f in inner {
                let said = Text::new(
                    format!("{}：{}", t.what.zh, f.zh),
                    format!("{}: {}", t.what.en, f.en),
                );
                if !out.contains(&said) {
                    out.push(said);
                }
            }
        }
        _ => {
            let keep = t.holds != Some(false);
            for c in &t.children {
                collect(c, positive && keep, out);
            }
        }
    }
}

/// The citations of a move's deciding nature and of the clauses that fired.
pub fn citations(book: &Rulebook, m: &MoveRuling) -> Vec<String> {
    let prog = &book.program;
    let mut out = Vec::new();
    if let Some(c) = prog
        .natures
        .get(m.heaviest)
        .and_then(|n| n.label.cite.clone())
    {
        out.push(c);
    }
    for &c in &m.clauses {
        let code = &prog.clauses[c];
        out.push(
            code.label
                .cite
                .clone()
                .unwrap_or_else(|| code.label.id.clone()),
        );
    }
    out
}

// ---- JSON ------------------------------------------------------------------

#[derive(Debug, Serialize)]
pub struct JsonRuling {
    pub rules: JsonRules,
    pub moves: Vec<JsonMove>,
    pub sides: JsonSides,
    pub outcome: &'static str,
    /// Only when asked for (`--profile`): where the time went.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub profile: Option<super::profile::Profile>,
}

#[derive(Debug, Serialize)]
pub struct JsonRules {
    pub id: String,
    pub title: String,
}

#[derive(Debug, Serialize)]
pub struct JsonMove {
    pub ply: usize,
    pub side: Color,
    #[serde(rename = "move")]
    pub mv: String,
    pub iccs: String,
    pub nature: String,
    pub nature_en: String,
    pub clauses: Vec<String>,
    pub reasons: Vec<String>,
}

#[derive(Debug, Serialize)]
pub struct JsonSides {
    pub red: JsonSide,
    pub black: JsonSide,
}

#[derive(Debug, Serialize)]
pub struct JsonSide {
    pub summary: String,
    pub status: &'static str,
}

/// The JSON contract of `qili judge --format json`.
pub fn to_json(book: &Rulebook, r: &Ruling, zh: bool) -> JsonRuling {
    let prog = &book.program;
    let side = |c: Color| {
        let s = &r.sides[c.index()];
        JsonSide {
            summary: s.summary.get(zh).to_string(),
            status: match s.forbidden {
                Some(true) => "forbidden",
                _ => "allowed",
            },
        }
    };
    JsonRuling {
        rules: JsonRules {
            id: r.rules_id.clone(),
            title: r.rules_title.get(zh).to_string(),
        },
        moves: r
            .moves
            .iter()
            .map(|m| JsonMove {
                ply: m.ply,
                side: m.side,
                mv: m.chinese.clone(),
                iccs: m.mv.to_string(),
                nature: prog.nature_name(m.heaviest).to_string(),
                nature_en: prog.nature_en(m.heaviest).to_string(),
                clauses: citations(book, m),
                reasons: reasons(book, m)
                    .iter()
                    .map(|t| t.get(zh).to_string())
                    .collect(),
            })
            .collect(),
        sides: JsonSides {
            red: side(Color::Red),
            black: side(Color::Black),
        },
        outcome: outcome_id(r.outcome),
        profile: r.profile.clone(),
    }
}

// ---- text ------------------------------------------------------------------

/// The text report: the board, one line per move, each side, the ruling;
/// with `explain`, each move's and each side's full trace.
pub fn to_text(book: &Rulebook, r: &Ruling, zh: bool, explain: bool) -> String {
    let prog = &book.program;
    let mut s = String::new();
    let title = r.rules_title.get(zh);
    if zh {
        s.push_str(&format!("规则：{title}（{}）\n\n", r.rules_id));
    } else {
        s.push_str(&format!("Rules: {title} ({})\n\n", r.rules_id));
    }
    s.push_str(&diagram(&r.cycle.start));
    s.push('\n');
    if r.cycle.offset > 0 {
        s.push_str(&if zh {
            format!("（判最后一个循环：从第{}着之后起）\n", r.cycle.offset)
        } else {
            format!(
                "(judging the last cycle: the moves after move {})\n",
                r.cycle.offset
            )
        });
    }
    let wxf: Vec<String> = if zh { Vec::new() } else { wxf_names(&r.cycle) };
    for (i, m) in r.moves.iter().enumerate() {
        let side = if zh {
            m.side.chinese().to_string()
        } else {
            side_en(m.side).to_string()
        };
        let name = match wxf.get(i) {
            Some(w) => w.as_str(),
            None => m.chinese.as_str(),
        };
        let nature = if zh {
            prog.nature_name(m.heaviest).to_string()
        } else {
            prog.nature_en(m.heaviest).to_string()
        };
        let reasons: Vec<String> = reasons(book, m)
            .iter()
            .map(|t| t.get(zh).to_string())
            .collect();
        let sep = if zh { "；" } else { "; " };
        s.push_str(&format!(
            "{:>2}. {side} {} ({})  {nature}  {}\n",
            m.ply,
            name,
            m.mv,
            reasons.join(sep)
        ));
        if explain {
            for t in &m.trace {
                render_trace(&mut s, t, 2, zh);
            }
        }
    }
    s.push('\n');
    for c in Color::ALL {
        let side = &r.sides[c.index()];
        let status = match (side.forbidden, zh) {
            (Some(true), true) => "（禁止）",
            (Some(false), true) => "（允许）",
            (Some(true), false) => " (forbidden)",
            (Some(false), false) => " (allowed)",
            (None, _) => "",
        };
        if zh {
            s.push_str(&format!("{}：{}{status}\n", side_zh(c), side.summary.zh));
        } else {
            s.push_str(&format!("{}: {}{status}\n", side_en(c), side.summary.en));
        }
        if explain {
            if let Some(t) = &side.trace {
                render_trace(&mut s, t, 2, zh);
            }
        }
    }
    if explain {
        s.push_str(if zh {
            "裁决条款：\n"
        } else {
            "Verdict cases:\n"
        });
        for t in &r.verdict {
            render_trace(&mut s, t, 2, zh);
        }
    }
    let w = wording(r);
    if zh {
        s.push_str(&format!("裁决：{}\n", w.zh));
    } else {
        s.push_str(&format!("Ruling: {}\n", w.en));
    }
    s
}

fn render_trace(s: &mut String, t: &Trace, depth: usize, zh: bool) {
    let mark = match t.holds {
        Some(true) => "✓",
        Some(false) => "✗",
        None => "·",
    };
    let cite = t
        .cite
        .as_ref()
        .map_or_else(String::new, |c| format!(" @{c}"));
    s.push_str(&format!(
        "{}{mark} {}{cite}\n",
        "  ".repeat(depth),
        t.what.get(zh)
    ));
    // A fact found twice under one step (a primitive the definition asks
    // twice, as `check_gain(mover) > 0 and check_gain(mover) > …`) is
    // printed once.
    let mut facts: Vec<(&Text, Option<bool>)> = Vec::new();
    for c in &t.children {
        if c.step == Step::Fact && c.children.is_empty() {
            if facts.contains(&(&c.what, c.holds)) {
                continue;
            }
            facts.push((&c.what, c.holds));
        }
        render_trace(s, c, depth + 1, zh);
    }
}

// Tests state their expectations by panicking.
#[cfg(test)]
#[allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    /// A count above one reads in the plural: two chases, two mate
    /// threats, two exchange offers.
    #[test]
    fn a_gloss_counted_twice_reads_in_the_plural() {
        for (gloss, plural) in [
            ("chase", "chases"),
            ("check", "checks"),
            ("mate threat", "mate threats"),
            ("sacrifice offer", "sacrifice offers"),
            ("block", "blocks"),
            ("pass", "passes"),
        ] {
            let mut out = String::new();
            push_plural(&mut out, gloss);
            assert_eq!(out, plural);
        }
    }

    /// Only a count of idle moves is several moves; a mix and a perpetual
    /// pattern are one pattern each.
    #[test]
    fn only_several_idle_moves_take_a_plural_verb() {
        assert!(summary_is_plural("two idle moves"));
        assert!(!summary_is_plural("perpetual chase"));
        assert!(!summary_is_plural("one check, two idle moves"));
        assert!(!summary_is_plural("one check"));
    }
}
