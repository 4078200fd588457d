//! Choices drawn from fuzz bytes: each call consumes bytes, and an exhausted input
//! keeps answering zero, so every input decodes to something.

pub struct Source<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Source<'a> {
    pub fn new(data: &'a [u8]) -> Source<'a> {
        Source { data, pos: 0 }
    }

    pub fn byte(&mut self) -> u8 {
        let b = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            return 0;
        }
        let raw = u16::from_le_bytes([self.byte(), self.byte()]) as usize;
        raw % n
    }

    /// True about `per256` times in 256.
    pub fn chance(&mut self, per256: u8) -> bool {
        self.byte() < per256
    }

    pub fn pick<'t, T>(&mut self, items: &'t [T]) -> &'t T {
        &items[self.below(items.len())]
    }

    pub fn exhausted(&self) -> bool {
        self.pos >= self.data.len()
    }

    /// The bytes not consumed yet.
    pub fn rest(&self) -> &'a [u8] {
        self.data.get(self.pos..).unwrap_or_default()
    }
}
