//! xorshift64*: a small deterministic generator, the same sequence for the same
//! seed everywhere (tests and the benchmarks' workspace generator).

/// The state; a seed of 0 stays 0, so seed it with anything else.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}
