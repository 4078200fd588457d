#![no_main]

#[path = "../../tests/fuzz_support/mod.rs"]
#[allow(dead_code)]
mod fuzz_support;

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzz_support::parse::yaml_aliases(data));
