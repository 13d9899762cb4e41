//! A run and its results folder: what every front end (the `quads` binary today, the Python
//! package and the competition server next) does with a tournament, a match, an SPRT, a
//! ladder, shards, ratings and an analysis, and every file it leaves in the folder.
//!
//! A front end parses its arguments, calls one function here per command, and shows the
//! [`Event`]s it is sent: this crate prints nothing. The file names are
//! [`quads_record::files`]'s and the report's; what each file holds is in ARCHITECTURE.md.

mod error;
mod events;
pub mod folder;
pub mod judge;
pub mod matches;
pub mod merging;
pub mod page;
pub mod rating;
pub mod signals;
pub mod sprt;
pub mod tournament;
pub mod walls;

pub use error::ResultsError;
pub use events::{Event, Sink};
