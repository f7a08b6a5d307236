// Helpers for an interactive output validator: verdicts with feedback files, and reading and
// writing the submission's lines without trusting it (long lines, early exits, closed pipes).
//
// Invocation (the format's): validator input answer feedback_dir [args] < team_output > team_input
#pragma once

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace interaction {

inline std::string feedback_dir;

// Remembers the feedback folder; a submission that exits early must not kill the validator
// with SIGPIPE (that would be a judge error): writes fail with EPIPE instead.
inline void init(int argc, char** argv) {
    if (argc < 4) {
        std::fprintf(stderr, "usage: %s input answer feedback_dir [args]\n", argv[0]);
        std::exit(1);
    }
    feedback_dir = argv[3];
    if (!feedback_dir.empty() && feedback_dir.back() != '/') feedback_dir += '/';
    std::signal(SIGPIPE, SIG_IGN);
}

// Appends `message` to judgemessage.txt and exits with 42 (accepted) or 43 (wrong answer).
[[noreturn]] inline void verdict(bool accepted, const std::string& message) {
    if (FILE* f = std::fopen((feedback_dir + "judgemessage.txt").c_str(), "a")) {
        std::fprintf(f, "%s\n", message.c_str());
        std::fclose(f);
    }
    std::exit(accepted ? 42 : 43);
}

// Sends one line to the submission, flushed.
inline void send(const std::string& line) {
    if (std::fprintf(stdout, "%s\n", line.c_str()) < 0 || std::fflush(stdout) != 0)
        verdict(false, "the submission stopped reading");
}

// Reads one line of at most `max_length` characters, without the newline and with surrounding
// spaces, tabs and carriage returns removed. False at the end of the submission's output.
inline bool read_line(std::string& line, size_t max_length) {
    line.clear();
    int c;
    while ((c = std::getchar()) != EOF && c != '\n') {
        if (line.size() == max_length) verdict(false, "a line longer than expected");
        line.push_back(static_cast<char>(c));
    }
    if (c == EOF && line.empty()) return false;
    size_t first = line.find_first_not_of(" \t\r");
    size_t last = line.find_last_not_of(" \t\r");
    line = first == std::string::npos ? "" : line.substr(first, last - first + 1);
    return true;
}

// Parses a positive decimal integer that fits in 64 bits (no sign, no leading zeros).
inline bool parse_positive(const std::string& text, long long& value) {
    if (text.empty() || text.size() > 19 || text[0] == '0') return false;
    value = 0;
    for (char c : text) {
        if (c < '0' || c > '9') return false;
        if (value > (9223372036854775807LL - (c - '0')) / 10) return false;
        value = value * 10 + (c - '0');
    }
    return true;
}

}  // namespace interaction
