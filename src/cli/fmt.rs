//! `qili fmt`: rewrites rules files in the canonical layout, or, with
//! `--check`, only says which ones are not (for CI).
//!
//! A file is rewritten only if its text changes, through a temporary file
//! in the same directory renamed over it, so an interrupted run leaves
//! either the old text or the new, never half of one. Every file is
//! tried; the errors of all of them are reported together at the end.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use miette::{Diagnostic, Result};

use super::emit;
use crate::lang::fmt::{format_source, FmtError};
use crate::lang::Source;

#[derive(Debug, clap::Args)]
pub struct FmtArgs {
    /// The rules files to format.
    #[arg(required = true, num_args = 1..)]
    pub files: Vec<PathBuf>,
    /// Write nothing: list the files not in the canonical layout, and fail
    /// if there are any.
    #[arg(long)]
    pub check: bool,
}

/// What became of one file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    Unchanged,
    Formatted,
    WouldReformat,
}

/// Why one file could not be formatted.
#[derive(Debug, thiserror::Error, Diagnostic)]
enum FileError {
    #[error("cannot read {path}")]
    #[diagnostic(code(qili::fmt::read))]
    Read { path: String, source: io::Error },
    #[error("cannot write {path}")]
    #[diagnostic(code(qili::fmt::write), help("the file was left as it was"))]
    Write { path: String, source: io::Error },
    #[error(transparent)]
    #[diagnostic(transparent)]
    Format(FmtError),
}

/// The end of a run that did not go through: every file's error, and how
/// many files `--check` found out of layout.
#[derive(Debug, thiserror::Error, Diagnostic)]
#[error("{message}")]
#[diagnostic(code(qili::fmt::failed))]
struct Failed {
    message: String,
    #[related]
    errors: Vec<FileError>,
}

/// `--check` found files out of layout (and nothing worse).
#[derive(Debug, thiserror::Error, Diagnostic)]
#[error("{count} of {total} rules files would be reformatted")]
#[diagnostic(
    code(qili::fmt::check),
    help("run `qili fmt` without `--check` to rewrite them")
)]
struct NotFormatted {
    count: usize,
    total: usize,
}

/// Formats (or checks) every file given, printing one line per file:
/// `formatted <file>` / `unchanged <file>`, or with `--check`
/// `would reformat <file>` for each file that is not canonical.
pub fn run(args: &FmtArgs, out: &mut dyn Write) -> Result<()> {
    let mut errors = Vec::new();
    let mut would_reformat = 0;
    for path in &args.files {
        let line = match fmt_file(path, args.check) {
            Ok(Outcome::Unchanged) if args.check => continue,
            Ok(Outcome::Unchanged) => "unchanged",
            Ok(Outcome::Formatted) => "formatted",
            Ok(Outcome::WouldReformat) => {
                would_reformat += 1;
                "would reformat"
            }
            Err(e) => {
                errors.push(e);
                continue;
            }
        };
        emit(out, &format!("{line} {}\n", path.display()))?;
    }
    outcome(errors, would_reformat, args.files.len())
}

/// One report for the whole run: the error itself when one file failed,
/// all of them as related diagnostics when several did.
fn outcome(mut errors: Vec<FileError>, would_reformat: usize, total: usize) -> Result<()> {
    if errors.is_empty() {
        return match would_reformat {
            0 => Ok(()),
            count => Err(NotFormatted { count, total }.into()),
        };
    }
    if errors.len() == 1 && would_reformat == 0 {
        if let Some(e) = errors.pop() {
            return Err(e.into());
        }
    }
    let mut message = format!(
        "{} of {total} rules files could not be formatted",
        errors.len()
    );
    if would_reformat > 0 {
        message.push_str(&format!("; {would_reformat} would be reformatted"));
    }
    Err(Failed { message, errors }.into())
}

/// Formats one file; with `check`, only compares.
fn fmt_file(path: &Path, check: bool) -> std::result::Result<Outcome, FileError> {
    let name = path.display().to_string();
    let text = fs::read_to_string(path).map_err(|source| FileError::Read {
        path: name.clone(),
        source,
    })?;
    let formatted =
        format_source(&Source::new(name.clone(), text.clone())).map_err(FileError::Format)?;
    if formatted == text {
        return Ok(Outcome::Unchanged);
    }
    if check {
        return Ok(Outcome::WouldReformat);
    }
    replace(path, &formatted).map_err(|source| FileError::Write { path: name, source })?;
    Ok(Outcome::Formatted)
}

