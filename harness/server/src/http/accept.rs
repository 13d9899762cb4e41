//! The accept loop: each connection served by hyper's HTTP/1 with slow clients bounded. A
//! client has `client_timeout` to send a request's headers (also the next request's, on a
//! connection kept open), no more than that between two parts of a body, and no more than
//! that for the whole body however it is paced (crate::http::deadline); then its connection
//! is closed, or its request refused. So a crowd that opens connections and sends
//! nothing, or a byte a minute, holds each for that long and no longer, and never holds a
//! request of anyone else's. (axum::serve sets no timer, so none of these would ever end.)
//! Each request knows its peer's address (crate::http::guesses counts per address).

use std::future::Future;
use std::net::SocketAddr;
use std::time::Duration;

use axum::extract::connect_info::ConnectInfo;
use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tower_http::timeout::RequestBodyTimeout;

/// Serves `app` on `listener` until `stop` resolves, then lets the requests in flight end.
pub async fn serve(
    listener: tokio::net::TcpListener,
    app: Router,
    client_timeout: Duration,
    stop: impl Future<Output = ()>,
) {
    let app = app.layer(axum::middleware::map_request(
        move |request: axum::extract::Request| async move {
            super::deadline::bound(request, client_timeout)
        },
    ));
    let graceful = GracefulShutdown::new();
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(client_timeout);
    tokio::pin!(stop);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                // Out of file descriptors, or a connection reset before it was taken: the
                // loop goes on once some are free again.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = &mut stop => break,
        };
        let _ = stream.set_nodelay(true);
        let service = app
            .clone()
            .layer(axum::Extension(ConnectInfo::<SocketAddr>(peer)));
        let service = TowerToHyperService::new(RequestBodyTimeout::new(service, client_timeout));
        let connection = graceful.watch(http.serve_connection(TokioIo::new(stream), service));
        tokio::spawn(async move {
            // A connection that ends in an error (a timeout, a reset) ends; nothing to tell.
            let _ = connection.await;
        });
    }
    drop(listener);
    graceful.shutdown().await;
}
