//! The commands of the `tumble` binary: arguments ([`args`]), what each command prints,
//! and Ctrl-C ([`stop`]).

pub mod args;
pub mod bench;
pub mod check;
pub mod gen;
pub mod merge;
pub mod picture;
#[cfg(feature = "server")]
pub mod serve;
pub mod solve;
pub mod stop;

/// `n` and `word`, the word plural unless `n` is 1: `1 move`, `2 moves`.
pub fn count(n: u64, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

#[cfg(test)]
mod tests {
    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        let said: Vec<String> = [0, 1, 2, 11].map(|n| super::count(n, "move")).into();
        assert_eq!(said, ["0 moves", "1 move", "2 moves", "11 moves"]);
    }
}
