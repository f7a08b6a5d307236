//! Generators (coming).
