//! Move notations: ICCS coordinates, WXF and Chinese, read and written.
