//! Reports from game records: ratings, standings, tables, CSV, PGN and charts; and the SPRT.

pub mod charts;
pub mod export;
pub mod ratings;
pub mod report;
pub mod sprt;