/// Replaces a file's text: write a temporary file beside it, flush it to
/// disk, give it the file's permissions, then rename it over the file (a
/// rename within a directory is atomic). On failure the temporary file is
/// removed and the file is untouched.
fn replace(path: &Path, text: &str) -> io::Result<()> {
    let tmp = temporary_beside(path);
    let written = write_new(&tmp, path, text).and_then(|()| fs::rename(&tmp, path));
    if written.is_err() {
        // Best effort: the error that matters is the one being returned.
        let _ = fs::remove_file(&tmp);
    }
    written
}

fn write_new(tmp: &Path, original: &Path, text: &str) -> io::Result<()> {
    let mut file = fs::File::create(tmp)?;
    file.write_all(text.as_bytes())?;
    file.sync_all()?;
    let permissions = fs::metadata(original)?.permissions();
    fs::set_permissions(tmp, permissions)
}

/// `dir/.name.qili-fmt-<pid>.tmp`: in the same directory (so the rename
/// does not cross file systems), hidden, and not clashing with another run.
fn temporary_beside(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    path.with_file_name(format!(".{name}.qili-fmt-{}.tmp", std::process::id()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const MESSY: &str = "edition \"x\" {year 1}  define a=1;define b = not(a)\n";
    const TIDY: &str = "edition \"x\" {\n  year 1\n}\n\ndefine a = 1\n\ndefine b = not a\n";

    /// A fresh directory for one test.
    fn scratch(test: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("qili-fmt-{test}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn run_on(files: &[&Path], check: bool) -> (Result<()>, String) {
        let args = FmtArgs {
            files: files.iter().map(|p| p.to_path_buf()).collect(),
            check,
        };
        let mut out = Vec::new();
        let r = run(&args, &mut out);
        (r, String::from_utf8(out).unwrap())
    }

    #[test]
    fn rewrites_only_what_changes_and_leaves_no_temporary_file() {
        let dir = scratch("rewrite");
        let messy = dir.join("messy.qili");
        let tidy = dir.join("tidy.qili");
        fs::write(&messy, MESSY).unwrap();
        fs::write(&tidy, TIDY).unwrap();
        let (r, out) = run_on(&[&messy, &tidy], false);
        assert!(r.is_ok(), "{r:?}");
        assert_eq!(
            out,
            format!(
                "formatted {}\nunchanged {}\n",
                messy.display(),
                tidy.display()
            )
        );
        assert_eq!(fs::read_to_string(&messy).unwrap(), TIDY);
        assert_eq!(
            fs::read_dir(&dir).unwrap().count(),
            2,
            "a temporary file was left behind"
        );
    }

    #[test]
    fn check_writes_nothing_and_fails_on_files_out_of_layout() {
        let dir = scratch("check");
        let messy = dir.join("messy.qili");
        let tidy = dir.join("tidy.qili");
        fs::write(&messy, MESSY).unwrap();
        fs::write(&tidy, TIDY).unwrap();
        let (r, out) = run_on(&[&messy, &tidy], true);
        assert_eq!(out, format!("would reformat {}\n", messy.display()));
        let err = r.unwrap_err();
        assert_eq!(
            err.code().map(|c| c.to_string()).as_deref(),
            Some("qili::fmt::check")
        );
        assert_eq!(fs::read_to_string(&messy).unwrap(), MESSY);
        let (r, _) = run_on(&[&tidy], true);
        assert!(r.is_ok());
    }

    #[test]
    fn every_file_is_tried_and_every_error_reported() {
        let dir = scratch("errors");
        let broken = dir.join("broken.qili");
        let missing = dir.join("missing.qili");
        let messy = dir.join("messy.qili");
        fs::write(&broken, "edition \"x\" { year }").unwrap();
        fs::write(&messy, MESSY).unwrap();
        let (r, out) = run_on(&[&broken, &missing, &messy], false);
        assert_eq!(out, format!("formatted {}\n", messy.display()));
        let err = r.unwrap_err();
        assert_eq!(
            err.code().map(|c| c.to_string()).as_deref(),
            Some("qili::fmt::failed")
        );
        let codes: Vec<String> = err
            .related()
            .into_iter()
            .flatten()
            .filter_map(|d| d.code().map(|c| c.to_string()))
            .collect();
        assert_eq!(codes, ["qili::fmt::syntax", "qili::fmt::read"]);
        assert_eq!(
            fs::read_to_string(&broken).unwrap(),
            "edition \"x\" { year }"
        );
    }
}
