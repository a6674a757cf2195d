//! Evolution adapter of `bson` ([`crate::evolution`]): a newer writer adds
//! an element `future` (int64) to the event document.

use crate::codec::evolution::{
    AdapterError, Backward, Evolution, Extension, FUTURE_KEY, FUTURE_VALUE,
};
use crate::model::Event;

pub(crate) struct Adapter;
pub(crate) const ADAPTER: Adapter = Adapter;

impl Evolution for Adapter {
    fn field_mechanism(&self) -> &'static str {
        "an extra int64 element `future` = 42 before the document's terminating `00`, the document length grown to match (bsonspec.org 1.1: a document is a length, elements, `00`)"
    }

    fn with_field(&self, _: &Event, base: &[u8]) -> Result<Extension, AdapterError> {
        let Some((&0, body)) = base.split_last() else {
            return Err(AdapterError::layout("the document must end with `00`"));
        };
        let declared = body
            .get(..4)
            .map(|b| u32::from_le_bytes(b.try_into().expect("4 bytes")) as usize);
        if declared != Some(base.len()) {
            return Err(AdapterError::layout(
                "the declared length must be the document's",
            ));
        }
        let mut element = vec![0x12];
        element.extend_from_slice(FUTURE_KEY.as_bytes());
        element.push(0);
        element.extend_from_slice(&(FUTURE_VALUE as i64).to_le_bytes());
        let mut bytes = body.to_vec();
        bytes.extend_from_slice(&element);
        bytes.push(0);
        let len = u32::try_from(bytes.len()).map_err(|_| AdapterError::layout("too long"))?;
        bytes[..4].copy_from_slice(&len.to_le_bytes());
        Ok(Extension { bytes })
    }

    fn backward(&self, _: &Event, _: &[u8]) -> Backward {
        Backward::ByConstruction(
            "bsonspec.org 1.1: elements are looked up by name, so a newer reader that treats `future` as optional finds it absent in an old document; not executed: our reader is the crate's raw document API, with no serde struct to extend",
        )
    }
}
