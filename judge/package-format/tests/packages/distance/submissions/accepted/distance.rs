// Square root of the sum of squares, printed with Rust's shortest round-trip formatting.
use std::io::{self, Read};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let numbers: Vec<f64> = input
        .split_ascii_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    let q = numbers[0] as usize;
    for query in numbers[1..].chunks(4).take(q) {
        let (dx, dy) = (query[2] - query[0], query[3] - query[1]);
        println!("{}", (dx * dx + dy * dy).sqrt());
    }
}
