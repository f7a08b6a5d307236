/* omok, as a contestant wrote it: every line of every direction is walked from its first
 * cell, counting the current run; a run is judged when it ends. `/` lines are walked up-right
 * from their bottom-left end.
 *
 * BUG: the run is counted only up to six ("six or more is all we need to know"): the seventh
 * stone of a run starts a new run, so a run of 11 (or 17) ends in a phantom five.
 * Model: decoy-count-capped-at-six. Obligations that catch it: long/11, long/13+ (17). */
#include <stdio.h>

int b[19][19];
const int DR[4] = {0, 1, 1, -1}, DC[4] = {1, 0, 1, 1};

static int inside(int r, int c) { return r >= 0 && r < 19 && c >= 0 && c < 19; }

int main(void) {
    int r, c, d;
    for (r = 0; r < 19; r++)
        for (c = 0; c < 19; c++)
            if (scanf("%d", &b[r][c]) != 1) return 1;
    int winner = 0, wr = 0, wc = 0;
    for (d = 0; d < 4; d++)
        for (r = 0; r < 19; r++)
            for (c = 0; c < 19; c++) {
                if (inside(r - DR[d], c - DC[d])) continue;
                int colour = 0, run = 0, sr = r, sc = c, cr = r, cc = c;
                for (;;) {
                    int in = inside(cr, cc);
                    int v = in ? b[cr][cc] : 0;
                    if (in && v != 0 && v == colour && run < 6) {
                        run++;
                    } else {
                        if (colour != 0 && run == 5 && !winner) { winner = colour; wr = sr; wc = sc; }
                        colour = v; run = v != 0; sr = cr; sc = cc;
                    }
                    if (!in) break;
                    cr += DR[d]; cc += DC[d];
                }
            }
    if (winner) printf("%d\n%d %d\n", winner, wr + 1, wc + 1);
    else printf("0\n");
    return 0;
}
