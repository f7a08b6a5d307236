// gomoku-checker, as a contestant wrote it: the counts say who moved last; the other player
// must have no five; the last mover's fives must all be undone by removing one of its stones.
// Fives are found line by line: rows, columns, and the diagonals enumerated by their first
// cell on the top row or the left column.
//
// BUG: the diagonals are enumerated with `k < 14` where `k <= 14` was meant ("a diagonal
// needs five cells": 19 - 14 = 5 is enough), so the four diagonals of exactly five cells —
// `\` from (0, 14) and (14, 0), `/` from (4, 0) and (18, 14) — are never scanned. No random
// position puts a five there; only a five exactly there catches it (issue 34).
// Model: scan-no-corner-diagonals. Obligations that catch it: shortest/corner5/CORNER/five.
#include <cstdio>
#include <vector>

char g[19][20];

struct Line {
    int r, c, dr, dc;
};

static std::vector<Line> lines() {
    std::vector<Line> out;
    for (int k = 0; k < 19; k++) {
        out.push_back({k, 0, 0, 1});
        out.push_back({0, k, 1, 0});
    }
    for (int k = 0; k < 14; k++) {  // `\` from the top row, then from the left column
        out.push_back({0, k, 1, 1});
        if (k > 0) out.push_back({k, 0, 1, 1});
    }
    for (int k = 0; k < 14; k++) {  // `/` from the left column upward, then from the bottom row
        out.push_back({18 - k, 0, -1, 1});
        if (k > 0) out.push_back({18, k, -1, 1});
    }
    return out;
}

static bool has_five(char who) {
    static const std::vector<Line> all = lines();
    for (const Line& l : all) {
        int run = 0;
        for (int r = l.r, c = l.c; r >= 0 && r < 19 && c >= 0 && c < 19; r += l.dr, c += l.dc) {
            run = g[r][c] == who ? run + 1 : 0;
            if (run >= 5) return true;
        }
    }
    return false;
}

int main() {
    int black = 0, white = 0;
    for (int r = 0; r < 19; r++) {
        if (scanf("%19s", g[r]) != 1) return 1;
        for (int c = 0; c < 19; c++) {
            black += g[r][c] == 'o';
            white += g[r][c] == 'x';
        }
    }
    char last, other;
    if (black == white + 1) {
        last = 'o';
        other = 'x';
    } else if (black == white) {
        last = 'x';
        other = 'o';
    } else {
        puts("NO");
        return 0;
    }
    if (has_five(other)) {
        puts("NO");
        return 0;
    }
    if (!has_five(last)) {
        puts("YES");
        return 0;
    }
    for (int r = 0; r < 19; r++)
        for (int c = 0; c < 19; c++)
            if (g[r][c] == last) {
                g[r][c] = '.';
                bool still = has_five(last);
                g[r][c] = last;
                if (!still) {
                    puts("YES");
                    return 0;
                }
            }
    puts("NO");
    return 0;
}
