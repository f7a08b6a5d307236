// Binary search in the first pass; the note is the number in base 36 (at most 2 characters).
use std::io::{self, BufRead, Write};

fn to_base36(mut x: u32) -> String {
    let digits = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut out = Vec::new();
    while x > 0 {
        out.push(digits[(x % 36) as usize]);
        x /= 36;
    }
    out.reverse();
    String::from_utf8(out).unwrap()
}

fn main() {
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines();
    let mut out = io::stdout();
    let first = lines.next().unwrap().unwrap();
    let mut words = first.split_whitespace();
    let mode = words.next().unwrap();
    let value = words.next().unwrap();
    if mode == "recall" {
        let x = u32::from_str_radix(value, 36).unwrap();
        writeln!(out, "! {}", x).unwrap();
        out.flush().unwrap();
        return;
    }
    let (mut lo, mut hi): (u32, u32) = (1, value.parse().unwrap());
    loop {
        let mid = (lo + hi) / 2;
        writeln!(out, "? {}", mid).unwrap();
        out.flush().unwrap();
        let answer = lines.next().unwrap().unwrap();
        match answer.trim() {
            "correct" => {
                writeln!(out, "! {}", to_base36(mid)).unwrap();
                out.flush().unwrap();
                return;
            }
            "higher" => lo = mid + 1,
            _ => hi = mid - 1,
        }
    }
}
