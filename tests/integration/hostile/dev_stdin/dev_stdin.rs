use std::io::Write;
fn main() {
    let input = std::fs::read_to_string("/dev/stdin").unwrap();
    let mut out = std::fs::OpenOptions::new().write(true).open("/dev/stdout").unwrap();
    writeln!(out, "{}", if input.lines().count() == 8 { 0 } else { 1 }).unwrap();
}
