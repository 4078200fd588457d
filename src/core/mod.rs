//! Pure domain logic: no files, no terminal, no clock, no environment.
//! Everything here takes its inputs as values (text, timestamps, settings).

pub mod dropped;
pub mod edit;
pub mod fill;
pub mod invisible;
pub mod launch;
pub mod locate;
pub mod migrate;
pub mod model;
pub mod normalize;
pub mod precompact;
pub mod redact;
pub mod render;
pub mod session_fill;
pub mod staleness;
pub mod text;
pub mod time;
pub mod timeline;
pub mod trajectory;
pub mod urgency;
pub mod wire;
pub mod workspace;
pub mod yaml;
