//! Fuzz target: `tumble::fuzzing::api_json` (see src/fuzzing.rs and docs/fuzzing.md).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tumble::fuzzing::api_json(data));
