//! A socket wrapper that counts the bytes read and written through it.

use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// Bytes moved through a [`Counted`] socket so far.
#[derive(Clone, Debug, Default)]
pub struct Counters {
    read: Arc<AtomicU64>,
    written: Arc<AtomicU64>,
}

/// One reading of [`Counters`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Bytes {
    /// Bytes read from the socket.
    pub read: u64,
    /// Bytes written to the socket.
    pub written: u64,
}

impl Bytes {
    /// `self - earlier`, per direction.
    pub fn since(self, earlier: Bytes) -> Bytes {
        Bytes {
            read: self.read - earlier.read,
            written: self.written - earlier.written,
        }
    }
}

impl Counters {
    /// The counts now.
    pub fn get(&self) -> Bytes {
        Bytes {
            read: self.read.load(Ordering::Relaxed),
            written: self.written.load(Ordering::Relaxed),
        }
    }
}

/// `T` with every byte it reads or writes counted.
#[derive(Debug)]
pub struct Counted<T> {
    inner: T,
    counters: Counters,
}

impl<T> Counted<T> {
    /// Wraps `inner`; the returned counters stay readable after the socket
    /// has moved into a connection.
    pub fn new(inner: T) -> (Self, Counters) {
        let counters = Counters::default();
        (
            Self {
                inner,
                counters: counters.clone(),
            },
            counters,
        )
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for Counted<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let r = Pin::new(&mut self.inner).poll_read(cx, buf);
        let n = (buf.filled().len() - before) as u64;
        self.counters.read.fetch_add(n, Ordering::Relaxed);
        r
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Counted<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let r = Pin::new(&mut self.inner).poll_write(cx, buf);
        if let Poll::Ready(Ok(n)) = r {
            self.counters.written.fetch_add(n as u64, Ordering::Relaxed);
        }
        r
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}
