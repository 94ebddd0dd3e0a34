//! Query strings read into typed parameters the way JSON bodies are (`extract::JsonBody`):
//! an integer parameter accepts any number JSON Schema calls an integer (`5`, `5.0`,
//! `1e3`), since the OpenAPI document types it as one, and every failure names its field.
//! serde_urlencoded, behind `axum::extract::Query`, takes only digits and words its
//! errors as plain text.

use serde::de::value::{Error, MapDeserializer};
use serde::de::{self, DeserializeOwned, IntoDeserializer, Visitor};
use serde::forward_to_deserialize_any;

/// Why a query string was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// Not of the parameter's type; serde's words.
    Invalid(String),
    /// A name or value holds U+0000 (`%00`), which PostgreSQL cannot store or compare:
    /// refused for every parameter, known or not, on both engines.
    NulCharacter,
}

/// `T` from a query string (without the `?`): `Err((field, why))`, the field `query` when
/// the failure concerns no one parameter (a required one missing).
pub fn from_query<T: DeserializeOwned>(query: &str) -> Result<T, (String, Fault)> {
    let pairs: Vec<(String, Parameter)> = url::form_urlencoded::parse(query.as_bytes())
        .map(|(name, value)| (name.into_owned(), Parameter(value.into_owned())))
        .collect();
    if let Some((name, _)) = pairs.iter().find(|(name, value)| name.contains('\0') || value.0.contains('\0')) {
        return Err((name.replace('\0', "\\u0000"), Fault::NulCharacter));
    }
    let deserializer = MapDeserializer::<_, Error>::new(pairs.into_iter());
    serde_path_to_error::deserialize(deserializer).map_err(|error| {
        let path = error.path().to_string();
        let field = if path == "." { "query".to_string() } else { path };
        (field, Fault::Invalid(error.into_inner().to_string()))
    })
}

/// One parameter's text.
struct Parameter(String);

impl<'de> IntoDeserializer<'de, Error> for Parameter {
    type Deserializer = Self;

    fn into_deserializer(self) -> Self {
        self
    }
}

/// An integer as JSON Schema counts one: digits, or a whole number written as a decimal
/// or with an exponent, strictly inside i64's range (as `extract::whole_numbers_as_integers`).
/// Multipart text parts typed as integers are read with it too.
pub fn integer(text: &str) -> Option<i64> {
    if let Ok(value) = text.parse::<i64>() {
        return Some(value);
    }
    let float = text.parse::<f64>().ok().filter(|float| float.is_finite() && float.fract() == 0.0)?;
    (float > i64::MIN as f64 && float < i64::MAX as f64).then_some(float as i64)
}

impl Parameter {
    fn integer<'de, V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match integer(&self.0) {
            Some(value) => visitor.visit_i64(value),
            None => Err(de::Error::invalid_type(de::Unexpected::Str(&self.0), &"an integer")),
        }
    }
}

impl<'de> de::Deserializer<'de> for Parameter {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_string(self.0)
    }

    /// A parameter that is present is `Some`, even when empty (blank means "none" to the
    /// handlers that allow it, as in JSON bodies).
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_some(self)
    }

    fn deserialize_i8<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.integer(visitor)
    }
    fn deserialize_i16<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.integer(visitor)
    }
    fn deserialize_i32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.integer(visitor)
    }
    fn deserialize_i64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.integer(visitor)
    }
    fn deserialize_u8<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.integer(visitor)
    }
    fn deserialize_u16<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.integer(visitor)
    }
    fn deserialize_u32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.integer(visitor)
    }
    fn deserialize_u64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.integer(visitor)
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0.as_str() {
            "true" => visitor.visit_bool(true),
            "false" => visitor.visit_bool(false),
            other => Err(de::Error::invalid_type(de::Unexpected::Str(other), &"true or false")),
        }
    }

    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0.parse::<f64>() {
            Ok(value) if value.is_finite() => visitor.visit_f64(value),
            _ => Err(de::Error::invalid_type(de::Unexpected::Str(&self.0), &"a number")),
        }
    }
    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_f64(visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        visitor.visit_enum(self.0.into_deserializer())
    }

    forward_to_deserialize_any! {
        i128 u128 char str string bytes byte_buf unit unit_struct newtype_struct seq tuple tuple_struct map
        struct identifier ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    struct Sample {
        id: i64,
        page: Option<i32>,
        name: Option<String>,
        on: Option<bool>,
    }

    #[test]
    fn integers_are_what_json_schema_calls_integers() {
        let sample: Sample = from_query("id=-787010.0&page=1e3&name=5.0").unwrap();
        assert_eq!((sample.id, sample.page, sample.name.as_deref()), (-787_010, Some(1000), Some("5.0")));
        assert_eq!(from_query::<Sample>("id=9223372036854775807").unwrap().id, i64::MAX);
        for bad in ["id=1.5", "id=x", "id=inf", "id=NaN", "id=1e19", "id=1&page=3000000000"] {
            let (field, _) = from_query::<Sample>(bad).unwrap_err();
            assert!(field == "id" || field == "page", "{bad}: {field}");
        }
    }

    #[test]
    fn failures_name_their_field() {
        assert_eq!(from_query::<Sample>("").unwrap_err().0, "query", "a required one missing");
        let (field, why) = from_query::<Sample>("id=1&name=a&name=b").unwrap_err();
        assert_eq!(field, "query", "{why:?}");
        assert!(matches!(&why, Fault::Invalid(text) if text.contains("duplicate field `name`")), "{why:?}");
        assert_eq!(from_query::<Sample>("id=1&on=yes").unwrap_err().0, "on");
    }

    #[test]
    fn a_nul_in_any_parameter_is_refused_naming_it() {
        let nul = |query: &str| from_query::<Sample>(query).unwrap_err();
        assert_eq!(nul("id=1&name=a%00b"), ("name".to_string(), Fault::NulCharacter));
        assert_eq!(nul("id=%00"), ("id".to_string(), Fault::NulCharacter));
        assert_eq!(nul("id=1&unknown=%00"), ("unknown".to_string(), Fault::NulCharacter));
        assert_eq!(nul("id=1&na%00me=x"), ("na\\u0000me".to_string(), Fault::NulCharacter));
        assert!(from_query::<Sample>("id=1&name=%01%7F").is_ok());
    }

    #[test]
    fn present_parameters_are_some_and_text_is_decoded() {
        let sample: Sample = from_query("id=1&name=&on=true&other=ignored").unwrap();
        assert_eq!((sample.name.as_deref(), sample.on, sample.page), (Some(""), Some(true), None));
        let sample: Sample = from_query("id=1&name=a%20b+c").unwrap();
        assert_eq!(sample.name.as_deref(), Some("a b c"));
    }
}
