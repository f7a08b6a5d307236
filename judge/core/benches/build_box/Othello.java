// othello-flips in Java: walk the 8 directions from P (the first 4 are the straight ones).
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;

public class Othello {
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        char[][] board = new char[8][];
        int pr = 0, pc = 0;
        for (int r = 0; r < 8; r++) {
            board[r] = in.readLine().toCharArray();
            for (int c = 0; c < 8; c++) {
                if (board[r][c] == 'P') {
                    pr = r;
                    pc = c;
                }
            }
        }
        int[] dr = {0, 0, 1, -1, 1, 1, -1, -1};
        int[] dc = {1, -1, 0, 0, 1, -1, 1, -1};
        boolean[][] flip = new boolean[8][8];
        for (int d = 0; d < 8 /* directions */; d++) {
            int r = pr + dr[d], c = pc + dc[d], n = 0;
            while (r >= 0 && r < 8 && c >= 0 && c < 8 && board[r][c] == 'W') {
                r += dr[d];
                c += dc[d];
                n++;
            }
            if (n > 0 && r >= 0 && r < 8 && c >= 0 && c < 8 && board[r][c] == 'B') {
                for (int k = 1; k <= n; k++) {
                    flip[pr + k * dr[d]][pc + k * dc[d]] = true;
                }
            }
        }
        StringBuilder out = new StringBuilder();
        int count = 0;
        for (int r = 0; r < 8; r++) {
            for (int c = 0; c < 8; c++) {
                if (flip[r][c]) {
                    count++;
                    out.append(r + 1).append(' ').append(c + 1).append('\n');
                }
            }
        }
        System.out.print(count + "\n" + out);
    }
}
