//! Tells the code whether BMI2's `pext` and `pdep`, where the build may use them, are slow.
//!
//! AMD's CPUs before Zen 3 (family 0x19) run the two instructions in microcode: dozens of
//! cycles for a mask of a few bits, hundreds for a full word, where a few shifts and tests
//! take a handful. On those the build sets `slow_pext` and the engine uses its own bit
//! loops instead (`src/bits.rs`). The CPU is the one named by `-C target-cpu`, or for
//! `native` the build machine's own, read with `cpuid`, when it is also the target.

fn main() {
    println!("cargo::rustc-check-cfg=cfg(slow_pext)");
    println!("cargo::rerun-if-changed=build.rs");
    let flags = std::env::var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default();
    let Some(cpu) = target_cpu(&flags) else {
        return;
    };
    let slow = match cpu.as_str() {
        "native" => {
            let host = std::env::var("HOST").unwrap_or_default();
            let target = std::env::var("TARGET").unwrap_or_default();
            host == target && native_is_slow()
        }
        named => SLOW_CPUS.contains(&named),
    };
    if slow {
        println!("cargo::rustc-cfg=slow_pext");
    }
}

/// LLVM's names of the AMD CPUs with BMI2 in microcode: Excavator and Zen 1 to 2.
const SLOW_CPUS: [&str; 3] = ["bdver4", "znver1", "znver2"];

/// The last `target-cpu` the flags (as cargo passes them, split by `\x1f`) set, whether
/// given as `-C target-cpu=X`, `-Ctarget-cpu=X` or `--codegen target-cpu=X`.
fn target_cpu(flags: &str) -> Option<String> {
    flags
        .split('\x1f')
        .filter_map(|f| {
            f.trim_start_matches("-C")
                .trim_start_matches("--codegen")
                .strip_prefix("target-cpu=")
        })
        .next_back()
        .map(str::to_owned)
}

/// Is this machine an AMD (or Hygon) CPU of a family before 0x19 (Zen 3)? Its BMI2, if any,
/// is then in microcode.
#[cfg(target_arch = "x86_64")]
fn native_is_slow() -> bool {
    use std::arch::x86_64::__cpuid;
    // SAFETY: `cpuid` is on every x86-64 CPU; leaves 0 and 1 always exist.
    #[allow(unused_unsafe)]
    let (vendor, signature) = unsafe { (__cpuid(0), __cpuid(1).eax) };
    // "AuthenticAMD", or Hygon's "HygonGenuine" (family 0x18, a Zen 1)
    let id = [vendor.ebx, vendor.edx, vendor.ecx];
    let amd = id == [0x6874_7541, 0x6974_6e65, 0x444d_4163]
        || id == [0x6f67_7948, 0x6e65_476e, 0x656e_6975];
    // the family: the base field, plus the extended one where the base is 0xf
    let base = (signature >> 8) & 0xf;
    let family = if base == 0xf {
        base + ((signature >> 20) & 0xff)
    } else {
        base
    };
    amd && family < 0x19
}

#[cfg(not(target_arch = "x86_64"))]
fn native_is_slow() -> bool {
    false
}
