//! Fuzz target: `tumble::fuzzing::boardset` (see src/fuzzing.rs and docs/fuzzing.md).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tumble::fuzzing::boardset(data));
