// Wrong: only tries divisors up to 1000, so a product of two large primes looks prime.
#include <iostream>

int main() {
    long long n;
    std::cin >> n;
    for (long long d = 2; d <= 1000 && d < n; d++) {
        if (n % d == 0) {
            std::cout << d << "\n";
            return 0;
        }
    }
    std::cout << "prime\n";
}
