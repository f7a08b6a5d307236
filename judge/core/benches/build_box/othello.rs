// othello-flips in Rust: walk the 8 directions from P (the first 4 are the straight ones).
use std::io::Read;

fn main() {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).unwrap();
    let board: Vec<&[u8]> = text.lines().take(8).map(|l| l.as_bytes()).collect();
    let (mut pr, mut pc) = (0i32, 0i32);
    for r in 0..8 {
        for c in 0..8 {
            if board[r][c] == b'P' {
                pr = r as i32;
                pc = c as i32;
            }
        }
    }
    let dr = [0, 0, 1, -1, 1, 1, -1, -1];
    let dc = [1, -1, 0, 0, 1, -1, 1, -1];
    let at = |r: i32, c: i32| {
        if r >= 0 && r < 8 && c >= 0 && c < 8 {
            board[r as usize][c as usize]
        } else {
            b'-'
        }
    };
    let mut flip = [[false; 8]; 8];
    for d in 0..8 /* directions */ {
        let (mut r, mut c, mut n) = (pr + dr[d], pc + dc[d], 0);
        while at(r, c) == b'W' {
            r += dr[d];
            c += dc[d];
            n += 1;
        }
        if n > 0 && at(r, c) == b'B' {
            for k in 1..=n {
                flip[(pr + k * dr[d]) as usize][(pc + k * dc[d]) as usize] = true;
            }
        }
    }
    let mut out = String::new();
    let mut count = 0;
    for r in 0..8 {
        for c in 0..8 {
            if flip[r][c] {
                count += 1;
                out.push_str(&format!("{} {}\n", r + 1, c + 1));
            }
        }
    }
    print!("{}\n{}", count, out);
}
