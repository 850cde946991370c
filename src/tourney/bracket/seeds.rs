//! The bracket's seeds and seats: the tournament's secret seed, game seeds, the round-one
//! shuffle seed and start squares.
//!
//! Every random choice of a tournament derives from one secret, the tournament seed
//! ([`TournamentSeed`]), through one keyed one-way function, so that a game seed tells
//! nothing of the secret nor of any other game: a bot that sees its game cannot work out the
//! next game, another set, or a later round. The labels are public; the secret is not.
//!
//! - `derive(secret, text)`: the first 8 bytes, little-endian, of HMAC-SHA-256 keyed with the
//!   secret's 8 bytes (little-endian) over the UTF-8 bytes of a canonical text;
//! - game seed: `derive(secret, "{stage_label}|{round}|{set}|{game}|{generation}")` with
//!   decimal numbers, `round` and `set` 1-based (the final is the stage's last round, set 1),
//!   `game` 0-based, `generation` 0 unless an organiser re-ran the set with `--reseed` (each
//!   reseed adds 1);
//! - round-one shuffle of a school stage: a [`GameRng`] seeded with
//!   `derive(secret, "{stage_label}|deal")`;
//! - the seeded tie-break draw (see `ranking`): `derive(secret, "draw|{team_key}")`.
//!
//! The stage label is the school's slug, or `nationals`, so reordering schools or adding a
//! school in the configuration file changes no other school's seeds.
//!
//! Databases started before the keyed derivation keep theirs ([`SeedScheme::Legacy`]:
//! `splitmix64(secret ^ fnv1a64(text))`), so that they resume, re-run and replay exactly as
//! they were played.
//!
//! The secret is published only by `report --reveal-seed` once a tournament is finished;
//! until then everything shows its commitment ([`TournamentSeed::commitment`]), which lets
//! anyone check the revealed secret.
//!
//! [`GameRng`]: crate::rng::GameRng

use crate::rng::splitmix64;
use hmac::{Hmac, KeyInit, Mac};
use sha2::{Digest, Sha256};
use std::fmt::Write;

/// The stage label of the nationals (schools use their slug).
pub const NATIONALS_LABEL: &str = "nationals";

/// How a tournament's seeds derive from its secret.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SeedScheme {
    /// HMAC-SHA-256 keyed with the secret: one-way, so no game seed gives back the secret.
    Keyed,
    /// `splitmix64(secret ^ fnv1a64(text))`, invertible: kept for databases started with it.
    Legacy,
}

impl SeedScheme {
    /// The name stored with a tournament.
    pub fn as_str(self) -> &'static str {
        match self {
            SeedScheme::Keyed => "hmac-sha256",
            SeedScheme::Legacy => "fnv1a-splitmix64",
        }
    }

    /// The scheme a stored name means, `None` for a name this version does not know.
    pub fn parse(name: &str) -> Option<SeedScheme> {
        [SeedScheme::Keyed, SeedScheme::Legacy]
            .into_iter()
            .find(|s| s.as_str() == name)
    }
}

/// A tournament's secret seed and how its seeds derive from it.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct TournamentSeed {
    secret: u64,
    scheme: SeedScheme,
}

/// Never prints the secret: a debug dump in a log or a panic message would publish it.
impl std::fmt::Debug for TournamentSeed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TournamentSeed")
            .field("commitment", &self.commitment())
            .field("scheme", &self.scheme)
            .finish()
    }
}

impl TournamentSeed {
    /// A secret with the keyed derivation (every new tournament).
    pub fn keyed(secret: u64) -> TournamentSeed {
        TournamentSeed {
            secret,
            scheme: SeedScheme::Keyed,
        }
    }

    /// A stored secret with its stored scheme.
    pub fn new(secret: u64, scheme: SeedScheme) -> TournamentSeed {
        TournamentSeed { secret, scheme }
    }

    /// A new random secret from the operating system, with the keyed derivation.
    pub fn draw() -> Result<TournamentSeed, getrandom::Error> {
        getrandom::u64().map(TournamentSeed::keyed)
    }

    /// The secret itself: for the database, and for `report --reveal-seed` only.
    pub fn secret(&self) -> u64 {
        self.secret
    }

    pub fn scheme(&self) -> SeedScheme {
        self.scheme
    }

