// omok, as a contestant wrote it: every stone in row-major order, each of the four directions
// from it when the stone starts the run there (the cell before it is not its colour),
// counting forward. `/` is walked up-right, so a run's first stone is its leftmost.
//
// BUG: a run of six or more from the stone leaves the direction loop with `break` (meant:
// `continue`), so the stone's later directions are never checked: a five that starts at a
// stone which starts a six in an earlier direction is missed (issue 34).
// Model: decoy-six-breaks-directions. Obligations that catch it: meet/six-start-five/SIX/FIVE.
#include <cstdio>

int b[19][19];
const int DR[4] = {0, 1, 1, -1}, DC[4] = {1, 0, 1, 1};

static bool inside(int r, int c) { return r >= 0 && r < 19 && c >= 0 && c < 19; }
static int at(int r, int c) { return inside(r, c) ? b[r][c] : 0; }

int main() {
    for (int r = 0; r < 19; r++)
        for (int c = 0; c < 19; c++)
            if (scanf("%d", &b[r][c]) != 1) return 1;
    for (int r = 0; r < 19; r++) {
        for (int c = 0; c < 19; c++) {
            int colour = b[r][c];
            if (colour == 0) continue;
            for (int d = 0; d < 4; d++) {
                if (at(r - DR[d], c - DC[d]) == colour) continue;
                int len = 0;
                while (at(r + len * DR[d], c + len * DC[d]) == colour) len++;
                if (len == 5) {
                    printf("%d\n%d %d\n", colour, r + 1, c + 1);
                    return 0;
                }
                if (len > 5) break;
            }
        }
    }
    printf("0\n");
    return 0;
}
