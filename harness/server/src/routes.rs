//! The server's one router: the API's calls (crate::http) and the pages (crate::pages), each a
//! front end over the same state, under the layers every answer passes: the body limit, the
//! guard against token guessing, the headers (nosniff, CSP, referrer policy) and the log's
//! request lines.

use axum::extract::DefaultBodyLimit;
use axum::http::{header, HeaderValue, StatusCode};
use axum::Router;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::trace::{DefaultOnResponse, TraceLayer};

use crate::domain::App;
use crate::http;
use crate::{pages, ApiError};

pub fn router(app: App) -> Router {
    let limit = app.0.config.limits.upload_bytes as usize + http::versions::MULTIPART_ROOM;
    // With no event, only the play page and its API.
    let routes = if app.0.config.play_only {
        http::play_api(pages::play_routes())
    } else {
        http::api(pages::routes())
    };
    routes
        .fallback(|| async { ApiError::new(StatusCode::NOT_FOUND, "no such page") })
        .method_not_allowed_fallback(|| async {
            ApiError::new(
                StatusCode::METHOD_NOT_ALLOWED,
                "this address does not take that method (docs/server.md lists the API)",
            )
        })
        .layer(DefaultBodyLimit::max(limit))
        .layer(axum::middleware::from_fn_with_state(
            http::guesses::Guard {
                limit: app.0.config.guesses,
                guesses: std::sync::Arc::default(),
            },
            http::guesses::guard,
        ))
        .layer(axum::middleware::from_fn_with_state(
            http::starts::Guard {
                limit: app.0.config.play_starts,
                starts: std::sync::Arc::default(),
            },
            http::starts::guard,
        ))
        // Every answer: no sniffing (a bot's log is text, never a page), and the pages' CSP
        // unless the answer has its own (the final report's).
        .layer(SetResponseHeaderLayer::overriding(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(pages::CSP),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::REFERRER_POLICY,
            HeaderValue::from_static("same-origin"),
        ))
        // A line per request at level debug: its method, its path (never the query, which may
        // hold an invite), the status and the time taken.
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(|req: &axum::http::Request<_>| {
                    tracing::debug_span!(
                        "request",
                        method = %req.method(),
                        path = %req.uri().path()
                    )
                })
                .on_request(())
                .on_response(DefaultOnResponse::new().level(tracing::Level::DEBUG)),
        )
        .with_state(app)
}
