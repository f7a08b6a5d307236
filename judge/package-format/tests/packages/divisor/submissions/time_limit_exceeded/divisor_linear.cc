// Too slow: tries every d below n, about 10^12 steps when n is a large prime.
#include <iostream>

int main() {
    long long n;
    std::cin >> n;
    for (long long d = 2; d < n; d++) {
        if (n % d == 0) {
            std::cout << d << "\n";
            return 0;
        }
    }
    std::cout << "prime\n";
}
