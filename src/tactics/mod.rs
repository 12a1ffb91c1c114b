//! The board facts the rulebooks ask about.
