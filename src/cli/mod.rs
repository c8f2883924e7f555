//! The commands of the `tumble` binary: arguments ([`args`]) and what each command prints.

pub mod args;
pub mod bench;
pub mod check;
pub mod gen;
pub mod picture;
pub mod solve;
