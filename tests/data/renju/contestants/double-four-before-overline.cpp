// renju, as a contestant wrote it: the RIF definitions applied literally on the board, with
// the recursive three (its straight-four point must not be forbidden itself).
//
// BUG: after the five, the checks come in the order the contestant remembered them:
// double four, then overline, then double three. A move that makes an overline along one line
// and two fours along the others is called DOUBLE-FOUR; it is an OVERLINE.
// Model: decoy-double-four-before-overline. Obligations that catch it:
// meet/overline-double-four. Fails on well under 1 % of random positions.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

const int N = 15;
char g[N][N + 1];
const int DR[4] = {0, 1, 1, -1}, DC[4] = {1, 0, 1, 1};

static bool inside(int r, int c) { return r >= 0 && r < N && c >= 0 && c < N; }
static bool black(int r, int c) { return inside(r, c) && g[r][c] == 'X'; }

// The black stones of the run through (r, c) along d, sorted.
static std::vector<int> run(int r, int c, int d) {
    std::vector<int> cells;
    if (!black(r, c)) return cells;
    cells.push_back(r * N + c);
    for (int s = -1; s <= 1; s += 2)
        for (int k = 1; black(r + s * k * DR[d], c + s * k * DC[d]); k++)
            cells.push_back((r + s * k * DR[d]) * N + c + s * k * DC[d]);
    std::sort(cells.begin(), cells.end());
    return cells;
}

static int fours(int r, int c, int d) {
    std::vector<std::vector<int>> sets;
    for (int k = -4; k <= 4; k++) {
        int qr = r + k * DR[d], qc = c + k * DC[d];
        if (k == 0 || !inside(qr, qc) || g[qr][qc] != '.') continue;
        g[qr][qc] = 'X';
        std::vector<int> five = run(qr, qc, d);
        g[qr][qc] = '.';
        if (five.size() != 5 || !std::count(five.begin(), five.end(), r * N + c)) continue;
        five.erase(std::find(five.begin(), five.end(), qr * N + qc));
        if (std::find(sets.begin(), sets.end(), five) == sets.end()) sets.push_back(five);
    }
    return (int)sets.size();
}

static bool straight_four(int r, int c, int d) {
    std::vector<int> four = run(r, c, d);
    if (four.size() != 4) return false;
    int points = 0;
    for (int k = -5; k <= 5; k++) {
        int qr = r + k * DR[d], qc = c + k * DC[d];
        if (!inside(qr, qc) || g[qr][qc] != '.') continue;
        g[qr][qc] = 'X';
        std::vector<int> five = run(qr, qc, d);
        g[qr][qc] = '.';
        if (five.size() == 5 && std::includes(five.begin(), five.end(), four.begin(), four.end())) points++;
    }
    return points == 2;
}

static std::string classify(int r, int c);

static bool makes_five(int r, int c) {
    g[r][c] = 'X';
    bool five = false;
    for (int d = 0; d < 4; d++) five = five || run(r, c, d).size() == 5;
    g[r][c] = '.';
    return five;
}

static bool forbidden(const std::string& a) {
    return a == "OVERLINE" || a == "DOUBLE-FOUR" || a == "DOUBLE-THREE";
}

static bool three(int r, int c, int d) {
    for (int k = -4; k <= 4; k++) {
        int qr = r + k * DR[d], qc = c + k * DC[d];
        if (k == 0 || !inside(qr, qc) || g[qr][qc] != '.') continue;
        g[qr][qc] = 'X';
        std::vector<int> through = run(r, c, d);
        bool straight = std::count(through.begin(), through.end(), qr * N + qc) && straight_four(r, c, d);
        g[qr][qc] = '.';
        if (straight && !makes_five(qr, qc) && !forbidden(classify(qr, qc))) return true;
    }
    return false;
}

static std::string classify(int r, int c) {
    g[r][c] = 'X';
    std::string answer;
    int longest = 0, total = 0, threes = 0, f[4];
    bool five = false;
    for (int d = 0; d < 4; d++) {
        int len = (int)run(r, c, d).size();
        five = five || len == 5;
        longest = std::max(longest, len);
    }
    if (five) answer = "FIVE";
    if (answer.empty()) {
        for (int d = 0; d < 4; d++) total += f[d] = fours(r, c, d);
        if (total >= 2) answer = "DOUBLE-FOUR";
        else if (longest >= 6) answer = "OVERLINE";
    }
    if (answer.empty()) {
        for (int d = 0; d < 4; d++) threes += f[d] == 0 && three(r, c, d);
        if (threes >= 2) answer = "DOUBLE-THREE";
        else if (total == 1 && threes == 1) answer = "FOUR-THREE";
        else if (total == 1) answer = "FOUR";
        else if (threes == 1) answer = "THREE";
        else answer = "NONE";
    }
    g[r][c] = '.';
    return answer;
}

int main() {
    for (int r = 0; r < N; r++)
        if (scanf("%15s", g[r]) != 1) return 1;
    int row, col;
    if (scanf("%d %d", &row, &col) != 2) return 1;
    printf("%s\n", classify(row - 1, col - 1).c_str());
}
