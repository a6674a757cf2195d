//! The subjects: our profiles, and the upstream libraries decoding their
//! cases as users call them; one decode classified in-process, panics
//! contained.

use std::cell::{Cell, RefCell};
use std::panic::{AssertUnwindSafe, catch_unwind};

use super::Outcome;
use crate::codec::{Limits, Profile};

/// An upstream library decoding the cases of one registry profile.
pub struct Library {
    /// Report id.
    pub id: &'static str,
    /// The profile whose cases it decodes.
    pub cases_of: &'static str,
    /// Decodes as a user would; `Err` is a clean error.
    pub decode: fn(&[u8]) -> Result<(), LibraryError>,
}

/// The error an upstream library returned, shown as it displays itself.
#[derive(Debug, thiserror::Error)]
pub enum LibraryError {
    /// What serde_json refused (`lib:serde_json::Value`).
    #[error("{0}")]
    Json(serde_json::Error),
    /// What ciborium refused (`lib:ciborium::Value`).
    #[error("{0}")]
    Cbor(ciborium::de::Error<std::io::Error>),
    /// What rmpv refused (`lib:rmpv::Value`).
    #[error("{0}")]
    Msgpack(rmpv::decode::Error),
    /// What notepack 0.3 refused (`lib:notepack-0.3`).
    #[error("{0}")]
    Notepack(notepack::Error),
}

fn notepack_decode(b: &[u8]) -> Result<(), LibraryError> {
    let note = notepack::NoteParser::new(b)
        .into_note()
        .map_err(LibraryError::Notepack)?;
    let mut tags = note.tags;
    while let Some(tag) = tags.next_tag().map_err(LibraryError::Notepack)? {
        for elem in tag {
            elem.map_err(LibraryError::Notepack)?;
        }
    }
    Ok(())
}

/// The library subjects (reported as findings, never failing the run).
pub static LIBRARIES: &[Library] = &[
    Library {
        id: "lib:serde_json::Value",
        cases_of: "json",
        decode: |b| {
            serde_json::from_slice::<serde_json::Value>(b)
                .map(drop)
                .map_err(LibraryError::Json)
        },
    },
    Library {
        id: "lib:ciborium::Value",
        cases_of: "cbor-packed",
        decode: |b| {
            ciborium::de::from_reader::<ciborium::Value, _>(b)
                .map(drop)
                .map_err(LibraryError::Cbor)
        },
    },
    Library {
        id: "lib:rmpv::Value",
        cases_of: "msgpack",
        decode: |mut b| {
            rmpv::decode::read_value(&mut b)
                .map(drop)
                .map_err(LibraryError::Msgpack)
        },
    },
    Library {
        id: "lib:notepack-0.3",
        cases_of: "notepack",
        decode: notepack_decode,
    },
];

/// Something decoded by the suite.
#[derive(Clone, Copy)]
pub enum Subject {
    /// One of our profiles.
    Profile(&'static Profile),
    /// An upstream library over a profile's cases.
    Library(&'static Library, &'static Profile),
}

impl Subject {
    /// Report id.
    pub fn id(&self) -> &'static str {
        match self {
            Subject::Profile(p) => p.id,
            Subject::Library(l, _) => l.id,
        }
    }

    /// Whether it is ours (its failures fail the run).
    pub fn ours(&self) -> bool {
        matches!(self, Subject::Profile(_))
    }

    /// The profile whose cases it decodes.
    pub fn cases_of(&self) -> &'static Profile {
        match self {
            Subject::Profile(p) | Subject::Library(_, p) => p,
        }
    }

    /// Decodes `bytes` once and classifies what happened in-process.
    pub fn verdict(&self, bytes: &[u8], limits: &Limits) -> (Outcome, Option<String>) {
        contain(|| match self {
            Subject::Profile(p) => match p.codec.decode(bytes, limits) {
                Err(e) => (Outcome::CleanError, Some(e.to_string())),
                Ok(event) => {
                    let mut again = Vec::new();
                    let ok = p.codec.encode(&event, &mut again).is_ok()
                        && p.codec.decode(&again, &Limits::default()).as_ref() == Ok(&event);
                    if !ok {
                        (Outcome::AcceptedLossy, Some("no round trip".into()))
                    } else if p.capabilities.deterministic && again != bytes {
                        let mut json = Vec::new();
                        event.write_json(&mut json);
                        json.truncate(400);
                        let detail = format!(
                            "re-encodes to other bytes; decoded as {}",
                            String::from_utf8_lossy(&json)
                        );
                        (Outcome::AcceptedNonCanonical, Some(detail))
                    } else {
                        (Outcome::Accepted, None)
                    }
                }
            },
            Subject::Library(l, _) => match (l.decode)(bytes) {
                Err(e) => (Outcome::CleanError, Some(e.to_string())),
                Ok(()) => (Outcome::Accepted, None),
            },
        })
    }
}

