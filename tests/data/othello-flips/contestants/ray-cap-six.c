/* othello-flips, as a contestant wrote it: from P, walk each of the 8 directions over white
 * discs; a black disc after at least one white closes the run and the whites flip.
 *
 * BUG: the walk looks at the squares at distance 1 to 6 (`k < 7`): six whites closed by the
 * black disc on the far edge (P on one edge, the black disc on the other) are not flipped.
 * Model: decoy-ray-cap-six. Obligations that catch it: long/6 (and closed-at-edge from P on
 * the opposite edge). Fails on under 1 % of random positions. */
#include <stdio.h>

int main(void) {
    char b[8][9];
    int r, c, d, k, pr = 0, pc = 0;
    for (r = 0; r < 8; r++) {
        if (scanf("%8s", b[r]) != 1) return 1;
        for (c = 0; c < 8; c++)
            if (b[r][c] == 'P') { pr = r; pc = c; }
    }
    const int dr[8] = {-1, -1, -1, 0, 0, 1, 1, 1}, dc[8] = {-1, 0, 1, -1, 1, -1, 0, 1};
    int flip[8][8] = {{0}};
    for (d = 0; d < 8; d++) {
        for (k = 1; k < 7; k++) {
            int rr = pr + k * dr[d], cc = pc + k * dc[d];
            if (rr < 0 || rr >= 8 || cc < 0 || cc >= 8 || b[rr][cc] != 'W') break;
        }
        int rr = pr + k * dr[d], cc = pc + k * dc[d];
        if (k > 1 && k < 7 && rr >= 0 && rr < 8 && cc >= 0 && cc < 8 && b[rr][cc] == 'B')
            for (int j = 1; j < k; j++) flip[pr + j * dr[d]][pc + j * dc[d]] = 1;
    }
    int count = 0;
    for (r = 0; r < 8; r++)
        for (c = 0; c < 8; c++) count += flip[r][c];
    printf("%d\n", count);
    for (r = 0; r < 8; r++)
        for (c = 0; c < 8; c++)
            if (flip[r][c]) printf("%d %d\n", r + 1, c + 1);
    return 0;
}
