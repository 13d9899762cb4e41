//! Reports from game records: ratings, standings, tables, CSV, PGN and charts.

pub mod charts;
pub mod export;
pub mod ratings;
pub mod report;
