//! The commands of the `tumble` binary: arguments ([`args`]), what each command prints,
//! and Ctrl-C ([`stop`]).

pub mod args;
pub mod bench;
pub mod check;
pub mod gen;
pub mod picture;
#[cfg(feature = "server")]
pub mod serve;
pub mod solve;
pub mod stop;
