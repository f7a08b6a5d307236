// omok, as a contestant wrote it: from every stone, in each of the four directions, skip it
// if the cell before it holds the same colour (it is not the run's first stone), else count
// the run forward; exactly five wins.
//
// BUG (reads outside the array): the check of the cell before a stone tests only `< 19`, not
// `>= 0`: for a stone in the top row (or the left column) it reads b[-1][c] (b[r][-1]), memory
// before the board (or the previous row's last cell). The answer is right unless that memory
// holds the stone's colour; AddressSanitizer reports a global-buffer-overflow read on every
// test with a stone in the top row. Model: access-row-unchecked / access-flat.
#include <cstdio>

int b[19][19];
const int DR[4] = {0, 1, 1, -1}, DC[4] = {1, 0, 1, 1};

int main() {
    for (int r = 0; r < 19; r++)
        for (int c = 0; c < 19; c++)
            if (scanf("%d", &b[r][c]) != 1) return 1;
    for (int r = 0; r < 19; r++)
        for (int c = 0; c < 19; c++) {
            int v = b[r][c];
            if (v == 0) continue;
            for (int d = 0; d < 4; d++) {
                int pr = r - DR[d], pc = c - DC[d];
                if (pr < 19 && pc < 19 && b[pr][pc] == v) continue;
                int k = 1;
                while (k < 6) {
                    int nr = r + k * DR[d], nc = c + k * DC[d];
                    if (nr < 0 || nr >= 19 || nc < 0 || nc >= 19 || b[nr][nc] != v) break;
                    k++;
                }
                if (k == 5) {
                    printf("%d\n%d %d\n", v, r + 1, c + 1);
                    return 0;
                }
            }
        }
    printf("0\n");
}
