//! The case corpus: seed figures as TOML files (format in `cases/README.md`)
//! and their comparison with a ruling.

use std::path::Path;

use miette::{Diagnostic, SourceSpan};
use serde::Deserialize;

use super::program::Outcome;
use super::report::{outcome_id, outcome_words};
use super::{Rulebook, Ruling};
use crate::board::Color;
use crate::diagnostic::SourceText;

/// One case file.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    pub id: String,
    pub title: String,
    pub source: String,
    pub fen: String,
    pub moves: String,
    /// The moves are a longer line (a game, a cycle played two or three
    /// times) and the last cycle is judged, rather than exactly one cycle
    /// from the start position.
    #[serde(default)]
    pub line: bool,
    #[serde(default)]
    pub composed: Option<String>,
    #[serde(default)]
    pub expect: Vec<Expectation>,
}

/// A line of a peer engine's test file (`cases/peer/*.jsonl`): a position,
/// a line of ICCS moves that repeats, and the side ruled against.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PeerCase {
    source: String,
    label: String,
    rules: String,
    fen: String,
    moves: Vec<String>,
    loser: Option<String>,
    /// qili's own note where it disagrees with the peer, with the rulebook
    /// clause that says why.
    #[serde(default)]
    qili_known_failure: Option<String>,
}

/// What the article rules, under the editions it applies to.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expectation {
    pub editions: Vec<String>,
    #[serde(default)]
    pub stated_for: Option<String>,
    /// The heaviest nature of each move; empty when the source gives only
    /// the verdict (the peer cases).
    #[serde(default)]
    pub natures: Vec<String>,
    #[serde(default)]
    pub red: Option<String>,
    #[serde(default)]
    pub black: Option<String>,
    pub outcome: String,
    #[serde(default)]
    pub known_failure: Option<String>,
}

/// A case file that cannot be read.
#[derive(Debug, thiserror::Error, Diagnostic)]
pub enum CaseError {
    #[error("cannot read {path}: {message}")]
    #[diagnostic(code(qili::case::io))]
    Io { path: String, message: String },
    #[error("{message}")]
    #[diagnostic(
        code(qili::case::format),
        help("the case format is described in cases/README.md")
    )]
    Format {
        message: String,
        #[source_code]
        src: SourceText,
        #[label("here")]
        at: Option<SourceSpan>,
    },
    #[error("outcome `{found}` is not one of draw, red_must_change, black_must_change")]
    #[diagnostic(
        code(qili::case::outcome),
        help("an expectation's outcome is the article's verdict: draw, red_must_change or black_must_change")
    )]
    Outcome {
        found: String,
        #[source_code]
        src: SourceText,
        #[label("not an outcome")]
        at: Option<SourceSpan>,
    },
}

impl Case {
    /// Every case a file holds: one for a `.toml` case file, one per line
    /// for a peer's `.jsonl` file (judged under the edition `axf`, named
    /// `<file stem>-<line>`).
    pub fn load_all(path: &Path) -> Result<Vec<Case>, CaseError> {
        if path.extension().is_some_and(|x| x == "jsonl") {
            let text = std::fs::read_to_string(path).map_err(|e| CaseError::Io {
                path: path.display().to_string(),
                message: e.to_string(),
            })?;
            return Case::parse_all(&path.display().to_string(), &text);
        }
        Ok(vec![Case::load(path)?])
    }

    /// [`Self::load_all`] for a file's text: `name` is its path, whose
    /// extension says which format it is in (`.jsonl`: the peers').
    pub fn parse_all(name: &str, text: &str) -> Result<Vec<Case>, CaseError> {
        let path = Path::new(name);
        if path.extension().is_some_and(|x| x == "jsonl") {
            let stem = path
                .file_stem()
                .map_or_else(|| "peer".to_string(), |s| s.to_string_lossy().into_owned());
            return Case::parse_peer(name, &stem, text);
        }
        Ok(vec![Case::parse(name, text)?])
    }

    /// The peer format: one JSON object per line (see `cases/peer/README.md`).
    pub fn parse_peer(name: &str, stem: &str, text: &str) -> Result<Vec<Case>, CaseError> {
        let mut out = Vec::new();
        let mut offset = 0;
        for (i, line) in text.split_inclusive('\n').enumerate() {
            let start = offset;
            offset += line.len();
            if line.trim().is_empty() {
                continue;
            }
            let peer: PeerCase = serde_json::from_str(line).map_err(|e| CaseError::Format {
                message: format!("line {}: {e}", i + 1),
                at: Some((start, line.trim_end().len()).into()),
                src: SourceText::new(name, text.to_string()),
            })?;
            let outcome = match peer.loser.as_deref() {
                None => "draw",
                Some("red") => "red_must_change",
                Some("black") => "black_must_change",
                Some(other) => {
                    return Err(CaseError::Outcome {
                        found: other.to_string(),
                        at: line
                            .find(&format!("\"{other}\""))
                            .map(|j| (start + j, other.len() + 2).into()),
                        src: SourceText::new(name, text.to_string()),
                    })
                }
            };
            out.push(Case {
                id: format!("{stem}-{}", i + 1),
                title: peer.label,
                source: format!("{} ({})", peer.source, peer.rules),
                fen: peer.fen,
                moves: peer.moves.join(" "),
                line: true,
                composed: None,
                expect: vec![Expectation {
                    editions: vec!["axf".to_string()],
                    stated_for: Some("axf".to_string()),
                    natures: Vec::new(),
                    red: None,
                    black: None,
                    outcome: outcome.to_string(),
                    known_failure: peer.qili_known_failure,
                }],
            });
        }
        Ok(out)
    }

