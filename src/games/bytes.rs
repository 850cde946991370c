//! Defines [`ByteReader`] and [`LogBytesError`]: the reading side of the decision logs'
//! byte encodings (stored with every tournament game, and replayed from the store).
//!
//! Stored bytes are read as untrusted input: a database may be damaged or edited, so every
//! read is bounds-checked and every value range-checked, and a bad log is an error naming
//! the byte where it went wrong, never a panic.

use thiserror::Error;

/// Why stored decision-log bytes could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("decision log byte {at}: {reason}")]
pub struct LogBytesError {
    pub at: usize,
    pub reason: String,
}

/// A cursor over stored bytes, little-endian.
pub struct ByteReader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> ByteReader<'a> {
    pub fn new(bytes: &'a [u8]) -> ByteReader<'a> {
        ByteReader { bytes, at: 0 }
    }

    /// An error at the current position.
    pub fn error(&self, reason: impl Into<String>) -> LogBytesError {
        LogBytesError {
            at: self.at,
            reason: reason.into(),
        }
    }

    pub fn u8(&mut self) -> Result<u8, LogBytesError> {
        let b = *self
            .bytes
            .get(self.at)
            .ok_or_else(|| self.error("the log ends early"))?;
        self.at += 1;
        Ok(b)
    }

    pub fn u16(&mut self) -> Result<u16, LogBytesError> {
        Ok(u16::from_le_bytes([self.u8()?, self.u8()?]))
    }

    pub fn u32(&mut self) -> Result<u32, LogBytesError> {
        Ok(u32::from_le_bytes([
            self.u8()?,
            self.u8()?,
            self.u8()?,
            self.u8()?,
        ]))
    }

    /// A flag stored as one byte, 0 or 1; another value is an error naming `what`.
    pub fn flag(&mut self, what: &str) -> Result<bool, LogBytesError> {
        match self.u8()? {
            0 => Ok(false),
            1 => Ok(true),
            other => Err(self.error(format!("{what} {other}"))),
        }
    }

    /// The length of a list stored as one byte, at most `max`; a longer one is an error
    /// naming the `items` (a log never stores more than its writer keeps).
    pub fn list_len(&mut self, max: usize, items: &str) -> Result<usize, LogBytesError> {
        let n = usize::from(self.u8()?);
        if n > max {
            return Err(self.error(format!("{n} {items}")));
        }
        Ok(n)
    }

    /// Checks the format byte every log starts with.
    pub fn expect_format(&mut self, format: u8) -> Result<(), LogBytesError> {
        let got = self.u8()?;
        if got == format {
            Ok(())
        } else {
            self.at -= 1;
            Err(self.error(format!("format {got}, this version reads format {format}")))
        }
    }

    /// A seat number below `seats`.
    pub fn seat(&mut self, seats: usize) -> Result<usize, LogBytesError> {
        let seat = self.u8()? as usize;
        if seat < seats {
            Ok(seat)
        } else {
            Err(self.error(format!("seat {seat}")))
        }
    }

    /// Fails unless every byte was read.
    pub fn finish(self) -> Result<(), LogBytesError> {
        if self.at == self.bytes.len() {
            Ok(())
        } else {
            Err(self.error(format!(
                "{} bytes after the end of the log",
                self.bytes.len() - self.at
            )))
        }
    }
}

/// The start of a log stored as a format byte and the number of items (u32), to which the
/// caller appends the items.
pub fn counted(format: u8, count: usize) -> Vec<u8> {
    let mut out = vec![format];
    out.extend((count as u32).to_le_bytes());
    out
}

/// Reads a log written after [`counted`]: the format byte, the count, then that many items
/// read by `item`; bytes left over are an error.
pub fn read_counted<T>(
    bytes: &[u8],
    format: u8,
    mut item: impl FnMut(&mut ByteReader<'_>) -> Result<T, LogBytesError>,
) -> Result<Vec<T>, LogBytesError> {
    let mut r = ByteReader::new(bytes);
    r.expect_format(format)?;
    let count = r.u32()? as usize;
    // The count is read from the bytes: a damaged one must not reserve more than they hold.
    let mut items = Vec::with_capacity(count.min(bytes.len()));
    for _ in 0..count {
        items.push(item(&mut r)?);
    }
    r.finish()?;
    Ok(items)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_and_list_lengths_are_checked_and_errors_name_the_byte() {
        let mut r = ByteReader::new(&[1, 0, 2]);
        assert_eq!(r.flag("reboot"), Ok(true));
        assert_eq!(r.flag("reboot"), Ok(false));
        let err = r.flag("reboot").unwrap_err();
        assert_eq!(err.to_string(), "decision log byte 3: reboot 2");
        let mut r = ByteReader::new(&[3, 17]);
        assert_eq!(r.list_len(16, "chips"), Ok(3));
        let err = r.list_len(16, "chips").unwrap_err();
        assert_eq!(err.to_string(), "decision log byte 2: 17 chips");
    }
}
