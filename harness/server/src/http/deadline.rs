//! A request's whole body within `client_timeout` of its headers, however it is paced. hyper's
//! timer bounds the headers, and tower-http's `RequestBodyTimeout` bounds the wait for each
//! part of a body, which a client sending a byte every few seconds renews forever; this bounds
//! the sum. A body read past its deadline ends in [`TooSlow`], which the API answers with 408.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::Body;
use axum::extract::Request;
use bytes::Bytes;
use http_body::{Frame, SizeHint};

/// Why a body was cut off: its deadline passed.
#[derive(Debug, thiserror::Error)]
#[error("the request's body was not all sent within {0:?} of its headers")]
pub struct TooSlow(pub Duration);

/// A body that fails once `deadline` passes.
struct Bounded {
    inner: Body,
    limit: Duration,
    deadline: Pin<Box<tokio::time::Sleep>>,
}

impl http_body::Body for Bounded {
    type Data = Bytes;
    type Error = axum::BoxError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        if self.deadline.as_mut().poll(cx).is_ready() {
            return Poll::Ready(Some(Err(Box::new(TooSlow(self.limit)))));
        }
        Pin::new(&mut self.inner)
            .poll_frame(cx)
            .map_err(axum::BoxError::from)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// The request with its body bounded to `limit` from now (its headers just read).
pub fn bound(request: Request, limit: Duration) -> Request {
    let (parts, inner) = request.into_parts();
    let body = Bounded {
        inner,
        limit,
        deadline: Box::pin(tokio::time::sleep(limit)),
    };
    Request::from_parts(parts, Body::new(body))
}

/// Whether `error`, or an error under it, is a body's deadline passing.
pub fn too_slow(error: &(dyn std::error::Error + 'static)) -> bool {
    let mut at = Some(error);
    while let Some(e) = at {
        if e.is::<TooSlow>() {
            return true;
        }
        at = e.source();
    }
    false
}

/// The answer to a request whose body was not all sent in time.
pub fn refusal() -> crate::ApiError {
    crate::ApiError::new(
        axum::http::StatusCode::REQUEST_TIMEOUT,
        "the body was not all sent within the server's client_timeout",
    )
}
