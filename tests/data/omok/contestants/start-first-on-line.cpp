// omok, as a contestant wrote it (the program of issue 26): every line of every direction is
// walked from its first cell, counting the current run; a run is judged when it ends.
//
// BUG: once the five is found, "where it starts" is taken as the first stone of its colour on
// the line, found by walking the line again from its first cell: wrong when another stone of
// the same colour lies earlier on the same line.
// Model: decoy-start-first-on-line. Obligations that catch it: decoy/D/before; random games
// catch it too (it failed the default test set of an earlier wave on its random-game tests).
#include <cstdio>

int b[19][19];
const int DR[4] = {0, 1, 1, -1}, DC[4] = {1, 0, 1, 1};

static bool inside(int r, int c) { return r >= 0 && r < 19 && c >= 0 && c < 19; }

int main() {
    for (int r = 0; r < 19; r++)
        for (int c = 0; c < 19; c++)
            if (scanf("%d", &b[r][c]) != 1) return 1;
    for (int d = 0; d < 4; d++)
        for (int r = 0; r < 19; r++)
            for (int c = 0; c < 19; c++) {
                if (inside(r - DR[d], c - DC[d])) continue;
                int colour = 0, run = 0, cr = r, cc = c;
                while (true) {
                    bool in = inside(cr, cc);
                    int v = in ? b[cr][cc] : 0;
                    if (in && v != 0 && v == colour) {
                        run++;
                    } else {
                        if (colour != 0 && run == 5) {
                            int sr = r, sc = c;
                            while (b[sr][sc] != colour) { sr += DR[d]; sc += DC[d]; }
                            printf("%d\n%d %d\n", colour, sr + 1, sc + 1);
                            return 0;
                        }
                        colour = v; run = v != 0;
                    }
                    if (!in) break;
                    cr += DR[d]; cc += DC[d];
                }
            }
    printf("0\n");
}
