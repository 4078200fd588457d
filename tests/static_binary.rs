//! Claude Code starts the binary anew on every hook event, and on Linux with glibc
//! most of a do-nothing run was the dynamic loader: mapping libc, libm and
//! libgcc_s and relocating their symbols (docs/performance.md, "Start-up: one
//! static binary"). `.cargo/config.toml` links it statically, and keeps it
//! position-independent so that ASLR still places it at random.
#![cfg(all(target_os = "linux", target_env = "gnu", target_pointer_width = "64"))]

const PT_INTERP: u32 = 3;
const ET_DYN: u16 = 3;

struct Elf {
    kind: u16,
    segment_kinds: Vec<u32>,
}

fn read_elf(bytes: &[u8]) -> Elf {
    assert_eq!(bytes.get(..4), Some(&b"\x7fELF"[..]), "not an ELF file");
    assert_eq!(bytes[4], 2, "not a 64-bit ELF file");
    assert_eq!(bytes[5], 1, "not little-endian");
    let u16_at = |at: usize| u16::from_le_bytes([bytes[at], bytes[at + 1]]);
    let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
    let table = usize::try_from(u64_at(32)).unwrap();
    let (entry, count) = (usize::from(u16_at(54)), usize::from(u16_at(56)));
    Elf {
        kind: u16_at(16),
        segment_kinds: (0..count).map(|i| u32_at(table + i * entry)).collect(),
    }
}

#[test]
fn the_binary_needs_no_dynamic_loader_and_is_still_position_independent() {
    let bytes = std::fs::read(env!("CARGO_BIN_EXE_resume-tui")).unwrap();
    let elf = read_elf(&bytes);
    assert!(
        !elf.segment_kinds.contains(&PT_INTERP),
        "the binary names a dynamic loader (PT_INTERP): it is linked dynamically; \
         is .cargo/config.toml's crt-static in effect?"
    );
    assert_eq!(
        elf.kind, ET_DYN,
        "the binary is not position-independent (static-pie): ASLR cannot move it"
    );
}

#[test]
fn the_check_tells_a_dynamically_linked_program_apart() {
    // /bin/sh on any glibc system is dynamically linked: the check must see its loader.
    let bytes = std::fs::read("/bin/sh").unwrap();
    let elf = read_elf(&bytes);
    assert!(elf.segment_kinds.contains(&PT_INTERP));
}
