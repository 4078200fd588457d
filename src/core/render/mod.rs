//! Pure renderers of the injected and copied texts.
