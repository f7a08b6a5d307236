/* omok, as a contestant wrote it: every line of every direction is walked from its first
 * cell; at a stone the run is counted to its end and judged, then the walk goes on after it.
 * `/` lines are walked up-right from their bottom-left end.
 *
 * BUG: after a run of six or more the walk jumps one cell too far ("the cell after a six can
 * never start a five": it can, of the other colour), so a five of the other colour starting
 * right after the six is counted from its second stone, a four (issue 34).
 * Model: decoy-skip-after-six. Obligations that catch it: touch-six/D.
 */
#include <stdio.h>

int b[19][19];
const int DR[4] = {0, 1, 1, -1}, DC[4] = {1, 0, 1, 1};

static int inside(int r, int c) { return r >= 0 && r < 19 && c >= 0 && c < 19; }

int main(void) {
    for (int r = 0; r < 19; r++)
        for (int c = 0; c < 19; c++)
            if (scanf("%d", &b[r][c]) != 1) return 1;
    int winner = 0, wr = 0, wc = 0;
    for (int d = 0; d < 4; d++) {
        for (int r = 0; r < 19; r++) {
            for (int c = 0; c < 19; c++) {
                if (inside(r - DR[d], c - DC[d])) continue; /* not the first cell of a line */
                int cr = r, cc = c;
                while (inside(cr, cc)) {
                    int colour = b[cr][cc];
                    if (colour == 0) {
                        cr += DR[d];
                        cc += DC[d];
                        continue;
                    }
                    int len = 0;
                    while (inside(cr + len * DR[d], cc + len * DC[d]) &&
                           b[cr + len * DR[d]][cc + len * DC[d]] == colour)
                        len++;
                    if (len == 5) {
                        /* the leftmost stone: for `/` the first cell walked */
                        int sr = cr, sc = cc;
                        if (!winner || sr < wr || (sr == wr && sc < wc)) {
                            winner = colour;
                            wr = sr;
                            wc = sc;
                        }
                    }
                    int skip = len >= 6 ? len + 1 : len;
                    cr += skip * DR[d];
                    cc += skip * DC[d];
                }
            }
        }
    }
    if (winner)
        printf("%d\n%d %d\n", winner, wr + 1, wc + 1);
    else
        printf("0\n");
    return 0;
}
