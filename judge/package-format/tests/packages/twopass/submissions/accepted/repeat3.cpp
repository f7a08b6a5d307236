// Sends each of the 20 bits three times in a row; decodes each triple by majority, which
// survives one flipped bit.
#include <iostream>
#include <string>

int main() {
    std::string mode;
    std::cin >> mode;
    if (mode == "encode") {
        long x;
        std::cin >> x;
        std::string code;
        for (int bit = 19; bit >= 0; bit--) code += std::string(3, (x >> bit) & 1 ? '1' : '0');
        std::cout << code << "\n";
    } else {
        std::string code;
        std::cin >> code;
        long x = 0;
        for (int i = 0; i < 20; i++) {
            int ones = (code[3 * i] == '1') + (code[3 * i + 1] == '1') + (code[3 * i + 2] == '1');
            x = 2 * x + (ones >= 2);
        }
        std::cout << x << "\n";
    }
}
