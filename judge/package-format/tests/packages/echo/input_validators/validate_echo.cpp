// Input validator of "Echo Back". Usage: validate_echo [small] < input.
// Exit code 42: valid; 43: invalid (the reason on stderr).
// Without flags: 1 <= n <= 2000 and |a_i| <= 10^18; with `small`: n <= 10 and 0 <= a_i <= 100.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

static void reject(const std::string& why) {
    std::fprintf(stderr, "%s\n", why.c_str());
    std::exit(43);
}

static int peek() {
    int c = std::getchar();
    if (c != EOF) std::ungetc(c, stdin);
    return c;
}

static void expect(char want, const char* what) {
    if (std::getchar() != want) reject(std::string("expected ") + what);
}

// An integer in canonical form (no `+`, no leading zeros, no `-0`) within [lo, hi].
static long long integer(long long lo, long long hi) {
    std::string text;
    while (text.size() < 21) {
        int c = peek();
        if (!(c == '-' && text.empty()) && !(c >= '0' && c <= '9')) break;
        text.push_back(static_cast<char>(std::getchar()));
    }
    const char* digits = text.c_str() + (text[0] == '-' ? 1 : 0);
    size_t length = std::strlen(digits);
    if (length == 0 || length > 19 || (digits[0] == '0' && (length > 1 || text[0] == '-')))
        reject("expected an integer, got `" + text + "`");
    long long value = std::strtoll(text.c_str(), nullptr, 10);  // 19 digits fit in 64 bits
    if (value < lo || value > hi) reject("integer " + text + " out of range");
    return value;
}

int main(int argc, char** argv) {
    bool small = false;
    for (int i = 1; i < argc; i++) {
        if (std::strcmp(argv[i], "small") == 0) small = true;
        else reject(std::string("unknown flag ") + argv[i]);
    }
    const long long bound = 1000000000000000000LL;
    long long n = integer(1, small ? 10 : 2000);
    expect('\n', "a newline after n");
    for (long long i = 0; i < n; i++) {
        if (i > 0) expect(' ', "a single space between the numbers");
        integer(small ? 0 : -bound, small ? 100 : bound);
    }
    expect('\n', "a newline after the numbers");
    if (std::getchar() != EOF) reject("trailing data after the numbers");
    return 42;
}
