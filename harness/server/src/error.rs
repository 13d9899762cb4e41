//! The server's errors: one that stops it from starting (`ServerError`), and one an API call
//! answers with (`ApiError`: a status and a one-line JSON body, `{"error": "..."}`), made
//! from the domain's (crate::domain::DomainError) by its kind.

use std::net::SocketAddr;
use std::path::PathBuf;

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use crate::domain::play::Refusal;
use crate::domain::DomainError;
use crate::store::StoreError;

/// Why the server cannot start or stopped.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ServerError {
    /// The config cannot be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The config is wrong.
    #[error("{}: {why}", path.display())]
    Config {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        why: String,
    },
    /// The data folder cannot be made.
    #[error("cannot create {}: {source}", path.display())]
    Data {
        /// The folder.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The database cannot be opened or migrated.
    #[error("database {url}: {why}")]
    Database {
        /// Its URL.
        url: String,
        /// What went wrong.
        why: String,
    },
    /// The address cannot be bound.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The demo's entrants cannot be seeded.
    #[error("{why}")]
    Demo {
        /// Why.
        why: String,
    },
}

/// An API call's refusal or failure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// One line.
    pub message: String,
    /// For a 429: the seconds after which the same call may succeed (`Retry-After`).
    pub retry_after: Option<u64>,
}

impl ApiError {
    /// An error with `status` and `message`.
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
            retry_after: None,
        }
    }

    /// 429 with `Retry-After: seconds`.
    pub fn too_many(message: impl Into<String>, seconds: u64) -> ApiError {
        ApiError {
            retry_after: Some(seconds.max(1)),
            ..ApiError::new(StatusCode::TOO_MANY_REQUESTS, message)
        }
    }

    /// 400.
    pub fn bad(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    /// 500, for a failure of the server's own (its database, its disk): logged, not shown.
    pub fn internal(what: impl std::fmt::Display) -> ApiError {
        tracing::error!(error = %what, "the server failed");
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the server failed; the host's log says why",
        )
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.message });
        let mut response = (self.status, axum::Json(body)).into_response();
        if let Some(seconds) = self.retry_after {
            response.headers_mut().insert(
                axum::http::header::RETRY_AFTER,
                axum::http::HeaderValue::from(seconds),
            );
        }
        response
    }
}

impl From<DomainError> for ApiError {
    fn from(e: DomainError) -> ApiError {
        let status = match &e {
            DomainError::Unknown(_) => StatusCode::UNAUTHORIZED,
            DomainError::Forbidden(_) => StatusCode::FORBIDDEN,
            DomainError::NotFound(_) => StatusCode::NOT_FOUND,
            DomainError::Conflict(_) => StatusCode::CONFLICT,
            DomainError::Invalid(_) => StatusCode::BAD_REQUEST,
            DomainError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            DomainError::Unacceptable(_) => StatusCode::UNPROCESSABLE_ENTITY,
            DomainError::Refused(r) => match r {
                Refusal::Unreadable { .. } | Refusal::NothingChosen => StatusCode::BAD_REQUEST,
                Refusal::Illegal(..) => StatusCode::UNPROCESSABLE_ENTITY,
                Refusal::Over | Refusal::NotYours | Refusal::MovedOn => StatusCode::CONFLICT,
            },
            DomainError::TooOften {
                message,
                retry_after,
            } => return ApiError::too_many(message.clone(), *retry_after),
            DomainError::Failed(what) => return ApiError::internal(what),
        };
        ApiError::new(status, e.to_string())
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> ApiError {
        DomainError::from(e).into()
    }
}
