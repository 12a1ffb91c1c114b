//! The board primitives a rules file can call (being written).
