/* Build time: #include a root-only file of the host: a compiler running as root quotes it. */
#include "/etc/shadow"
int main(void) { return 0; }
