use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warning,
    Error,
}

/// A problem found while reading a file: where it is and what to do about it.
/// `file` is relative to the workspace root; `line`/`column` are 1-based.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Diagnostic {
    pub severity: Severity,
    pub file: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
    pub message: String,
}

impl Diagnostic {
    pub fn warning(file: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(Severity::Warning, file, message)
    }

    pub fn error(file: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(Severity::Error, file, message)
    }

    pub fn info(file: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(Severity::Info, file, message)
    }

    fn new(severity: Severity, file: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            severity,
            file: file.into(),
            line: None,
            column: None,
            message: message.into(),
        }
    }

    pub fn at(mut self, line: usize, column: usize) -> Self {
        self.line = Some(line);
        self.column = Some(column);
        self
    }
}

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let level = match self.severity {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        };
        write!(f, "{}", self.file)?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
            if let Some(column) = self.column {
                write!(f, ":{column}")?;
            }
        }
        write!(f, ": {level}: {}", self.message)
    }
}
