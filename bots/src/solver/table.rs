//! The transposition table: its memory (a heap buffer for small searches, an anonymous
//! mapping backed by 2 MiB pages for large ones), viewed as atomic words the search threads
//! share, and the bucket layout and replacement scheme. The solver's one `unsafe` block, a
//! prefetch hint, is here ([`Slots::prefetch`]).

use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;

use zerocopy::{FromBytes, IntoBytes};

use super::WIN;

pub(super) const EXACT: u64 = 1;
pub(super) const LOWER: u64 = 2;
pub(super) const UPPER: u64 = 3;
/// No move in the table. (It is also the encoding of D4 with piece 15, which therefore never
/// gets the table move's place at the front of the order; nothing else depends on it.)
pub(super) const NO_MOVE: u8 = 0xff;

/// A transposition table of fixed size, in buckets of two entries: the first keeps the entry
/// with the most empty squares (the largest subtree), the second is always replaced.
///
/// Each entry is two words, (key ^ data, data); data packs the value (bits 0–15), the bound
/// (16–17), the number of empty squares (18–22) and the best move (24–31: square << 4 |
/// piece). The words are atomics, so that the threads of one search share the table without
/// locks; an entry whose two words two threads wrote at once fails the key check and is a
/// miss. A small search's entries are a zeroed heap buffer of just the size it uses; a larger
/// search maps the whole table anonymously and asks the kernel to back it with 2 MiB pages:
/// probes land anywhere in it, and with 4 KiB pages nearly every probe also missed the TLB.
/// (Zeroing a 2 MiB page for a search that uses 64 KiB had cost 50-70 µs per solve.)
pub struct Table {
    memory: Memory,
    /// Entries (two words each), a power of two.
    len: usize,
    /// The entries in use: a power of two up to `len`, set per search by
    /// [`Table::fit`], so that a small search touches (and the kernel zeroes) little memory.
    active: usize,
}

enum Memory {
    Mapped(memmap2::MmapMut),
    Heap(Vec<u64>),
}

impl Memory {
    /// Zeroed memory for `len` entries on the heap.
    fn heap(len: usize) -> Memory {
        Memory::Heap(vec![0; len * 2])
    }

    /// Zeroed memory for `len` entries, mapped (on the heap if it cannot be).
    fn mapped(len: usize) -> Memory {
        match memmap2::MmapMut::map_anon(len * 16) {
            Ok(map) => {
                // Only a hint: without huge pages the table works the same, more slowly.
                #[cfg(target_os = "linux")]
                let _ = map.advise(memmap2::Advice::HugePage);
                Memory::Mapped(map)
            }
            Err(_) => Memory::heap(len),
        }
    }

    /// The memory as words. (Viewing bytes as atomics needs the bytes borrowed mutably:
    /// nobody else can be reading them as plain bytes meanwhile.)
    fn words(&mut self) -> &[AtomicU64] {
        let bytes = match self {
            Memory::Mapped(map) => &mut map[..],
            Memory::Heap(words) => words.as_mut_bytes(),
        };
        <[AtomicU64]>::mut_from_bytes(bytes).map_or(&[][..], |words| &*words)
    }

    /// The entries it holds.
    fn entries(&self) -> usize {
        match self {
            Memory::Mapped(map) => map.len() / 16,
            Memory::Heap(words) => words.len() / 2,
        }
    }
}

/// The fewest entries a search uses (16 KiB).
const MIN_ACTIVE: usize = 1 << 10;

/// The most entries kept on the heap (1 MiB); larger searches map the whole table.
const HEAP_ACTIVE: usize = 1 << 16;

pub(super) struct Entry {
    pub(super) value: i32,
    pub(super) bound: u64,
    pub(super) mv: u8,
}

impl Table {
    /// A table of about `mebibytes` MiB.
    pub fn new(mebibytes: usize) -> Table {
        let len = ((mebibytes << 20) / 16).max(1024).next_power_of_two();
        let active = MIN_ACTIVE.min(len);
        Table {
            memory: Memory::heap(active),
            len,
            active,
        }
    }

    /// Forgets every entry: the table starts again from the smallest heap buffer.
    pub fn clear(&mut self) {
        self.active = MIN_ACTIVE.min(self.len);
        self.memory = Memory::heap(self.active);
    }

