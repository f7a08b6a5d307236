/* Interactive multi-pass validator of "Remember the Number".
 *
 * Invocation (the format's): validator input answer feedback_dir < team_output > team_input
 * The input file holds N and x. Pass 1: questions, then a note; the validator stores x and the
 * note in feedback_dir/state.txt (the feedback folder persists between passes; the input file
 * of pass 2 may be the original or nextpass.in, so it is not read again) and writes
 * nextpass.in to ask for a second pass. Pass 2: `recall NOTE`, then the answer.
 * Exit code 42: accepted (pass 1: go on); 43: wrong answer. judgemessage.txt is appended to. */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_QUESTIONS = 10, MAX_NOTE = 4, MAX_LINE = 64 };

static char feedback[4096];

static FILE *feedback_file(const char *name, const char *mode) {
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", feedback, name);
    return fopen(path, mode);
}

static void verdict(int accepted, const char *format, ...) {
    FILE *f = feedback_file("judgemessage.txt", "a");
    if (f != NULL) {
        va_list args;
        va_start(args, format);
        vfprintf(f, format, args);
        va_end(args);
        fputc('\n', f);
        fclose(f);
    }
    exit(accepted ? 42 : 43);
}

static void send(const char *line) {
    if (printf("%s\n", line) < 0 || fflush(stdout) != 0)
        verdict(0, "the submission stopped reading");
}

/* One line of the submission without its newline; 0 at the end of its output. */
static int read_line(char *line) {
    int length = 0, c;
    while ((c = getchar()) != EOF && c != '\n') {
        if (length == MAX_LINE) verdict(0, "a line longer than %d characters", MAX_LINE);
        line[length++] = (char)c;
    }
    if (length > 0 && line[length - 1] == '\r') length--;
    line[length] = '\0';
    return c != EOF || length > 0;
}

/* "? g" or "! g" with 1 <= g <= n (no leading zeros): g, or 0 if the line is not that. */
static long number_after(const char *line, char marker, long n) {
    if (line[0] != marker || line[1] != ' ' || line[2] < '1' || line[2] > '9') return 0;
    if (strspn(line + 2, "0123456789") != strlen(line + 2) || strlen(line + 2) > 4) return 0;
    long g = strtol(line + 2, NULL, 10);
    return g <= n ? g : 0;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: validator input answer feedback_dir\n");
        return 1;
    }
    snprintf(feedback, sizeof feedback, "%s", argv[3]);
    /* A submission that exits early must not kill the validator (a judge error): writes to a
     * closed pipe fail with EPIPE instead, and send() says so. */
    signal(SIGPIPE, SIG_IGN);
    char line[MAX_LINE + 1], message[MAX_LINE + 16];
    long n, x;

    FILE *state = feedback_file("state.txt", "r");
    if (state != NULL) {
        char note[MAX_NOTE + 1];
        if (fscanf(state, "%ld %4s", &x, note) != 2) {
            fprintf(stderr, "state.txt is damaged\n");
            return 1;
        }
        fclose(state);
        snprintf(message, sizeof message, "recall %s", note);
        send(message);
        if (!read_line(line)) verdict(0, "pass 2: no answer");
        long answer = number_after(line, '!', 1000);
        if (answer == 0) verdict(0, "pass 2: expected `! x`, got `%s`", line);
        if (answer != x) verdict(0, "pass 2: answered %ld, expected %ld", answer, x);
        if (read_line(line)) verdict(0, "pass 2: output after the answer: `%s`", line);
        verdict(1, "pass 2: remembered %ld", x);
    }

    FILE *input = fopen(argv[1], "r");
    if (input == NULL || fscanf(input, "%ld %ld", &n, &x) != 2) {
        fprintf(stderr, "cannot read N and x from %s\n", argv[1]);
        return 1;
    }
    fclose(input);
    snprintf(message, sizeof message, "guess %ld", n);
    send(message);
    for (int questions = 1;; questions++) {
        if (!read_line(line)) verdict(0, "pass 1: no question or note after %d questions", questions - 1);
        long g = number_after(line, '?', n);
        if (g == 0) verdict(0, "pass 1: expected `? g` with 1 <= g <= %ld, got `%s`", n, line);
        if (g == x) break;
        if (questions == MAX_QUESTIONS) verdict(0, "pass 1: %d questions without finding x", MAX_QUESTIONS);
        send(g > x ? "lower" : "higher");
    }
    send("correct");
    if (!read_line(line)) verdict(0, "pass 1: no note");
    const char *note = strncmp(line, "! ", 2) == 0 ? line + 2 : "";
    size_t length = strlen(note);
    if (length < 1 || length > MAX_NOTE ||
        strspn(note, "abcdefghijklmnopqrstuvwxyz0123456789") != length)
        verdict(0, "pass 1: expected `! m` with a note of 1 to %d letters or digits, got `%s`", MAX_NOTE, line);
    char note_copy[MAX_NOTE + 1];
    snprintf(note_copy, sizeof note_copy, "%s", note);
    /* Before nextpass.in exists: creating it and then rejecting would be a judge error. */
    if (read_line(line)) verdict(0, "pass 1: output after the note: `%s`", line);
    state = feedback_file("state.txt", "w");
    FILE *next = feedback_file("nextpass.in", "w");
    if (state == NULL || next == NULL) {
        fprintf(stderr, "cannot write to the feedback folder %s\n", feedback);
        return 1;
    }
    fprintf(state, "%ld %s\n", x, note_copy);
    fprintf(next, "recall %s\n", note_copy);
    fclose(state);
    fclose(next);
    verdict(1, "pass 1: found %ld, note `%s`", x, note_copy);
}
