// Pass 1: k = n + 1000; pass 2: `double k` -> 2k.
#include <iostream>
#include <string>

int main() {
    std::string word;
    std::cin >> word;
    if (word == "double") {
        long long k;
        std::cin >> k;
        std::cout << 2 * k << '\n';
    } else {
        std::cout << std::stoll(word) + 1000 << '\n';
    }
}
