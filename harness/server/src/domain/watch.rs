//! Matches watched as they are played (crate::ladder::live keeps them): one match followed to
//! its end, or "whatever is played now", one match chosen among the closest-rated pairs and,
//! once it ends, the next. A watcher is given [`Frame`]s through a channel, and is let go when
//! it stops reading (the channel closes).

use std::time::Duration;

use tokio::sync::mpsc::Sender;

use super::{board, App, DomainError};
use crate::ladder::live::{Frame, Running};

/// How long a match may stay silent while followed before it is looked for again (its worker
/// may have died: its lease runs out and the match is played again).
const SILENCE: Duration = Duration::from_secs(30);

/// How a following ended.
#[derive(Debug, PartialEq, Eq)]
enum Followed {
    /// The match is over (its `End` was sent).
    Over,
    /// Nothing was heard for a while, or another try of the match began: look again.
    Again,
    /// The watcher left.
    Gone,
}

/// Match `id`, from how it stands now to its end: `Ok(false)` if there is no such match. A
/// match over, or over before it is followed, ends with its `End`; one queued waits to be
/// played.
pub async fn follow(app: &App, id: i64, to: Sender<Frame>) -> Result<bool, DomainError> {
    if app.0.store.match_row(id).await?.is_none() {
        return Ok(false);
    }
    watcher(app, {
        let app = app.clone();
        async move {
            loop {
                let mut begun = app.0.live.begun();
                begun.borrow_and_update();
                match follow_one(&app, id, &to).await {
                    Followed::Over | Followed::Gone => return,
                    Followed::Again if app.0.live.watch(id).is_some() => continue,
                    Followed::Again => {}
                }
                // Not played now: over (its state told), or waiting to be played.
                let state = match app.0.store.match_row(id).await {
                    Ok(Some(row)) => row.state,
                    _ => return,
                };
                if !matches!(state.as_str(), "queued" | "running") {
                    let _ = to.send(Frame::End { id, state }).await;
                    return;
                }
                tokio::select! {
                    _ = begun.changed() => {}
                    () = tokio::time::sleep(SILENCE) => {}
                    () = to.closed() => return,
                }
            }
        }
    });
    Ok(true)
}

/// One match being played now, chosen among the closest-rated pairs, followed to its end; then
/// the next, for as long as the watcher stays.
pub fn follow_now(app: &App, to: Sender<Frame>) {
    let app_ = app.clone();
    watcher(app, async move {
        let app = app_;
        loop {
            let mut begun = app.0.live.begun();
            begun.borrow_and_update();
            if let Some(id) = chosen(&app).await {
                if follow_one(&app, id, &to).await == Followed::Gone {
                    return;
                }
                continue;
            }
            tokio::select! {
                _ = begun.changed() => {}
                () = tokio::time::sleep(SILENCE) => {}
                () = to.closed() => return,
            }
        }
    });
}

/// A watcher's task: it ends with the server's stop, which it would otherwise hold.
fn watcher(app: &App, watching: impl std::future::Future<Output = ()> + Send + 'static) {
    let app = app.clone();
    tokio::spawn(async move {
        tokio::select! {
            () = watching => {}
            () = app.0.live.closing() => {}
        }
    });
}

/// The match to show now: of those heard from lately, the pair closest in rating (an entrant
/// not yet rated counts as 0, the ratings' centre), the oldest match among equals.
pub async fn chosen(app: &App) -> Option<i64> {
    let running: Vec<Running> = app
        .0
        .live
        .running()
        .into_iter()
        .filter(|r| r.heard.elapsed() < SILENCE)
        .collect();
    if running.len() < 2 {
        return running.first().map(|r| r.id);
    }
    let board = board(app).await.ok()?;
    let rating = |name: &str| {
        board
            .standings
            .rows
            .iter()
            .find(|row| row.name == name)
            .and_then(|row| row.elo)
            .unwrap_or(0.0)
    };
    running
        .iter()
        .map(|r| {
            let gap = (rating(&r.names.first) - rating(&r.names.second)).abs();
            (gap, r.id)
        })
        .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)))
        .map(|(_, id)| id)
}

/// Match `id` as it stands and then as it is played, until it ends (`Over`), goes quiet or is
/// begun again (`Again`), or the watcher leaves (`Gone`). A watcher too slow to keep up is
/// let go; it comes back to the match as it then stands.
async fn follow_one(app: &App, id: i64, to: &Sender<Frame>) -> Followed {
    let Some((now, mut next)) = app.0.live.watch(id) else {
        return Followed::Again;
    };
    for frame in now {
        if to.send(frame).await.is_err() {
            return Followed::Gone;
        }
    }
    loop {
        let frame = tokio::select! {
            frame = next.recv() => frame,
            () = tokio::time::sleep(SILENCE) => return Followed::Again,
            () = to.closed() => return Followed::Gone,
        };
        let frame = match frame {
            Ok(frame) => frame,
            Err(tokio::sync::broadcast::error::RecvError::Closed) => return Followed::Again,
            Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => return Followed::Gone,
        };
        let over = matches!(frame, Frame::End { .. });
        if to.send(frame).await.is_err() {
            return Followed::Gone;
        }
        if over {
            return Followed::Over;
        }
    }
}
