//! The run lock: one `lrs-tourney run` per database at a time.
//!
//! An exclusive OS file lock on `<database>.lock`, held for the life of the run. The OS
//! releases it when the process dies, even by `kill -9`, so a crashed run never blocks the
//! next one.

use super::StoreError;
use std::fs::{File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};

/// Held while a run writes to a database; dropping it releases the lock.
#[derive(Debug)]
pub struct RunLock {
    _file: File,
    path: PathBuf,
}

impl RunLock {
    /// Takes the lock for `database`, or says who holds it.
    pub fn acquire(database: &Path) -> Result<RunLock, StoreError> {
        let mut name = database.as_os_str().to_owned();
        name.push(".lock");
        let path = PathBuf::from(name);
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| StoreError::LockFile {
                path: database.display().to_string(),
                lock: path.display().to_string(),
                reason: e.to_string(),
            })?;
        match file.try_lock() {
            Ok(()) => Ok(RunLock { _file: file, path }),
            Err(TryLockError::WouldBlock) => Err(StoreError::Busy {
                path: database.display().to_string(),
                lock: path.display().to_string(),
            }),
            Err(TryLockError::Error(e)) => Err(StoreError::LockFile {
                path: database.display().to_string(),
                lock: path.display().to_string(),
                reason: e.to_string(),
            }),
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether a `run` or `rerun` holds the lock of `database` now. Reads only: the lock
    /// file is opened read-only (no lock file means no run ever locked it) and tested with a
    /// shared lock that is released at once. A run starting in that same instant would find
    /// the lock taken, as with any second run.
    pub fn is_held(database: &Path) -> bool {
        let mut name = database.as_os_str().to_owned();
        name.push(".lock");
        let Ok(file) = File::open(PathBuf::from(name)) else {
            return false;
        };
        match file.try_lock_shared() {
            Ok(()) => {
                let _ = file.unlock();
                false
            }
            Err(TryLockError::WouldBlock) => true,
            Err(TryLockError::Error(_)) => false,
        }
    }
}
