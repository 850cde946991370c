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
