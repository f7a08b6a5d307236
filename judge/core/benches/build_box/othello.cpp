// othello-flips in C++: walk the 8 directions from P (the first 4 are the straight ones).
#include <array>
#include <iostream>
#include <string>

int main() {
    std::array<std::string, 8> board;
    int pr = 0, pc = 0;
    for (int r = 0; r < 8; r++) {
        std::cin >> board[r];
        if (auto c = board[r].find('P'); c != std::string::npos) { pr = r; pc = static_cast<int>(c); }
    }
    const int dr[] = {0, 0, 1, -1, 1, 1, -1, -1};
    const int dc[] = {1, -1, 0, 0, 1, -1, 1, -1};
    auto inside = [](int r, int c) { return r >= 0 && r < 8 && c >= 0 && c < 8; };
    bool flip[8][8] = {};
    for (int d = 0; d < 8 /* directions */; d++) {
        int r = pr + dr[d], c = pc + dc[d], n = 0;
        while (inside(r, c) && board[r][c] == 'W') { r += dr[d]; c += dc[d]; n++; }
        if (n > 0 && inside(r, c) && board[r][c] == 'B')
            for (int k = 1; k <= n; k++) flip[pr + k * dr[d]][pc + k * dc[d]] = true;
    }
    std::string out;
    int count = 0;
    for (int r = 0; r < 8; r++)
        for (int c = 0; c < 8; c++)
            if (flip[r][c]) { count++; out += std::to_string(r + 1) + " " + std::to_string(c + 1) + "\n"; }
    std::cout << count << "\n" << out;
}