    /// The commitment published while the secret is kept: the SHA-256, in lowercase hex, of
    /// the secret written in decimal (`printf %s SECRET | sha256sum` checks it).
    pub fn commitment(&self) -> String {
        let digest = Sha256::digest(self.secret.to_string().as_bytes());
        let mut hex = String::with_capacity(64);
        for byte in digest.iter() {
            let _ = write!(hex, "{byte:02x}");
        }
        hex
    }

    /// A seed for one named purpose (see the module's documentation).
    pub fn derive(&self, text: &str) -> u64 {
        match self.scheme {
            SeedScheme::Keyed => keyed_derive(self.secret, text),
            SeedScheme::Legacy => derive_seed(self.secret, text),
        }
    }
}

/// The first 8 bytes (little-endian) of HMAC-SHA-256 keyed with `secret`'s 8 little-endian
/// bytes, over `text`.
fn keyed_derive(secret: u64, text: &str) -> u64 {
    // HMAC takes keys of any length; `new_from_slice` cannot fail for it.
    let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(&secret.to_le_bytes())
        .unwrap_or_else(|_| unreachable!("HMAC accepts keys of any length"));
    mac.update(text.as_bytes());
    let out = mac.finalize().into_bytes();
    let mut first = [0u8; 8];
    first.copy_from_slice(&out[..8]);
    u64::from_le_bytes(first)
}

/// FNV-1a, 64 bits, of `bytes`.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// `splitmix64(seed ^ fnv1a64(text))`: the legacy derivation ([`SeedScheme::Legacy`]).
pub fn derive_seed(seed: u64, text: &str) -> u64 {
    let mut state = seed ^ fnv1a64(text.as_bytes());
    splitmix64(&mut state)
}

/// The seed of one game: `derive(tournament_seed,
/// "{stage_label}|{round}|{set}|{game_index}|{generation}")`.
pub fn game_seed(
    tournament_seed: &TournamentSeed,
    stage_label: &str,
    round: u32,
    set: u32,
    game_index: u32,
    generation: u32,
) -> u64 {
    tournament_seed.derive(&format!(
        "{stage_label}|{round}|{set}|{game_index}|{generation}"
    ))
}

/// The seed of the round-one shuffle of a stage: `derive(tournament_seed,
/// "{stage_label}|deal")`.
pub fn deal_seed(tournament_seed: &TournamentSeed, stage_label: &str) -> u64 {
    tournament_seed.derive(&format!("{stage_label}|deal"))
}

