//! Typed reads of one key of a map, with a located warning when the value has a
//! type that cannot be coerced (numbers as text are fine; a list where text was
//! expected is not). The odd value is kept in `other` when the caller has one.

use yaml_serde::Value;

use super::ctx::{Ctx, child, kind};
use crate::core::model::OtherFields;
use crate::core::normalize::value::{boolean, float, get, int, text, to_json};

/// Where a field is read from, and where odd values go.
pub(super) struct Fields<'a, 'p> {
    pub map: &'a Value,
    pub path: &'a [&'p str],
    pub other: Option<&'a mut OtherFields>,
}

impl<'a, 'p> Fields<'a, 'p> {
    pub fn new(map: &'a Value, path: &'a [&'p str]) -> Self {
        Self {
            map,
            path,
            other: None,
        }
    }

    pub fn keeping(mut self, other: &'a mut OtherFields) -> Self {
        self.other = Some(other);
        self
    }

    pub fn text(&mut self, ctx: &mut Ctx, key: &str) -> Option<String> {
        self.read(ctx, key, "text", text)
    }

    pub fn int(&mut self, ctx: &mut Ctx, key: &str) -> Option<i64> {
        self.read(ctx, key, "a whole number", int)
    }

    pub fn float(&mut self, ctx: &mut Ctx, key: &str) -> Option<f64> {
        self.read(ctx, key, "a number", float)
    }

    pub fn bool(&mut self, ctx: &mut Ctx, key: &str) -> Option<bool> {
        self.read(ctx, key, "true or false", boolean)
    }

    fn read<T>(
        &mut self,
        ctx: &mut Ctx,
        key: &str,
        expected: &str,
        convert: impl Fn(&Value) -> Option<T>,
    ) -> Option<T> {
        let value = get(self.map, key).filter(|v| !v.is_null())?;
        if let Some(converted) = convert(value) {
            return Some(converted);
        }
        let at = child(self.path, key);
        match self.other.as_deref_mut() {
            Some(other) => {
                ctx.wrong_type(&at, expected, value);
                ctx.keep(other, key.to_string(), value);
            }
            None => ctx.warn(
                &at,
                format!(
                    "expected {expected}, found {} ({}); ignored",
                    kind(value),
                    to_json(value)
                ),
            ),
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coerces_what_it_can_and_keeps_or_reports_the_rest() {
        let text_in = "a: 3\nb: [x]\nc: '0.5'\nd: maybe\ne: ~\n";
        let v: Value = yaml_serde::from_str(text_in).unwrap();
        let mut ctx = Ctx::new("f.yaml", text_in);
        let mut other = OtherFields::new();
        let mut f = Fields::new(&v, &[]).keeping(&mut other);
        assert_eq!(f.text(&mut ctx, "a").as_deref(), Some("3"));
        assert_eq!(f.text(&mut ctx, "b"), None);
        assert_eq!(f.float(&mut ctx, "c"), Some(0.5));
        assert_eq!(f.bool(&mut ctx, "d"), None);
        assert_eq!(f.int(&mut ctx, "e"), None);
        assert_eq!(f.int(&mut ctx, "missing"), None);
        assert_eq!(other.keys().collect::<Vec<_>>(), vec!["b", "d"]);
        assert_eq!(ctx.diagnostics.len(), 2);
        assert_eq!(ctx.diagnostics[0].line, Some(2));

        let mut f = Fields::new(&v, &["m"]);
        assert_eq!(f.int(&mut ctx, "d"), None);
        assert!(
            ctx.diagnostics[2]
                .message
                .contains("m.d: expected a whole number, found a string")
        );
    }
}
