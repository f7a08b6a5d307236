// Binary search: at most floor(log2 N) + 1 <= 60 guesses.
#include <iostream>
#include <string>

int main() {
    long long n;
    std::cin >> n;
    long long lo = 1, hi = n;
    while (true) {
        long long mid = lo + (hi - lo) / 2;
        std::cout << mid << std::endl;  // endl flushes
        std::string answer;
        if (!(std::cin >> answer) || answer == "correct") return 0;
        if (answer == "higher") lo = mid + 1;
        else hi = mid - 1;
    }
}