/// The 1-based start square of the team at 0-based `position_in_set` in game
/// `game_index` (0-based) of a set of `set_len` teams: `((i + g) mod k) + 1`.
/// A `set_len` of 0 is treated as 1.
pub fn start_square(position_in_set: usize, game_index: usize, set_len: usize) -> usize {
    let k = set_len.max(1);
    ((position_in_set % k + game_index % k) % k) + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a64_matches_the_reference_vectors() {
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn legacy_game_seeds_are_pinned() {
        // Databases started before the keyed derivation replay with these: never change them.
        let legacy = TournamentSeed::new(2026, SeedScheme::Legacy);
        let got = [
            game_seed(&legacy, "westfield-high", 1, 2, 0, 0),
            game_seed(&legacy, "westfield-high", 1, 2, 1, 0),
            game_seed(&legacy, "westfield-high", 1, 2, 0, 1),
            game_seed(&legacy, NATIONALS_LABEL, 3, 1, 9, 0),
            game_seed(&TournamentSeed::new(0, SeedScheme::Legacy), "", 0, 0, 0, 0),
        ];
        assert_eq!(got, PINNED_GAME_SEEDS);
    }

    #[test]
    fn legacy_game_seeds_follow_the_documented_formula() {
        let text = "nationals|2|3|4|0";
        let mut state = 77 ^ fnv1a64(text.as_bytes());
        assert_eq!(
            game_seed(
                &TournamentSeed::new(77, SeedScheme::Legacy),
                NATIONALS_LABEL,
                2,
                3,
                4,
                0
            ),
            splitmix64(&mut state)
        );
    }

    #[test]
    fn keyed_game_seeds_follow_the_documented_formula() {
        // HMAC-SHA-256 (RFC 2104) written out with SHA-256 alone: the key padded to the
        // block, inner and outer pads.
        let secret: u64 = 0x0123_4567_89ab_cdef;
        let text = "westfield-high|1|2|0|0";
        let mut key = [0u8; 64];
        key[..8].copy_from_slice(&secret.to_le_bytes());
        let pad = |byte: u8| key.iter().map(|k| k ^ byte).collect::<Vec<u8>>();
        let inner = Sha256::digest([pad(0x36), text.as_bytes().to_vec()].concat());
        let outer = Sha256::digest([pad(0x5c), inner.to_vec()].concat());
        let want = u64::from_le_bytes(outer[..8].try_into().unwrap());
        let seed = TournamentSeed::keyed(secret);
        assert_eq!(game_seed(&seed, "westfield-high", 1, 2, 0, 0), want);
        assert_eq!(
            deal_seed(&seed, "westfield-high"),
            seed.derive("westfield-high|deal")
        );
    }

    #[test]
    fn the_documented_example_holds() {
        // docs/tournament.md, "Game seeds".
        let seed = TournamentSeed::keyed(20_260_315);
        assert_eq!(
            game_seed(&seed, "cedar-falls-secondary", 1, 1, 0, 0),
            12_429_854_872_532_610_174
        );
        assert_eq!(
            seed.commitment(),
            "9fb8525fd71e99eb4988c7ae7f60ec0fd899db7b735f14c134eb77daa9d221c0"
        );
    }

    #[test]
    fn the_commitment_is_the_sha256_of_the_decimal_secret() {
        // `printf %s 2026 | sha256sum`
        assert_eq!(
            TournamentSeed::keyed(2026).commitment(),
            "158a323a7ba44870f23d96f1516dd70aa48e9a72db4ebb026b0a89e212a208ab"
        );
    }

    #[test]
    fn a_seed_is_never_printed_by_debug() {
        let text = format!("{:?}", TournamentSeed::keyed(987_654_321_012_345));
        assert!(!text.contains("987654321012345"), "{text}");
    }

    #[test]
    fn every_coordinate_changes_the_game_seed() {
        for scheme in [SeedScheme::Keyed, SeedScheme::Legacy] {
            let five = TournamentSeed::new(5, scheme);
            let base = game_seed(&five, "a", 1, 1, 0, 0);
            assert_ne!(
                base,
                game_seed(&TournamentSeed::new(6, scheme), "a", 1, 1, 0, 0)
            );
            assert_ne!(base, game_seed(&five, "b", 1, 1, 0, 0));
            assert_ne!(base, game_seed(&five, "a", 2, 1, 0, 0));
            assert_ne!(base, game_seed(&five, "a", 1, 2, 0, 0));
            assert_ne!(base, game_seed(&five, "a", 1, 1, 1, 0));
            assert_ne!(base, game_seed(&five, "a", 1, 1, 0, 1));
            // The separators keep "1|11" and "11|1" apart.
            assert_ne!(
                game_seed(&five, "a", 1, 11, 0, 0),
                game_seed(&five, "a", 11, 1, 0, 0)
            );
        }
    }

    #[test]
    fn schemes_round_trip_through_their_stored_names() {
        for scheme in [SeedScheme::Keyed, SeedScheme::Legacy] {
            assert_eq!(SeedScheme::parse(scheme.as_str()), Some(scheme));
        }
        assert_eq!(SeedScheme::parse("md5"), None);
    }

    #[test]
    fn seats_rotate_one_square_per_game() {
        // Set of 3: game 0 -> 1,2,3; game 1 -> 2,3,1; game 2 -> 3,1,2; game 3 -> 1,2,3.
        let seats: Vec<Vec<usize>> = (0..4)
            .map(|g| (0..3).map(|i| start_square(i, g, 3)).collect())
            .collect();
        assert_eq!(
            seats,
            vec![vec![1, 2, 3], vec![2, 3, 1], vec![3, 1, 2], vec![1, 2, 3]]
        );
        // Over k games of a set of k, every team starts once on every square.
        for k in 1..=8 {
            for i in 0..k {
                let mut squares: Vec<usize> = (0..k).map(|g| start_square(i, g, k)).collect();
                squares.sort_unstable();
                assert_eq!(squares, (1..=k).collect::<Vec<_>>());
            }
        }
        assert_eq!(start_square(0, 0, 0), 1);
    }

    /// Computed independently from the documented formula.
    const PINNED_GAME_SEEDS: [u64; 5] = [
        7_769_653_156_282_541_941,
        13_507_590_034_718_584_464,
        10_024_445_960_278_716_848,
        5_589_752_597_045_933_413,
        11_906_868_734_385_227_882,
    ];
}
