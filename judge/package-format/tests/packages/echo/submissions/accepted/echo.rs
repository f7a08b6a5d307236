// Parses every number as i64 (|a_i| <= 10^18 fits) and prints them back in reverse order.
use std::io::{self, Read, Write};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut tokens = input.split_ascii_whitespace();
    let n: usize = tokens.next().unwrap().parse().unwrap();
    let numbers: Vec<i64> = tokens.take(n).map(|t| t.parse().unwrap()).collect();
    let reversed: Vec<String> = numbers.iter().rev().map(|x| x.to_string()).collect();
    let stdout = io::stdout();
    writeln!(stdout.lock(), "{}", reversed.join(" ")).unwrap();
}
