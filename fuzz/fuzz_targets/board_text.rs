//! Fuzz target: `tumble::fuzzing::board_text` (see src/fuzzing.rs and docs/fuzzing.md).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tumble::fuzzing::board_text(data));