/// Runs one decode under `catch_unwind`: an escaping panic is
/// [`Outcome::Panic`], a clean error after a panic caught inside the decoder
/// is [`Outcome::PanicContained`] (counted by the hook of
/// [`install_panic_counter`]).
fn contain(f: impl FnOnce() -> (Outcome, Option<String>)) -> (Outcome, Option<String>) {
    PANICS.with(|c| c.set(0));
    let result = catch_unwind(AssertUnwindSafe(f));
    let last = LAST_PANIC.with(|l| l.borrow_mut().take());
    match result {
        Err(_) => (Outcome::Panic, last),
        Ok((Outcome::CleanError, _)) if PANICS.with(Cell::get) > 0 => {
            (Outcome::PanicContained, last)
        }
        Ok(v) => v,
    }
}

thread_local! {
    static PANICS: Cell<u64> = const { Cell::new(0) };
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Counts panics (and keeps the last message) instead of printing them, so
/// contained panics are visible and a million of them stay quiet.
pub(super) fn install_panic_counter() {
    std::panic::set_hook(Box::new(|info| {
        PANICS.with(|c| c.set(c.get() + 1));
        LAST_PANIC.with(|l| *l.borrow_mut() = Some(info.to_string()));
    }));
}

/// Every subject: the registry, then the libraries whose profile is in it.
pub fn subjects() -> Vec<Subject> {
    let mut out: Vec<Subject> = crate::profiles::PROFILES
        .iter()
        .map(Subject::Profile)
        .collect();
    out.extend(
        LIBRARIES
            .iter()
            .filter_map(|l| crate::profiles::find(l.cases_of).map(|p| Subject::Library(l, p))),
    );
    out
}

/// The subject with this id.
pub fn subject(id: &str) -> Option<Subject> {
    subjects().into_iter().find(|s| s.id() == id)
}

/// Limits for isolated cases: the event-size limit is lifted to 64 MiB so
/// that bombs reach the decoder's structure checks instead of stopping at
/// the size check; everything else is the default.
pub fn bomb_limits() -> Limits {
    Limits {
        max_event_bytes: 64 << 20,
        ..Limits::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_classify_each_outcome() {
        install_panic_counter();
        let limits = Limits::default();
        let json = subject("json").unwrap();
        let golden = crate::torture::golden(json.cases_of());
        assert_eq!(json.verdict(&golden, &limits).0, Outcome::Accepted);
        assert_eq!(json.verdict(b"", &limits).0, Outcome::CleanError);
        let spaced = [b" ", &golden[..]].concat();
        assert_eq!(
            json.verdict(&spaced, &limits).0,
            Outcome::AcceptedNonCanonical
        );
        // 00 6b 01 panicked inside the flexbuffers reader before the
        // profile's verifier; it is a clean error now.
        let flex = subject("flexbuffers").unwrap();
        assert_eq!(
            flex.verdict(&[0x00, 0x6b, 0x01], &limits).0,
            Outcome::CleanError
        );
        // A panic caught inside a decoder that then returns an error.
        let contained = contain(|| {
            let caught = catch_unwind(|| panic!("inside"));
            assert!(caught.is_err());
            (Outcome::CleanError, Some("caught".into()))
        });
        assert_eq!(contained.0, Outcome::PanicContained);
        // notepack 0.3.0 panics on a truncated id.
        let np = subject("lib:notepack-0.3").unwrap();
        assert_eq!(np.verdict(&[0x01, 0x00], &limits).0, Outcome::Panic);
        let _ = std::panic::take_hook();
    }
}
