//! The canonical formatter (being written).