    pub fn load(path: &Path) -> Result<Case, CaseError> {
        let text = std::fs::read_to_string(path).map_err(|e| CaseError::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        })?;
        Case::parse(&path.display().to_string(), &text)
    }

    pub fn parse(name: &str, text: &str) -> Result<Case, CaseError> {
        let case: Case = toml::from_str(text).map_err(|e| CaseError::Format {
            message: e.message().to_string(),
            at: e.span().map(|s| (s.start, s.len()).into()),
            src: SourceText::new(name, text.to_string()),
        })?;
        for e in &case.expect {
            if parse_outcome(&e.outcome).is_none() {
                let quoted = format!("\"{}\"", e.outcome);
                return Err(CaseError::Outcome {
                    found: e.outcome.clone(),
                    at: text.find(&quoted).map(|i| (i, quoted.len()).into()),
                    src: SourceText::new(name, text.to_string()),
                });
            }
        }
        Ok(case)
    }
}

include!(concat!(env!("OUT_DIR"), "/bundled_cases.rs"));

/// What a built-in case file's name starts with in reports and diagnostics,
/// as a built-in edition's does (`<built-in>/cases/s3-2.toml`).
pub const BUILT_IN: &str = "<built-in>";

/// The built-in case files at `path` or under it, `path` as written from
/// the project root: `cases`, `cases/peer`, `cases/s3-2.toml` (a trailing
/// `/` or a leading `./` is allowed). Empty when none is.
pub fn bundled_under(path: &str) -> Vec<(&'static str, &'static str)> {
    let path = path.trim_start_matches("./").trim_end_matches('/');
    BUNDLED_CASES
        .iter()
        .copied()
        .filter(|(name, _)| {
            *name == path
                || name
                    .strip_prefix(path)
                    .is_some_and(|rest| rest.starts_with('/'))
        })
        .collect()
}

/// The built-in `.toml` case a `--case` argument names: its path from the
/// project root (`cases/s3-2.toml`), its file name (`s3-2.toml`), its stem
/// (`s3-2`) or its id (`S3-2`, in any case).
pub fn bundled_case(arg: &str) -> Option<(&'static str, &'static str)> {
    let arg = arg.trim_start_matches("./");
    let stem = arg.strip_suffix(".toml").unwrap_or(arg);
    BUNDLED_CASES.iter().copied().find(|(name, _)| {
        name.strip_suffix(".toml") == Some(stem)
            || case_stem(name).is_some_and(|s| s.eq_ignore_ascii_case(stem))
    })
}

/// The stems of the built-in `.toml` cases (`s3-2`), the names
/// [`bundled_case`] answers to besides the paths.
pub fn bundled_stems() -> impl Iterator<Item = &'static str> {
    BUNDLED_CASES.iter().filter_map(|(name, _)| case_stem(name))
}

/// A `.toml` case file's stem: `cases/s3-2.toml` → `s3-2`.
fn case_stem(path: &str) -> Option<&str> {
    let file = path.strip_suffix(".toml")?;
    Some(file.rsplit('/').next().unwrap_or(file))
}

/// The outcome an expectation names, as the JSON contract spells it.
pub fn parse_outcome(s: &str) -> Option<Outcome> {
    match s {
        "draw" => Some(Outcome::Draw),
        "red_must_change" => Some(Outcome::MustChange(Color::Red)),
        "black_must_change" => Some(Outcome::MustChange(Color::Black)),
        _ => None,
    }
}

/// Where a ruling differs from what the article says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Difference {
    Length {
        expected: usize,
        found: usize,
    },
    Nature {
        ply: usize,
        mv: String,
        expected: String,
        found: String,
    },
    Outcome {
        expected: String,
        found: String,
    },
}

impl std::fmt::Display for Difference {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Difference::Length { expected, found } => {
                write!(
                    f,
                    "the article lists {expected} natures, the cycle has {found} moves"
                )
            }
            Difference::Nature {
                ply,
                mv,
                expected,
                found,
            } => write!(f, "move {ply} {mv}: article {expected}, qili {found}"),
            Difference::Outcome { expected, found } => {
                write!(f, "outcome: article {expected}, qili {found}")
            }
        }
    }
}

impl Difference {
    /// In Chinese, for `qili judge --case` under `--lang zh`.
    pub fn zh(&self) -> String {
        match self {
            Difference::Length { expected, found } => {
                format!("文章列出{expected}着的性质，循环有{found}着")
            }
            Difference::Nature {
                ply,
                mv,
                expected,
                found,
            } => format!("第{ply}着 {mv}：文章为{expected}，qili为{found}"),
            Difference::Outcome { expected, found } => {
                format!(
                    "裁决：文章为{}，qili为{}",
                    outcome_words(expected, true),
                    outcome_words(found, true)
                )
            }
        }
    }
}

/// The differences between a ruling and an expectation (none: it agrees).
pub fn compare(book: &Rulebook, r: &Ruling, e: &Expectation) -> Vec<Difference> {
    let mut out = Vec::new();
    if !e.natures.is_empty() && e.natures.len() != r.moves.len() {
        out.push(Difference::Length {
            expected: e.natures.len(),
            found: r.moves.len(),
        });
    }
    for (m, want) in r.moves.iter().zip(&e.natures) {
        let got = book.program.nature_name(m.heaviest);
        if got != want {
            out.push(Difference::Nature {
                ply: m.ply,
                mv: m.chinese.clone(),
                expected: want.clone(),
                found: got.to_string(),
            });
        }
    }
    let found = outcome_id(r.outcome);
    if found != e.outcome {
        out.push(Difference::Outcome {
            expected: e.outcome.clone(),
            found: found.to_string(),
        });
    }
    out
}
