//! Reports from game records: ratings, standings, tables, CSV, PGN and charts, the
//! self-contained `report.html` with every game as a replay; and the SPRT.

pub mod charts;
pub mod export;
pub mod html;
pub mod numbers;
pub mod ratings;
pub mod report;
pub mod sprt;
