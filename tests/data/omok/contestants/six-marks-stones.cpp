// omok, as a contestant wrote it: every line of every direction is walked from its first
// cell, counting the current run; a run is judged when it ends (an empty cell, the other
// colour, or the edge). `/` lines are walked up-right from their bottom-left end.
//
// BUG: the stones of a run of six or more are marked dead ("they can never win") and read as
// empty in the directions walked later, so a five that shares a stone with a six along
// another line is missed when the six's direction is walked first.
// Model: decoy-six-marks-stones. Obligations that catch it: meet/five-six/D.
#include <cstdio>

int b[19][19];
bool dead[19][19];
const int DR[4] = {0, 1, 1, -1}, DC[4] = {1, 0, 1, 1};

static bool inside(int r, int c) { return r >= 0 && r < 19 && c >= 0 && c < 19; }

int main() {
    for (int r = 0; r < 19; r++)
        for (int c = 0; c < 19; c++)
            if (scanf("%d", &b[r][c]) != 1) return 1;
    int winner = 0, wr = 0, wc = 0;
    for (int d = 0; d < 4; d++) {
        for (int r = 0; r < 19; r++) {
            for (int c = 0; c < 19; c++) {
                if (inside(r - DR[d], c - DC[d])) continue;  // not the first cell of a line
                int colour = 0, run = 0, sr = r, sc = c, cr = r, cc = c;
                while (true) {
                    bool in = inside(cr, cc);
                    int v = in ? (dead[cr][cc] ? 0 : b[cr][cc]) : 0;
                    if (in && v != 0 && v == colour) {
                        run++;
                    } else {
                        if (colour != 0 && run == 5 && !winner) { winner = colour; wr = sr; wc = sc; }
                        if (colour != 0 && run >= 6)
                            for (int k = 0; k < run; k++) dead[sr + k * DR[d]][sc + k * DC[d]] = true;
                        colour = v; run = v != 0; sr = cr; sc = cc;
                    }
                    if (!in) break;
                    cr += DR[d]; cc += DC[d];
                }
            }
        }
    }
    if (winner) printf("%d\n%d %d\n", winner, wr + 1, wc + 1);
    else printf("0\n");
}
