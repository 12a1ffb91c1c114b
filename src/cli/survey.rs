//! `qili survey`: every repetition in game records ruled under one
//! rulebook, and counted.

use std::path::PathBuf;

use clap::Args;
use miette::Result;

use super::compare::{load_games, TableFormat};
use super::emit;
use super::judge::Lang;
use crate::board::Color;
use crate::judge::report::outcome_words;
use crate::judge::survey::{survey, LeftBy, Survey, Surveyed};
use crate::judge::Rulebook;
use crate::lang::fmt::width;

#[derive(Debug, Args)]
pub struct SurveyArgs {
    /// Game records: PGN files or folders of them (default: the 2,516
    /// bundled master games).
    #[arg(default_value = "data/games")]
    pub games: Vec<PathBuf>,
    /// The rulebook: an edition id from the rules folder, or a path; several,
    /// comma-separated, give one line each side by side (and a JSON array).
    #[arg(long, value_delimiter = ',', default_value = "2011")]
    pub rules: Vec<String>,
    /// Where editions named by id are looked up; the editions built into
    /// qili answer for any it does not hold.
    #[arg(long, default_value = "rules")]
    pub rules_dir: PathBuf,
    /// Every pattern, and a line per repetition (by default the 20 most
    /// common patterns and no list).
    #[arg(long)]
    pub all: bool,
    #[arg(long, value_enum, default_value_t)]
    pub lang: Lang,
    #[arg(long, value_enum, default_value_t = TableFormat::Text)]
    pub format: TableFormat,
}

/// Patterns shown without `--all`.
const PATTERNS_SHOWN: usize = 20;

pub fn run_survey(args: &SurveyArgs, out: &mut dyn std::io::Write) -> Result<()> {
    let books = args
        .rules
        .iter()
        .map(|r| Rulebook::from_folder(r, &args.rules_dir))
        .collect::<Result<Vec<_>>>()?;
    let files = load_games(&args.games)?;
    let zh = args.lang == Lang::Zh;
    let surveys: Vec<Survey> = books.iter().map(|b| survey(b, &files, zh)).collect();
    let md = args.format == TableFormat::Md;
    let text = match (args.format, surveys.as_slice()) {
        (TableFormat::Json, [one]) => json(one)?,
        (TableFormat::Json, many) => json(&many)?,
        (_, [one]) => survey_text(one, args.all, md, zh),
        (_, many) => surveys_text(many, md, zh),
    };
    emit(out, &text)
}

fn json<T: serde::Serialize + ?Sized>(v: &T) -> Result<String> {
    let mut j = serde_json::to_string_pretty(v)
        .map_err(|e| miette::miette!(code = "qili::io", "cannot write JSON: {e}"))?;
    j.push('\n');
    Ok(j)
}

/// Where the rulebook names a side and the game went on: how often that
/// side left the repetition, and of how many.
fn named_side_left(s: &Survey) -> (usize, usize) {
    let named = |l: &&LeftBy| l.outcome != "draw";
    let obeyed = s
        .left
        .iter()
        .filter(named)
        .map(|l| match l.outcome {
            "red_must_change" => l.red,
            _ => l.black,
        })
        .sum();
    let went_on = s.left.iter().filter(named).map(|l| l.red + l.black).sum();
    (obeyed, went_on)
}

/// Several rulebooks over the same games: a line each.
pub fn surveys_text(all: &[Survey], md: bool, zh: bool) -> String {
    let Some(first) = all.first() else {
        return String::new();
    };
    let title = if zh { "棋例统计" } else { "survey" };
    let mut out = if md {
        format!("## {title}\n\n")
    } else {
        format!("{title}\n")
    };
    out.push_str(&games_line(first, zh));
    out.push_str("\n\n");
    let rows: Vec<Vec<String>> = all
        .iter()
        .map(|s| {
            let (obeyed, went_on) = named_side_left(s);
            vec![
                s.rules.id.clone(),
                s.outcomes.draw.to_string(),
                s.outcomes.red_must_change.to_string(),
                s.outcomes.black_must_change.to_string(),
                if zh {
                    format!("{obeyed}/{went_on}")
                } else {
                    format!("{obeyed} of {went_on}")
                },
                share(obeyed, went_on),
            ]
        })
        .collect();
    let head: &[&str] = if zh {
        &["规则", "和棋", "红方变着", "黑方变着", "须变方先变", "占比"]
    } else {
        &[
            "rules",
            "draw",
            "red_must_change",
            "black_must_change",
            "named side left",
            "share",
        ]
    };
    out.push_str(&table(
        head,
        &rows,
        &[false, true, true, true, true, true],
        md,
    ));
    out
}

