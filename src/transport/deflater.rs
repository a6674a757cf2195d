//! The deflate implementations the relay compresses with ([`Deflater`],
//! [`Compressor`]) and the raw compression call under
//! [`crate::transport::deflate::deflate_message`] ([`RawDeflate`]).

use flate2::{Compress, FlushCompress, Status};

use crate::transport::deflate::{LEVEL, WINDOW_BITS};

/// A deflate implementation the relay compresses with (`Config::deflater`,
/// [`crate::transport::relay::Config`]), at [`LEVEL`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub enum Deflater {
    /// zlib (C) through flate2: the default, as soketto's and strfry's.
    #[default]
    Zlib,
    /// zlib-rs, the pure Rust port of zlib-ng.
    ZlibRs,
}

impl Deflater {
    /// Every implementation, default first.
    pub const ALL: [Deflater; 2] = [Deflater::Zlib, Deflater::ZlibRs];

    /// Stable name: implementation and level (CSV, CLI).
    pub fn name(self) -> &'static str {
        match self {
            Deflater::Zlib => "zlib-1",
            Deflater::ZlibRs => "zlib-rs-1",
        }
    }

    /// A fresh compressor: raw deflate, [`LEVEL`], [`WINDOW_BITS`].
    pub fn compressor(self) -> Compressor {
        match self {
            Deflater::Zlib => Compressor::Zlib(compressor()),
            Deflater::ZlibRs => Compressor::ZlibRs(zlib_rs::Deflate::new(
                LEVEL.level() as i32,
                false,
                WINDOW_BITS,
            )),
        }
    }
}

impl std::fmt::Display for Deflater {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is no [`Deflater`]'s.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown deflater `{0}`; known: {known}",
    known = Deflater::ALL.map(Deflater::name).join(", ")
)]
pub struct UnknownDeflater(pub String);

impl std::str::FromStr for Deflater {
    type Err = UnknownDeflater;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Deflater::ALL
            .into_iter()
            .find(|d| d.name() == s)
            .ok_or_else(|| UnknownDeflater(s.to_owned()))
    }
}

/// The raw compression call under
/// [`deflate_message`](crate::transport::deflate::deflate_message): one step of a
/// deflate stream into the spare capacity of a `Vec`.
pub trait RawDeflate {
    /// Input bytes consumed since the compressor was made or reset.
    fn total_in(&self) -> u64;
    /// Starts a new stream (no context kept).
    fn reset_stream(&mut self);
    /// Compresses from `input` into `out`'s spare capacity (its length
    /// grows by the bytes written), with no flush or a sync flush; zlib's
    /// status, as flate2 reports it (zlib-rs's maps onto it one to one).
    fn step(
        &mut self,
        input: &[u8],
        out: &mut Vec<u8>,
        sync: bool,
    ) -> Result<Status, std::io::Error>;
}

impl RawDeflate for Compress {
    fn total_in(&self) -> u64 {
        Compress::total_in(self)
    }

    fn reset_stream(&mut self) {
        Compress::reset(self);
    }

    fn step(
        &mut self,
        input: &[u8],
        out: &mut Vec<u8>,
        sync: bool,
    ) -> Result<Status, std::io::Error> {
        let flush = if sync {
            FlushCompress::Sync
        } else {
            FlushCompress::None
        };
        Ok(self.compress_vec(input, out, flush)?)
    }
}

impl RawDeflate for zlib_rs::Deflate {
    fn total_in(&self) -> u64 {
        zlib_rs::Deflate::total_in(self)
    }

    fn reset_stream(&mut self) {
        zlib_rs::Deflate::reset(self);
    }

    /// The safe API writes into initialized bytes only: the spare capacity
    /// is zeroed first (a memset of at most the reserve), then cut back to
    /// what was written.
    fn step(
        &mut self,
        input: &[u8],
        out: &mut Vec<u8>,
        sync: bool,
    ) -> Result<Status, std::io::Error> {
        let flush = if sync {
            zlib_rs::DeflateFlush::SyncFlush
        } else {
            zlib_rs::DeflateFlush::NoFlush
        };
        let len = out.len();
        out.resize(out.capacity(), 0);
        let before = self.total_out();
        let r = self.compress(input, &mut out[len..], flush);
        let written = usize::try_from(self.total_out() - before).map_err(std::io::Error::other)?;
        out.truncate(len + written);
        match r {
            Ok(zlib_rs::Status::Ok) => Ok(Status::Ok),
            Ok(zlib_rs::Status::BufError) => Ok(Status::BufError),
            Ok(zlib_rs::Status::StreamEnd) => Ok(Status::StreamEnd),
            Err(e) => Err(std::io::Error::other(format!("zlib-rs: {}", e.as_str()))),
        }
    }
}

/// The relay's compressor: one of the [`Deflater`]s (from
/// [`Deflater::compressor`]).
pub enum Compressor {
    /// zlib through flate2.
    Zlib(Compress),
    /// zlib-rs.
    ZlibRs(zlib_rs::Deflate),
}

impl Compressor {
    /// Which implementation this is.
    pub fn deflater(&self) -> Deflater {
        match self {
            Compressor::Zlib(_) => Deflater::Zlib,
            Compressor::ZlibRs(_) => Deflater::ZlibRs,
        }
    }
}

impl std::fmt::Debug for Compressor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Compressor").field(&self.deflater()).finish()
    }
}

impl RawDeflate for Compressor {
    fn total_in(&self) -> u64 {
        match self {
            Compressor::Zlib(c) => RawDeflate::total_in(c),
            Compressor::ZlibRs(c) => RawDeflate::total_in(c),
        }
    }

    fn reset_stream(&mut self) {
        match self {
            Compressor::Zlib(c) => c.reset_stream(),
            Compressor::ZlibRs(c) => c.reset_stream(),
        }
    }

    fn step(
        &mut self,
        input: &[u8],
        out: &mut Vec<u8>,
        sync: bool,
    ) -> Result<Status, std::io::Error> {
        match self {
            Compressor::Zlib(c) => c.step(input, out, sync),
            Compressor::ZlibRs(c) => c.step(input, out, sync),
        }
    }
}

/// The zlib compressor (flate2): the client's, and the relay's with
/// [`Deflater::Zlib`]. Raw deflate, [`LEVEL`], [`WINDOW_BITS`].
pub fn compressor() -> Compress {
    Compress::new_with_window_bits(LEVEL, false, WINDOW_BITS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deflater_names_round_trip_and_unknown_ones_are_refused() {
        for d in Deflater::ALL {
            assert_eq!(d.name().parse::<Deflater>(), Ok(d));
            assert_eq!(d.compressor().deflater(), d);
        }
        assert_eq!(Deflater::default(), Deflater::Zlib);
        assert_eq!(Deflater::Zlib.name(), "zlib-1");
        assert_eq!(Deflater::ZlibRs.name(), "zlib-rs-1");
        let err = "zlib-ng".parse::<Deflater>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown deflater `zlib-ng`; known: zlib-1, zlib-rs-1"
        );
    }
}
