// Interactive validator of "Guess the Number": the input file holds N and x; the submission
// gets N, then guesses, and is told lower, higher or correct; at most 60 guesses.
#include <cstdio>
#include <string>

#include "interaction.h"

using interaction::verdict;

int main(int argc, char** argv) {
    interaction::init(argc, argv);
    long long n = 0, x = 0;
    FILE* input = std::fopen(argv[1], "r");
    if (input == nullptr || std::fscanf(input, "%lld %lld", &n, &x) != 2) {
        std::fprintf(stderr, "cannot read N and x from %s\n", argv[1]);
        return 1;
    }
    std::fclose(input);
    const int max_guesses = 60;

    interaction::send(std::to_string(n));
    for (int guesses = 1;; guesses++) {
        std::string line;
        if (!interaction::read_line(line, 100))
            verdict(false, "the submission stopped after " + std::to_string(guesses - 1) +
                               " guesses without finding x = " + std::to_string(x));
        long long guess = 0;
        if (!interaction::parse_positive(line, guess) || guess > n)
            verdict(false, "guess " + std::to_string(guesses) + ": `" + line +
                               "` is not an integer between 1 and " + std::to_string(n));
        if (guess == x) {
            interaction::send("correct");
            if (interaction::read_line(line, 100))
                verdict(false, "output after the number was found: `" + line + "`");
            verdict(true, "found x = " + std::to_string(x) + " in " + std::to_string(guesses) +
                              " guesses");
        }
        if (guesses == max_guesses)
            verdict(false, std::to_string(max_guesses) + " guesses without finding x = " +
                               std::to_string(x));
        interaction::send(guess > x ? "lower" : "higher");
    }
}
