//! Schema helper for fields the design always writes but whose value may be `null`.
//!
//! schemars makes an `Option` field optional, and `#[schemars(required)]` makes it
//! non-nullable. Annotate such a field `#[schemars(with = "Nullable<T>")]` to get
//! "required, `T` or `null`" while the Rust type stays `Option<T>`.

use std::borrow::Cow;
use std::marker::PhantomData;

use schemars::{JsonSchema, Schema, SchemaGenerator};

pub struct Nullable<T>(PhantomData<T>);

impl<T: JsonSchema> JsonSchema for Nullable<T> {
    fn schema_name() -> Cow<'static, str> {
        format!("Nullable_{}", T::schema_name()).into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        <Option<T>>::json_schema(generator)
    }
}
