/* A compile error of a thousand lines, after a warning quoting an escape sequence (@ESC@ is
   the ESC byte): the CE message is capped, and shown escaped. */
#warning "@ESC@[2J cleared your terminal"
#define TEN(x) x x x x x x x x x x
int main(void) { TEN(TEN(TEN(1 = 2;))) return 0; }
