//! The rules language: a rulebook edition as a text file.
//!
//! The phases are kept apart, each with its own module and errors:
//! [`mod@parse`] (text → [`ast::Rulebook`], syntax errors), then resolution of
//! `extends` into one flat rulebook with a lineage per clause, then the
//! static checks; the judge evaluates the result against the board.

pub mod ast;
pub mod check;
pub mod diff;
pub mod fmt;
pub mod parse;
pub mod primitives;
pub mod resolve;
pub mod sexpr;
pub mod suggest;

pub use ast::Rulebook;
pub use parse::{parse, Source, SyntaxError};
