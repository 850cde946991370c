//! Message framing of the Windward protocol: every message, both directions, is a 4-byte
//! little-endian **signed** length followed by that many bytes of UTF-8 XML
//! (docs/bots.md, "Windward 2012 clients").
//!
//! A length that is negative or larger than the reader's limit cannot be skipped safely (the
//! stream would have to be read blindly to resynchronise), so both end the connection: the
//! gateway treats them like a disconnect. A body that is not UTF-8 is a complete frame and
//! does not desynchronise the stream; it is reported by [`frame_text`] and answered as an
//! invalid reply.

use std::io;
use thiserror::Error;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

/// Default largest message body accepted, in bytes (4 MiB). The largest message the server
/// sends, a turn on a 64x64 board, is under 1 MiB; client replies are a few hundred bytes
/// (a join with its 32x32 avatar a few KiB).
pub const MAX_MESSAGE: usize = 4 << 20;

/// Why a frame could not be read.
#[derive(Debug, Error)]
pub enum FrameError {
    /// The peer closed the connection cleanly between two messages.
    #[error("connection closed")]
    Closed,
    /// The peer closed the connection inside a message (header or body).
    #[error("connection closed in the middle of a message")]
    Truncated,
    /// The length header is negative.
    #[error("negative message length {0}")]
    Negative(i32),
    /// The length header exceeds the limit.
    #[error("message of {len} bytes exceeds the limit of {max} bytes")]
    TooLarge { len: usize, max: usize },
    #[error("{0}")]
    Io(#[from] io::Error),
}

impl FrameError {
    /// Whether the stream is finished (always, for a read error: framing cannot recover).
    pub fn is_clean_close(&self) -> bool {
        matches!(self, FrameError::Closed)
    }
}

/// The header and body of one message, ready to write in one go.
///
/// # Panics
/// If `body` is longer than `i32::MAX` bytes.
pub fn encode_frame(body: &[u8]) -> Vec<u8> {
    let len = i32::try_from(body.len()).expect("a Windward message is shorter than 2 GiB");
    let mut frame = Vec::with_capacity(4 + body.len());
    frame.extend_from_slice(&len.to_le_bytes());
    frame.extend_from_slice(body);
    frame
}

/// Writes one message (header and body) and flushes.
pub async fn write_frame<W: AsyncWrite + Unpin>(w: &mut W, body: &[u8]) -> io::Result<()> {
    w.write_all(&encode_frame(body)).await?;
    w.flush().await
}

/// Bytes read at a time into a frame.
const READ_CHUNK: usize = 8 * 1024;

/// Reads one message body of at most `max` bytes. Handles headers and bodies split over any
/// number of reads. Not cancellation safe: a cancelled read leaves the stream mid-frame (the
/// gateway reads each connection from one task that is never cancelled).
pub async fn read_frame<R: AsyncRead + Unpin>(
    r: &mut R,
    max: usize,
) -> Result<Vec<u8>, FrameError> {
    let mut header = [0u8; 4];
    let mut filled = 0;
    while filled < header.len() {
        let n = r.read(&mut header[filled..]).await?;
        if n == 0 {
            return Err(if filled == 0 {
                FrameError::Closed
            } else {
                FrameError::Truncated
            });
        }
        filled += n;
    }
    let len = i32::from_le_bytes(header);
    if len < 0 {
        return Err(FrameError::Negative(len));
    }
    let len = len as usize;
    if len > max {
        return Err(FrameError::TooLarge { len, max });
    }
    // The buffer grows with what arrives, not with what the header announces: a peer
    // that announces a large frame and sends nothing costs nothing.
    let mut body = Vec::with_capacity(len.min(READ_CHUNK));
    let mut chunk = [0u8; READ_CHUNK];
    while body.len() < len {
        let want = (len - body.len()).min(READ_CHUNK);
        let n = r.read(&mut chunk[..want]).await?;
        if n == 0 {
            return Err(FrameError::Truncated);
        }
        body.extend_from_slice(&chunk[..n]);
    }
    Ok(body)
}

/// The text of a message body: UTF-8, with a leading byte-order mark removed. `None` if the
/// body is not UTF-8.
pub fn frame_text(body: Vec<u8>) -> Option<String> {
    let mut text = String::from_utf8(body).ok()?;
    if text.starts_with('\u{feff}') {
        text.drain(..'\u{feff}'.len_utf8());
    }
    Some(text)
}