/// How many games were read and repetitions ruled, without a line end.
fn games_line(s: &Survey, zh: bool) -> String {
    match (zh, s.duplicates.len()) {
        (true, 0) => format!("{}局，{}处重复局面", s.games, s.repetitions),
        (true, n) => format!(
            "{}局（其中{n}局与前面的棋谱相同，略过），{}处重复局面",
            s.games, s.repetitions
        ),
        (false, 0) => format!("{} games, {} repetitions", s.games, s.repetitions),
        (false, n) => format!(
            "{} games ({n} repeat an earlier record and are passed over), {} repetitions",
            s.games, s.repetitions
        ),
    }
}

/// `part` of `whole` as a percentage with one decimal.
fn share(part: usize, whole: usize) -> String {
    if whole == 0 {
        return "—".to_string();
    }
    format!("{:.1}%", part as f64 * 100.0 / whole as f64)
}

fn pad(s: &str, w: usize) -> String {
    format!("{s}{}", " ".repeat(w.saturating_sub(width(s))))
}

/// Rows as an aligned text table (two spaces between columns, numbers
/// right-aligned) or a Markdown table.
fn table(head: &[&str], rows: &[Vec<String>], numeric: &[bool], md: bool) -> String {
    let mut out = String::new();
    if md {
        out.push_str(&format!("| {} |\n", head.join(" | ")));
        let rule: Vec<&str> = numeric
            .iter()
            .map(|&n| if n { "---:" } else { "---" })
            .collect();
        out.push_str(&format!("|{}|\n", rule.join("|")));
        for r in rows {
            let cells: Vec<String> = r.iter().map(|c| c.replace('|', "\\|")).collect();
            out.push_str(&format!("| {} |\n", cells.join(" | ")));
        }
        out.push('\n');
        return out;
    }
    let widths: Vec<usize> = (0..head.len())
        .map(|i| {
            rows.iter()
                .filter_map(|r| r.get(i))
                .map(|c| width(c))
                .chain([width(head[i])])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |cells: Vec<&str>| {
        let parts: Vec<String> = cells
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let w = widths[i];
                if numeric[i] {
                    format!("{}{c}", " ".repeat(w.saturating_sub(width(c))))
                } else {
                    pad(c, w)
                }
            })
            .collect();
        format!("  {}\n", parts.join("  ").trim_end())
    };
    out.push_str(&line(head.to_vec()));
    for r in rows {
        out.push_str(&line(r.iter().map(String::as_str).collect()));
    }
    out.push('\n');
    out
}

/// A repetition's columns both tables open with: where, the natures, each
/// side's pattern and the outcome.
fn ruling_row(r: &Surveyed, zh: bool) -> Vec<String> {
    vec![
        r.id.clone(),
        r.natures.join(" "),
        r.red.clone(),
        r.black.clone(),
        outcome_words(r.outcome, zh).to_string(),
    ]
}

