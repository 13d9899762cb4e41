//! Symmetries of Quarto positions, for transposition keys that equal positions share.
//!
//! Two kinds combine. The board's automorphisms: permutations of the squares that map the
//! winning shapes onto themselves (8 for Quads, the symmetries of the square; 32 for classic
//! Quarto, whose lines are also kept by swapping the middle rows and columns, or the inner and
//! outer ones). And the pieces' symmetries: complementing any trait on every piece, and
//! permuting traits that count the same way, keep every win a win (384 when all traits count).
//!
//! The canonical key: complement every piece by the piece in hand (so the hand is always
//! `BDRF`), then for each automorphism permute the occupancy and trait bitboards, sort the
//! trait bitboards within the counting and the non-counting traits (a trait permutation), and
//! keep the smallest result.

use quads_rules::{Board, Piece, Rules, SHAPES};

/// The symmetries of one rule variant.
pub struct Symmetries {
    /// Per automorphism, lookup tables for the low and high byte of a bitboard.
    perms: Vec<([u16; 256], [u16; 256])>,
    counting: u8,
}

type Perm = [u8; 16];

fn compose(a: &Perm, b: &Perm) -> Perm {
    // First b, then a.
    let mut out = [0u8; 16];
    for (i, o) in out.iter_mut().enumerate() {
        *o = a[b[i] as usize];
    }
    out
}

fn on_coordinates(f: impl Fn(usize, usize) -> (usize, usize)) -> Perm {
    std::array::from_fn(|sq| {
        let (r, c) = f(sq / 4, sq % 4);
        (r * 4 + c) as u8
    })
}

/// The image of the squares in `mask` under `p`.
pub fn apply(p: &Perm, mask: u16) -> u16 {
    (0..16)
        .filter(|i| mask & (1 << i) != 0)
        .fold(0, |acc, i| acc | (1 << p[i]))
}

/// The permutations of the squares that map `rules`' winning shapes onto themselves (each maps
/// square `i` to square `p[i]`), the identity first: 8 for Quads, 32 for classic.
pub fn automorphisms(rules: &Rules) -> Vec<[u8; 16]> {
    let middle = [0, 2, 1, 3];
    let inside_out = [1, 0, 3, 2];
    let generators = [
        on_coordinates(|r, c| (c, 3 - r)),             // a quarter turn
        on_coordinates(|r, c| (r, 3 - c)),             // a mirror
        on_coordinates(|r, c| (middle[r], middle[c])), // swap the middle rows and columns
        on_coordinates(|r, c| (inside_out[r], inside_out[c])), // swap inner and outer
    ];
    // The group the generators make, by closure.
    let identity: Perm = std::array::from_fn(|i| i as u8);
    let mut group = vec![identity];
    let mut i = 0;
    while i < group.len() {
        for g in &generators {
            let next = compose(g, &group[i]);
            if !group.contains(&next) {
                group.push(next);
            }
        }
        i += 1;
    }
    // Keep the permutations that map this variant's shapes onto its shapes.
    let shapes: Vec<u16> = rules.shapes().iter().map(|s| s.0).collect();
    debug_assert!(shapes.iter().all(|s| SHAPES.iter().any(|t| t.0 == *s)));
    group.retain(|p| shapes.iter().all(|s| shapes.contains(&apply(p, *s))));
    group
}

impl Symmetries {
    /// The symmetries of `rules`.
    pub fn new(rules: &Rules) -> Symmetries {
        let group = automorphisms(rules);
        // Each byte's image is that of the byte without its lowest bit, plus that bit's
        // image: one step per entry (this runs for every new solver).
        let perms = group
            .iter()
            .map(|p| {
                let mut lo = [0u16; 256];
                let mut hi = [0u16; 256];
                for b in 1..256 {
                    let low = b & (b - 1);
                    let bit = (b as u16).trailing_zeros() as usize;
                    lo[b] = lo[low] | (1 << p[bit]);
                    hi[b] = hi[low] | (1 << p[bit + 8]);
                }
                (lo, hi)
            })
            .collect();
        Symmetries {
            perms,
            counting: rules.traits.mask(),
        }
    }

    /// The number of board automorphisms.
    pub fn board_symmetries(&self) -> usize {
        self.perms.len()
    }

