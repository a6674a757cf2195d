//! An exact set of event ids in bounded memory.
//!
//! The newest ids live in a hash set of at most `cap` entries; when it is
//! full they are sorted and spilled as a run to a temporary directory, and
//! recorded in a fixed-size Bloom filter. An id the filter has not seen is
//! new; one it may have seen is looked up by binary search in each run. The
//! answer is always exact: the filter only decides when the disk is read.
//! Memory: `cap` ids (32 bytes each plus the table) and [`BLOOM_BYTES`].

use std::collections::{BinaryHeap, HashSet};
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::os::unix::fs::FileExt;

/// Ids held in memory before a spill: 7/8 of 2^20, the most a table of
/// 2^20 buckets holds (about 33 MiB) before it doubles.
pub const CAP: usize = 7 << 17;

/// Size of the Bloom filter over spilled ids (32 MiB).
pub const BLOOM_BYTES: usize = 32 << 20;

/// Bits set per id.
const HASHES: usize = 4;

type Id = [u8; 32];

/// An exact, spilling set of ids.
pub struct IdSet {
    recent: HashSet<Id>,
    cap: usize,
    bloom: Vec<u64>,
    runs: Vec<(File, u64)>,
    dir: Option<tempfile::TempDir>,
    len: u64,
}

impl Default for IdSet {
    fn default() -> Self {
        Self::with_cap(CAP)
    }
}

impl IdSet {
    /// A set that spills every `cap` ids.
    pub fn with_cap(cap: usize) -> Self {
        Self {
            recent: HashSet::new(),
            cap: cap.max(1),
            bloom: Vec::new(),
            runs: Vec::new(),
            dir: None,
            len: 0,
        }
    }

    /// Ids in the set.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Runs spilled to disk so far.
    pub fn runs(&self) -> usize {
        self.runs.len()
    }

    /// Inserts `id`; false when it was already there.
    pub fn insert(&mut self, id: Id) -> io::Result<bool> {
        if self.recent.contains(&id) || (!self.runs.is_empty() && self.spilled(&id)?) {
            return Ok(false);
        }
        self.recent.insert(id);
        self.len += 1;
        if self.recent.len() >= self.cap {
            self.spill()?;
        }
        Ok(true)
    }

    /// Bloom bit positions of `id`: ids are SHA-256 digests, so their bytes
    /// are already uniform.
    fn bits(&self, id: &Id) -> impl Iterator<Item = usize> {
        let m = self.bloom.len() * 64;
        (0..HASHES).map(move |i| {
            let word: [u8; 8] = id[8 * i..8 * i + 8].try_into().expect("8 bytes");
            (u64::from_le_bytes(word) % m as u64) as usize
        })
    }

    fn spilled(&self, id: &Id) -> io::Result<bool> {
        if !self
            .bits(id)
            .all(|b| self.bloom[b / 64] >> (b % 64) & 1 == 1)
        {
            return Ok(false);
        }
        let mut probe = [0u8; 32];
        for (file, n) in &self.runs {
            let (mut lo, mut hi) = (0, *n);
            while lo < hi {
                let mid = lo + (hi - lo) / 2;
                file.read_exact_at(&mut probe, mid * 32)?;
                match probe.cmp(id) {
                    std::cmp::Ordering::Equal => return Ok(true),
                    std::cmp::Ordering::Less => lo = mid + 1,
                    std::cmp::Ordering::Greater => hi = mid,
                }
            }
        }
        Ok(false)
    }

    fn spill(&mut self) -> io::Result<()> {
        if self.dir.is_none() {
            self.dir = Some(tempfile::Builder::new().prefix("binostr-ids").tempdir()?);
            self.bloom = vec![0; BLOOM_BYTES / 8];
        }
        let mut ids: Vec<Id> = self.recent.drain().collect();
        ids.sort_unstable();
        let bits: Vec<usize> = ids.iter().flat_map(|id| self.bits(id)).collect();
        for b in bits {
            self.bloom[b / 64] |= 1 << (b % 64);
        }
        let dir = self.dir.as_ref().expect("created above");
        let path = dir.path().join(format!("run-{}", self.runs.len()));
        let mut out = BufWriter::new(File::create(&path)?);
        for id in &ids {
            out.write_all(id)?;
        }
        out.flush()?;
        self.runs.push((File::open(&path)?, ids.len() as u64));
        Ok(())
    }

    /// SHA-256 over the ids in ascending order, hex (as
    /// [`super::fingerprint`]): a merge of the runs, never all in memory.
    pub fn fingerprint(mut self) -> io::Result<String> {
        let mut rest: Vec<Id> = self.recent.drain().collect();
        rest.sort_unstable();
        let mut readers: Vec<BufReader<File>> = self
            .runs
            .iter()
            .map(|(f, _)| f.try_clone().map(BufReader::new))
            .collect::<io::Result<_>>()?;
        let next = |r: &mut BufReader<File>| -> io::Result<Option<Id>> {
            let mut id = [0u8; 32];
            match r.read_exact(&mut id) {
                Ok(()) => Ok(Some(id)),
                Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => Ok(None),
                Err(e) => Err(e),
            }
        };
        // Min-heap of each run's next id; the in-memory rest is source `n`.
        let n = readers.len();
        let mut heap = BinaryHeap::new();
        for (i, r) in readers.iter_mut().enumerate() {
            if let Some(id) = next(r)? {
                heap.push(std::cmp::Reverse((id, i)));
            }
        }
        let mut rest = rest.into_iter();
        if let Some(id) = rest.next() {
            heap.push(std::cmp::Reverse((id, n)));
        }
        let mut sorted = Vec::new();
        let mut hasher = super::Fingerprint::default();
        while let Some(std::cmp::Reverse((id, i))) = heap.pop() {
            sorted.push(id);
            if sorted.len() == 4096 {
                hasher.update(sorted.drain(..));
            }
            let following = if i == n {
                rest.next()
            } else {
                next(&mut readers[i])?
            };
            if let Some(id) = following {
                heap.push(std::cmp::Reverse((id, i)));
            }
        }
        hasher.update(sorted.drain(..));
        Ok(hasher.finish())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(i: u64) -> Id {
        use sha2::Digest;
        sha2::Sha256::digest(i.to_le_bytes()).into()
    }

    #[test]
    fn spilling_keeps_the_set_exact() {
        let mut small = IdSet::with_cap(100);
        for i in 0..1000 {
            assert!(small.insert(id(i)).unwrap(), "{i} is new");
        }
        assert_eq!(small.runs(), 10);
        assert!(small.recent.len() < 100);
        for i in (0..1000).step_by(7) {
            assert!(!small.insert(id(i)).unwrap(), "{i} was inserted");
        }
        assert!(small.insert(id(5000)).unwrap());
        assert_eq!(small.len(), 1001);
        let ids: Vec<Id> = (0..1000).chain([5000]).map(id).collect();
        assert_eq!(
            small.fingerprint().unwrap(),
            super::super::fingerprint(ids.iter())
        );
    }
}