pub fn survey_text(s: &Survey, all: bool, md: bool, zh: bool) -> String {
    // Each text in Chinese and in English.
    let t = |c: &'static str, e: &'static str| if zh { c } else { e };
    let heading = |h: &str| {
        if md {
            format!("### {h}\n\n")
        } else {
            format!("{h}\n")
        }
    };
    let title = format!(
        "{}{} — {}",
        t("棋例统计：", "survey: "),
        s.rules.id,
        s.rules.title
    );
    let mut out = if md {
        format!("## {title}\n\n")
    } else {
        format!("{title}\n")
    };
    out.push_str(&games_line(s, zh));
    out.push_str(t(
        "（每处只判一次，判其最后一个循环）\n\n",
        " (each ruled once, on its last cycle)\n\n",
    ));
    let o = &s.outcomes;
    out.push_str(&heading(t("裁决", "outcomes")));
    let rows: Vec<Vec<String>> = [
        ("draw", o.draw),
        ("red_must_change", o.red_must_change),
        ("black_must_change", o.black_must_change),
    ]
    .iter()
    .map(|(k, n)| {
        vec![
            outcome_words(k, zh).to_string(),
            n.to_string(),
            share(*n, s.repetitions),
        ]
    })
    .collect();
    let head: &[&str] = if zh {
        &["裁决", "次数", "占比"]
    } else {
        &["outcome", "count", "share"]
    };
    out.push_str(&table(head, &rows, &[false, true, true], md));
    let moves: usize = s.natures.iter().map(|n| n.moves).sum();
    out.push_str(&heading(t(
        "循环中各着的性质（从重）",
        "the cycle moves by deciding nature",
    )));
    let rows: Vec<Vec<String>> = s
        .natures
        .iter()
        .map(|n| {
            let mut row = vec![n.nature.clone()];
            if !zh {
                row.push(n.nature_en.clone());
            }
            row.extend([n.moves.to_string(), share(n.moves, moves)]);
            row
        })
        .collect();
    if zh {
        out.push_str(&table(
            &["性质", "着数", "占比"],
            &rows,
            &[false, true, true],
            md,
        ));
    } else {
        out.push_str(&table(
            &["nature", "", "moves", "share"],
            &rows,
            &[false, false, true, true],
            md,
        ));
    }
    let shown = if all {
        s.patterns.len()
    } else {
        s.patterns.len().min(PATTERNS_SHOWN)
    };
    out.push_str(&heading(t(
        "双方的着法组合（红 / 黑），次数多的在前",
        "patterns (red / black), most common first",
    )));
    let rows: Vec<Vec<String>> = s.patterns[..shown]
        .iter()
        .map(|p| {
            vec![
                p.count.to_string(),
                p.red.clone(),
                p.black.clone(),
                outcome_words(p.outcome, zh).to_string(),
            ]
        })
        .collect();
    let head: &[&str] = if zh {
        &["次数", "红方", "黑方", "裁决"]
    } else {
        &["count", "red", "black", "outcome"]
    };
    out.push_str(&table(head, &rows, &[true, false, false, false], md));
    if shown < s.patterns.len() {
        let more = s.patterns.len() - shown;
        out.push_str(&if zh {
            format!("…… 另有{more}种组合（`--all` 列出全部组合和每一处重复局面）\n\n")
        } else {
            format!("… {more} more patterns (`--all` lists them, and every repetition)\n\n")
        });
    }
    out.push_str(&heading(t(
        "对局中哪一方先变着",
        "who left the repetition in the game",
    )));
    let rows: Vec<Vec<String>> = s
        .left
        .iter()
        .map(|l| {
            vec![
                outcome_words(l.outcome, zh).to_string(),
                l.red.to_string(),
                l.black.to_string(),
                l.ended.to_string(),
            ]
        })
        .collect();
    let head: &[&str] = if zh {
        &["裁决", "红方先变", "黑方先变", "棋谱到此结束"]
    } else {
        &["outcome", "red", "black", "record ends"]
    };
    out.push_str(&table(head, &rows, &[false, true, true, true], md));
    let (obeyed, went_on) = named_side_left(s);
    if went_on > 0 {
        let pct = share(obeyed, went_on);
        out.push_str(&if zh {
            format!(
                "规则判须变着、对局又继续下去的{went_on}处中，须变着的一方先变着的有{obeyed}处（{pct}）\n\n"
            )
        } else {
            format!(
                "where the rulebook names a side and the game went on, that side left the repetition in {obeyed} of {went_on} ({pct})\n\n"
            )
        });
    }
    // The repetitions a referee would look at first: the rulebook names a
    // side, and the other one left.
    let against: Vec<Vec<String>> = s
        .rulings
        .iter()
        .filter(|r| {
            matches!(
                (r.outcome, r.left_by),
                ("red_must_change", Some(Color::Black)) | ("black_must_change", Some(Color::Red))
            )
        })
        .map(|r| ruling_row(r, zh))
        .collect();
    let ruling_head: [&str; 5] = if zh {
        ["重复局面", "性质", "红方", "黑方", "裁决"]
    } else {
        ["repetition", "natures", "red", "black", "outcome"]
    };
    if !against.is_empty() {
        out.push_str(&heading(t(
            "由另一方先变着的重复局面（值得裁判细看）",
            "where the other side left (worth a referee's look)",
        )));
        out.push_str(&table(&ruling_head, &against, &[false; 5], md));
    }
    if all {
        out.push_str(&heading(t("每一处重复局面", "repetitions")));
        let rows: Vec<Vec<String>> = s
            .rulings
            .iter()
            .map(|r| {
                let mut row = ruling_row(r, zh);
                row.push(
                    r.left_by
                        .map_or("—", |c| match (c, zh) {
                            (Color::Red, true) => "红方",
                            (Color::Black, true) => "黑方",
                            (Color::Red, false) => "red",
                            (Color::Black, false) => "black",
                        })
                        .to_string(),
                );
                row.push(r.title.clone());
                row
            })
            .collect();
        let mut head = ruling_head.to_vec();
        head.extend(if zh {
            ["先变方", "对局"]
        } else {
            ["left by", "game"]
        });
        out.push_str(&table(&head, &rows, &[false; 7], md));
    }
    for (at, why) in &s.cut {
        out.push_str(&if zh {
            format!("只读了一部分 {at}：{why}\n")
        } else {
            format!("read in part {at}: {why}\n")
        });
    }
    let bold = if md { "**" } else { "" };
    out.push_str(&if zh {
        format!(
            "{bold}{}局中{}处重复局面：和棋{}处，红方变着{}处，黑方变着{}处{bold}\n",
            s.games, s.repetitions, o.draw, o.red_must_change, o.black_must_change
        )
    } else {
        format!(
            "{bold}{} repetitions in {} games: {} draw, {} red must change, {} black must change{bold}\n",
            s.repetitions, s.games, o.draw, o.red_must_change, o.black_must_change
        )
    });
    out
}