    /// Uses as much of the table as a search from `empty` empty squares needs: 2^(3·empty −
    /// 18) entries up to 13 empty squares (from 2^12, 64 KiB, at 10), 2^(2·empty − 4) from
    /// 14 (256 MiB), at least 2^10, at most all. Fresh memory costs the kernel's zeroing of
    /// every page touched: sized for 14 or more empty squares, the part in use took 5-10% of
    /// the time of 4- and 5-placed searches, and these smaller parts hold their entries as
    /// well (the same node counts within 0.2%). The part in use never shrinks until
    /// [`Table::clear`], so the entries of a game's earlier searches stay where later
    /// searches look for them (growing it loses most of them: their buckets move).
    pub(super) fn fit(&mut self, empty: u32) {
        let bits = (3 * empty)
            .saturating_sub(18)
            .min((2 * empty).saturating_sub(4));
        let want = 1usize << bits.clamp(10, 40);
        self.active = self.active.max(want).min(self.len);
        if self.active > self.memory.entries() {
            // Drop the old memory before making the new, so that both never exist at once.
            self.memory = Memory::Heap(Vec::new());
            self.memory = if self.active <= HEAP_ACTIVE {
                Memory::heap(self.active)
            } else {
                Memory::mapped(self.len)
            };
        }
    }

    /// The part in use, for the threads of one search.
    pub(super) fn slots(&mut self) -> Slots<'_> {
        let active = self.active;
        let words = self.memory.words();
        // (Only if the mapping could not be viewed as words, which a page-aligned mapping
        // always can: then the table is off, every probe a miss.)
        let words = words.get(..active * 2).unwrap_or(&[]);
        Slots { words }
    }
}

/// The words of a table's part in use, shared by the threads of a search. Loads and stores
/// are relaxed: an entry is a hint checked against its key, never a synchronisation.
#[derive(Clone, Copy)]
pub(super) struct Slots<'a> {
    words: &'a [AtomicU64],
}

impl Slots<'_> {
    /// The first word of `key`'s bucket (four words: two entries).
    #[inline(always)]
    fn bucket(&self, key: u64) -> Option<&[AtomicU64]> {
        let w = (key as usize & (self.words.len().wrapping_sub(1))) & !3;
        self.words.get(w..w + 4)
    }

    /// Asks the processor to fetch `key`'s bucket into the cache, so that the probe made a
    /// little later does not wait for memory.
    #[inline(always)]
    pub(super) fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        #[expect(
            unsafe_code,
            reason = "the prefetch intrinsic is unsafe, though only a hint"
        )]
        if let Some(bucket) = self.bucket(key) {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            // SAFETY: a prefetch is only a hint: it reads nothing the program sees and cannot
            // fault; the address is that of a live element. It is `unsafe` only because it is
            // an SSE instruction, which every x86-64 processor has.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(bucket.as_ptr().cast::<i8>()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    #[inline(always)]
    pub(super) fn get(&self, key: u64) -> Option<Entry> {
        let bucket = self.bucket(key)?;
        let entry = |i: usize| {
            let data = bucket[i + 1].load(Relaxed);
            (bucket[i].load(Relaxed) ^ data == key).then_some(data)
        };
        let data = entry(0).or_else(|| entry(2))?;
        let bound = (data >> 16) & 3;
        (bound != 0).then_some(Entry {
            value: i32::from(data as u16 as i16),
            bound,
            mv: (data >> 24) as u8,
        })
    }

    /// Stores an entry; `live` is the most empty squares a position of the current search can
    /// have, so entries with more belong to earlier moves of the game and may go.
    #[inline(always)]
    pub(super) fn put(&self, key: u64, value: i32, bound: u64, empty: u32, mv: u8, live: u32) {
        let Some(bucket) = self.bucket(key) else {
            return;
        };
        let data = u64::from(value as i16 as u16)
            | (bound << 16)
            | (u64::from(empty) << 18)
            | (u64::from(mv) << 24);
        let write = |i: usize, key: u64, data: u64| {
            bucket[i].store(key ^ data, Relaxed);
            bucket[i + 1].store(data, Relaxed);
        };
        let deep_data = bucket[1].load(Relaxed);
        let deep_key = bucket[0].load(Relaxed) ^ deep_data;
        let deep_empty = ((deep_data >> 18) & 31) as u32;
        if deep_key == key || deep_data == 0 {
            write(0, key, data);
        } else if bucket[2].load(Relaxed) ^ bucket[3].load(Relaxed) == key {
            write(2, key, data);
        } else if empty >= deep_empty || deep_empty > live {
            // The displaced deep entry gets a second chance in the other slot.
            write(2, deep_key, deep_data);
            write(0, key, data);
        } else {
            write(2, key, data);
        }
    }
}

/// Win values count placements from the root; the table stores them from the node.
pub(super) fn to_table(v: i32, ply: i32) -> i32 {
    if v > WIN / 2 {
        v + ply
    } else if v < -WIN / 2 {
        v - ply
    } else {
        v
    }
}

pub(super) fn from_table(v: i32, ply: i32) -> i32 {
    if v > WIN / 2 {
        v - ply
    } else if v < -WIN / 2 {
        v + ply
    } else {
        v
    }
}
