use std::process::ExitCode;

use crate::config::Error;

/// driftwood's exit codes; documented in docs/src/exit-codes.md.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Exit {
    Clean = 0,
    Drift = 1,
    Usage = 2,
    Connection = 3,
    Internal = 70,
}

impl From<&Error> for Exit {
    fn from(err: &Error) -> Self {
        match err {
            Error::Config(_) => Exit::Usage,
            Error::Connect(_) => Exit::Connection,
            Error::Io(_) => Exit::Internal,
        }
    }
}

impl From<Exit> for ExitCode {
    fn from(e: Exit) -> Self {
        ExitCode::from(e as u8)
    }
}
