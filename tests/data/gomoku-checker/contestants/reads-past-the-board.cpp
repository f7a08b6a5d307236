// gomoku-checker, as a contestant wrote it: count the stones (black moves first, so black has
// as many as white or one more); a five of the player who did not move last is unreachable;
// a five of the last mover is reachable if removing one of its stones leaves no five.
//
// BUG (reads outside the array): the five test walks from a stone without any bounds check,
// trusting the rows' terminating '\0' to stop it: a walk down from the bottom row reads
// g[19][c], past the end of the board, and a walk up-right from the top row reads g[-1][c],
// before it (a walk right stops at the row's terminating '\0', in bounds). The answer is
// right unless that memory continues the run; AddressSanitizer reports a global-buffer-overflow
// read on every test with a stone of the colour tested in the bottom or top row.
// Models: access-flat, access-off-board-*.
#include <cstdio>
#include <cstring>

char g[19][20];
const int DR[4] = {0, 1, 1, -1}, DC[4] = {1, 0, 1, 1};

static bool five(char ch) {
    for (int r = 0; r < 19; r++)
        for (int c = 0; c < 19; c++) {
            if (g[r][c] != ch) continue;
            for (int d = 0; d < 4; d++) {
                int k = 0;
                while (k < 5 && g[r + k * DR[d]][c + k * DC[d]] == ch) k++;
                if (k == 5) return true;
            }
        }
    return false;
}

int main() {
    for (int r = 0; r < 19; r++)
        if (scanf("%19s", g[r]) != 1) return 1;
    int black = 0, white = 0;
    for (int r = 0; r < 19; r++)
        for (int c = 0; c < 19; c++) {
            black += g[r][c] == 'o';
            white += g[r][c] == 'x';
        }
    char last, other;
    if (black == white) { last = 'x'; other = 'o'; }
    else if (black == white + 1) { last = 'o'; other = 'x'; }
    else { puts("NO"); return 0; }
    if (five(other)) { puts("NO"); return 0; }
    if (!five(last)) { puts("YES"); return 0; }
    for (int r = 0; r < 19; r++)
        for (int c = 0; c < 19; c++)
            if (g[r][c] == last) {
                g[r][c] = '.';
                bool still = five(last);
                g[r][c] = last;
                if (!still) { puts("YES"); return 0; }
            }
    puts("NO");
}