    /// A key that every position equivalent to (`board`, `hand`) shares.
    pub fn key(&self, board: &Board, hand: Piece) -> u64 {
        let traits = std::array::from_fn(|i| board.trait_squares(i).0);
        self.key_from_parts(board.occupied().0, traits, hand.bits())
    }

    /// [`Symmetries::key`] from the occupied squares, the trait bitboards (squares holding a
    /// piece with trait bit `i` set) and the piece in hand.
    pub fn key_from_parts(&self, occupied: u16, traits: [u16; 4], hand: u8) -> u64 {
        let traits: [u16; 4] = std::array::from_fn(|i| {
            // Complementing by the hand piece: its set traits flip on every piece.
            if hand & (1 << i) != 0 {
                occupied & !traits[i]
            } else {
                traits[i]
            }
        });
        // The occupancy is the most significant part of the form, so only the automorphisms
        // that map it to its smallest image can give the smallest form.
        let mut smallest = u16::MAX;
        let mut candidates = [0u8; 32];
        let mut n = 0;
        for (i, (lo, hi)) in self.perms.iter().enumerate() {
            let o = lo[(occupied & 0xff) as usize] | hi[(occupied >> 8) as usize];
            if o < smallest {
                smallest = o;
                n = 0;
            }
            if o == smallest {
                candidates[n] = i as u8;
                n += 1;
            }
        }
        let mut best = u128::MAX;
        for &i in &candidates[..n] {
            let (lo, hi) = &self.perms[usize::from(i)];
            let perm = |x: u16| lo[(x & 0xff) as usize] | hi[(x >> 8) as usize];
            let mut counting = [0u16; 4];
            let mut other = [0u16; 4];
            let (mut nc, mut no) = (0, 0);
            for (i, t) in traits.iter().enumerate() {
                if self.counting & (1 << i) != 0 {
                    counting[nc] = perm(*t);
                    nc += 1;
                } else {
                    other[no] = perm(*t);
                    no += 1;
                }
            }
            sort4(&mut counting[..nc]);
            sort4(&mut other[..no]);
            let mut packed = u128::from(smallest);
            for t in counting[..nc].iter().chain(&other[..no]) {
                packed = (packed << 16) | u128::from(*t);
            }
            best = best.min(packed);
        }
        // 80 bits into 64: the low word is scrambled before the high 16 bits join, so two
        // different forms collide only if a pseudo-random 64-bit difference fits in 16 bits.
        let mix = |mut z: u64| {
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        mix(mix(best as u64) ^ (best >> 64) as u64)
    }
}

/// Sorts up to four values (an insertion sort: no call, few branches).
#[inline(always)]
fn sort4(v: &mut [u16]) {
    for i in 1..v.len() {
        let mut j = i;
        while j > 0 && v[j - 1] > v[j] {
            v.swap(j - 1, j);
            j -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use quads_rules::{Position, Rules};

    use super::*;

    #[test]
    fn the_groups_have_8_and_32_elements() {
        assert_eq!(Symmetries::new(&Rules::QUADS).board_symmetries(), 8);
        assert_eq!(Symmetries::new(&Rules::CLASSIC).board_symmetries(), 32);
    }

    fn key(rules: &Rules, pos: &str) -> u64 {
        let pos: Position = pos.parse().unwrap();
        Symmetries::new(rules).key(pos.board(), pos.hand().unwrap())
    }

    #[test]
    fn symmetric_positions_share_a_key_and_others_do_not() {
        let q = Rules::QUADS;
        let base = key(&q, "..../..BDQF./.SDQH../BDRF... SDRH");
        // The same position mirrored left to right.
        assert_eq!(base, key(&q, "..../.BDQF../..SDQH./...BDRF SDRH"));
        // Every piece and the hand with size complemented (B <-> S).
        assert_eq!(base, key(&q, "..../..SDQF./.BDQH../SDRF... BDRH"));
        // Colour and fill swapped on every piece: SDQH becomes SLQF, SDRH becomes SLRF.
        assert_eq!(base, key(&q, "..../..BDQF./.SLQF../BDRF... SLRF"));
        // A different position.
        assert_ne!(base, key(&q, "..../..BDQF./.SDQH../.BDRF.. SDRH"));
    }
}
