// Crashes: sieves smallest prime factors up to n, which needs n bytes; for n near 10^12 the
// allocation fails (std::bad_alloc, or the memory limit kills it).
#include <iostream>
#include <vector>

int main() {
    long long n;
    std::cin >> n;
    std::vector<char> composite(n + 1);
    for (long long d = 2; d * d <= n; d++) {
        if (composite[d]) continue;
        if (n % d == 0) {
            std::cout << d << "\n";
            return 0;
        }
        for (long long m = d * d; m <= n; m += d) composite[m] = 1;
    }
    std::cout << "prime\n";
}
