//! A profile's entry points checked against each other on one input: what
//! the fuzz target (`fuzz/`) asserts on every input, and what the reproducer
//! tests of its crashes (`tests/fuzz_crashes.rs`) replay.
//!
//! - an event `decode` accepts re-encodes and decodes back to itself;
//! - `decode_ref` accepts exactly what `decode` accepts, as the same event;
//! - `kind_and_pubkey` answers the decoded event's kind and pubkey (it may
//!   accept more: a preverified read checks only its prefix);
//! - every event of an accepted native batch round-trips on its own.

use crate::codec::{DecodeError, Limits, Profile};
use crate::model::Event;

/// Two entry points of one profile that disagree on the same input.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{profile}: {entry_point}: {detail}")]
pub struct Disagreement {
    /// The profile id.
    pub profile: &'static str,
    /// The entry point whose answer is wrong.
    pub entry_point: &'static str,
    /// What it answered, against what.
    pub detail: String,
}

/// Runs every entry point `p` has on `data` and checks them against each other.
pub fn check(p: &Profile, data: &[u8]) -> Result<(), Disagreement> {
    let fail = |entry_point, detail: String| Disagreement {
        profile: p.id,
        entry_point,
        detail,
    };
    let limits = Limits::default();
    let owned = p.codec.decode(data, &limits);
    if let Ok(event) = &owned {
        round_trip(p, event).map_err(|d| fail("decode", d.to_string()))?;
    }
    if let Some(view) = p.codec.borrowed() {
        let viewed = view.decode_ref(data, &limits).map(|r| r.to_owned_event());
        let differs = match (&owned, &viewed) {
            (Ok(a), Ok(b)) => (a != b).then(|| format!("{b:?}, decode gave {a:?}")),
            (Ok(_), Err(e)) => Some(format!("refused ({e}), decode accepted")),
            (Err(e), Ok(_)) => Some(format!("accepted, decode refused ({e})")),
            (Err(_), Err(_)) => None,
        };
        if let Some(detail) = differs {
            return Err(fail("decode_ref", detail));
        }
        if let Ok(event) = &owned {
            let selected = view.kind_and_pubkey(data, &limits);
            if selected.as_ref() != Ok(&(event.kind, event.pubkey)) {
                return Err(fail(
                    "kind_and_pubkey",
                    format!("{selected:?}, decode gave kind {}", event.kind),
                ));
            }
        }
    }
    if let Some(batch) = p.codec.batch()
        && let Ok(events) = batch.decode_batch(data, &limits)
    {
        for (i, event) in events.iter().enumerate() {
            round_trip(p, event).map_err(|d| fail("decode_batch", format!("event {i}: {d}")))?;
        }
    }
    Ok(())
}

/// How an accepted event failed to come back from its re-encoding.
#[derive(Debug, thiserror::Error)]
enum RoundTripError {
    #[error("re-encoded and decoded as {back:?}, not {event:?}")]
    Changed { back: Box<Event>, event: Box<Event> },
    #[error("its re-encoding is refused: {0}")]
    Refused(DecodeError),
}

/// An accepted event the profile can encode must decode back to itself.
fn round_trip(p: &Profile, event: &Event) -> Result<(), RoundTripError> {
    let mut again = Vec::new();
    if p.codec.encode(event, &mut again).is_err() {
        return Ok(());
    }
    match p.codec.decode(&again, &Limits::default()) {
        Ok(back) if &back == event => Ok(()),
        Ok(back) => Err(RoundTripError::Changed {
            back: Box::new(back),
            event: Box::new(event.clone()),
        }),
        Err(e) => Err(RoundTripError::Refused(e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::{BorrowDecode, Codec, DecodeError, EncodeError, SelectContract};
    use crate::model::EventRef;
    use crate::profiles::{PROFILES, find};

    #[test]
    fn every_golden_agrees() {
        for p in PROFILES {
            assert_eq!(check(p, &crate::torture::golden(p)), Ok(()), "{}", p.id);
        }
    }

    /// notepack with a borrowed view that reads the kind one too high.
    struct Skewed;

    fn notepack() -> &'static Profile {
        find("notepack").expect("registry has notepack")
    }

    impl Codec for Skewed {
        fn encode(&self, event: &Event, out: &mut Vec<u8>) -> Result<(), EncodeError> {
            notepack().codec.encode(event, out)
        }
        fn decode(&self, bytes: &[u8], limits: &Limits) -> Result<Event, DecodeError> {
            notepack().codec.decode(bytes, limits)
        }
        fn borrowed(&self) -> Option<&dyn BorrowDecode> {
            Some(self)
        }
    }

    impl BorrowDecode for Skewed {
        fn decode_ref<'a>(
            &self,
            bytes: &'a [u8],
            limits: &Limits,
        ) -> Result<EventRef<'a>, DecodeError> {
            let view = notepack().codec.borrowed().expect("notepack borrows");
            let mut r = view.decode_ref(bytes, limits)?;
            r.kind = r.kind.wrapping_add(1);
            Ok(r)
        }
        fn select_contract(&self) -> SelectContract {
            SelectContract::Checked
        }
        fn kind_and_pubkey(
            &self,
            bytes: &[u8],
            limits: &Limits,
        ) -> Result<(u16, [u8; 32]), DecodeError> {
            let view = notepack().codec.borrowed().expect("notepack borrows");
            view.kind_and_pubkey(bytes, limits)
        }
    }

    #[test]
    fn a_disagreeing_view_is_caught() {
        let skewed = Profile {
            id: "skewed",
            codec: &Skewed,
            ..*notepack()
        };
        let golden = crate::torture::golden(notepack());
        let err = check(&skewed, &golden).expect_err("decode_ref reads another kind");
        assert_eq!(err.entry_point, "decode_ref");
        assert_eq!(check(notepack(), &golden), Ok(()));
    }
}
