// Build time (Rust): the long-running const-eval lint may be allowed; rustc then evaluates
// forever.
#![allow(long_running_const_eval)]
const fn spin() -> u64 {
    let mut s = 0u64;
    let mut i = 0u64;
    while i < u64::MAX {
        s = s.wrapping_add(i ^ (i >> 3));
        i += 1;
    }
    s
}
const VALUE: u64 = spin();
fn main() {
    println!("{VALUE}");
}
