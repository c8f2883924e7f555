//! Fuzz target: `tumble::fuzzing::check_moves` (see src/fuzzing.rs and docs/fuzzing.md).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tumble::fuzzing::check_moves(data));
