//! The library's error type. Only `main.rs` turns these into reports.

use crate::core::model::Diagnostic;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    /// Input that could not be parsed, located at file:line:col.
    #[error("{0}")]
    Invalid(Diagnostic),
    /// The command line named something that does not exist or is ambiguous.
    #[error("{0}")]
    Usage(String),
    /// A project name that matches several projects (exit code 2); the message
    /// lists them.
    #[error("{0}")]
    Ambiguous(String),
    /// A write was refused or failed; the file is unchanged (`io::write`).
    #[error(transparent)]
    Write(#[from] crate::io::write::WriteError),
}

impl Error {
    pub fn io(path: impl std::fmt::Display, source: std::io::Error) -> Self {
        Error::Io {
            path: path.to_string(),
            source,
        }
    }
}

impl From<crate::core::workspace::LookupError> for Error {
    fn from(e: crate::core::workspace::LookupError) -> Self {
        match e {
            crate::core::workspace::LookupError::Ambiguous { .. } => {
                Error::Ambiguous(e.to_string())
            }
            crate::core::workspace::LookupError::NotFound { .. } => Error::Usage(e.to_string()),
        }
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;
