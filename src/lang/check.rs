//! Static checks of a resolved rulebook (being written).
