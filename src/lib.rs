//! qili rules on repetition positions in Xiangqi (棋例) the way a referee
//! does, with every rulebook edition written as a rules file.
//!
//! The crate is layered: [`board`] (positions, legal moves, perft) →
//! [`notation`] (ICCS, WXF and Chinese move notation) → [`tactics`] (the
//! board facts the rulebooks ask about: attacks, protection, mates,
//! capture exchanges) → the rules language and the judge.

pub mod board;
pub mod cli;
pub mod diagnostic;
pub mod judge;
pub mod lang;
pub mod notation;
pub mod tactics;
