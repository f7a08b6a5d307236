// Crashes at the end of the second pass, after answering: it logs its first guess to stderr,
// but the second pass makes no guesses, and history.at(0) throws std::out_of_range.
#include <iostream>
#include <string>
#include <vector>

int main() {
    std::string word, value;
    std::cin >> word >> value;
    std::vector<long> history;
    if (word == "guess") {
        long lo = 1, hi = std::stol(value);
        while (true) {
            long mid = (lo + hi) / 2;
            history.push_back(mid);
            std::cout << "? " << mid << std::endl;
            std::string answer;
            std::cin >> answer;
            if (answer == "correct") {
                std::cout << "! " << mid << std::endl;
                break;
            }
            if (answer == "higher") lo = mid + 1;
            else hi = mid - 1;
        }
    } else {
        std::cout << "! " << value << std::endl;
    }
    std::cerr << "first guess: " << history.at(0) << "\n";
}
