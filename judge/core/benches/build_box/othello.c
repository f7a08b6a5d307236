/* othello-flips in C: walk the 8 directions from P (the first 4 are the straight ones). */
#include <stdio.h>

int main(void) {
    char board[8][16];
    int pr = 0, pc = 0;
    for (int r = 0; r < 8; r++) {
        if (scanf("%15s", board[r]) != 1) return 1;
        for (int c = 0; c < 8; c++)
            if (board[r][c] == 'P') { pr = r; pc = c; }
    }
    int dr[] = {0, 0, 1, -1, 1, 1, -1, -1};
    int dc[] = {1, -1, 0, 0, 1, -1, 1, -1};
    int flip[8][8] = {{0}};
    for (int d = 0; d < 8 /* directions */; d++) {
        int r = pr + dr[d], c = pc + dc[d], n = 0;
        while (r >= 0 && r < 8 && c >= 0 && c < 8 && board[r][c] == 'W') { r += dr[d]; c += dc[d]; n++; }
        if (n > 0 && r >= 0 && r < 8 && c >= 0 && c < 8 && board[r][c] == 'B')
            for (int k = 1; k <= n; k++) flip[pr + k * dr[d]][pc + k * dc[d]] = 1;
    }
    int count = 0;
    for (int r = 0; r < 8; r++) for (int c = 0; c < 8; c++) count += flip[r][c];
    printf("%d\n", count);
    for (int r = 0; r < 8; r++) for (int c = 0; c < 8; c++) if (flip[r][c]) printf("%d %d\n", r + 1, c + 1);
    return 0;
}
