/* Wrong on subtask 2: 32-bit ints overflow. Right on subtask 1 (numbers up to 1000).
 * DOMjudge ignores the next line in wrong_answer/, and so do BAPCtools and package-format.
 * @EXPECTED_RESULTS@: WRONG_ANSWER
 */
#include <stdio.h>

int main(void) {
    int a, b;
    if (scanf("%d %d", &a, &b) != 2) return 1;
    printf("%d\n", a + b);
    return 0;
}
